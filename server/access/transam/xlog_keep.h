// access/transam/xlog_keep.h
//
// WAL retention: what stops the checkpointer's RemoveOldSegments from
// recycling segments someone still needs. Three holders:
//   - physical replication slots (PostgreSQL's CREATE_REPLICATION_SLOT ...
//     PHYSICAL): a restart LSN per slot, advanced by the walsender streaming
//     from it; temporary slots die with their session;
//   - running base backups (WalHold): from the backup-start redo point
//     until the backup has sent its WAL;
//   - wal_keep_size: that many MiB before the insert position.
// Slots live in the wal area of shared memory (at most max_replication_slots,
// capped at 64). Non-temporary slots are also files pg_replslot/<name>
// ("hearth-slot 1 <restart LSN>"), written durably at creation and at every
// checkpoint, removed at drop, and loaded at startup; a crash can only make a
// slot restart earlier than it had advanced to, never lose WAL it needs.
//
// Process safety: any process after XLogStartup. Slot changes are serialised
// by one LWLock (a leaf); restart LSNs are atomics RemoveOldSegments reads
// without it (a slot made concurrently reserves a position at or after the
// redo point of any checkpoint already running, so nothing it needs goes).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "access/transam/xlog_format.h"

namespace hearth::access {

// Oldest LSN any slot or backup still needs (0: none), and the wal_keep_size
// floor: RemoveOldSegments keeps every segment at or after the smaller.
XLogRecPtr WalRetentionLimit();
// wal_keep_size in bytes (the checkpointer sets it from its settings).
void SetWalKeepBytes(uint64_t bytes);

// Holds WAL from `lsn` on while alive (a base backup, a walsender still to send it). Throws DbError
// 53400 when kMaxBackupHolds backups already run.
class WalHold {
 public:
  explicit WalHold(XLogRecPtr lsn);
  ~WalHold();
  WalHold(const WalHold&) = delete;
  WalHold& operator=(const WalHold&) = delete;
  void Move(XLogRecPtr lsn);  // to a later start point

 private:
  int index_;
};

struct ReplicationSlotInfo {
  std::string name;
  bool temporary = false;
  int32_t active_pid = 0;
  XLogRecPtr restart_lsn = 0;
};

// Creates a physical slot. `reserve_lsn` 0: reserves nothing until streaming
// starts. Errors are PostgreSQL's: 55000 (max_replication_slots = 0), 42602
// / 42622 (bad name), 42710 (exists), 53400 (all slots in use).
void CreateReplicationSlot(const std::string& name, bool temporary, XLogRecPtr reserve_lsn, int32_t owner_pid);
// Drops a slot; 42704 when it does not exist, 55006 when another process
// streams from it.
void DropReplicationSlot(const std::string& name, int32_t my_pid);
std::optional<ReplicationSlotInfo> ReadReplicationSlot(const std::string& name);
std::vector<ReplicationSlotInfo> ListReplicationSlots();
// Marks the slot active for `pid` (55006 if another has it, 42704 if none)
// and lowers its restart LSN to `start` when it had none or a later one.
void AcquireReplicationSlot(const std::string& name, int32_t pid, XLogRecPtr start);
void ReleaseReplicationSlot(const std::string& name, int32_t pid);
// The client confirmed everything below `lsn` as flushed: WAL before it may go.
void AdvanceReplicationSlot(const std::string& name, XLogRecPtr lsn);
// Session end: drops the temporary slots `pid` made and releases the ones it
// had active.
void CleanupReplicationSlots(int32_t pid);

// Postmaster, after XLogStartup and TransamStartup: the slots saved in
// <datadir>/pg_replslot. Throws std::runtime_error for a damaged file or more
// slots than max_replication_slots (the server must not start and forget
// WAL a client relies on).
void LoadReplicationSlots();
// CreateCheckPoint, before removing segments: saves every non-temporary
// slot's restart LSN. Throws std::runtime_error on I/O errors.
void CheckPointReplicationSlots();

}  // namespace hearth::access
