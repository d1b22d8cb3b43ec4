// access/nbtree/nbtree_internal.h
//
// Internals shared by the B-tree files: the order-preserving key encoding
// (every key compares with memcmp), the page special area and metapage
// layout, item accessors and the descent used by insert and scan. Not for
// use outside access/nbtree. Pure functions over caller-locked pages; the
// lock rules are in README.md.
#pragma once

#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "access/nbtree/nbtree.h"
#include "storage/buffer/bufmgr.h"
#include "storage/page/page.h"

namespace hearth::nbtree {

using storage::OffsetNumber;
using storage::Page;
using storage::PinnedBuffer;

// ---- Key encoding (nbtkey.cpp) -----------------------------------------------------
//
// A leaf entry is the concatenation of each key column's encoding followed
// by the heap TID (block big-endian 4 bytes, offset big-endian 2 bytes).
// Column encoding: one marker byte (NULL: 0x00 when NULLS FIRST, 0x02 when
// NULLS LAST; not null: 0x01) followed, when not null, by the value bytes
// (inverted bitwise for DESC). Every column encoding is prefix-free, so two
// entries compare correctly with plain memcmp (shorter = smaller on a tie),
// and a k-column prefix compares with the first k columns of an entry.
// An array's value bytes are its elements, each encoded as an ascending
// NULLS LAST column of the element type, then 0x00, the dimension count
// (one byte) and per dimension its length and lower bound (sign-flipped
// big-endian 4 bytes each): PostgreSQL's btarraycmp order.

inline constexpr size_t kTidBytes = 6;

// Appends the encoding of `key` (a prefix of the index columns is allowed)
// to *out. Throws std::invalid_argument on a type the column cannot take.
void EncodeKey(const IndexDesc& index, std::span<const types::Value> key, std::string* out);
void AppendTid(ItemPointer tid, std::string* out);
ItemPointer DecodeTid(std::span<const char> entry);  // from the last 6 bytes

// Lexicographic byte order; a proper prefix is smaller.
inline int CompareBytes(std::span<const char> a, std::span<const char> b) {
  size_t n = a.size() < b.size() ? a.size() : b.size();
  int c = n == 0 ? 0 : std::memcmp(a.data(), b.data(), n);
  if (c != 0) return c < 0 ? -1 : 1;
  return a.size() < b.size() ? -1 : (a.size() > b.size() ? 1 : 0);
}

// A position in key space: the byte string `key` followed by -infinity
// (plus_inf=false: sorts just before every string that starts with key) or
// +infinity (plus_inf=true: just after every string that starts with key).
// A view: the bytes belong to the caller.
struct Bound {
  std::string_view key;
  bool plus_inf = false;
};
// <0 when x sorts before the bound, 0 when x == key exactly (minus only), >0 after.
inline int CompareToBound(std::span<const char> x, const Bound& b) {
  size_t n = x.size() < b.key.size() ? x.size() : b.key.size();
  int c = n == 0 ? 0 : std::memcmp(x.data(), b.key.data(), n);
  if (c != 0) return c < 0 ? -1 : 1;
  if (x.size() < b.key.size()) return -1;
  if (b.plus_inf) return -1;
  return x.size() == b.key.size() ? 0 : 1;
}

// Whether the entry has NULL in a column i with must_be_non_null[i].
bool HasNullIn(const IndexDesc& index, std::span<const char> entry, const std::vector<bool>& must_be_non_null);

// Text for "Key (a, b)=(1, x)" in the unique violation detail.
std::string FormatKeyDetail(const IndexDesc& index, std::span<const types::Value> key);

// ---- Page layout (nbtpage.cpp) --------------------------------------------------------

// Special area of every page except the metapage (16 bytes).
struct BtOpaque {
  uint32_t left;    // left sibling, kInvalidBlockNumber for the leftmost page of a level
  uint32_t right;   // right sibling, kInvalidBlockNumber for the rightmost
  uint16_t level;   // 0 = leaf
  uint16_t flags;   // kBt* below
  uint16_t cycle_id;  // reserved for vacuum cycle ids (always 0 today)
  uint16_t magic;   // kBtPageMagic: catches a non-btree page
};
static_assert(sizeof(BtOpaque) == 16);
inline constexpr uint16_t kBtLeaf = 0x1;
inline constexpr uint16_t kBtRoot = 0x2;
inline constexpr uint16_t kBtDeleted = 0x4;    // reserved (no page deletion yet)
inline constexpr uint16_t kBtHalfDead = 0x8;   // reserved
inline constexpr uint16_t kBtPageMagic = 0xB7EE;

// Metapage (block 0): the whole special area.
struct BtMetaColumn {
  uint32_t type;
  uint8_t flags;  // 1 = DESC, 2 = NULLS FIRST
  uint8_t pad[3];
};
struct BtMeta {
  uint32_t magic;     // kBtMetaMagic
  uint32_t version;   // kBtVersion
  uint32_t root;      // kInvalidBlockNumber for an empty index
  uint32_t level;     // level of the root
  uint32_t fastroot;  // = root (no fast-root optimisation yet)
  uint32_t fastlevel;
  uint32_t natts;
  uint32_t pad;
  BtMetaColumn cols[kMaxKeyColumns];
};
inline constexpr uint32_t kBtMetaMagic = 0x48425452;  // "HBTR"
inline constexpr uint32_t kBtVersion = 1;
inline constexpr BlockNumber kMetaBlock = 0;

// Largest encoded leaf entry (with TID): three of them plus their line
// pointers always fit a page, so a split can always place the new entry.
inline constexpr size_t kMaxEntrySize = 2700;
// 54000 for an entry above kMaxEntrySize, in PostgreSQL's words.
[[noreturn]] void ThrowEntryTooLarge(size_t size, const IndexDesc& index);
// Page bytes available for items after the header and special area.
inline constexpr size_t kPageUsable = storage::kBlockSize - storage::kPageHeaderSize - sizeof(BtOpaque);

inline BtOpaque* Opaque(Page p) { return reinterpret_cast<BtOpaque*>(p.Special().data()); }
inline BtMeta* Meta(Page p) { return reinterpret_cast<BtMeta*>(p.Special().data()); }
inline bool IsLeaf(Page p) { return (Opaque(p)->flags & kBtLeaf) != 0; }
inline bool IsRightmost(Page p) { return Opaque(p)->right == storage::kInvalidBlockNumber; }
inline OffsetNumber FirstDataOffset(Page p) { return IsRightmost(p) ? 1 : 2; }
inline constexpr OffsetNumber kHighKeyOffset = 1;

// The key bytes of item `off`: the whole item for a high key or a leaf
// entry, the bytes after the 4-byte child block for an internal item (the
// first data item of an internal page has an empty key = minus infinity).
inline std::span<const char> ItemKey(Page p, OffsetNumber off) {
  std::span<char> it = p.GetItem(off);
  if (IsLeaf(p) || (off == kHighKeyOffset && !IsRightmost(p))) return {it.data(), it.size()};
  return {it.data() + 4, it.size() - 4};
}
// LP_DEAD (PostgreSQL's name): a leaf entry whose heap tuples are dead to
// every snapshot, marked by an index scan as a hint (no WAL, MarkDirtyHint,
// under a shared lock). It keeps its bytes and place, so searches still
// compare against it; scans skip it; it is removed, WAL-logged, before its
// leaf would split, by a unique check that meets it, and by VACUUM.
inline bool ItemIsDead(Page p, OffsetNumber off) { return p.GetItemId(off).state() == storage::ItemState::kDead; }
inline void MarkItemDead(Page p, OffsetNumber off) {
  const storage::ItemId id = p.GetItemId(off);
  p.SetItemId(off, storage::ItemId::Make(id.offset(), storage::ItemState::kDead, id.length()));
}

inline BlockNumber ItemChild(Page p, OffsetNumber off) {
  uint32_t b;
  std::memcpy(&b, p.GetItem(off).data(), 4);
  return b;
}
inline std::span<const char> HighKey(Page p) { return ItemKey(p, kHighKeyOffset); }
inline size_t ItemCost(size_t len) { return ((len + 7) & ~size_t{7}) + storage::kItemIdSize; }

// Formats a b-tree page in `p` (cleared).
void InitBtPage(Page p, uint16_t level, uint16_t flags, BlockNumber left, BlockNumber right);
// Reads root block and level from the metapage (shared lock, released).
// root == kInvalidBlockNumber for an empty index. Throws on a bad metapage.
void ReadMeta(const IndexDesc& index, BlockNumber* root, uint32_t* level);
// Builds an internal item [child][key] into *out.
void MakeInternalItem(BlockNumber child, std::span<const char> key, std::string* out);

// ---- Search (nbtsearch.cpp) -------------------------------------------------------------

struct StackEntry {
  BlockNumber block;   // internal page we went through
  OffsetNumber off;    // offset of the downlink we followed
};

// Moves right while the high key sorts at or before the bound (the entries
// we look for moved right in a split). `buf` is locked in `mode`; on return
// it holds the right page locked the same way.
void MoveRight(const IndexDesc& index, PinnedBuffer* buf, const Bound& bound, storage::LWLockMode mode);
// First offset on a (locked) leaf whose entry is >= bound (max+1 if none).
OffsetNumber LeafLowerBound(Page p, const Bound& bound);
// Offset of the downlink to follow on an internal page: the last item whose key <= bound.
OffsetNumber InternalChild(Page p, const Bound& bound);
// Descends from the root to the leaf that holds the first entry >= bound,
// locking the leaf in `leaf_mode` (upper pages shared, one at a time).
// Fills *stack (when non-null) with the path, root first. Returns an invalid
// buffer for an empty index.
PinnedBuffer Descend(const IndexDesc& index, const Bound& bound, storage::LWLockMode leaf_mode,
                     std::vector<StackEntry>* stack);
// The leftmost page at `level` (locked in `mode`), invalid for an empty index.
PinnedBuffer LeftmostAtLevel(const IndexDesc& index, uint32_t level, storage::LWLockMode mode);

PinnedBuffer ReadLocked(const IndexDesc& index, BlockNumber blk, storage::LWLockMode mode);

// ---- Splits (nbtinsert.cpp) -----------------------------------------------------

// The data items of page `p` (from FirstDataOffset) with `item` inserted at
// offset `off`: what a split distributes. Views into the page and `item`.
void CollectSplitItems(Page p, std::span<const char> item, OffsetNumber off,
                       std::vector<std::span<const char>>* items);
// Formats the halves of splitting page `p` (block `left_block`, items as
// CollectSplitItems gives them) at `k`: `lp` keeps items [0, k) under high key
// `sep`, `rp` (block `right_block`) gets p's high key and items [k, n).
// False when they do not fit (corruption).
bool BuildSplitHalves(Page p, std::span<const std::span<const char>> items, size_t k, std::string_view sep,
                      BlockNumber left_block, BlockNumber right_block, Page lp, Page rp);

// ---- WAL (nbtxlog.cpp) --------------------------------------------------------------
//
// Logical records (rmgr kRmgrBtree) through access::BlockRecord: a page
// changed for the first time since the last checkpoint's redo point is
// logged as an image, otherwise as one of these operations.
inline constexpr uint8_t kBtInfoInsert = 0x00;  // leaf insert (+ splits, + downlinks)
inline constexpr uint8_t kBtInfoSplit = 0x10;   // an insert that split pages
inline constexpr uint8_t kBtInfoNewRoot = 0x20;  // a split that made a new root
inline constexpr uint8_t kBtInfoVacuum = 0x30;  // entries removed by VACUUM
inline constexpr uint8_t kBtInfoDeleteDead = 0x40;  // entries of dead tuples removed by a unique check or before a split
inline constexpr uint16_t kBtOpInsert = 1;      // off, item bytes: InsertItemAt
inline constexpr uint16_t kBtOpDelete = 2;      // u16 offsets, removed in the logged order
inline constexpr uint16_t kBtOpSplitLeft = 3;   // off of the new item; u32 right, u16 k, u16 sep_len, sep, item
inline constexpr uint16_t kBtOpSetLeft = 4;     // u32 new left link
// Removes the entries at `offsets` (highest first) from the X-locked,
// pinned leaf and logs it with `info` (kBtInfoVacuum, kBtInfoDeleteDead).
void DeleteLeafEntries(PinnedBuffer& leaf, std::span<const OffsetNumber> offsets, uint8_t info);
// Logs `pages` (one per block added to access::ScratchBlockRecord(), in
// order; all X-locked and dirty) as one record and stamps their LSN.
void LogBtRecord(uint8_t info, std::span<PinnedBuffer> pages);

// WAL (nbtpage.cpp): logs the full images of `pages` (every one pinned,
// exclusively locked and already marked dirty) in ONE record, so recovery
// restores them together, and stamps their page LSN. Must be called before
// any of them is unlocked. No-op without WAL (unit tests, bootstrap).
void LogBtPages(std::span<PinnedBuffer> pages);
void LogBtPage(PinnedBuffer& page);

// Throws DbError XX002 (index corrupted) with the text.
[[noreturn]] void ThrowCorrupt(const IndexDesc& index, const std::string& what);

}  // namespace hearth::nbtree
