// access/heap/heapam.h
//
// Heap access method: insert, multi-insert (COPY), delete, update, row lock,
// fetch by TID and "latest version" lookup on a relation identified by its
// RelFileLocator. MVCC fields are stamped from the caller's transaction
// (xid, command id) and checked with access/transam/visibility.h.
//
// Every page change follows the recipe: pin + exclusive content lock →
// change → MarkDirty → (WAL record + page LSN: one `// WAL:` place per kind
// of change) → unlock/unpin. Updaters/deleters that meet a row being changed
// by a running transaction wait on its xid lock (XactLockTableWait) with no
// buffer lock held (the pin is kept) and re-check.
//
// Process safety: any number of processes at once. Per-process state: the
// target-page cache (hio.h) and tuple-forming scratch buffers. Throws
// DbError for storage errors, 54000 for oversized rows; lock waits may throw
// 40P01/55P03/57014 (see storage/lmgr/lock.h).
#pragma once

#include <span>
#include <vector>

#include "access/heap/heap_tuple.h"
#include "access/heap/hio.h"
#include "access/transam/snapshot.h"
#include "access/transam/transam.h"
#include "access/transam/visibility.h"

namespace hearth::heap {

struct ToastOptions;  // heap_toast.h

using access::CommandId;
using access::Snapshot;
using access::TmResult;
using access::TransactionId;

// A TID packed into 64 bits (block << 16 | offset), e.g. for an executor's
// opaque row id, and back.
inline uint64_t ItemPointerToU64(ItemPointer t) { return (static_cast<uint64_t>(t.block) << 16) | t.offset; }
inline ItemPointer ItemPointerFromU64(uint64_t v) {
  return ItemPointer{static_cast<uint32_t>(v >> 16), static_cast<uint16_t>(v & 0xFFFF)};
}

struct HeapInsertOptions {
  int fillfactor = 100;              // 10..100: leave this much of each page for later updates
  BulkInsertState* bulk = nullptr;   // COPY/bulk loads: BULKWRITE ring and a kept target pin
  // HeapUpdate: false when no unique-index column changes, so the update
  // takes FOR NO KEY UPDATE strength and does not wait for FOR KEY SHARE
  // holders (heap_lock.h); true (the safe default) = FOR UPDATE strength.
  bool key_update = true;
  // COPY FREEZE (HeapMultiInsertFormed only): versions are written with
  // xmin marked frozen, visible to every snapshot without a clog lookup.
  // REQUIRES: the transaction created or truncated the relation's file, so
  // no other transaction can see it before commit and an abort drops it.
  bool frozen = false;
  // TOAST (heap_toast.h): wide rows are compressed / moved out of line into
  // the relation's toast relation; UPDATE keeps unchanged out-of-line
  // values and drops the replaced ones. Null: rows must fit as they are
  // (the catalogs).
  const ToastOptions* toast = nullptr;
};

// What a failed delete/update/lock met (PostgreSQL's TM_FailureData).
struct TmFailureData {
  ItemPointer ctid;  // kUpdated: the newer version; otherwise the tuple itself
  TransactionId xmax = access::kInvalidTransactionId;  // who changed it
  CommandId cmax = access::kInvalidCommandId;          // kSelfUpdated only
};

// Inserts one row as a new version (xmin = xid, cmin = cid) and returns its
// TID. REQUIRES: xid valid (the caller's assigned xid); row fits desc.
ItemPointer HeapInsert(RelFileLocator rel, const TupleDesc& desc, const Row& row, TransactionId xid, CommandId cid,
                       const HeapInsertOptions& opts = {});

// Inserts many rows, filling one page at a time under one lock (one WAL
// record per page). Appends the TIDs to *tids (when non-null) in row order.
void HeapMultiInsert(RelFileLocator rel, const TupleDesc& desc, std::span<const Row> rows, TransactionId xid,
                     CommandId cid, const HeapInsertOptions& opts, std::vector<ItemPointer>* tids);

// HeapMultiInsert of tuples the caller formed (HeapFormTuple) and keeps
// 8-aligned: the MVCC header of each is stamped in place. Returns how many
// were written (from the front): all, unless `hold_partial_tail`, when the
// tuples that would only partly fill their page are left for the caller's
// next call (with a bulk state, which keeps that page), so a load writes
// one WAL record per page it fills.
size_t HeapMultiInsertFormed(RelFileLocator rel, std::span<const std::span<char>> tuples, TransactionId xid,
                             CommandId cid, const HeapInsertOptions& opts, std::vector<ItemPointer>* tids,
                             bool hold_partial_tail = false);

// Deletes the version at `tid` (sets xmax). Results:
//   kOk            deleted.
//   kSelfUpdated   already changed by this transaction's command >= cid (fd.cmax set).
//   kUpdated       a committed transaction replaced it: fd.ctid = newer version (Read
//                  Committed follows it with HeapGetLatestVersion; Repeatable Read → 40001).
//   kDeleted       a committed transaction deleted it.
//   kBeingModified only when !wait: fd.xmax is the running transaction.
//   kInvisible     not a version the caller may touch (no such item, or inserted
//                  by a later command / uncommitted foreign transaction).
// With wait, a running xmax is waited for (XactLockTableWait) and the check
// repeated. crosscheck (optional): a snapshot the version must also be
// visible to, else kUpdated (PostgreSQL's crosscheck snapshot).
// toast_desc (tables with TOAST): the relation's descriptor; the
// out-of-line values of the deleted version are deleted with it.
TmResult HeapDelete(RelFileLocator rel, ItemPointer tid, TransactionId xid, CommandId cid,
                    const Snapshot* crosscheck, bool wait, TmFailureData* fd, const TupleDesc* toast_desc = nullptr);

// INSERT ... ON CONFLICT: takes back the version `tid` this transaction
// (xid) has just inserted because its key turned out to conflict
// (PostgreSQL's super-deletion): xmin is marked invalid, so the version is
// dead to every snapshot at once and unique checks of other inserters
// ignore it (they stop waiting for it when they next look). WAL-logged.
// REQUIRES: the version was inserted by xid and nothing else touched it.
void HeapSuperDelete(RelFileLocator rel, ItemPointer tid, TransactionId xid);

// Whether the version at `tid` is visible to `snap` or was inserted by the
// caller's transaction my_xid (Repeatable Read's ON CONFLICT check).
// False also when there is no such tuple.
bool HeapVersionVisibleOrMine(RelFileLocator rel, ItemPointer tid, const Snapshot& snap, TransactionId my_xid);

// HOT updates: the columns some index covers. An update that leaves them
// all unchanged and puts the new version on the old page makes it a
// heap-only tuple (htup.h): the caller adds no index entries (was_hot).
struct HotUpdate {
  std::span<const int> indexed_attrs;  // 0-based; empty: the table has no index
  bool was_hot = false;                // out
};

// Replaces the version at `otid` by `newrow`: the new version gets xmin =
// xid, cmin = cid; the old one xmax = xid and t_ctid → the new TID. The new
// version goes on the same page when it fits (after pruning a full page),
// else to another page (both pages locked in block order). With `hot`,
// HOT when possible (see HotUpdate). Results as HeapDelete; on kOk
// *new_tid is set.
TmResult HeapUpdate(RelFileLocator rel, ItemPointer otid, const TupleDesc& desc, const Row& newrow, TransactionId xid,
                    CommandId cid, const Snapshot* crosscheck, bool wait, TmFailureData* fd, ItemPointer* new_tid,
                    const HeapInsertOptions& opts = {}, HotUpdate* hot = nullptr);

// FOR UPDATE strength row lock (heap_lock.h HeapLockRow has every mode and
// wait policy): results as HeapDelete (kOk also when already locked by xid).
TmResult HeapLockTuple(RelFileLocator rel, ItemPointer tid, TransactionId xid, CommandId cid, bool wait,
                       TmFailureData* fd);

// Reads the version of the row at `tid` that is visible to `snap` (for the
// transaction my_xid, invalid when read-only) into *out, following the HOT
// chain from `tid` (a redirect or a HOT-updated version) on its page; the
// version's own TID goes to *found (when non-null). False when no version
// is visible or there is no such tuple (block beyond the end, unused slot).
bool HeapFetch(RelFileLocator rel, const TupleDesc& desc, ItemPointer tid, const Snapshot& snap,
               TransactionId my_xid, Row* out, ItemPointer* found = nullptr);

// Follows the update chain from `tid` (t_ctid links, each newer version's
// xmin matching the older one's xmax) and returns the newest version visible
// to `snap` in *latest (and its row in *out when non-null). False when no
// version of the chain from `tid` on is visible (e.g. the row was deleted).
// Read Committed re-check: after kUpdated, take GetLatestSnapshot() and
// call this with fd.ctid.
bool HeapGetLatestVersion(RelFileLocator rel, const TupleDesc& desc, ItemPointer tid, const Snapshot& snap,
                          TransactionId my_xid, ItemPointer* latest, Row* out);

}  // namespace hearth::heap
