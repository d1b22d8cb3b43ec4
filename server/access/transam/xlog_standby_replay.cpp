// access/transam/xlog_standby_replay.cpp
//
// Principal entry point: StandbyReplayMain.
#include "access/transam/xlog_standby_replay.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <unordered_set>

#include <spdlog/spdlog.h>

#include "access/transam/clog.h"
#include "access/transam/transam.h"
#include "access/transam/varsup.h"
#include "access/transam/xlog.h"
#include "access/transam/xlog_backup_label.h"
#include "access/transam/xlog_checkpoint.h"
#include "access/transam/xlog_reader.h"
#include "access/transam/xlog_segment.h"
#include "access/transam/xlog_rmgr.h"
#include "access/transam/xlog_standby.h"
#include "access/transam/xlog_xact_records.h"
#include "access/transam/xlog_timeline.h"

namespace hearth::access {

namespace {

// How long the loop sleeps when no new WAL arrived before it looks at its
// stop and promotion questions again.
constexpr int kIdleWaitMs = 100;
// System catalogs (and their indexes) keep files numbered below this
// (catalog_defs.h kFirstNormalObjectId).
constexpr uint32_t kFirstUserRelfile = 16384;

class StandbyReplayer {
 public:
  StandbyReplayer(XLogRecPtr consistent_at, const StandbyReplayHooks& hooks)
      : consistent_at_(consistent_at), hooks_(hooks), reader_(XLogWalDir(), XLogSegmentSize()) {}

  StandbyReplayEnd Run();

 private:
  // Replays records up to the received position; false when none was there.
  bool ReplayAvailable();
  void Replay(const XLogRecordView& rec);
  void AfterXactRecord(const XLogRecordView& rec);
  void AfterCheckpointRecord(const XLogRecordView& rec);
  void NoteCatalogChange(const XLogRecordView& rec);
  void MaybeConsistent();
  void Promote();

