// access/transam/xact_internal.h
//
// INTERNAL to access/transam: what xact.cpp (top-level transactions) and
// subxact.cpp (savepoint levels) ask of each other.
#pragma once

#include <span>
#include <vector>

#include "access/transam/transam.h"
#include "storage/smgr/relfile.h"

namespace hearth::access::xact_internal {

// xact.cpp: the top-level xid, assigned (and locked) at the first call.
TransactionId AssignTopXid();
// xact.cpp: the files the catalog deletes at this end, registered at
// subtransaction level `min_level` or deeper (0 = all). Valid until the
// next call.
std::span<const storage::RelFileLocator> RelsToDelete(bool at_commit, int min_level);
// xact.cpp: the current time for WAL records, Unix µs.
int64_t XactNowUs();

// subxact.cpp: the subxids of the running transaction not rolled back,
// ascending (they commit or abort with the top-level xid).
std::span<const TransactionId> LiveSubxids();
// subxact.cpp: the xid of the innermost open level (kInvalidTransactionId
// when it has none yet); with assign, gives it one first.
TransactionId CurrentSubxid(bool assign);
// subxact.cpp: forgets every level. Call after the top-level xid left the
// proc array (the shared "has subxids" count drops here).
void AtTopLevelEnd() noexcept;

}  // namespace hearth::access::xact_internal
