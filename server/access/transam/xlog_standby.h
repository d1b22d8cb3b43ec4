// access/transam/xlog_standby.h
//
// Standby mode's shared state: whether the server is in recovery (a data
// directory with standby.signal replays WAL streamed from a primary), how far
// WAL was received and replayed, and the primary's transactions that the
// replayed WAL shows running ("known-assigned xids"), from which read-only
// queries on the standby build their snapshots (hot standby).
//
// Writers: the startup process (replay: known-assigned xids, replay
// position, restartpoint candidates) and the walreceiver (receive position);
// the postmaster sets the initial values before any fork. Readers: any
// process. The recovery flag lives in the WAL's shared area (XLogStartup
// clears it), the rest in transam's (TransamStartup zeroes it).
//
// Snapshots on a standby (GetStandbySnapshot): xmax = one past the highest
// xid replayed WAL showed; xip = the known-assigned xids, i.e. every xid below
// xmax that has neither a commit nor an abort record yet. An xid first seen
// in WAL adds every xid between the previous highest and it (they were handed
// out on the primary and may still write), so "below xmax and not in xip"
// always means "ended": the clog then says how. Xids that ended without a
// record (a crash of the primary, a transaction that never wrote) are pruned
// by checkpoint records, which carry the primary's oldest running xid.
#pragma once

#include <cstdint>

#include "access/transam/snapshot.h"
#include "access/transam/xlog_format.h"

namespace hearth::access {

// Room for the primary's in-progress xids (top-level and subxids) as replay
// sees them. Overflow makes replay fail (the startup process exits and the
// server restarts recovery); 65536 is far beyond max_connections backends
// with their savepoints between two checkpoints.
inline constexpr uint32_t kMaxKnownAssignedXids = 65536;

// True while the server replays WAL as a standby (before promotion). One
// atomic load; false without WAL (before XLogStartup).
bool RecoveryInProgress();
// True once replay reached a consistent state (hot standby may serve reads).
bool StandbyConsistent();

// Postmaster, before fork, on a fresh segment: enters standby mode.
// `received_upto` = end of the valid WAL already in pg_wal (replay may read up
// to there; the walreceiver streams from its page start).
void EnterStandbyMode(XLogRecPtr received_upto);
// The startup process at promotion, after the last record was replayed:
// leaves recovery (writes are accepted from now on).
void LeaveRecovery();
void SetStandbyConsistent();

// Positions (0: none yet).
XLogRecPtr StandbyReceivedUpTo();              // WAL durable in pg_wal (walreceiver's flush)
void SetStandbyReceivedUpTo(XLogRecPtr lsn);   // walreceiver; wakes the startup process
XLogRecPtr StandbyReplayedUpTo();              // end of the last record replayed
void SetStandbyReplayedUpTo(XLogRecPtr end);   // startup process; wakes promotion waiters
int64_t StandbyLastXactReplayTimeUs();         // commit/abort time of the last one replayed (Unix µs)
void SetStandbyLastXactReplayTimeUs(int64_t us);
// Startup process: waits up to `timeout_ms` for the receive position to move
// past `lsn`; returns the receive position.
XLogRecPtr WaitForWalBeyond(XLogRecPtr lsn, int timeout_ms);

// The last checkpoint record replayed: a restartpoint may make recovery start
// at its redo point once every page replayed so far is on disk.
struct RestartPointCandidate {
  XLogRecPtr checkpoint_lsn = 0;
  XLogRecPtr redo_lsn = 0;
  uint32_t next_xid = 0;
};
void SetRestartPointCandidate(const RestartPointCandidate& c);
RestartPointCandidate GetRestartPointCandidate();

// The walreceiver says whether it is connected and may write WAL; promotion
// waits until it is not.
void SetWalReceiverStreaming(bool streaming);
bool WalReceiverStreaming();
int32_t WalReceiverPid();  // 0 unless streaming

// Promotion requests (pg_promote(), promote.signal): the startup process polls.
void RequestPromotion();
bool PromotionRequested();

// ---- known-assigned xids (startup process writes, snapshots read) ----
// `xid` appears in a replayed record: it (and every xid since the highest
// seen) counts as running. Throws std::runtime_error on overflow.
void KnownAssignedXidsAdd(TransactionId xid);
// A commit or abort record of `xid` with `subxids` was replayed (clog set):
// they no longer count as running.
void KnownAssignedXidsRemove(TransactionId xid, const TransactionId* subxids, size_t nsubxids);
// The first checkpoint record replayed: every xid in [oldest_running,
// next_xid) still in progress in the clog counts as running.
void KnownAssignedXidsStart(TransactionId oldest_running, TransactionId next_xid);
bool KnownAssignedXidsStarted();
// A checkpoint record says every xid below `oldest_running` has ended.
void KnownAssignedXidsPruneBelow(TransactionId oldest_running);
// The highest xid replayed WAL showed (0: none): promotion advances the
// xid counter past it.
TransactionId KnownAssignedXidsMax();
// Promotion: every xid still counted running ended with the primary's
// stream: marks it aborted in the clog (as crash recovery does) and forgets
// them all. Returns how many.
int64_t KnownAssignedXidsAbortAll();

// A standby snapshot (see above).
void GetStandbySnapshot(Snapshot* out);
// TransactionIdIsInProgress on a standby: `xid` is known-assigned, or beyond
// every xid replayed WAL showed.
bool KnownAssignedXidIsRunning(TransactionId xid);
// GetOldestXmin's start on a standby: the lowest known-assigned xid, else
// one past the highest seen.
TransactionId StandbyOldestRunningXid();

// ---- the primary's side of the known-assigned xids (snapshot.cpp, varsup.cpp) ----
// An xid such that every xid below it has ended (committed, aborted or
// never to write again): the lowest running top-level xid, else the next
// xid. Checkpoint records carry it (CheckpointRecord::oldest_running_xid).
TransactionId GetOldestRunningXid();
// The next xid, read under the generation lock: every xid below it is
// already published in its proc slot.
TransactionId NextXidPublished();

// The catalog's persisted OID limit moved (kRmgrXLog record, payload: u32
// limit; no redo): a standby promoted later hands out OIDs above it.
inline constexpr uint8_t kXLogInfoNextOid = 0x40;

// Promotion of a standby (xlog_insert.cpp; the startup process, while
// nothing inserts): makes `end_of_wal`, the end of the replayed WAL whose
// last record starts at `last_record`, the insert, written and flushed
// position, as XLogStartup does for the end it finds.
void XLogResetInsertPosition(XLogRecPtr end_of_wal, XLogRecPtr last_record);

}  // namespace hearth::access
