// access/transam/snapshot.h
//
// MVCC snapshots built from the proc array, PostgreSQL style, and the other
// proc-array questions transactions ask: is an xid running, what is the
// oldest xmin any snapshot may still use (vacuum's horizon), and ending a
// transaction's presence in the array.
//
// A Snapshot is a private, per-backend value (not shared). The functions take
// ProcArrayShared::lock: shared to read, exclusive to end a transaction with
// an xid. Invariant (see README.md): a transaction's commit status is in the
// clog before its xid leaves the proc array.
#pragma once

#include <vector>

#include "access/transam/transam.h"

namespace hearth::access {

struct Snapshot {
  // Every xid < xmin had ended when the snapshot was taken.
  TransactionId xmin = kInvalidTransactionId;
  // Every xid >= xmax had not yet ended (counts as running).
  TransactionId xmax = kInvalidTransactionId;
  // Xids in [xmin, xmax) running when the snapshot was taken, sorted
  // ascending; the taking backend's own xid is not included.
  std::vector<TransactionId> xip;
  // Changes by the own transaction with command id >= curcid are invisible.
  CommandId curcid = kFirstCommandId;
  // Some running transaction had subxids when the snapshot was taken: an xid
  // not in xip may be a subxid of one that is (subtrans.h).
  bool subxids_possible = false;

  bool valid() const { return xmax != kInvalidTransactionId; }
  // True when `xid` counts as still running for this snapshot (its effects
  // are invisible whatever the clog says now). O(log n).
  bool XidInProgress(TransactionId xid) const {
    if (xid < xmin) return false;
    if (xid >= xmax) return true;
    return InXip(xid) || (subxids_possible && TopInXip(xid));
  }

 private:
  bool InXip(TransactionId xid) const;
  bool TopInXip(TransactionId subxid) const;
};

// Fills `out` (reusing its capacity) with a new snapshot and advertises its
// xmin in this process's proc slot (when it has one), which tells vacuum not
// to remove what the snapshot may still see. With replace_xmin the slot's
// xmin is overwritten: the caller must no longer use older snapshots (Read
// Committed drops the previous statement's snapshot); without it the slot's
// xmin is only set when it had none. curcid is left for the caller to set.
void GetSnapshotData(Snapshot* out, bool replace_xmin = true);

// The oldest xid that any running transaction or live snapshot may consider
// running: tuples deleted by committed xids below it are dead to everyone.
TransactionId GetOldestXmin();

// True when `xid` is some process's current transaction (including this
// one) or a subxid of one that has not been rolled back.
bool TransactionIdIsInProgress(TransactionId xid);

// Ends this process's presence in the proc array: clears its xid (under the
// lock held exclusive, advancing latest_completed_xid to `latest_xid`, the
// highest of the xid and its subxids; 0 = the xid) and its xmin.
// REQUIRES: for a valid xid, its clog status (and its subxids') was already set.
void ProcArrayEndTransaction(TransactionId xid, TransactionId latest_xid = kInvalidTransactionId);

}  // namespace hearth::access
