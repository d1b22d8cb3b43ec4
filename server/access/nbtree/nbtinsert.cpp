// access/nbtree/nbtinsert.cpp
//
// BtInsert: descent, unique check, placement, page splits (split point near
// the middle, or leaving the left page 90% full when appending at the right
// end), downlink insertion into the parent (recursively) and new roots. The
// lock protocol is in README.md: a split keeps both halves exclusively
// locked until the downlink is in the parent, so nobody can split the new
// right page before its parent knows it.
// Principal entry points: BtInsert.
#include <cstring>
#include <stdexcept>

#include "access/nbtree/nbtree_internal.h"
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"

namespace hearth::nbtree {
namespace {

using storage::ForkNumber;
using storage::kInvalidBlockNumber;
using storage::kInvalidOffsetNumber;
using storage::LWLockMode;

constexpr double kLeafFillFactor = 0.90;
constexpr double kInternalFillFactor = 0.70;

// Creates the root leaf of an empty index (under the metapage lock; a
// concurrent creator may have won, then nothing happens).
void CreateRoot(const IndexDesc& index) {
  PinnedBuffer meta = storage::ReadBuffer(index.rel, ForkNumber::kMain, kMetaBlock);
  meta.Lock(LWLockMode::kExclusive);
  BtMeta* m = Meta(meta.page());
  if (m->root != kInvalidBlockNumber) return;
  PinnedBuffer leaf = storage::ExtendRelation(index.rel, ForkNumber::kMain);
  InitBtPage(leaf.page(), 0, kBtLeaf | kBtRoot, kInvalidBlockNumber, kInvalidBlockNumber);
  leaf.MarkDirty();
  m->root = m->fastroot = leaf.block();
  m->level = m->fastlevel = 0;
  meta.MarkDirty();
  PinnedBuffer pages[] = {std::move(meta), std::move(leaf)};
  LogBtPages(pages);
}

// The key part of a page item as stored (internal items lose their child).
std::span<const char> KeyOf(std::span<const char> item, bool leaf) {
  return leaf ? item : item.subspan(4);
}

// Splits the full page `buf` (X-locked) while inserting `item` at `off`.
// Returns the new right page (X-locked) and the separator for the parent.
// `buf` keeps the left half and stays locked. *sib_out receives the old
// right sibling (X-locked, left link changed; invalid when there was none):
// the caller logs all three and unlocks them afterwards.
void Split(const IndexDesc& index, PinnedBuffer& buf, std::span<const char> item, OffsetNumber off,
           PinnedBuffer* right_out, std::string* sep_out, PinnedBuffer* sib_out) {
  Page p = buf.page();
  const BtOpaque o = *Opaque(p);
  const bool leaf = (o.flags & kBtLeaf) != 0;
  const bool rightmost = o.right == kInvalidBlockNumber;
  const OffsetNumber first = FirstDataOffset(p), max = p.MaxOffset();

  std::vector<std::span<const char>> items;
  items.reserve(max + 1u);
  for (OffsetNumber i = first; i <= max; ++i) {
    if (i == off) items.push_back(item);
    std::span<char> it = p.GetItem(i);
    items.emplace_back(it.data(), it.size());
  }
  if (off == max + 1) items.push_back(item);
  const size_t n = items.size();
  const size_t new_pos = off - first;

  std::vector<size_t> pre(n + 1, 0);
  for (size_t i = 0; i < n; ++i) pre[i + 1] = pre[i] + ItemCost(items[i].size());
  const size_t hk_right = rightmost ? 0 : ItemCost(HighKey(p).size());

  // Choose k: the left page keeps items[0, k), the right page items[k, n).
  const bool append = rightmost && new_pos == n - 1;
  const double ff = leaf ? kLeafFillFactor : kInternalFillFactor;
  size_t best = 0, best_score = SIZE_MAX, best_append = 0;
  for (size_t k = 1; k < n; ++k) {
    size_t left = pre[k] + ItemCost(KeyOf(items[k], leaf).size());
    size_t right = pre[n] - pre[k] + hk_right;
    if (left > kPageUsable || right > kPageUsable) continue;
    size_t score = left > right ? left - right : right - left;
    if (score < best_score) {
      best_score = score;
      best = k;
    }
    if (append && left <= static_cast<size_t>(kPageUsable * ff)) best_append = k;
  }
  if (append && best_append != 0) best = best_append;
  if (best == 0) ThrowCorrupt(index, "no valid split point at block " + std::to_string(buf.block()));
  const size_t k = best;

  // Separator: for leaves the shortest prefix of the first right entry that
  // still sorts after the last left entry (suffix truncation); for internal
  // pages the first right key itself, which the right page stores as minus infinity.
  std::string sep;
  if (leaf) {
    std::span<const char> l = items[k - 1], r = items[k];
    size_t d = 0;
    while (d < l.size() && d < r.size() && l[d] == r[d]) ++d;
    if (d >= r.size()) ThrowCorrupt(index, "entries out of order during split");
    sep.assign(r.data(), d + 1);
  } else {
    std::span<const char> key = KeyOf(items[k], false);
    sep.assign(key.data(), key.size());
  }

  PinnedBuffer right = storage::ExtendRelation(index.rel, ForkNumber::kMain);
  const uint16_t flags = static_cast<uint16_t>(o.flags & ~kBtRoot);

  alignas(8) static char lbuf[storage::kBlockSize];
  alignas(8) static char rbuf[storage::kBlockSize];
  Page lp(lbuf), rp(rbuf);
  InitBtPage(lp, o.level, flags, o.left, right.block());
  InitBtPage(rp, o.level, flags, buf.block(), o.right);
  bool ok = lp.AddItem(std::span<const char>(sep)) != kInvalidOffsetNumber;
  for (size_t i = 0; i < k && ok; ++i) ok = lp.AddItem(items[i]) != kInvalidOffsetNumber;
  if (!rightmost && ok) {
    std::span<const char> hk = HighKey(p);
    ok = rp.AddItem(hk) != kInvalidOffsetNumber;
  }
  for (size_t i = k; i < n && ok; ++i) {
    if (!leaf && i == k) {
      BlockNumber child;
      std::memcpy(&child, items[i].data(), 4);
      ok = rp.AddItem(std::span<const char>(reinterpret_cast<const char*>(&child), 4)) != kInvalidOffsetNumber;
    } else {
      ok = rp.AddItem(items[i]) != kInvalidOffsetNumber;
    }
  }
  if (!ok) ThrowCorrupt(index, "split halves do not fit at block " + std::to_string(buf.block()));

  // Left-to-right lock order: the old right sibling after both halves. It
  // is read before anything changes, so an I/O error leaves the pages intact.
  PinnedBuffer sib;
  if (o.right != kInvalidBlockNumber) sib = ReadLocked(index, o.right, LWLockMode::kExclusive);
  // From here to the end nothing can fail (a critical section once WAL exists).
  const uint64_t lsn = p.lsn();
  std::memcpy(p.data(), lbuf, storage::kBlockSize);
  p.set_lsn(lsn);
  std::memcpy(right.data(), rbuf, storage::kBlockSize);
  if (sib.valid()) {
    Opaque(sib.page())->left = right.block();
    sib.MarkDirty();
  }
  buf.MarkDirty();
  right.MarkDirty();
  // WAL: the caller logs left, right and sibling images together with the
  // parent changes this split causes (one record).
  *right_out = std::move(right);
  *sib_out = std::move(sib);
  *sep_out = std::move(sep);
}

// A new root above the split halves `left` and `right` (at `child_level`,
// both X-locked by the caller; `left` was the root). The new root page and
// the metapage are appended to *changed (X-locked).
void NewRoot(const IndexDesc& index, uint16_t child_level, BlockNumber left, BlockNumber right,
             const std::string& sep, std::vector<PinnedBuffer>* changed) {
  PinnedBuffer meta = storage::ReadBuffer(index.rel, ForkNumber::kMain, kMetaBlock);
  meta.Lock(LWLockMode::kExclusive);
  PinnedBuffer root = storage::ExtendRelation(index.rel, ForkNumber::kMain);
  const uint16_t level = static_cast<uint16_t>(child_level + 1);
  InitBtPage(root.page(), level, kBtRoot, kInvalidBlockNumber, kInvalidBlockNumber);
  std::string item;
  MakeInternalItem(left, {}, &item);
  bool ok = root.page().AddItem(std::span<const char>(item)) != kInvalidOffsetNumber;
  MakeInternalItem(right, sep, &item);
  ok = ok && root.page().AddItem(std::span<const char>(item)) != kInvalidOffsetNumber;
  if (!ok) ThrowCorrupt(index, "new root does not fit");
  root.MarkDirty();
  BtMeta* m = Meta(meta.page());
  m->root = m->fastroot = root.block();
  m->level = m->fastlevel = level;
  meta.MarkDirty();
  changed->push_back(std::move(root));
  changed->push_back(std::move(meta));
}

// Finds and X-locks the parent page holding the downlink to `child` (a page
// at `child_level`), starting from the remembered stack position and moving
// right past splits. With no stack entry (the tree grew since our descent)
// it starts at the leftmost page of the parent level.
PinnedBuffer FindParent(const IndexDesc& index, const std::vector<StackEntry>& stack, uint16_t child_level,
                        BlockNumber child, OffsetNumber* off_out) {
  PinnedBuffer buf;
  OffsetNumber start = 1;
  long idx = static_cast<long>(stack.size()) - 1 - child_level;
  if (idx >= 0) {
    buf = ReadLocked(index, stack[static_cast<size_t>(idx)].block, LWLockMode::kExclusive);
    start = stack[static_cast<size_t>(idx)].off;
  } else {
    buf = LeftmostAtLevel(index, child_level + 1u, LWLockMode::kExclusive);
    if (!buf.valid()) ThrowCorrupt(index, "no parent level above level " + std::to_string(child_level));
  }
  for (;;) {
    Page p = buf.page();
    OffsetNumber first = FirstDataOffset(p), max = p.MaxOffset();
    if (start < first) start = first;
    for (OffsetNumber o = start; o <= max; ++o)
      if (ItemChild(p, o) == child) {
        *off_out = o;
        return buf;
      }
    for (OffsetNumber o = first; o < start && o <= max; ++o)
      if (ItemChild(p, o) == child) {
        *off_out = o;
        return buf;
      }
    if (IsRightmost(p)) ThrowCorrupt(index, "downlink to block " + std::to_string(child) + " not found");
    buf = ReadLocked(index, Opaque(p)->right, LWLockMode::kExclusive);  // locks right before releasing left
    start = 1;
  }
}

// Inserts `item` at `off` on the X-locked page `buf`; splits and recurses
// into the parent when it does not fit. `changed` holds the pages the lower
// levels of this insert already changed (split halves, old right sibling),
// still X-locked: nobody sees a half-done split, and when the insert
// completes, all changed pages are logged as images in ONE WAL record (so
// recovery replays a multi-level split atomically) before any is unlocked.
void InsertOnPage(const IndexDesc& index, const std::vector<StackEntry>& stack, PinnedBuffer buf,
                  std::span<const char> item, OffsetNumber off, std::vector<PinnedBuffer>& changed) {
  Page p = buf.page();
  if (p.InsertItemAt(item, off) != kInvalidOffsetNumber) {
    buf.MarkDirty();
    changed.push_back(std::move(buf));
    LogBtPages(changed);
    changed.clear();  // unlocks, lowest level first
    return;
  }
  const bool was_root = (Opaque(p)->flags & kBtRoot) != 0;
  const uint16_t level = Opaque(p)->level;
  PinnedBuffer right, sib;
  std::string sep;
  Split(index, buf, item, off, &right, &sep, &sib);
  const BlockNumber left_block = buf.block(), right_block = right.block();
  changed.push_back(std::move(buf));
  changed.push_back(std::move(right));
  if (sib.valid()) changed.push_back(std::move(sib));
  if (was_root) {
    NewRoot(index, level, left_block, right_block, sep, &changed);
    LogBtPages(changed);
    changed.clear();
    return;
  }
  OffsetNumber poff = 0;
  PinnedBuffer parent = FindParent(index, stack, level, left_block, &poff);
  std::string down;
  MakeInternalItem(right_block, sep, &down);
  InsertOnPage(index, stack, std::move(parent), down, static_cast<OffsetNumber>(poff + 1), changed);
}

// Probes every entry whose key equals the new one (they start on the locked
// leaf and may continue on right siblings, read under shared locks while
// the leaf stays locked). Throws on a live duplicate; returns the xid to wait
// for, or 0.
uint32_t CheckUnique(const IndexDesc& index, PinnedBuffer& leaf, std::string_view key_bytes,
                     std::span<const types::Value> key, const UniqueCheckFn& check) {
  const Bound lo{key_bytes, false}, hi{key_bytes, true};
  Page cur = leaf.page();
  OffsetNumber off = LeafLowerBound(cur, lo);
  PinnedBuffer other;
  for (;;) {
    OffsetNumber max = cur.MaxOffset();
    for (; off <= max; ++off) {
      std::span<const char> e = ItemKey(cur, off);
      if (CompareToBound(e, hi) >= 0) return 0;
      UniqueProbe probe = check(DecodeTid(e));
      if (probe.state == HeapTupleState::kLive)
        throw DbError(sqlstate::kUniqueViolation,
                      "duplicate key value violates unique constraint \"" + index.name + "\"")
            .WithDetail(FormatKeyDetail(index, key));
      if (probe.state == HeapTupleState::kInProgress) return probe.xid;
    }
    if (IsRightmost(cur) || CompareToBound(HighKey(cur), hi) >= 0) return 0;
    other = ReadLocked(index, Opaque(cur)->right, LWLockMode::kShared);
    cur = other.page();
    off = FirstDataOffset(cur);
  }
}

}  // namespace

InsertResult BtInsert(const IndexDesc& index, std::span<const types::Value> key, ItemPointer tid,
                      const UniqueCheckFn* unique) {
  if (key.size() != index.cols.size()) throw std::invalid_argument("BtInsert: key has the wrong number of columns");
  static std::string entry;  // per process, reused: no allocation per insert
  static std::vector<StackEntry> stack;
  entry.clear();
  EncodeKey(index, key, &entry);
  const size_t key_len = entry.size();
  AppendTid(tid, &entry);
  if (entry.size() > kMaxEntrySize)
    throw DbError(sqlstate::kProgramLimitExceeded, "index row size " + std::to_string(entry.size()) +
                                                       " exceeds btree maximum, " + std::to_string(kMaxEntrySize) +
                                                       " for index \"" + index.name + "\"");
  bool check = unique != nullptr;
  for (const types::Value& v : key)
    if (v.is_null) check = false;  // NULLs never conflict
  const Bound full{entry, false};
  const Bound search = check ? Bound{std::string_view(entry).substr(0, key_len), false} : full;
  for (;;) {
    PinnedBuffer leaf = Descend(index, search, LWLockMode::kExclusive, &stack);
    if (!leaf.valid()) {
      CreateRoot(index);
      continue;
    }
    if (check) {
      uint32_t xid = CheckUnique(index, leaf, search.key, key, *unique);
      if (xid != 0) return InsertResult{false, xid};
      // Equal keys may span pages: step right to the page for our TID,
      // locking each page before releasing the previous (so a concurrent
      // inserter of the same key cannot slip past us).
      for (;;) {
        Page p = leaf.page();
        if (IsRightmost(p) || CompareToBound(HighKey(p), full) > 0) break;
        PinnedBuffer next = ReadLocked(index, Opaque(p)->right, LWLockMode::kExclusive);
        leaf = std::move(next);
      }
    }
    Page p = leaf.page();
    OffsetNumber off = LeafLowerBound(p, full);
    if (off <= p.MaxOffset() && CompareBytes(ItemKey(p, off), entry) == 0)
      throw DbError(sqlstate::kInternalError, "index \"" + index.name + "\" already has an entry for this heap TID");
    static std::vector<PinnedBuffer> changed;  // reused: no allocation per insert
    // On an error after a split changed pages (e.g. the parent cannot be
    // read), the pages already changed are logged anyway, so what reaches the
    // disk after a crash matches what other backends see now (a split whose
    // downlink is missing, which readers tolerate by moving right), and they
    // are not left pinned and locked.
    struct Unpin {
      ~Unpin() {
        if (!changed.empty()) {
          try {
            LogBtPages(changed);
          } catch (...) {
          }
        }
        changed.clear();
      }
    } unpin;
    changed.clear();
    InsertOnPage(index, stack, std::move(leaf), entry, off, changed);
    return InsertResult{true, 0};
  }
}

}  // namespace hearth::nbtree