  const XLogRecPtr consistent_at_;
  const StandbyReplayHooks& hooks_;
  XLogReader reader_;
  XLogRecPtr next_ = 0;         // start of the next record to replay
  XLogRecPtr last_start_ = 0;   // start of the last record replayed (its prev link)
  XLogRecPtr replayed_end_ = 0;
  bool consistent_ = false;
  int64_t records_ = 0;
  uint32_t oid_limit_ = 0;  // highest OID limit the primary logged
  // Xids whose records changed catalog files: their commit invalidates.
  std::unordered_set<TransactionId> catalog_xids_;
};

StandbyReplayEnd StandbyReplayer::Run() {
  next_ = RecoveryStartLsn(TransamDataDir());
  replayed_end_ = next_;
  reader_.Seek(next_);
  spdlog::info("entering standby mode; redo starts at {:X}/{:X}", next_ >> 32, next_ & 0xFFFFFFFF);
  for (;;) {
    if (hooks_.should_stop()) return StandbyReplayEnd::kShutdown;
    const bool progressed = ReplayAvailable();
    MaybeConsistent();
    if (hooks_.should_stop()) return StandbyReplayEnd::kShutdown;
    if (hooks_.promote_requested()) {
      hooks_.wait_receiver_stopped();
      while (ReplayAvailable()) {
      }
      Promote();
      return StandbyReplayEnd::kPromoted;
    }
    if (!progressed) WaitForWalBeyond(replayed_end_, kIdleWaitMs);
  }
}

bool StandbyReplayer::ReplayAvailable() {
  bool any = false;
  for (int batch = 0; batch < 1000; batch++) {
    const XLogRecPtr received = StandbyReceivedUpTo();
    const XLogRecordView* rec = reader_.ReadRecord();
    if (rec == nullptr || rec->end_lsn > received) {
      // Not (wholly) durable yet: read it again once more WAL arrived.
      reader_.Seek(next_, last_start_);
      return any;
    }
    Replay(*rec);
    any = true;
  }
  return any;
}

void StandbyReplayer::Replay(const XLogRecordView& rec) {
  const TransactionId xid = rec.header.xid;
  // Known before its first change is visible: a snapshot taken meanwhile
  // counts it running.
  if (TransactionIdIsNormal(xid)) KnownAssignedXidsAdd(xid);
  NoteCatalogChange(rec);
  try {
    XLogRedoRecord(rec);
  } catch (const std::exception& e) {
    throw std::runtime_error("redo failed at WAL position " + std::to_string(rec.start_lsn) + ": " + e.what());
  }
  if (rec.header.rmgr == kRmgrXact) AfterXactRecord(rec);
  if (rec.header.rmgr == kRmgrXLog && rec.header.info == kXLogInfoCheckpoint) AfterCheckpointRecord(rec);
  if (rec.header.rmgr == kRmgrXLog && rec.header.info == kXLogInfoNextOid && rec.payload.size() >= 4) {
    uint32_t limit = 0;
    std::memcpy(&limit, rec.payload.data(), sizeof(limit));
    oid_limit_ = std::max(oid_limit_, limit);
  }
  last_start_ = rec.start_lsn;
  next_ = reader_.NextRecordStart();
  replayed_end_ = rec.end_lsn;
  records_++;
  SetStandbyReplayedUpTo(rec.end_lsn);
}

void StandbyReplayer::NoteCatalogChange(const XLogRecordView& rec) {
  const TransactionId xid = rec.header.xid;
  if (!TransactionIdIsNormal(xid)) return;
  bool catalog = rec.header.rmgr == kRmgrStorage;
  if ((rec.header.rmgr == kRmgrHeap || rec.header.rmgr == kRmgrBtree) && rec.payload.size() >= 4) {
    uint32_t rel = 0;  // the first block's file (xlog_blocks.h BlockHead starts with it)
    std::memcpy(&rel, rec.payload.data(), sizeof(rel));
    catalog = rel < kFirstUserRelfile;
  }
  if (catalog) catalog_xids_.insert(xid);
}

void StandbyReplayer::AfterXactRecord(const XLogRecordView& rec) {
  const std::optional<XactRecord> x = DecodeXactRecord(rec);
  if (!x) return;
  // The clog already has the outcome (XactRedo): now it may stop counting
  // as running (commit order: clog before the running set).
  KnownAssignedXidsRemove(x->xid, x->subxids.data(), x->subxids.size());
  SetStandbyLastXactReplayTimeUs(x->time_us);
  bool catalog = catalog_xids_.erase(x->xid) != 0;
  for (TransactionId s : x->subxids) catalog = (catalog_xids_.erase(s) != 0) || catalog;
  if (catalog && x->commit && hooks_.catalog_changed) hooks_.catalog_changed();
}

void StandbyReplayer::AfterCheckpointRecord(const XLogRecordView& rec) {
  if (rec.payload.size() < sizeof(CheckpointRecord)) return;
  CheckpointRecord ck;
  std::memcpy(&ck, rec.payload.data(), sizeof(ck));
  KnownAssignedXidsStart(ck.oldest_running_xid, ck.next_xid);
  if (ck.oldest_running_xid != 0) KnownAssignedXidsPruneBelow(ck.oldest_running_xid);
  for (auto it = catalog_xids_.begin(); it != catalog_xids_.end();) {
    it = ck.oldest_running_xid != 0 && *it < ck.oldest_running_xid ? catalog_xids_.erase(it) : std::next(it);
  }
  SetRestartPointCandidate(RestartPointCandidate{rec.start_lsn, ck.redo_lsn, ck.next_xid});
}

void StandbyReplayer::MaybeConsistent() {
  // Byte positions: an end at a page boundary equals the next page's first record start.
  if (consistent_ || RecPtrToBytePos(replayed_end_) < RecPtrToBytePos(consistent_at_) || !KnownAssignedXidsStarted()) {
    return;
  }
  consistent_ = true;
  SetStandbyConsistent();
  spdlog::info("consistent recovery state reached at {:X}/{:X}; database system is ready to accept read-only "
               "connections",
               replayed_end_ >> 32, replayed_end_ & 0xFFFFFFFF);
}

void StandbyReplayer::Promote() {
  spdlog::info("received promote request; redo done at {:X}/{:X} ({} records replayed)", last_start_ >> 32,
               last_start_ & 0xFFFFFFFF, records_);
  // A new timeline from the end of the replayed WAL: its history file and
  // its copy of the switch segment exist before anything is written on it.
  const uint32_t tli = XLogStartNewTimeline(next_);
  spdlog::info("selected new timeline ID: {}", tli);
  // Nothing inserts while in recovery, so the insert position may move.
  XLogResetInsertPosition(next_, last_start_);
  // From here on every page's first change carries a full image.
  SetRedoRecPtr(next_);
  const TransactionId max_xid = KnownAssignedXidsMax();
  const int64_t aborted = KnownAssignedXidsAbortAll();
  if (TransactionIdIsNormal(max_xid)) AdvanceNextTransactionId(max_xid);
  if (oid_limit_ != 0 && hooks_.advance_oid_counter) hooks_.advance_oid_counter(oid_limit_);
  if (hooks_.leaving_standby_mode) hooks_.leaving_standby_mode();
  LeaveRecovery();
  XLogPreallocateSegments();
  CheckpointOptions opts;
  opts.cause = "end-of-recovery immediate wait";
  CreateCheckPoint(/*shutdown=*/false, opts);
  if (ReadBackupLabel(TransamDataDir())) RetireBackupLabel(TransamDataDir());
  spdlog::info("archive recovery complete; {} transactions of the old primary aborted; database system is ready "
               "to accept connections",
               aborted);
}

}  // namespace

StandbyReplayEnd StandbyReplayMain(XLogRecPtr consistent_at, const StandbyReplayHooks& hooks) {
  StandbyReplayer replayer(consistent_at, hooks);
  return replayer.Run();
}

}  // namespace hearth::access
