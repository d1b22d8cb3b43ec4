// access/nbtree/nbtree.h
//
// The B-tree index access method (Lehman–Yao B+tree in shared buffers): the
// public API used by CREATE INDEX, index maintenance on INSERT/UPDATE/COPY,
// index scans, VACUUM and the verifier. Layout, invariants and the lock
// protocol are in README.md next to this file.
//
// Process safety: every function may run in any number of forked backends at
// once on the same index (pages are only touched under buffer content locks;
// readers never wait behind a split, they move right). A BtScan object and a
// BtBuilder belong to one process. BtBuild requires exclusive use of the index
// (nobody else sees it yet); BtVerify expects no concurrent writers.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "access/heap/htup.h"
#include "storage/buffer/bufmgr.h"
#include "storage/smgr/relfile.h"
#include "utils/adt/value.h"

namespace hearth::nbtree {

using access::ItemPointer;
using storage::BlockNumber;
using storage::RelFileLocator;

// One key column. Supported types: bool, int2/int4/int8, oid, date,
// timestamp[tz], float4/float8, numeric, text/varchar/name/bpchar (byte-wise
// "C" order; bpchar ignores trailing spaces), uuid, bytea, and arrays of
// those (btarraycmp order). Default like PostgreSQL: ASC
// NULLS LAST, DESC NULLS FIRST.
struct KeyColumn {
  types::Oid type = types::kInt4Oid;
  bool descending = false;
  bool nulls_first = false;
  std::string name;  // column name, for error details only

  static KeyColumn Asc(types::Oid t, std::string n = "", bool nulls_first = false) {
    return {t, false, nulls_first, std::move(n)};
  }
  static KeyColumn Desc(types::Oid t, std::string n = "", bool nulls_first = true) {
    return {t, true, nulls_first, std::move(n)};
  }
};

inline constexpr int kMaxKeyColumns = 32;

// An index: its storage plus the key description (the catalog supplies both).
struct IndexDesc {
  RelFileLocator rel;
  std::string name;  // for error messages
  std::vector<KeyColumn> cols;
};

// ---- Creation and bulk build ----------------------------------------------------------

// Collects (key, heap TID) pairs and builds the tree bottom-up: sorts them in
// memory (skipped when the caller promises sorted input), fills leaf pages to
// 90% and upper pages to 70%, links siblings, writes the metapage last.
// REQUIRES: the index's main fork exists and is empty; nobody else uses it.
class BtBuilder {
 public:
  // `index` must outlive the builder.
  explicit BtBuilder(const IndexDesc& index);
  // Copies the key (values.size() == index.cols.size()). Throws DbError 54000
  // when the encoded entry is too large for a B-tree page.
  void Add(std::span<const types::Value> key, ItemPointer tid);
  // Writes the index. input_sorted: entries were added in index order
  // (including the TID tie-break), so no sort is needed. Returns the entry count.
  size_t Finish(bool input_sorted = false);

