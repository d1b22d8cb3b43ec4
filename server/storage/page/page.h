// storage/page/page.h
//
// The slotted page: an 8 KiB block with a fixed header, an array of line
// pointers growing up from the header, item data growing down from the
// special space, and free space between (byte layout in README.md here).
// `Page` is a non-owning view over kBlockSize bytes; it does no locking —
// the caller holds the buffer's content lock (shared to read, exclusive to
// change) or owns the memory privately. Item data is 8-byte aligned.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "storage/page/block.h"

namespace hearth::storage {

// ---- On-disk constants (see README.md for the picture) ----------------------

// Page header field offsets, all little-endian:
inline constexpr size_t kPageLsnOffset = 0;         // uint64: LSN of the last WAL record that changed the page
inline constexpr size_t kPageChecksumOffset = 8;    // uint16: checksum (0 = never set), see ComputeChecksum
inline constexpr size_t kPageFlagsOffset = 10;      // uint16: kPageFlag* bits
inline constexpr size_t kPageLowerOffset = 12;      // uint16: end of the line pointer array = start of free space
inline constexpr size_t kPageUpperOffset = 14;      // uint16: start of item data = end of free space
inline constexpr size_t kPageSpecialOffset = 16;    // uint16: start of the special space (== kBlockSize if none)
inline constexpr size_t kPageSizeVersionOffset = 18;  // uint16: kBlockSize | kPageLayoutVersion
inline constexpr size_t kPagePruneXidOffset = 20;   // uint32: oldest prunable xid hint (0 = none; heap's business)
// Size of the header; the first line pointer starts here.
inline constexpr size_t kPageHeaderSize = 24;

// Layout version, stored in the low byte of the size/version field (kBlockSize
// is a multiple of 256, so both fit in 16 bits).
inline constexpr uint16_t kPageLayoutVersion = 1;

// Page flag bits (kPageFlagsOffset).
inline constexpr uint16_t kPageFlagHasFreeLines = 0x0001;  // some line pointer is unused: AddItem may reuse it
inline constexpr uint16_t kPageFlagPageFull = 0x0002;      // hint: a recent insert did not fit
inline constexpr uint16_t kPageFlagAllVisible = 0x0004;    // heap: every tuple visible to everyone

// Item data alignment (MAXALIGN).
inline constexpr size_t kItemAlign = 8;

// Line pointer: one little-endian uint32 per item:
//   bits  0..14  byte offset of the item from the page start (15 bits: < 32 KiB)
//   bits 15..16  state (ItemState)
//   bits 17..31  item length in bytes (15 bits)
inline constexpr size_t kItemIdSize = 4;

enum class ItemState : uint8_t {
  kUnused = 0,    // free slot, no storage
  kNormal = 1,    // live item with storage
  kRedirect = 2,  // offset field holds another OffsetNumber (heap HOT chains); no storage
  kDead = 3,      // dead item; storage (if any) is reclaimed by RepairFragmentation
};

struct ItemId {
  uint32_t word = 0;

  uint16_t offset() const { return static_cast<uint16_t>(word & 0x7FFFu); }
  ItemState state() const { return static_cast<ItemState>((word >> 15) & 0x3u); }
  uint16_t length() const { return static_cast<uint16_t>(word >> 17); }
  bool IsNormal() const { return state() == ItemState::kNormal; }
  bool IsUnused() const { return state() == ItemState::kUnused; }
  static ItemId Make(uint16_t offset, ItemState st, uint16_t length) {
    return ItemId{static_cast<uint32_t>(offset & 0x7FFFu) | (static_cast<uint32_t>(st) << 15) |
                  (static_cast<uint32_t>(length & 0x7FFFu) << 17)};
  }
};

// The largest item AddItem accepts on a page with no special space.
inline constexpr size_t kMaxItemSize = kBlockSize - kPageHeaderSize - kItemIdSize;

class Page {
 public:
  // REQUIRES: `data` points at kBlockSize bytes, 8-byte aligned, that outlive the view.
  explicit Page(char* data) : data_(data) {}

  char* data() const { return data_; }

  // Formats an empty page: header, no items, `special_size` bytes (rounded up to
  // kItemAlign) of zeroed special space at the end. Clears the whole page.
  // REQUIRES: special_size <= kBlockSize - kPageHeaderSize.
  void Init(size_t special_size);

  // True for a page that was never initialised (upper == 0), e.g. a block just
  // added by extension. Such a page carries no checksum.
  bool IsNew() const { return Upper() == 0; }
  // True when all kBlockSize bytes are zero.
  bool IsAllZero() const;

