// access/transam/xlog_recovery.cpp
//
// Principal entry point: StartupXLogRecovery.
#include "access/transam/xlog_recovery.h"

#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_set>

#include "access/transam/clog.h"
#include "access/transam/standby_conflicts.h"
#include "access/transam/transam.h"
#include "access/transam/varsup.h"
#include "access/transam/xlog.h"
#include "access/transam/xlog_backup_label.h"
#include "access/transam/xlog_control.h"
#include "access/transam/xlog_fpi.h"
#include "access/transam/xlog_reader.h"
#include "access/transam/xlog_rmgr.h"
#include "access/transam/xlog_storage_records.h"
#include "access/transam/xlog_xact_records.h"
#include "storage/lmgr/proc_array.h"

namespace hearth::access {

namespace {

// Checkpoint and noop records change nothing at redo; page images are
// copied back.
void XLogRmgrRedo(const XLogRecordView& rec) {
  if (rec.header.info == kXLogInfoFpi) XLogFpiRedo(rec);
  if (rec.header.info == kXLogInfoSnapshotConflict) SnapshotConflictRedo(rec);
}

// Releases the startup proc slot if this process claimed it.
struct SlotGuard {
  bool claimed = false;
  ~SlotGuard() {
    if (claimed) storage::ReleaseProcSlot();
  }
};

}  // namespace

void RegisterCoreRmgrs() {
  RegisterRmgr(kRmgrXLog, "XLOG", XLogRmgrRedo);
  RegisterRmgr(kRmgrXact, "Transaction", XactRedo);
  RegisterRmgr(kRmgrStorage, "Storage", SmgrRedo);
  SetXactRedoDropHook(RedoDropRelations);
}

RecoveryResult StartupXLogRecovery() {
  if (!XLogIsStarted()) throw std::logic_error("StartupXLogRecovery before XLogStartup");
  const std::string& datadir = TransamDataDir();
  RecoveryResult res;
  if (auto cf = ReadControlFile(datadir)) {
    res.had_control_file = true;
    res.was_clean_shutdown = cf->state == DbState::kShutdown;
  }
  // A base backup's copy: replay from the backup-start checkpoint.
  const std::optional<BackupLabel> label = ReadBackupLabel(datadir);
  const XLogRecPtr redo = RecoveryStartLsn(datadir);
  if (label) res.was_clean_shutdown = false;
  RegisterCoreRmgrs();

  SlotGuard slot;
  if (storage::MyProc() == nullptr) {
    storage::ClaimProcSlot(0, storage::BackendType::kStartup);
    slot.claimed = true;
  }
  // Pages changed by redo must not be skipped for images by anything else:
  // nothing else runs, and the checkpoint below resets the pointer.
  SetRedoRecPtr(redo);

  std::unordered_set<TransactionId> seen;
  std::unordered_set<TransactionId> ended;
  TransactionId max_xid = kInvalidTransactionId;
  res.replay.start = redo;
  XLogReader reader(XLogWalDir(), XLogSegmentSize());
  reader.Seek(redo);
  while (const XLogRecordView* rec = reader.ReadRecord()) {
    const TransactionId xid = rec->header.xid;
    if (TransactionIdIsNormal(xid)) {
      seen.insert(xid);
      if (xid > max_xid) max_xid = xid;
      if (rec->header.rmgr == kRmgrXact) ended.insert(xid);
    }
    try {
      XLogRedoRecord(*rec);
    } catch (const std::exception& e) {
      throw std::runtime_error("redo failed at WAL position " + std::to_string(rec->start_lsn) + ": " + e.what());
    }
    res.replay.records++;
  }
  res.replay.last_record = reader.LastRecordStart();
  res.replay.end_of_wal = reader.EndOfWal();
  res.replay.end_reason = reader.EndReason();

  if (label) {
    // XLogStartup refused a copy without the WAL through its checkpoint.
    // The copied xid_control may predate xids the WAL after it hands out.
    if (TransactionIdIsValid(max_xid)) AdvanceNextTransactionId(max_xid);
  }
  if (TransactionIdIsValid(max_xid) && max_xid >= ReadNextTransactionId()) {
    throw std::runtime_error("WAL contains transaction " + std::to_string(max_xid) +
                             " at or beyond the next transaction id " + std::to_string(ReadNextTransactionId()));
  }
  // In progress at the crash: they can never commit now.
  for (TransactionId xid : seen) {
    if (ended.count(xid) != 0) continue;
    if (TransactionIdGetStatus(xid) == XidStatus::kInProgress) {
      TransactionIdSetStatus(xid, XidStatus::kAborted);
      res.xids_aborted++;
    }
  }
  CheckpointOptions opts;
  opts.cause = "end-of-recovery immediate wait";
  res.checkpoint = CreateCheckPoint(/*shutdown=*/false, opts);
  // pg_control now names a checkpoint after the backup end: later restarts
  // start there.
  if (label) RetireBackupLabel(datadir);
  res.from_backup = label.has_value();
  return res;
}

}  // namespace hearth::access