 private:
  const IndexDesc& index_;
  std::vector<char> arena_;                         // encoded entries, back to back
  std::vector<std::pair<uint32_t, uint32_t>> items_;  // (offset, length) into arena_
  size_t max_len_ = 0;
};

// One-call build: pulls (key, tid) pairs from `next` until it returns false,
// then BtBuilder::Finish(input_sorted). Returns the entry count. Same
// REQUIRES and errors as BtBuilder.
size_t BtBuild(const IndexDesc& index,
               const std::function<bool(std::vector<types::Value>* key, ItemPointer* tid)>& next,
               bool input_sorted = false);

// Writes the metapage of an empty index. REQUIRES: empty main fork.
void BtCreateEmpty(const IndexDesc& index);

// ---- Insertion --------------------------------------------------------------------------

// What the unique check learns about an existing entry's heap tuple.
enum class HeapTupleState : uint8_t { kDead, kLive, kInProgress };
struct UniqueProbe {
  HeapTupleState state = HeapTupleState::kDead;
  uint32_t xid = 0;  // for kInProgress: the transaction to wait for
  // kDead and no snapshot can ever see the tuple again (its slot was
  // pruned, its inserter aborted, or its deleter committed before every
  // running transaction began): the unique check removes the entry.
  bool dead_to_all = false;
};
// Called for every existing entry with a key equal to the new one, while the
// leaf page is exclusively locked: it must only look (heap visibility), never
// wait for a lock or a transaction.
using UniqueCheckFn = std::function<UniqueProbe(ItemPointer)>;

struct InsertResult {
  bool inserted = false;  // false only when the unique check must wait
  uint32_t wait_xid = 0;  // when !inserted: wait for it (XactLockTableWait), then call BtInsert again
};

// Inserts (key, tid). unique != nullptr makes this a unique index insert:
// when no key column is NULL, every existing entry with an equal key is probed:
// kLive → throws DbError 23505 `duplicate key value violates unique
// constraint "<name>"` with detail `Key (a, b)=(1, x) already exists.`;
// kInProgress → nothing is inserted and {false, xid} is returned (the caller
// waits for xid and retries the whole call); kDead entries are ignored.
// Throws DbError 54000 when the entry is too large.
// REQUIRES: the index exists (BtBuilder::Finish or BtCreateEmpty ran).
InsertResult BtInsert(const IndexDesc& index, std::span<const types::Value> key, ItemPointer tid,
                      const UniqueCheckFn* unique = nullptr);

// ---- Scans ---------------------------------------------------------------------------------

enum class ScanOp : uint8_t { kEq, kLt, kLe, kGt, kGe };
enum class ScanDirection : uint8_t { kForward, kBackward };

// A condition "(key columns 0..k-1) op (values)" on a key prefix, compared
// in index order (so for a DESC column kLt means "comes before in the index").
// A NULL value matches NULL entries (use only with kEq: IS NULL).
// Values must have the column's type family (integers are accepted for
// float and numeric columns).
struct ScanKey {
  ScanOp op = ScanOp::kEq;
  std::vector<types::Value> values;
};

// Iterates heap TIDs in index order (or reverse) between a lower and an upper
// bound. Between Next() calls it holds only a pin on the current leaf (the
// matching entries of that page are copied under a short shared lock), so it
// never blocks writers, and every entry that existed when the scan started
// and still exists is returned exactly once, whatever splits happen meanwhile.
class BtScan {
 public:
  // `index` must outlive the scan. conds: ANDed; kEq sets both bounds, kGt/kGe the lower, kLt/kLe the upper
  // (a later condition replaces an earlier one for the same side).
  BtScan(const IndexDesc& index, std::span<const ScanKey> conds, ScanDirection dir = ScanDirection::kForward);
  ~BtScan();
  BtScan(const BtScan&) = delete;
  BtScan& operator=(const BtScan&) = delete;

  // Next TID, false at the end.
  bool Next(ItemPointer* tid);
  // Restarts with new conditions (an IN list is one rescan per element).
  void Rescan(std::span<const ScanKey> conds);
  // Drops the pin early (the destructor does it too).
  void End();
  // The heap tuples of the TID Next() returned last (its whole HOT chain)
  // are dead to every snapshot: its leaf entry is marked LP_DEAD (a hint,
  // no WAL) when the scan leaves the page, so later scans skip it without
  // visiting the heap and an insert removes it before splitting the leaf.
  void KillCurrent();

 private:
  struct Impl;
  Impl* impl_;
};

// ---- VACUUM ------------------------------------------------------------------------------

struct BulkDeleteStats {
  uint64_t removed = 0;     // entries deleted
  uint64_t remaining = 0;   // entries left
  uint64_t leaf_pages = 0;  // leaves visited
};
// Removes every leaf entry whose heap TID `is_dead` says is dead. Visits the
// leaves left to right under a cleanup lock each (waits for scans that hold
// a pin there, so a TID a scan has returned is not recycled under it). Pages
// are not deleted.
BulkDeleteStats BtBulkDelete(const IndexDesc& index, const std::function<bool(ItemPointer)>& is_dead);

// ---- Verification ----------------------------------------------------------------------------

// Checks the structural invariants (README.md) and returns the first violated
// one as text, or "" when the index is sound. REQUIRES: no concurrent writers.
std::string BtVerify(const IndexDesc& index);

// Number of levels (1 = the root is a leaf; 0 = empty index), from the metapage.
int BtHeight(const IndexDesc& index);

// Registers the B-tree WAL redo (rmgr kRmgrBtree) in this process, before
// recovery runs (postmaster, redo tests).
void RegisterBtreeRmgr();

}  // namespace hearth::nbtree
