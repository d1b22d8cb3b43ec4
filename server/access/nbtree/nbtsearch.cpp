// access/nbtree/nbtsearch.cpp
//
// Descent from the root (shared locks, one page at a time, moving right
// past concurrent splits) and BtScan: page-at-a-time batches copied under a
// short shared lock, pin kept between calls. See README.md "Lock protocol".
// Principal entry points: Descend, MoveRight, LeftmostAtLevel, BtScan.
#include <exception>

#include "access/nbtree/nbtree_internal.h"

namespace hearth::nbtree {

using storage::kInvalidBlockNumber;
using storage::LWLockMode;

void MoveRight(const IndexDesc& index, PinnedBuffer* buf, const Bound& bound, LWLockMode mode) {
  for (;;) {
    Page p = buf->page();
    if (IsRightmost(p) || CompareToBound(HighKey(p), bound) > 0) return;
    BlockNumber next = Opaque(p)->right;
    buf->Release();
    *buf = ReadLocked(index, next, mode);
  }
}

OffsetNumber LeafLowerBound(Page p, const Bound& bound) {
  OffsetNumber lo = FirstDataOffset(p), hi = static_cast<OffsetNumber>(p.MaxOffset() + 1);
  while (lo < hi) {
    OffsetNumber mid = static_cast<OffsetNumber>(lo + (hi - lo) / 2);
    if (CompareToBound(ItemKey(p, mid), bound) >= 0) {
      hi = mid;
    } else {
      lo = static_cast<OffsetNumber>(mid + 1);
    }
  }
  return lo;
}

OffsetNumber InternalChild(Page p, const Bound& bound) {
  OffsetNumber first = FirstDataOffset(p);
  // First item after `first` whose key sorts after the bound; we take the one before it.
  OffsetNumber lo = static_cast<OffsetNumber>(first + 1), hi = static_cast<OffsetNumber>(p.MaxOffset() + 1);
  while (lo < hi) {
    OffsetNumber mid = static_cast<OffsetNumber>(lo + (hi - lo) / 2);
    if (CompareToBound(ItemKey(p, mid), bound) > 0) {
      hi = mid;
    } else {
      lo = static_cast<OffsetNumber>(mid + 1);
    }
  }
  return static_cast<OffsetNumber>(lo - 1);
}

PinnedBuffer Descend(const IndexDesc& index, const Bound& bound, LWLockMode leaf_mode, std::vector<StackEntry>* stack) {
  BlockNumber root;
  uint32_t level;
  ReadMeta(index, &root, &level);
  if (stack) stack->clear();
  if (root == kInvalidBlockNumber) return {};
  BlockNumber blk = root;
  for (;;) {
    // A block's level never changes, so the lock mode is known before locking.
    PinnedBuffer buf = ReadLocked(index, blk, level == 0 ? leaf_mode : LWLockMode::kShared);
    MoveRight(index, &buf, bound, level == 0 ? leaf_mode : LWLockMode::kShared);
    Page p = buf.page();
    if (Opaque(p)->level != level) ThrowCorrupt(index, "level mismatch at block " + std::to_string(buf.block()));
    if (level == 0) return buf;
    OffsetNumber off = InternalChild(p, bound);
    if (stack) stack->push_back({buf.block(), off});
    blk = ItemChild(p, off);
    --level;
  }
}

PinnedBuffer LeftmostAtLevel(const IndexDesc& index, uint32_t target, LWLockMode mode) {
  BlockNumber root;
  uint32_t level;
  ReadMeta(index, &root, &level);
  if (root == kInvalidBlockNumber || target > level) return {};
  BlockNumber blk = root;
  for (;;) {
    PinnedBuffer buf = ReadLocked(index, blk, level == target ? mode : LWLockMode::kShared);
    if (level == target) return buf;
    Page p = buf.page();
    // The leftmost page of a level never changes (splits keep the left half in place).
    blk = ItemChild(p, FirstDataOffset(p));
    --level;
  }
}

// ---- BtScan ------------------------------------------------------------------------------------

struct BtScan::Impl {
  const IndexDesc& index;
  ScanDirection dir;
  std::string lower_key, upper_key;    // entries >= lower and < upper (Bound semantics)
  bool lower_plus = false, upper_plus = true;
  std::vector<bool> non_null;          // columns a condition compares with a non-NULL value
  bool filter_nulls = false;
  PinnedBuffer pin;                    // leaf the batch came from: pinned, not locked
  std::vector<ItemPointer> batch;
  std::vector<OffsetNumber> batch_offs;  // where each batch entry was on the leaf
  std::vector<size_t> killed;            // batch positions found dead to everyone (KillCurrent)
  size_t pos = 0;
  bool started = false;
  bool more_pages = false;             // another page may hold matching entries
  BlockNumber next_block = kInvalidBlockNumber;  // forward: right link when the batch was read; backward: left link
  BlockNumber cur_block = kInvalidBlockNumber;

