// access/nbtree/nbtpage.cpp
//
// Page formatting, the metapage and small page helpers. Callers hold the
// buffer locks described in README.md.
// Principal entry points: InitBtPage, ReadMeta, ReadLocked, LogBtPages, BtCreateEmpty, BtHeight.
#include <cstring>
#include <stdexcept>

#include "access/nbtree/nbtree_internal.h"
#include "access/transam/xact.h"
#include "access/transam/xlog_fpi.h"
#include "common/error/db_error.h"

namespace hearth::nbtree {

using storage::ForkNumber;
using storage::LWLockMode;

void InitBtPage(Page p, uint16_t level, uint16_t flags, BlockNumber left, BlockNumber right) {
  p.Init(sizeof(BtOpaque));
  BtOpaque* o = Opaque(p);
  o->left = left;
  o->right = right;
  o->level = level;
  o->flags = flags;
  o->cycle_id = 0;
  o->magic = kBtPageMagic;
}

void MakeInternalItem(BlockNumber child, std::span<const char> key, std::string* out) {
  out->clear();
  out->append(reinterpret_cast<const char*>(&child), 4);
  out->append(key.data(), key.size());
}

PinnedBuffer ReadLocked(const IndexDesc& index, BlockNumber blk, LWLockMode mode) {
  PinnedBuffer b = storage::ReadBuffer(index.rel, ForkNumber::kMain, blk);
  b.Lock(mode);
  if (blk != kMetaBlock && Opaque(b.page())->magic != kBtPageMagic)
    ThrowCorrupt(index, "block " + std::to_string(blk) + " is not a btree page");
  return b;
}

void LogBtPages(std::span<PinnedBuffer> pages) {
  PinnedBuffer* ptrs[access::kMaxFpiPages];
  size_t n = 0;
  for (PinnedBuffer& b : pages) {
    if (!b.valid()) continue;
    if (n == access::kMaxFpiPages) throw std::logic_error("nbtree: one change touched too many pages to log");
    ptrs[n++] = &b;
  }
  // The xid only tags the record (page images are replayed whatever the
  // transaction's fate; a B-tree tolerates entries pointing at dead tuples).
  access::LogPageImages(std::span<PinnedBuffer* const>(ptrs, n), access::GetCurrentTransactionIdIfAny());
}

void LogBtPage(PinnedBuffer& page) { LogBtPages(std::span<PinnedBuffer>(&page, 1)); }

void ThrowCorrupt(const IndexDesc& index, const std::string& what) {
  throw DbError("XX002", "index \"" + index.name + "\" is corrupted: " + what);
}

void ReadMeta(const IndexDesc& index, BlockNumber* root, uint32_t* level) {
  PinnedBuffer b = storage::ReadBuffer(index.rel, ForkNumber::kMain, kMetaBlock);
  b.Lock(LWLockMode::kShared);
  const BtMeta* m = Meta(b.page());
  if (b.page().IsNew() || m->magic != kBtMetaMagic || m->version != kBtVersion)
    ThrowCorrupt(index, "bad metapage");
  *root = m->root;
  *level = m->level;
}

void BtCreateEmpty(const IndexDesc& index) {
  BtBuilder b(index);
  b.Finish(true);
}

int BtHeight(const IndexDesc& index) {
  BlockNumber root;
  uint32_t level;
  ReadMeta(index, &root, &level);
  return root == storage::kInvalidBlockNumber ? 0 : static_cast<int>(level) + 1;
}

}  // namespace hearth::nbtree