  uint64_t lsn() const { return Load64(kPageLsnOffset); }
  void set_lsn(uint64_t lsn) { Store64(kPageLsnOffset, lsn); }
  uint16_t flags() const { return Load16(kPageFlagsOffset); }
  void set_flags(uint16_t f) { Store16(kPageFlagsOffset, f); }
  uint32_t prune_xid() const { return Load32(kPagePruneXidOffset); }
  void set_prune_xid(uint32_t x) { Store32(kPagePruneXidOffset, x); }
  uint16_t Lower() const { return Load16(kPageLowerOffset); }
  uint16_t Upper() const { return Load16(kPageUpperOffset); }
  uint16_t SpecialOffset() const { return Load16(kPageSpecialOffset); }
  uint16_t SizeVersion() const { return Load16(kPageSizeVersionOffset); }

  // The special space (index access methods keep their per-page data here).
  std::span<char> Special() const { return {data_ + SpecialOffset(), kBlockSize - SpecialOffset()}; }

  // Number of line pointers (the largest valid OffsetNumber); 0 on an empty page.
  OffsetNumber MaxOffset() const;
  // REQUIRES: kFirstOffsetNumber <= off <= MaxOffset().
  ItemId GetItemId(OffsetNumber off) const;
  void SetItemId(OffsetNumber off, ItemId id);
  // The bytes of a live item. REQUIRES: GetItemId(off).IsNormal().
  std::span<char> GetItem(OffsetNumber off) const;

  // Free bytes for one new item of any size, accounting for the line pointer it
  // needs (PostgreSQL's PageGetFreeSpace): upper - lower - kItemIdSize, or 0.
  size_t FreeSpace() const;

  // Adds an item: reuses the first unused line pointer when the page has any,
  // else appends one. Returns its offset number, or kInvalidOffsetNumber when
  // the (8-aligned) item does not fit or is empty / larger than kMaxItemSize.
  OffsetNumber AddItem(std::span<const char> item);
  // Inserts an item at `at`, shifting line pointers at >= at up by one (index
  // pages keep items ordered). Returns `at`, or kInvalidOffsetNumber when it
  // does not fit. REQUIRES: kFirstOffsetNumber <= at <= MaxOffset() + 1.
  OffsetNumber InsertItemAt(std::span<const char> item, OffsetNumber at);

  // Marks a line pointer unused; its storage is reclaimed by RepairFragmentation.
  void MarkItemUnused(OffsetNumber off);
  // Marks a line pointer dead (slot kept so references stay valid); storage is
  // reclaimed by RepairFragmentation.
  void MarkItemDead(OffsetNumber off);
  // Makes `off` a redirect to `to` (heap HOT chains): no storage; its
  // former storage is reclaimed by RepairFragmentation.
  void MarkItemRedirect(OffsetNumber off, OffsetNumber to);
  // Index-style delete: removes the item and its line pointer at once, shifting
  // later line pointers down (their offset numbers decrease by one) and
  // closing the hole in item data.
  void RemoveItem(OffsetNumber off);

  // Compacts item data so all free space is contiguous: live (normal) items are
  // packed against the special space, dead/unused slots lose their storage,
  // and trailing unused line pointers are removed. Offset numbers of live
  // items do not change.
  void RepairFragmentation();

  // 16-bit checksum of the page content with `block` mixed in (so a page written
  // to the wrong block does not verify). The stored checksum field is excluded.
  // Never returns 0.
  uint16_t ComputeChecksum(BlockNumber block) const;
  void SetChecksum(BlockNumber block) { Store16(kPageChecksumOffset, ComputeChecksum(block)); }
  uint16_t StoredChecksum() const { return Load16(kPageChecksumOffset); }
  // True if the page is safe to use: either all zero (a new page), or it has a
  // sane header and its stored checksum matches.
  bool Verify(BlockNumber block) const;
  // True if header fields are self-consistent (size/version, lower<=upper<=special).
  bool HeaderIsSane() const;

 private:
  uint16_t Load16(size_t off) const;
  uint32_t Load32(size_t off) const;
  uint64_t Load64(size_t off) const;
  void Store16(size_t off, uint16_t v);
  void Store32(size_t off, uint32_t v);
  void Store64(size_t off, uint64_t v);
  OffsetNumber PlaceItem(std::span<const char> item, OffsetNumber at, bool new_line_pointer, bool shift);

  char* data_;
};

// Convenience free functions in PostgreSQL's vocabulary.
inline void PageInit(char* page, size_t special_size) { Page(page).Init(special_size); }
inline OffsetNumber PageAddItem(char* page, std::span<const char> item) { return Page(page).AddItem(item); }
inline size_t PageGetFreeSpace(char* page) { return Page(page).FreeSpace(); }

}  // namespace hearth::storage
