// access/transam/xlog_xact_records.cpp
//
// Principal entry points: XLogInsertXactCommit, XLogInsertXactAbort,
// DecodeXactRecord, XactRedo.
#include "access/transam/xlog_xact_records.h"
#include "access/transam/xlog_standby.h"

#include <cstring>
#include <stdexcept>
#include <string>

#include "access/transam/clog.h"
#include "access/transam/xlog.h"

namespace hearth::access {

namespace {

struct XactRecordHead {
  int64_t time_us;
  uint32_t nrels;
  uint32_t nsubxids;
};
static_assert(sizeof(XactRecordHead) == 16);
static_assert(sizeof(storage::RelFileLocator) == 2 * sizeof(uint32_t));

XactRedoDropHook g_drop_hook = nullptr;

XLogRecPtr InsertXact(uint8_t info, storage::TransactionId xid, int64_t time_us,
                      std::span<const storage::RelFileLocator> rels, std::span<const storage::TransactionId> subxids) {
  XactRecordHead head{time_us, static_cast<uint32_t>(rels.size()), static_cast<uint32_t>(subxids.size())};
  XLogPart parts[3] = {{&head, sizeof(head)}};
  size_t n = 1;
  if (!rels.empty()) parts[n++] = {rels.data(), rels.size() * sizeof(storage::RelFileLocator)};
  if (!subxids.empty()) parts[n++] = {subxids.data(), subxids.size() * sizeof(storage::TransactionId)};
  return XLogInsert(kRmgrXact, info, xid, std::span<const XLogPart>(parts, n));
}

}  // namespace

XLogRecPtr XLogInsertXactCommit(storage::TransactionId xid, int64_t time_us,
                                std::span<const storage::RelFileLocator> rels_to_delete,
                                std::span<const storage::TransactionId> subxids) {
  return InsertXact(kXactInfoCommit, xid, time_us, rels_to_delete, subxids);
}

XLogRecPtr XLogInsertXactAbort(storage::TransactionId xid, int64_t time_us,
                               std::span<const storage::RelFileLocator> rels_to_delete,
                               std::span<const storage::TransactionId> subxids) {
  return InsertXact(kXactInfoAbort, xid, time_us, rels_to_delete, subxids);
}

std::optional<XactRecord> DecodeXactRecord(const XLogRecordView& rec) {
  if (rec.header.rmgr != kRmgrXact) return std::nullopt;
  if (rec.header.info != kXactInfoCommit && rec.header.info != kXactInfoAbort) return std::nullopt;
  XactRecordHead head;
  if (rec.payload.size() < sizeof(head)) return std::nullopt;
  std::memcpy(&head, rec.payload.data(), sizeof(head));
  if (rec.payload.size() != sizeof(head) + static_cast<size_t>(head.nrels) * sizeof(storage::RelFileLocator) +
                                static_cast<size_t>(head.nsubxids) * sizeof(uint32_t)) {
    return std::nullopt;
  }
  XactRecord out;
  out.commit = rec.header.info == kXactInfoCommit;
  out.xid = rec.header.xid;
  out.time_us = head.time_us;
  out.rels.resize(head.nrels);
  for (uint32_t i = 0; i < head.nrels; i++) {
    std::memcpy(&out.rels[i], rec.payload.data() + sizeof(head) + i * sizeof(storage::RelFileLocator),
                sizeof(storage::RelFileLocator));
  }
  const size_t subxids_at = sizeof(head) + static_cast<size_t>(head.nrels) * sizeof(storage::RelFileLocator);
  out.subxids.resize(head.nsubxids);
  if (head.nsubxids != 0) {
    std::memcpy(out.subxids.data(), rec.payload.data() + subxids_at, head.nsubxids * sizeof(uint32_t));
  }
  return out;
}

void XactRedo(const XLogRecordView& rec) {
  auto x = DecodeXactRecord(rec);
  if (!x || !storage::TransactionIdIsNormal(x->xid)) {
    throw std::runtime_error("malformed transaction WAL record at " + std::to_string(rec.start_lsn));
  }
  const XidStatus status = x->commit ? XidStatus::kCommitted : XidStatus::kAborted;
  for (storage::TransactionId sub : x->subxids) {
    if (storage::TransactionIdIsNormal(sub) && TransactionIdGetStatus(sub) == XidStatus::kInProgress) {
      TransactionIdSetStatus(sub, status, rec.end_lsn);
    }
  }
  if (TransactionIdGetStatus(x->xid) == XidStatus::kInProgress) TransactionIdSetStatus(x->xid, status, rec.end_lsn);
  if (g_drop_hook != nullptr && !x->rels.empty()) g_drop_hook(x->rels);
}

void SetXactRedoDropHook(XactRedoDropHook hook) { g_drop_hook = hook; }

bool XactCommitIsDurable(storage::TransactionId xid) {
  if (!XLogIsStarted() || RecoveryInProgress()) return true;  // replayed commits are durable
  const uint64_t bound = TransactionIdGetCommitLsnBound(xid);
  return bound == 0 || bound <= XLogFlushedUpTo();
}

}  // namespace hearth::access
