// storage/lmgr/backend_progress.h
//
// Command progress of each server process (pg_stat_progress_* views), one
// slot per proc slot in shared memory, as PostgreSQL keeps st_progress_* in
// its backend status array.
//
// Writer: only the slot's own process, with plain atomic stores and a
// change counter (odd while a write is under way) instead of a lock, so a
// command can publish its counters as often as it likes for the price of a
// few stores. Readers (any process) copy a slot and retry when the counter
// was odd or moved meanwhile, so they never see half an update.
//
// A slot counts only while its owner pid equals the proc slot's pid: a
// process that ended without clearing its slot (FATAL exit paths) leaves
// nothing visible, and the next owner starts from a fresh slot.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "storage/ipc/shmem.h"
#include "storage/lmgr/proc_array.h"

namespace hearth::storage {

struct ProgressSlot;  // shared memory, private to backend_progress.cpp

enum class ProgressCommand : uint32_t { kNone = 0, kCopy = 1 };

inline constexpr int kProgressParams = 8;

// ProgressCommand::kCopy parameters (pg_stat_progress_copy's columns).
namespace copy_progress {
inline constexpr int kBytesProcessed = 0;
inline constexpr int kBytesTotal = 1;
inline constexpr int kTuplesProcessed = 2;
inline constexpr int kTuplesExcluded = 3;
inline constexpr int kCommand = 4;  // 1 COPY FROM, 2 COPY TO
inline constexpr int kType = 5;     // 1 FILE, 2 PROGRAM, 3 PIPE, 4 CALLBACK
inline constexpr int64_t kCommandFrom = 1;
inline constexpr int64_t kCommandTo = 2;
inline constexpr int64_t kTypeFile = 1;
inline constexpr int64_t kTypeProgram = 2;
inline constexpr int64_t kTypePipe = 3;
}  // namespace copy_progress
inline constexpr size_t kProgressNameBytes = 64;

size_t BackendProgressShmemSize(const ShmemParams& p);
void BackendProgressShmemInit(ShmemSegment& seg, const ShmemParams& p);

// One slot as a reader copied it.
struct ProgressSnapshot {
  int32_t pid = 0;
  uint32_t database_oid = 0;
  std::string database_name;
  uint32_t relid = 0;
  std::array<int64_t, kProgressParams> params{};
};

// Every process currently running `command`, in proc-slot order. Lock-free.
std::vector<ProgressSnapshot> ReadProgress(ProgressCommand command);

// The calling process's progress report for one command; RAII: the report
// disappears when this object does (command end, error, exit). At most one
// per process at a time. Without shared memory (tools, unit tests) every
// call does nothing.
class ProgressReport {
 public:
  ProgressReport(ProgressCommand command, uint32_t database_oid, const std::string& database_name, uint32_t relid);
  ~ProgressReport();
  ProgressReport(const ProgressReport&) = delete;
  ProgressReport& operator=(const ProgressReport&) = delete;

  // Sets params[index] = value for each pair, published together.
  void Update(std::initializer_list<std::pair<int, int64_t>> values);

 private:
  ProgressSlot* slot_ = nullptr;
};

}  // namespace hearth::storage