  Impl(const IndexDesc& i, ScanDirection d) : index(i), dir(d) {}
  ~Impl() {
    // Only a hint: while an error unwinds (other locks may still be held
    // further up) it is simply not set.
    if (std::uncaught_exceptions() > 0) return;
    try {
      KillItems();
    } catch (...) {
    }
  }

  // Marks the killed entries LP_DEAD on the pinned leaf (PostgreSQL's
  // _bt_killitems). The pin was held since the batch was read, so VACUUM
  // cannot have removed an entry and let its TID be reused; entries may
  // have shifted (inserts, removals) or moved right (a split), so each is
  // found by its TID, and one no longer on the page is skipped.
  void KillItems() {
    if (killed.empty() || !pin.valid()) {
      killed.clear();
      return;
    }
    pin.Lock(LWLockMode::kShared);
    Page p = pin.page();
    const OffsetNumber first = FirstDataOffset(p), max = p.MaxOffset();
    bool marked = false;
    for (size_t i : killed) {
      const OffsetNumber off = FindTid(p, batch[i], batch_offs[i], first, max);
      if (off == 0 || ItemIsDead(p, off)) continue;
      MarkItemDead(p, off);
      marked = true;
    }
    if (marked) pin.MarkDirtyHint();
    pin.Unlock();
    killed.clear();
  }

  // The offset of the leaf entry for `tid` (looked for at `hint` first), 0 if none.
  static OffsetNumber FindTid(Page p, ItemPointer tid, OffsetNumber hint, OffsetNumber first, OffsetNumber max) {
    auto matches = [&](OffsetNumber o) { return DecodeTid(ItemKey(p, o)) == tid; };
    if (hint >= first && hint <= max && matches(hint)) return hint;
    for (OffsetNumber o = first; o <= max && o != 0; ++o) {
      if (matches(o)) return o;
    }
    return 0;
  }

  void SetConditions(std::span<const ScanKey> conds) {
    lower_key.clear();
    upper_key.clear();
    lower_plus = false;
    upper_plus = true;
    non_null.assign(index.cols.size(), false);
    filter_nulls = false;
    for (const ScanKey& c : conds) {
      std::string key;
      EncodeKey(index, c.values, &key);
      for (size_t i = 0; i < c.values.size(); ++i)
        if (!c.values[i].is_null) non_null[i] = filter_nulls = true;
      switch (c.op) {
        case ScanOp::kEq:
          SetLower(key, false);
          SetUpper(key, true);
          break;
        case ScanOp::kGe: SetLower(key, false); break;
        case ScanOp::kGt: SetLower(key, true); break;
        case ScanOp::kLe: SetUpper(key, true); break;
        case ScanOp::kLt: SetUpper(key, false); break;
      }
    }
    // A comparison never matches NULL: keep the scan out of the first column's NULL block.
    if (!index.cols.empty() && non_null[0]) {
      if (!index.cols[0].nulls_first && upper_key.empty()) SetUpper("\x01", true);
      if (index.cols[0].nulls_first && lower_key.empty()) SetLower("\x01", false);
    }
  }
  void SetLower(std::string_view k, bool plus) {
    lower_key.assign(k);
    lower_plus = plus;
  }
  void SetUpper(std::string_view k, bool plus) {
    upper_key.assign(k);
    upper_plus = plus;
  }
  Bound Lower() const { return Bound{lower_key, lower_plus}; }
  Bound Upper() const { return Bound{upper_key, upper_plus}; }

  void Reset() {
    KillItems();
    pin.Release();
    batch.clear();
    pos = 0;
    started = false;
    more_pages = false;
  }

  bool Wanted(std::span<const char> e) const { return !filter_nulls || !HasNullIn(index, e, non_null); }
  void Add(std::span<const char> e, OffsetNumber off) {
    batch.push_back(DecodeTid(e));
    batch_offs.push_back(off);
  }

