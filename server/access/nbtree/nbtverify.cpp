// access/nbtree/nbtverify.cpp
//
// BtVerify: walks every level left to right (copies of pages taken under a
// short shared lock) and checks the invariants listed in README.md,
// returning the first violation as text. Meant for a quiet index (tests,
// hearth_index_check); concurrent splits could produce false reports.
// Principal entry points: BtVerify.
#include <array>
#include <cstring>

#include "access/nbtree/nbtree_internal.h"
#include "storage/smgr/smgr.h"

namespace hearth::nbtree {
namespace {

using storage::ForkNumber;
using storage::kInvalidBlockNumber;

struct PageCopy {
  alignas(8) std::array<char, storage::kBlockSize> bytes;
  Page page() { return Page(bytes.data()); }
};

void CopyPage(const IndexDesc& index, BlockNumber blk, PageCopy* out) {
  PinnedBuffer b = storage::ReadBuffer(index.rel, ForkNumber::kMain, blk);
  b.Lock(storage::LWLockMode::kShared);
  std::memcpy(out->bytes.data(), b.data(), storage::kBlockSize);
}

std::string Where(BlockNumber b) { return "block " + std::to_string(b) + ": "; }

std::string Hex(std::span<const char> s) {
  static const char* d = "0123456789abcdef";
  std::string r;
  for (size_t i = 0; i < s.size() && i < 24; ++i) {
    r += d[(static_cast<unsigned char>(s[i]) >> 4) & 0xF];
    r += d[static_cast<unsigned char>(s[i]) & 0xF];
  }
  return r.empty() ? "(empty)" : r;
}

// Checks one page on its own: header, order of keys, keys below the high key,
// keys at or above the low key (the downlink key of the page, "" = none).
std::string CheckPage(Page p, BlockNumber blk, uint32_t level, std::span<const char> low, bool has_low) {
  const BtOpaque* o = Opaque(p);
  if (o->magic != kBtPageMagic) return Where(blk) + "not a btree page";
  if (o->level != level)
    return Where(blk) + "level " + std::to_string(o->level) + ", expected " + std::to_string(level);
  if (((o->flags & kBtLeaf) != 0) != (level == 0)) return Where(blk) + "leaf flag does not match level";
  if ((o->flags & kBtDeleted) != 0) return Where(blk) + "deleted page is linked";
  const OffsetNumber first = FirstDataOffset(p), max = p.MaxOffset();
  if (!IsRightmost(p) && max < 1) return Where(blk) + "non-rightmost page without high key";
  if (level > 0 && max < first) return Where(blk) + "internal page without downlinks";
  if (level > 0 && first <= max && ItemKey(p, first).size() != 0)
    return Where(blk) + "first downlink is not minus infinity";
  const OffsetNumber from = level > 0 ? static_cast<OffsetNumber>(first + 1) : first;
  for (OffsetNumber off = from; off < max; ++off)
    if (CompareBytes(ItemKey(p, off), ItemKey(p, static_cast<OffsetNumber>(off + 1))) >= 0)
      return Where(blk) + "keys not in order at offset " + std::to_string(off);
  if (!IsRightmost(p) && from <= max && CompareBytes(ItemKey(p, max), HighKey(p)) >= 0)
    return Where(blk) + "item at offset " + std::to_string(max) + " is not below the high key";
  if (has_low && from <= max && CompareBytes(ItemKey(p, from), low) < 0)
    return Where(blk) + "item at offset " + std::to_string(from) + " is below the page's low key " + Hex(low);
  return "";
}

std::string VerifyImpl(const IndexDesc& index) {
  const BlockNumber nblocks = storage::SmgrNblocks(index.rel, ForkNumber::kMain);
  if (nblocks == 0) return "index has no metapage";
  PageCopy meta_copy;
  CopyPage(index, kMetaBlock, &meta_copy);
  const BtMeta meta = *Meta(meta_copy.page());
  if (meta.magic != kBtMetaMagic) return "metapage: bad magic";
  if (meta.version != kBtVersion) return "metapage: bad version";
  if (meta.natts != index.cols.size()) return "metapage: key column count differs from the index description";
  for (size_t i = 0; i < index.cols.size(); ++i) {
    uint8_t flags = static_cast<uint8_t>((index.cols[i].descending ? 1 : 0) | (index.cols[i].nulls_first ? 2 : 0));
    if (meta.cols[i].type != index.cols[i].type || meta.cols[i].flags != flags)
      return "metapage: key column " + std::to_string(i) + " differs from the index description";
  }
  if (meta.root == kInvalidBlockNumber) return nblocks == 1 ? "" : "empty index has pages besides the metapage";
  if (meta.root >= nblocks) return "metapage: root block beyond the end";

  PageCopy cur, child;
  CopyPage(index, meta.root, &cur);
  {
    const BtOpaque* o = Opaque(cur.page());
    if ((o->flags & kBtRoot) == 0) return Where(meta.root) + "root page lacks the root flag";
    if (o->left != kInvalidBlockNumber || o->right != kInvalidBlockNumber)
      return Where(meta.root) + "root has siblings";
    if (o->level != meta.level) return Where(meta.root) + "root level differs from the metapage";
  }
  uint64_t pages = 0;
  BlockNumber leftmost = meta.root;
  for (int64_t level = meta.level; level >= 0; --level) {
    BlockNumber blk = leftmost, prev = kInvalidBlockNumber;
    std::string low;  // low key of the current page = previous page's high key
    bool has_low = false;
    // Children chain expectations (level > 0).
    BlockNumber prev_child = kInvalidBlockNumber, prev_child_right = kInvalidBlockNumber;
    BlockNumber next_leftmost = kInvalidBlockNumber;
    while (blk != kInvalidBlockNumber) {
      if (blk == kMetaBlock || blk >= nblocks) return "link to block " + std::to_string(blk) + " outside the index";
      if (++pages > nblocks) return "sibling links form a cycle";
      CopyPage(index, blk, &cur);
      Page p = cur.page();
      const BtOpaque* o = Opaque(p);
      if (o->left != prev)
        return Where(blk) + "left link " + std::to_string(o->left) + " but the page to the left is " +
               std::to_string(prev);
      if (blk != meta.root && (o->flags & kBtRoot) != 0) return Where(blk) + "non-root page has the root flag";
      std::string err = CheckPage(p, blk, static_cast<uint32_t>(level), low, has_low);
      if (!err.empty()) return err;
      if (level > 0) {
        const OffsetNumber first = FirstDataOffset(p), max = p.MaxOffset();
        for (OffsetNumber off = first; off <= max; ++off) {
          const BlockNumber c = ItemChild(p, off);
          if (next_leftmost == kInvalidBlockNumber) next_leftmost = c;
          if (c == kMetaBlock || c >= nblocks)
            return Where(blk) + "downlink to block " + std::to_string(c) + " outside the index";
          if (prev_child != kInvalidBlockNumber && prev_child_right != c)
            return Where(prev_child) + "right link " + std::to_string(prev_child_right) +
                   " differs from the next downlink " + std::to_string(c) + " in the parent level";
          CopyPage(index, c, &child);
          Page cp = child.page();
          const BtOpaque* co = Opaque(cp);
          if (co->magic != kBtPageMagic) return Where(c) + "not a btree page";
          if (co->level + 1 != level) return Where(c) + "child level does not fit its parent " + std::to_string(blk);
          std::span<const char> clow = off == first ? std::span<const char>(low) : ItemKey(p, off);
          bool clow_set = off == first ? has_low : true;
          // The child's high key equals the key of the next downlink (or the parent's high key).
          if (off < max || !IsRightmost(p)) {
            std::span<const char> expect = off < max ? ItemKey(p, static_cast<OffsetNumber>(off + 1)) : HighKey(p);
            if (IsRightmost(cp)) return Where(c) + "rightmost page but its parent has a key to its right";
            if (CompareBytes(HighKey(cp), expect) != 0)
              return Where(c) + "high key " + Hex(HighKey(cp)) + " differs from the parent's next key " + Hex(expect);
          } else if (!IsRightmost(cp)) {
            return Where(c) + "last child of the rightmost parent is not rightmost";
          }
          err = CheckPage(cp, c, static_cast<uint32_t>(level - 1), clow, clow_set);
          if (!err.empty()) return err;
          prev_child = c;
          prev_child_right = co->right;
        }
      }
      if (!IsRightmost(p)) {
        std::span<const char> hk = HighKey(p);
        low.assign(hk.data(), hk.size());
        has_low = true;
      }
      prev = blk;
      blk = o->right;
    }
    if (level > 0) {
      if (prev_child_right != kInvalidBlockNumber) return Where(prev_child) + "last page of its level has a right link";
      leftmost = next_leftmost;
    }
  }
  if (pages != nblocks - 1) {
    // Never-initialised (all-zero) pages are allowed: the file was extended
    // for a split or a new root whose WAL record did not survive a crash.
    // Such a page was never written with content (WAL goes first), so it
    // stays zero, unreachable, and just wastes space.
    size_t fresh = 0;
    PageCopy c;
    for (BlockNumber b = 1; b < nblocks; ++b) {
      CopyPage(index, b, &c);
      if (c.page().IsNew()) ++fresh;
    }
    if (pages + fresh == nblocks - 1) return "";
  }
  if (pages != nblocks - 1)
    return "reached " + std::to_string(pages) + " pages from the root, the index has " + std::to_string(nblocks - 1);
  return "";
}

}  // namespace

std::string BtVerify(const IndexDesc& index) {
  try {
    return VerifyImpl(index);
  } catch (const std::exception& e) {
    return std::string("error while verifying: ") + e.what();
  }
}

}  // namespace hearth::nbtree
