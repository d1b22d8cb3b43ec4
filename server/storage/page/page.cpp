// storage/page/page.cpp
//
// Principal entry points: Page::Init, AddItem, InsertItemAt, RemoveItem,
// RepairFragmentation, ComputeChecksum, Verify.
// Header fields are read and written with memcpy so the code never aliases
// the page bytes through a struct type; each compiles to one load or store.
#include "storage/page/page.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cstring>

namespace hearth::storage {

namespace {

constexpr size_t AlignItem(size_t n) { return (n + kItemAlign - 1) & ~(kItemAlign - 1); }

constexpr uint16_t kSizeVersion = static_cast<uint16_t>(kBlockSize | kPageLayoutVersion);
static_assert(kBlockSize % 256 == 0 && kBlockSize <= 32768, "offsets must fit the 15-bit line pointer fields");

}  // namespace

uint16_t Page::Load16(size_t off) const {
  uint16_t v;
  std::memcpy(&v, data_ + off, sizeof v);
  return v;
}
uint32_t Page::Load32(size_t off) const {
  uint32_t v;
  std::memcpy(&v, data_ + off, sizeof v);
  return v;
}
uint64_t Page::Load64(size_t off) const {
  uint64_t v;
  std::memcpy(&v, data_ + off, sizeof v);
  return v;
}
void Page::Store16(size_t off, uint16_t v) { std::memcpy(data_ + off, &v, sizeof v); }
void Page::Store32(size_t off, uint32_t v) { std::memcpy(data_ + off, &v, sizeof v); }
void Page::Store64(size_t off, uint64_t v) { std::memcpy(data_ + off, &v, sizeof v); }

void Page::Init(size_t special_size) {
  special_size = AlignItem(special_size);
  assert(special_size <= kBlockSize - kPageHeaderSize);
  std::memset(data_, 0, kBlockSize);
  auto special = static_cast<uint16_t>(kBlockSize - special_size);
  Store16(kPageLowerOffset, static_cast<uint16_t>(kPageHeaderSize));
  Store16(kPageUpperOffset, special);
  Store16(kPageSpecialOffset, special);
  Store16(kPageSizeVersionOffset, kSizeVersion);
}

bool Page::IsAllZero() const {
  // Word-wise: pages are 8-byte aligned.
  for (size_t i = 0; i < kBlockSize; i += 8) {
    if (Load64(i) != 0) return false;
  }
  return true;
}

OffsetNumber Page::MaxOffset() const {
  uint16_t lower = Lower();
  if (lower <= kPageHeaderSize) return 0;
  return static_cast<OffsetNumber>((lower - kPageHeaderSize) / kItemIdSize);
}

ItemId Page::GetItemId(OffsetNumber off) const {
  assert(off >= kFirstOffsetNumber && off <= MaxOffset());
  return ItemId{Load32(kPageHeaderSize + (off - 1) * kItemIdSize)};
}

void Page::SetItemId(OffsetNumber off, ItemId id) { Store32(kPageHeaderSize + (off - 1) * kItemIdSize, id.word); }

std::span<char> Page::GetItem(OffsetNumber off) const {
  ItemId id = GetItemId(off);
  // A dead item may keep its storage (an index entry marked LP_DEAD).
  assert(id.IsNormal() || (id.state() == ItemState::kDead && id.length() > 0));
  return {data_ + id.offset(), id.length()};
}

size_t Page::FreeSpace() const {
  size_t lower = Lower(), upper = Upper();
  if (upper < lower + kItemIdSize) return 0;
  return upper - lower - kItemIdSize;
}

OffsetNumber Page::AddItem(std::span<const char> item) {
  OffsetNumber max = MaxOffset();
  if ((flags() & kPageFlagHasFreeLines) != 0) {
    for (OffsetNumber off = kFirstOffsetNumber; off <= max; off++) {
      if (GetItemId(off).IsUnused()) return PlaceItem(item, off, /*new_line_pointer=*/false, /*shift=*/false);
    }
    // The hint was stale: no unused slot left.
    set_flags(flags() & ~kPageFlagHasFreeLines);
  }
  return PlaceItem(item, static_cast<OffsetNumber>(max + 1), /*new_line_pointer=*/true, /*shift=*/false);
}

OffsetNumber Page::InsertItemAt(std::span<const char> item, OffsetNumber at) {
  OffsetNumber max = MaxOffset();
  assert(at >= kFirstOffsetNumber && at <= max + 1);
  return PlaceItem(item, at, /*new_line_pointer=*/true, /*shift=*/at <= max);
}

OffsetNumber Page::PlaceItem(std::span<const char> item, OffsetNumber at, bool new_line_pointer, bool shift) {
  if (item.empty() || item.size() > kMaxItemSize) return kInvalidOffsetNumber;
  size_t aligned = AlignItem(item.size());
  size_t lower = Lower(), upper = Upper();
  size_t new_lower = lower + (new_line_pointer ? kItemIdSize : 0);
  if (upper < aligned || new_lower > upper - aligned) {
    set_flags(flags() | kPageFlagPageFull);
    return kInvalidOffsetNumber;
  }
  size_t new_upper = upper - aligned;
  if (shift) {
    char* slot = data_ + kPageHeaderSize + (at - 1) * kItemIdSize;
    std::memmove(slot + kItemIdSize, slot, lower - (kPageHeaderSize + (at - 1) * kItemIdSize));
  }
  std::memcpy(data_ + new_upper, item.data(), item.size());
  if (aligned > item.size()) std::memset(data_ + new_upper + item.size(), 0, aligned - item.size());
  Store16(kPageLowerOffset, static_cast<uint16_t>(new_lower));
  Store16(kPageUpperOffset, static_cast<uint16_t>(new_upper));
  SetItemId(at, ItemId::Make(static_cast<uint16_t>(new_upper), ItemState::kNormal, static_cast<uint16_t>(item.size())));
  return at;
}

void Page::MarkItemUnused(OffsetNumber off) {
  SetItemId(off, ItemId{});
  set_flags(flags() | kPageFlagHasFreeLines);
}

void Page::MarkItemDead(OffsetNumber off) {
  ItemId id = GetItemId(off);
  SetItemId(off, ItemId::Make(id.offset(), ItemState::kDead, id.length()));
}

void Page::MarkItemRedirect(OffsetNumber off, OffsetNumber to) { SetItemId(off, ItemId::Make(to, ItemState::kRedirect, 0)); }

void Page::RemoveItem(OffsetNumber off) {
  ItemId id = GetItemId(off);
  OffsetNumber max = MaxOffset();
  size_t upper = Upper();
  if (id.state() == ItemState::kNormal || (id.state() == ItemState::kDead && id.length() > 0)) {
    // Close the hole: slide everything between upper and the item up by its size.
    size_t item_off = id.offset();
    size_t size = AlignItem(id.length());
    std::memmove(data_ + upper + size, data_ + upper, item_off - upper);
    std::memset(data_ + upper, 0, size);
    for (OffsetNumber o = kFirstOffsetNumber; o <= max; o++) {
      ItemId other = GetItemId(o);
      if (o != off && other.length() > 0 && other.state() != ItemState::kRedirect && other.offset() < item_off) {
        SetItemId(o, ItemId::Make(static_cast<uint16_t>(other.offset() + size), other.state(), other.length()));
      }
    }
    upper += size;
    Store16(kPageUpperOffset, static_cast<uint16_t>(upper));
  }
  char* slot = data_ + kPageHeaderSize + (off - 1) * kItemIdSize;
  size_t lower = Lower();
  std::memmove(slot, slot + kItemIdSize, data_ + lower - (slot + kItemIdSize));
  Store16(kPageLowerOffset, static_cast<uint16_t>(lower - kItemIdSize));
  Store32(lower - kItemIdSize, 0);
}

void Page::RepairFragmentation() {
  struct Live {
    OffsetNumber off;
    uint16_t item_off;
    uint16_t len;
  };
  std::array<Live, kBlockSize / kItemIdSize> live;  // upper bound on line pointers; on the stack, no allocation
  size_t nlive = 0;
  OffsetNumber max = MaxOffset();
  bool has_unused = false;
  for (OffsetNumber o = kFirstOffsetNumber; o <= max; o++) {
    ItemId id = GetItemId(o);
    switch (id.state()) {
      case ItemState::kNormal:
        live[nlive++] = Live{o, id.offset(), id.length()};
        break;
      case ItemState::kDead:
        SetItemId(o, ItemId::Make(0, ItemState::kDead, 0));
        break;
      case ItemState::kUnused:
        SetItemId(o, ItemId{});
        has_unused = true;
        break;
      case ItemState::kRedirect:
        break;
    }
  }
  // Pack from the highest item down: every item moves towards the special
  // space, never onto an item not yet moved (see README.md).
  std::sort(live.begin(), live.begin() + static_cast<ptrdiff_t>(nlive),
            [](const Live& a, const Live& b) { return a.item_off > b.item_off; });
  size_t upper = SpecialOffset();
  for (size_t i = 0; i < nlive; i++) {
    upper -= AlignItem(live[i].len);
    if (upper != live[i].item_off) std::memmove(data_ + upper, data_ + live[i].item_off, live[i].len);
    SetItemId(live[i].off, ItemId::Make(static_cast<uint16_t>(upper), ItemState::kNormal, live[i].len));
  }
  // Drop trailing unused line pointers.
  while (max > 0 && GetItemId(max).IsUnused()) max--;
  size_t lower = kPageHeaderSize + max * kItemIdSize;
  std::memset(data_ + lower, 0, upper - lower);
  Store16(kPageLowerOffset, static_cast<uint16_t>(lower));
  Store16(kPageUpperOffset, static_cast<uint16_t>(upper));
  has_unused = false;
  for (OffsetNumber o = kFirstOffsetNumber; o <= max && !has_unused; o++) has_unused = GetItemId(o).IsUnused();
  uint16_t f = static_cast<uint16_t>(flags() & ~(kPageFlagHasFreeLines | kPageFlagPageFull));
  set_flags(has_unused ? static_cast<uint16_t>(f | kPageFlagHasFreeLines) : f);
}

// Checksum: four independent 64-bit lanes walk the page 32 bytes at a time;
// each step is h = rotl((h ^ word) * P, 31), a bijection of h for a fixed word,
// so any single changed word changes its lane's final value. The lanes are
// seeded with the block number and combined through a 64-bit finaliser, then
// folded into 16 bits in 1..65535 (0 means "no checksum").
uint16_t Page::ComputeChecksum(BlockNumber block) const {
  constexpr uint64_t kPrime = 0x100000001B3ULL;  // FNV-1a 64-bit prime
  constexpr uint64_t kBasis = 0xCBF29CE484222325ULL;
  uint64_t h[4];
  for (int l = 0; l < 4; l++) h[l] = kBasis ^ (static_cast<uint64_t>(block) * 0x9E3779B97F4A7C15ULL + l);
  for (size_t i = 0; i < kBlockSize; i += 32) {
    for (int l = 0; l < 4; l++) {
      uint64_t w = Load64(i + 8 * static_cast<size_t>(l));
      if (i + 8 * static_cast<size_t>(l) == kPageChecksumOffset) w &= ~uint64_t{0xFFFF};  // exclude the field itself
      uint64_t x = (h[l] ^ w) * kPrime;
      h[l] = (x << 31) | (x >> 33);
    }
  }
  uint64_t r = static_cast<uint64_t>(block);
  for (int l = 0; l < 4; l++) {
    uint64_t x = h[l] + r * 0x9E3779B97F4A7C15ULL;
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBULL;
    x ^= x >> 31;
    r ^= x;
  }
  r ^= r >> 32;
  r ^= r >> 16;
  return static_cast<uint16_t>((r & 0xFFFF) % 65535 + 1);
}

bool Page::HeaderIsSane() const {
  uint16_t lower = Lower(), upper = Upper(), special = SpecialOffset();
  return SizeVersion() == kSizeVersion && lower >= kPageHeaderSize && lower <= upper && upper <= special &&
         special <= kBlockSize && special % kItemAlign == 0;
}

bool Page::Verify(BlockNumber block) const {
  if (IsNew()) return IsAllZero();
  if (!HeaderIsSane()) return false;
  return StoredChecksum() == ComputeChecksum(block);
}

}  // namespace hearth::storage