  // REQUIRES: buf locked shared. Copies matching entries at >= start, keeps the pin.
  void ReadForward(PinnedBuffer buf, OffsetNumber start) {
    Page p = buf.page();
    batch.clear();
    batch_offs.clear();
    pos = 0;
    OffsetNumber max = p.MaxOffset();
    bool stop = false;
    for (OffsetNumber off = start; off <= max; ++off) {
      std::span<const char> e = ItemKey(p, off);
      if (CompareToBound(e, Upper()) >= 0) {
        stop = true;
        break;
      }
      if (!ItemIsDead(p, off) && Wanted(e)) Add(e, off);
    }
    // Entries right of a high key >= upper are all >= upper.
    more_pages = !stop && !IsRightmost(p) && CompareToBound(HighKey(p), Upper()) < 0;
    next_block = Opaque(p)->right;
    cur_block = buf.block();
    buf.Unlock();
    pin = std::move(buf);
  }

  // REQUIRES: buf locked shared. Copies matching entries at <= end, descending.
  void ReadBackward(PinnedBuffer buf, OffsetNumber end) {
    Page p = buf.page();
    batch.clear();
    batch_offs.clear();
    pos = 0;
    bool stop = false;
    for (OffsetNumber off = end; off >= FirstDataOffset(p) && off != 0; --off) {
      std::span<const char> e = ItemKey(p, off);
      if (CompareToBound(e, Lower()) < 0) {
        stop = true;
        break;
      }
      if (!ItemIsDead(p, off) && Wanted(e)) Add(e, off);
    }
    more_pages = !stop && Opaque(p)->left != kInvalidBlockNumber;
    next_block = Opaque(p)->left;
    cur_block = buf.block();
    buf.Unlock();
    pin = std::move(buf);
  }

  void Start() {
    started = true;
    if (dir == ScanDirection::kForward) {
      PinnedBuffer buf = Descend(index, Lower(), LWLockMode::kShared, nullptr);
      if (!buf.valid()) return;
      OffsetNumber off = LeafLowerBound(buf.page(), Lower());
      ReadForward(std::move(buf), off);
    } else {
      PinnedBuffer buf = Descend(index, Upper(), LWLockMode::kShared, nullptr);
      if (!buf.valid()) return;
      OffsetNumber off = static_cast<OffsetNumber>(LeafLowerBound(buf.page(), Upper()) - 1);
      ReadBackward(std::move(buf), off);
    }
  }

  void Advance() {
    if (dir == ScanDirection::kForward) {
      // The right link as of reading the batch: entries that moved right
      // from our page since then were in our batch already.
      BlockNumber next = next_block;
      KillItems();
      pin.Release();
      PinnedBuffer buf = ReadLocked(index, next, LWLockMode::kShared);
      OffsetNumber first = FirstDataOffset(buf.page());
      ReadForward(std::move(buf), first);
      return;
    }
    // Backward: the page whose right link is our page is our left neighbour
    // now; if the remembered left page split meanwhile, walk right to it.
    BlockNumber blk = next_block, cur = cur_block;
    KillItems();
    pin.Release();
    for (int hops = 0;; ++hops) {
      PinnedBuffer buf = ReadLocked(index, blk, LWLockMode::kShared);
      Page p = buf.page();
      if (Opaque(p)->right == cur) {
        OffsetNumber last = p.MaxOffset();
        ReadBackward(std::move(buf), last);
        return;
      }
      if (IsRightmost(p) || hops > 1000000)
        ThrowCorrupt(index, "left sibling chain broken at block " + std::to_string(cur));
      blk = Opaque(p)->right;
    }
  }
};

BtScan::BtScan(const IndexDesc& index, std::span<const ScanKey> conds, ScanDirection dir)
    : impl_(new Impl(index, dir)) {
  impl_->SetConditions(conds);
}

BtScan::~BtScan() { delete impl_; }

void BtScan::Rescan(std::span<const ScanKey> conds) {
  impl_->Reset();
  impl_->SetConditions(conds);
}

void BtScan::End() { impl_->Reset(); }

void BtScan::KillCurrent() {
  Impl& s = *impl_;
  if (s.pos > 0 && s.pos <= s.batch.size()) s.killed.push_back(s.pos - 1);
}

bool BtScan::Next(ItemPointer* tid) {
  Impl& s = *impl_;
  if (!s.started) s.Start();
  for (;;) {
    if (s.pos < s.batch.size()) {
      *tid = s.batch[s.pos++];
      return true;
    }
    if (!s.more_pages) {
      s.KillItems();
      s.pin.Release();
      return false;
    }
    s.Advance();
  }
}

}  // namespace hearth::nbtree
