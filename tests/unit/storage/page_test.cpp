#include <catch2/catch.hpp>
#include <cstring>
#include <string>

#include "storage/page/page.h"

using namespace hearth::storage;

namespace {

struct PageBuf {
  alignas(8) char bytes[kBlockSize];
};

std::span<const char> Bytes(const std::string& s) { return {s.data(), s.size()}; }
std::string ItemStr(const Page& p, OffsetNumber off) {
  auto item = p.GetItem(off);
  return std::string(item.data(), item.size());
}

}  // namespace

TEST_CASE("Page init lays out an empty page", "[page]") {
  PageBuf b;
  std::memset(b.bytes, 0x5A, sizeof b.bytes);
  Page p(b.bytes);
  p.Init(16);
  CHECK(p.Lower() == kPageHeaderSize);
  CHECK(p.Upper() == kBlockSize - 16);
  CHECK(p.SpecialOffset() == kBlockSize - 16);
  CHECK(p.Special().size() == 16);
  CHECK(p.MaxOffset() == 0);
  CHECK(p.FreeSpace() == kBlockSize - 16 - kPageHeaderSize - kItemIdSize);
  CHECK_FALSE(p.IsNew());
  CHECK(p.HeaderIsSane());
  CHECK(p.lsn() == 0);
  p.set_lsn(0x1122334455667788ULL);
  CHECK(p.lsn() == 0x1122334455667788ULL);
  // Bytes 0..7 hold the LSN little-endian.
  CHECK(static_cast<unsigned char>(b.bytes[0]) == 0x88);
}

TEST_CASE("Page add/get/delete/compact and free space", "[page]") {
  PageBuf b;
  Page p(b.bytes);
  p.Init(0);
  size_t free0 = p.FreeSpace();
  OffsetNumber a = p.AddItem(Bytes("alpha"));
  OffsetNumber bb = p.AddItem(Bytes("bravo-bravo-bravo"));
  OffsetNumber c = p.AddItem(Bytes("charlie"));
  REQUIRE(a == 1);
  REQUIRE(bb == 2);
  REQUIRE(c == 3);
  CHECK(p.MaxOffset() == 3);
  CHECK(ItemStr(p, 1) == "alpha");
  CHECK(ItemStr(p, 2) == "bravo-bravo-bravo");
  CHECK(ItemStr(p, 3) == "charlie");
  // 8 + 24 + 8 bytes of aligned data and 3 line pointers.
  CHECK(p.FreeSpace() == free0 - (8 + 24 + 8) - 3 * kItemIdSize);
  CHECK(reinterpret_cast<uintptr_t>(p.GetItem(2).data()) % kItemAlign == 0);

  // Delete the middle one: space comes back only after compaction.
  p.MarkItemUnused(2);
  size_t before = p.FreeSpace();
  p.RepairFragmentation();
  CHECK(p.FreeSpace() == before + 24);
  CHECK(ItemStr(p, 1) == "alpha");
  CHECK(ItemStr(p, 3) == "charlie");
  CHECK(p.GetItemId(2).IsUnused());
  // The unused slot is reused by the next add.
  CHECK(p.AddItem(Bytes("delta")) == 2);
  CHECK(ItemStr(p, 2) == "delta");
  CHECK(p.AddItem(Bytes("echo")) == 4);

  // Dead items lose their storage at compaction but keep their slot.
  p.MarkItemDead(1);
  p.RepairFragmentation();
  CHECK(p.GetItemId(1).state() == ItemState::kDead);
  CHECK(p.GetItemId(1).length() == 0);
  CHECK(ItemStr(p, 3) == "charlie");
  CHECK(ItemStr(p, 4) == "echo");

  // Trailing unused line pointers are truncated.
  p.MarkItemUnused(4);
  p.RepairFragmentation();
  CHECK(p.MaxOffset() == 3);
}

TEST_CASE("Page fills up and reports invalid offset when full", "[page]") {
  PageBuf b;
  Page p(b.bytes);
  p.Init(0);
  std::string item(100, 'x');
  int n = 0;
  while (p.AddItem(Bytes(item)) != kInvalidOffsetNumber) n++;
  // Each item takes 104 bytes of data plus a 4-byte line pointer.
  CHECK(n == static_cast<int>((kBlockSize - kPageHeaderSize) / (104 + kItemIdSize)));
  CHECK(p.FreeSpace() < 104);
  CHECK((p.flags() & kPageFlagPageFull) != 0);
  CHECK(p.AddItem(Bytes("")) == kInvalidOffsetNumber);
  std::string huge(kBlockSize, 'y');
  CHECK(p.AddItem(Bytes(huge)) == kInvalidOffsetNumber);
}

TEST_CASE("Page index-style insert and remove shift line pointers", "[page]") {
  PageBuf b;
  Page p(b.bytes);
  p.Init(8);
  REQUIRE(p.InsertItemAt(Bytes("b"), 1) == 1);
  REQUIRE(p.InsertItemAt(Bytes("d"), 2) == 2);
  REQUIRE(p.InsertItemAt(Bytes("a"), 1) == 1);
  REQUIRE(p.InsertItemAt(Bytes("c"), 3) == 3);
  REQUIRE(p.MaxOffset() == 4);
  CHECK(ItemStr(p, 1) == "a");
  CHECK(ItemStr(p, 2) == "b");
  CHECK(ItemStr(p, 3) == "c");
  CHECK(ItemStr(p, 4) == "d");
  size_t free_before = p.FreeSpace();
  p.RemoveItem(2);
  CHECK(p.MaxOffset() == 3);
  CHECK(ItemStr(p, 1) == "a");
  CHECK(ItemStr(p, 2) == "c");
  CHECK(ItemStr(p, 3) == "d");
  CHECK(p.FreeSpace() == free_before + 8 + kItemIdSize);
  CHECK(p.Special().size() == 8);
}

TEST_CASE("Page checksum detects changes and wrong block numbers", "[page]") {
  PageBuf b;
  Page p(b.bytes);
  p.Init(0);
  p.AddItem(Bytes("some tuple data"));
  p.set_lsn(42);
  p.SetChecksum(7);
  CHECK(p.StoredChecksum() != 0);
  CHECK(p.Verify(7));
  CHECK_FALSE(p.Verify(8));  // written to the wrong block
  // The checksum is stable (the field itself is excluded).
  CHECK(p.ComputeChecksum(7) == p.StoredChecksum());
  // Any single bit flip anywhere is caught.
  for (size_t off : {size_t{0}, size_t{12}, size_t{100}, kBlockSize - 1}) {
    b.bytes[off] ^= 0x10;
    CHECK_FALSE(p.Verify(7));
    b.bytes[off] ^= 0x10;
  }
  CHECK(p.Verify(7));
  // An all-zero page is a valid new page; a new page with garbage is not.
  std::memset(b.bytes, 0, kBlockSize);
  CHECK(p.IsNew());
  CHECK(p.Verify(3));
  b.bytes[5000] = 1;
  CHECK_FALSE(p.Verify(3));
}
