// access/nbtree/nbtinsert.cpp
//
// BtInsert: descent, unique check, placement, page splits (split point near
// the middle, or leaving the left page 90% full when appending at the right
// end), downlink insertion into the parent (recursively) and new roots. The
// lock protocol is in README.md: a split keeps both halves exclusively
// locked until the downlink is in the parent, so nobody can split the new
// right page before its parent knows it.
// Principal entry points: BtInsert.
#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "access/nbtree/nbtree_internal.h"
#include "access/transam/xlog_blocks.h"
#include "storage/smgr/smgr.h"
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

}  // namespace

void CollectSplitItems(Page p, std::span<const char> item, OffsetNumber off,
                       std::vector<std::span<const char>>* items) {
  const OffsetNumber first = FirstDataOffset(p), max = p.MaxOffset();
  items->clear();
  items->reserve(max + 1u);
  for (OffsetNumber i = first; i <= max; ++i) {
    if (i == off) items->push_back(item);
    std::span<char> it = p.GetItem(i);
    items->emplace_back(it.data(), it.size());
  }
  if (off == max + 1) items->push_back(item);
}

bool BuildSplitHalves(Page p, std::span<const std::span<const char>> items, size_t k, std::string_view sep,
                      BlockNumber left_block, BlockNumber right_block, Page lp, Page rp) {
  const BtOpaque o = *Opaque(p);
  const bool leaf = (o.flags & kBtLeaf) != 0;
  const uint16_t flags = static_cast<uint16_t>(o.flags & ~kBtRoot);
  InitBtPage(lp, o.level, flags, o.left, right_block);
  InitBtPage(rp, o.level, flags, left_block, o.right);
  bool ok = lp.AddItem(std::span<const char>(sep.data(), sep.size())) != kInvalidOffsetNumber;
  for (size_t i = 0; i < k && ok; ++i) ok = lp.AddItem(items[i]) != kInvalidOffsetNumber;
  if (o.right != kInvalidBlockNumber && ok) ok = rp.AddItem(HighKey(p)) != kInvalidOffsetNumber;
  for (size_t i = k; i < items.size() && ok; ++i) {
    // The first item of an internal right half keeps only its child (minus infinity).
    std::span<const char> it = !leaf && i == k ? items[i].first(4) : items[i];
    ok = rp.AddItem(it) != kInvalidOffsetNumber;
  }
  return ok;
}

