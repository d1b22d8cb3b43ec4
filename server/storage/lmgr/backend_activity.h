// storage/lmgr/backend_activity.h
//
// What each server process is doing, for pg_stat_activity as other
// sessions see it (PostgreSQL's backend status array): the text of the
// statement it runs or last ran (first kActivityQueryBytes - 1 bytes, as
// track_activity_query_size), when it started, and what it waits for.
// One slot per proc slot in shared memory.
//
// Writer: only the slot's own process. The query text is written between
// two bumps of a change counter (odd while a write is under way) and
// readers retry when it moved, so they never see half a text; the wait
// event is a single atomic store, cheap enough for every lock wait.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "storage/ipc/shmem.h"
#include "storage/lmgr/proc_array.h"

namespace hearth::storage {

inline constexpr size_t kActivityQueryBytes = 1024;

// pg_stat_activity's (wait_event_type, wait_event) pairs Hearth reports.
enum class WaitEvent : uint8_t {
  kNone = 0,
  kLockRelation,       // Lock / relation
  kLockTransactionId,  // Lock / transactionid (a row lock held by another transaction)
  kLockTuple,          // Lock / tuple
  kLockObject,         // Lock / object
  kPgSleep,            // Timeout / PgSleep
  kSyncRep,            // IPC / SyncRep (a commit waiting for synchronous standbys)
};
const char* WaitEventTypeName(WaitEvent e);  // nullptr for kNone
const char* WaitEventName(WaitEvent e);      // nullptr for kNone

size_t BackendActivityShmemSize(const ShmemParams& p);
void BackendActivityShmemInit(ShmemSegment& seg, const ShmemParams& p);

// Owner side (no-ops without shared memory). ReportQuery at the start of
// each statement: `start_us` is query_start (µs since 2000-01-01 UTC).
void ReportQuery(std::string_view query, int64_t start_us);
void ReportWaitEvent(WaitEvent e);

// Sets the calling process's wait event for its lifetime.
class WaitEventScope {
 public:
  explicit WaitEventScope(WaitEvent e) { ReportWaitEvent(e); }
  ~WaitEventScope() { ReportWaitEvent(WaitEvent::kNone); }
  WaitEventScope(const WaitEventScope&) = delete;
  WaitEventScope& operator=(const WaitEventScope&) = delete;
};

struct ActivitySnapshot {
  std::string query;
  int64_t query_start_us = 0;  // 0: no statement yet
  WaitEvent wait = WaitEvent::kNone;
};

// Proc slot `slot`'s activity while process `pid` owns it; nullopt when the
// slot reports nothing for that pid. Lock-free.
std::optional<ActivitySnapshot> ReadActivity(int slot, int32_t pid);

}  // namespace hearth::storage
