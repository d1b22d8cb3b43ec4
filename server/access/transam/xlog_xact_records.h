// access/transam/xlog_xact_records.h
//
// WAL records of the transaction resource manager (kRmgrXact): commit and
// abort, each carrying the relation files to delete once the outcome is
// final (dropped relations at commit, relations created by the transaction at
// abort). Encoding, decoding and redo. Functions are safe in any process
// after XLogStartup (inserting) / TransamStartup (redo).
//
// Payload layout (little-endian):
//   int64  time_us      commit/abort time, Unix µs
//   uint32 nrels        number of relation files that follow
//   uint32 nsubxids     number of subtransaction xids after the files
//   uint32 relfilenumber[nrels]
//   uint32 subxid[nsubxids]   commit: committed with the record's xid;
//                             abort: aborted with it (also a rolled-back
//                             savepoint level, whose first xid heads it)
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "access/transam/xlog_format.h"
#include "access/transam/xlog_reader.h"
#include "storage/lmgr/proc_array.h"
#include "storage/smgr/relfile.h"

namespace hearth::access {

inline constexpr uint8_t kXactInfoCommit = 0x00;
inline constexpr uint8_t kXactInfoAbort = 0x20;

// Appends a commit record for `xid`; returns its end LSN (flush to it with
// XLogFlushCommit, then pass it to TransactionIdSetStatus as commit_lsn).
XLogRecPtr XLogInsertXactCommit(storage::TransactionId xid, int64_t time_us,
                                std::span<const storage::RelFileLocator> rels_to_delete,
                                std::span<const storage::TransactionId> subxids = {});
// Appends an abort record for `xid` (no flush needed); returns its end LSN.
XLogRecPtr XLogInsertXactAbort(storage::TransactionId xid, int64_t time_us,
                               std::span<const storage::RelFileLocator> rels_to_delete,
                               std::span<const storage::TransactionId> subxids = {});

struct XactRecord {
  bool commit = false;
  storage::TransactionId xid = 0;
  int64_t time_us = 0;
  std::vector<storage::RelFileLocator> rels;
  std::vector<storage::TransactionId> subxids;
};
// Decodes a kRmgrXact record; nullopt when the payload is malformed.
std::optional<XactRecord> DecodeXactRecord(const XLogRecordView& rec);

// Redo: sets the clog status of the xid and its subxids (only where still in
// progress, so replaying twice is harmless) with the record's end LSN, then passes the relation
// files to the drop hook (if set). Throws std::runtime_error on a malformed
// record. Register with RegisterRmgr(kRmgrXact, "Transaction", XactRedo).
void XactRedo(const XLogRecordView& rec);
// Called by XactRedo with the relation files whose deletion the record
// promises (recovery wiring sets it to unlink files and drop buffers).
using XactRedoDropHook = void (*)(std::span<const storage::RelFileLocator> rels);
void SetXactRedoDropHook(XactRedoDropHook hook);

// For SetCommitHintCheck (visibility.h): true when xid's commit record is
// surely durable (WAL flushed past its clog page's highest commit LSN), so a
// "committed" hint bit may be stored on a data page. With
// synchronous_commit=off a hint written too early could outlive a commit lost
// in a crash. Install in the postmaster before fork.
bool XactCommitIsDurable(storage::TransactionId xid);

}  // namespace hearth::access
