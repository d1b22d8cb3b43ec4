// access/transam/clog.h
//
// The commit log: 2 bits of status per xid (XidStatus), 32768 xids per 8 KiB
// page, pages cached in a small shared-memory LRU (kClogBuffers pages) and
// backed by <datadir>/pg_xact/NNNN files of 32 pages each (NNNN = segment
// number in hex). A page never written reads as all kInProgress.
//
// Process safety: any process after TransamStartup. Reads and status updates
// run concurrently under one shared LWLock (bits change with atomic byte
// operations); loading, evicting and writing pages take it exclusive.
//
// WAL hook: before any clog page is written, the hook set by
// SetClogWalFlushHook is called with the highest LSN passed to
// TransactionIdSetStatus for that page, so WAL-before-data holds for clog.
#pragma once

#include <cstdint>

#include "access/transam/transam.h"

namespace hearth::access {

// Records `status` for `xid`. `commit_lsn` is the end of the commit/abort WAL
// record (0 without WAL). REQUIRES: xid is normal; status changes only from
// kInProgress. Throws DbError 58030 on I/O errors loading/evicting pages.
void TransactionIdSetStatus(TransactionId xid, XidStatus status, uint64_t commit_lsn = 0);

// The recorded status. Bootstrap and frozen xids read as committed, the
// invalid xid as aborted. Throws DbError 58030 on I/O errors.
XidStatus TransactionIdGetStatus(TransactionId xid);

inline bool TransactionIdDidCommit(TransactionId xid) { return TransactionIdGetStatus(xid) == XidStatus::kCommitted; }
inline bool TransactionIdDidAbort(TransactionId xid) { return TransactionIdGetStatus(xid) == XidStatus::kAborted; }

// An upper bound of the commit/abort record LSN of `xid`: the highest LSN
// recorded for its clog page since the page was loaded (0 when none, i.e.
// the outcome was already durable when the page was read). Asynchronous
// commit's hint-bit check compares it with the flushed WAL position.
uint64_t TransactionIdGetCommitLsnBound(TransactionId xid);

// Writes and fsyncs every dirty clog page (checkpoint, shutdown).
void ClogFlush();

// Makes sure the clog file is long enough to hold page `pageno` (zeros
// when new), so writing that page later (at eviction, perhaps inside a
// commit, or at a checkpoint) never needs new space. Throws ERROR 53100 when
// the disk is full. Called (under the xid generation lock) when xids start
// to come from a page.
void ClogReserveSpaceFor(int64_t pageno);

// Called with a page's highest commit LSN before that page is written; must
// return only once WAL is durable up to it. nullptr (default) = no WAL yet.
void SetClogWalFlushHook(void (*hook)(uint64_t lsn));

}  // namespace hearth::access
