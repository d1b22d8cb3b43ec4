// access/transam/subtrans.h
//
// Subtransaction xids in shared memory: which top-level transaction each
// subxid belongs to (PostgreSQL's pg_subtrans, kept in memory only: it is
// never needed after a restart, when every xid of the old life has ended),
// and how many running top-level transactions have subxids at all.
//
// Subxids are not published in the proc array. Other backends learn that a
// subxid is running by mapping it to its top-level xid (`SubtransGetTopmost`)
// and asking about that one. They only need to when a top-level transaction
// with subxids may have been running (`SubtransAnyRunning`, read when a
// snapshot is taken): without savepoints nothing here is touched.
//
// The map is a fixed table of atomic (subxid, top) words, direct-mapped by
// xid with a short linear probe; lookups take no lock. An entry may be
// overwritten once its subxid is below GetOldestXmin(): by then its top
// transaction has ended and no snapshot can still count it as running (any
// snapshot counting the top running has xmin <= top < subxid).
//
// Process safety: any process after TransamStartup.
#pragma once

#include <cstdint>

#include "access/transam/transam.h"

namespace hearth::access {

// Records that `subxid` belongs to top-level transaction `top`. Call right
// after assigning the subxid, before it is stamped anywhere. Throws DbError
// 53200 when the table has no free entry near `subxid` (too many
// subtransaction xids of transactions still running or still visible as
// running to some snapshot).
void SubtransSetTopmost(TransactionId subxid, TransactionId top);

// The top-level xid `xid` belongs to, or kInvalidTransactionId when it is
// not a recorded subxid (a top-level xid, or a subxid whose entry was
// reclaimed because everything about it is final).
TransactionId SubtransGetTopmost(TransactionId xid);

// Counting running top-level transactions that have subxids: Started when
// the first subxid is assigned (before it), Ended after the top-level xid
// left the proc array.
void SubtransTopStarted();
void SubtransTopEnded();
bool SubtransAnyRunning();

}  // namespace hearth::access