namespace {

// The split position for `items` on page `p`: the left page keeps
// items[0, k), the right page items[k, n). Near the middle, or leaving the
// left page 90% full when appending at the right end. 0 when none fits.
size_t ChooseSplit(Page p, std::span<const std::span<const char>> items, size_t new_pos) {
  const BtOpaque o = *Opaque(p);
  const bool leaf = (o.flags & kBtLeaf) != 0;
  const bool rightmost = o.right == kInvalidBlockNumber;
  const size_t n = items.size();
  static std::vector<size_t> pre;
  pre.assign(n + 1, 0);
  for (size_t i = 0; i < n; ++i) pre[i + 1] = pre[i] + ItemCost(items[i].size());
  const size_t hk_right = rightmost ? 0 : ItemCost(HighKey(p).size());
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
  return append && best_append != 0 ? best_append : best;
}

// Splits the full page `buf` (X-locked) while inserting `item` at `off`.
// Appends to `changed` (with their WAL blocks in ScratchBlockRecord): the
// left half (`buf`, kept in place), the new right page and the old right
// sibling whose left link changed (when there is one), all X-locked; the
// caller logs them with the parent changes and unlocks them afterwards.
// Returns the separator for the parent.
std::string Split(const IndexDesc& index, PinnedBuffer buf, std::span<const char> item, OffsetNumber off,
                  std::vector<PinnedBuffer>& changed) {
  Page p = buf.page();
  const bool leaf = IsLeaf(p);
  static std::vector<std::span<const char>> items;
  CollectSplitItems(p, item, off, &items);
  const size_t k = ChooseSplit(p, items, off - FirstDataOffset(p));
  if (k == 0) ThrowCorrupt(index, "no valid split point at block " + std::to_string(buf.block()));

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
  alignas(8) static char lbuf[storage::kBlockSize];
  alignas(8) static char rbuf[storage::kBlockSize];
  if (!BuildSplitHalves(p, items, k, sep, buf.block(), right.block(), Page(lbuf), Page(rbuf)))
    ThrowCorrupt(index, "split halves do not fit at block " + std::to_string(buf.block()));

  // Left-to-right lock order: the old right sibling after both halves. It
  // is read before anything changes, so an I/O error leaves the pages intact.
  const BlockNumber old_right = Opaque(p)->right;
  PinnedBuffer sib;
  if (old_right != kInvalidBlockNumber) sib = ReadLocked(index, old_right, LWLockMode::kExclusive);
  // WAL: the left half as "rebuild from the old page" (logged before the
  // page changes: the operation reads nothing from it at Insert time).
  access::BlockRecord& rec = access::ScratchBlockRecord();
  const uint32_t right_block = right.block();
  const uint16_t k16 = static_cast<uint16_t>(k), sep_len = static_cast<uint16_t>(sep.size());
  char head[8];
  std::memcpy(head, &right_block, 4);
  std::memcpy(head + 4, &k16, 2);
  std::memcpy(head + 6, &sep_len, 2);
  std::string tail = sep;
  tail.append(item.data(), item.size());
  rec.AddBlock();
  rec.AddOp(kBtOpSplitLeft, off, std::string_view(head, sizeof head), tail);
  rec.AddBlock(/*force_image=*/true);  // the new right page
  // From here to the end nothing can fail (a critical section once WAL exists).
  const uint64_t lsn = p.lsn();
  std::memcpy(p.data(), lbuf, storage::kBlockSize);
  p.set_lsn(lsn);
  std::memcpy(right.data(), rbuf, storage::kBlockSize);
  buf.MarkDirty();
  right.MarkDirty();
  changed.push_back(std::move(buf));
  changed.push_back(std::move(right));
  if (sib.valid()) {
    Opaque(sib.page())->left = right_block;
    sib.MarkDirty();
    rec.AddBlock();
    rec.AddOp(kBtOpSetLeft, 0, std::string_view(reinterpret_cast<const char*>(&right_block), 4));
    changed.push_back(std::move(sib));
  }
  return sep;
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
  access::ScratchBlockRecord().AddBlock(/*force_image=*/true);
  changed->push_back(std::move(root));
  access::ScratchBlockRecord().AddBlock(/*force_image=*/true);
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
// still X-locked, each with its block in ScratchBlockRecord: nobody sees a
// half-done split, and when the insert completes all changed pages are
// logged in ONE WAL record (so recovery replays a multi-level split
// atomically) before any is unlocked.
void InsertOnPage(const IndexDesc& index, const std::vector<StackEntry>& stack, PinnedBuffer buf,
                  std::span<const char> item, OffsetNumber off, std::vector<PinnedBuffer>& changed) {
  Page p = buf.page();
  if (p.InsertItemAt(item, off) != kInvalidOffsetNumber) {
    buf.MarkDirty();
    access::BlockRecord& rec = access::ScratchBlockRecord();
    rec.AddBlock();
    rec.AddOp(kBtOpInsert, off, std::string_view(item.data(), item.size()));
    changed.push_back(std::move(buf));
    LogBtRecord(changed.size() == 1 ? kBtInfoInsert : kBtInfoSplit, changed);
    changed.clear();  // unlocks, lowest level first
    return;
  }
  const bool was_root = (Opaque(p)->flags & kBtRoot) != 0;
  const uint16_t level = Opaque(p)->level;
  const size_t left_at = changed.size();
  std::string sep = Split(index, std::move(buf), item, off, changed);
  const BlockNumber left_block = changed[left_at].block(), right_block = changed[left_at + 1].block();
  if (was_root) {
    NewRoot(index, level, left_block, right_block, sep, &changed);
    LogBtRecord(kBtInfoNewRoot, changed);
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
// Entries of tuples nobody can see any more (UniqueProbe::dead_to_all) found
// on the X-locked leaf are removed before returning, so a key updated over
// and over does not make every later check probe all its dead versions.
uint32_t CheckUnique(const IndexDesc& index, PinnedBuffer& leaf, std::string_view key_bytes,
                     std::span<const types::Value> key, const UniqueCheckFn& check) {
  const Bound lo{key_bytes, false}, hi{key_bytes, true};
  static std::vector<OffsetNumber> dead;  // on the leaf, ascending
  dead.clear();
  uint32_t wait_xid = 0;
  Page cur = leaf.page();
  OffsetNumber off = LeafLowerBound(cur, lo);
  PinnedBuffer other;
  for (bool done = false; !done;) {
    OffsetNumber max = cur.MaxOffset();
    for (; off <= max && !done; ++off) {
      std::span<const char> e = ItemKey(cur, off);
      if (CompareToBound(e, hi) >= 0) {
        done = true;
        break;
      }
      if (ItemIsDead(cur, off)) {  // a scan found it dead to everyone: no heap visit
        if (!other.valid()) dead.push_back(off);
        continue;
      }
      UniqueProbe probe = check(DecodeTid(e));
      if (probe.state == HeapTupleState::kLive)
        throw DbError(sqlstate::kUniqueViolation,
                      "duplicate key value violates unique constraint \"" + index.name + "\"")
            .WithDetail(FormatKeyDetail(index, key));
      if (probe.state == HeapTupleState::kInProgress) {
        wait_xid = probe.xid;
        done = true;
      } else if (probe.dead_to_all && !other.valid()) {
        dead.push_back(off);
      }
    }
    if (done || IsRightmost(cur) || CompareToBound(HighKey(cur), hi) >= 0) break;
    other = ReadLocked(index, Opaque(cur)->right, LWLockMode::kShared);
    cur = other.page();
    off = FirstDataOffset(cur);
  }
  other = PinnedBuffer();  // unlock the sibling before changing the leaf
  std::reverse(dead.begin(), dead.end());
  // WAL: the removed offsets, highest first, under the leaf's exclusive lock.
  DeleteLeafEntries(leaf, dead, kBtInfoDeleteDead);
  return wait_xid;
}

// Before a split: when `entry` does not fit on the X-locked leaf, removes
// the entries scans marked LP_DEAD (one "delete dead" record), which may
// make room. Returns whether it removed any. Safe without a cleanup lock
// for the same reason as the unique check's removals: scans keep copies of
// the TIDs they read, and the heap slots stay until VACUUM.
bool RemoveDeadBeforeSplit(PinnedBuffer& leaf, std::string_view entry) {
  Page p = leaf.page();
  if (p.FreeSpace() >= entry.size() + 8) return false;  // fits (+ alignment padding)
  static std::vector<OffsetNumber> dead;  // highest first
  dead.clear();
  for (OffsetNumber off = p.MaxOffset(); off >= FirstDataOffset(p) && off != 0; --off) {
    if (ItemIsDead(p, off)) dead.push_back(off);
  }
  DeleteLeafEntries(leaf, dead, kBtInfoDeleteDead);
  return !dead.empty();
}

// The rightmost-leaf fast path (PostgreSQL's idea): loads in key order
// (serial ids, timestamps) always insert on the tree's last leaf, so each
// process remembers, per index, the leaf it last found rightmost and tries
// it first. It is used only when the leaf is still a rightmost leaf, the new
// key sorts after every entry on it (so no equal key exists anywhere: no
// unique probe is needed) and the entry fits (no split, which would need the
// descent's stack). Anything else falls back to the full descent.
struct RightmostHint {
  storage::RelFileLocator rel;
  BlockNumber block = storage::kInvalidBlockNumber;
};
constexpr size_t kRightmostHints = 8;
RightmostHint g_rightmost[kRightmostHints];
size_t g_rightmost_next = 0;

RightmostHint* FindRightmostHint(const IndexDesc& index) {
  for (RightmostHint& h : g_rightmost)
    if (h.block != storage::kInvalidBlockNumber && h.rel == index.rel) return &h;
  return nullptr;
}

void RememberRightmost(const IndexDesc& index, Page leaf, BlockNumber block) {
  if (!IsLeaf(leaf) || !IsRightmost(leaf)) return;
  RightmostHint* h = FindRightmostHint(index);
  if (h == nullptr) h = &g_rightmost[g_rightmost_next++ % kRightmostHints];
  h->rel = index.rel;
  h->block = block;
}

// The remembered leaf, X-locked, when `entry` (key part `key`) may go on it
// at its end; an invalid buffer otherwise.
PinnedBuffer TryRightmostLeaf(const IndexDesc& index, std::string_view entry, std::string_view key) {
  RightmostHint* h = FindRightmostHint(index);
  if (h == nullptr) return PinnedBuffer();
  if (h->block >= storage::SmgrNblocks(index.rel, ForkNumber::kMain)) {
    h->block = storage::kInvalidBlockNumber;
    return PinnedBuffer();
  }
  PinnedBuffer leaf = ReadLocked(index, h->block, LWLockMode::kExclusive);
  Page p = leaf.page();
  const bool usable = IsLeaf(p) && IsRightmost(p) && (Opaque(p)->flags & kBtDeleted) == 0 &&
                      p.MaxOffset() >= FirstDataOffset(p) &&
                      CompareToBound(ItemKey(p, p.MaxOffset()), Bound{key, false}) < 0 &&
                      p.FreeSpace() >= entry.size() + 8;  // + alignment padding: it surely fits
  if (!usable) {
    h->block = storage::kInvalidBlockNumber;
    return PinnedBuffer();
  }
  return leaf;
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
    ThrowEntryTooLarge(entry.size(), index);
  bool check = unique != nullptr;
  for (const types::Value& v : key)
    if (v.is_null) check = false;  // NULLs never conflict
  const Bound full{entry, false};
  const Bound search = check ? Bound{std::string_view(entry).substr(0, key_len), false} : full;
  if (PinnedBuffer leaf = TryRightmostLeaf(index, entry, std::string_view(entry).substr(0, key_len)); leaf.valid()) {
    static std::vector<PinnedBuffer> changed;
    changed.clear();
    access::ScratchBlockRecord().Clear();
    stack.clear();
    const OffsetNumber off = static_cast<OffsetNumber>(leaf.page().MaxOffset() + 1);
    InsertOnPage(index, stack, std::move(leaf), entry, off, changed);  // fits: no split
    return InsertResult{true, 0};
  }
  for (;;) {
    PinnedBuffer leaf = Descend(index, search, LWLockMode::kExclusive, &stack);
    if (!leaf.valid()) {
      CreateRoot(index);
      continue;
    }
    RememberRightmost(index, leaf.page(), leaf.block());
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
    RemoveDeadBeforeSplit(leaf, entry);  // may make the split below unnecessary
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
    access::ScratchBlockRecord().Clear();
    InsertOnPage(index, stack, std::move(leaf), entry, off, changed);
    return InsertResult{true, 0};
  }
}

}  // namespace hearth::nbtree
