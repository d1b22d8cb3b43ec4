// B-tree WAL and crash recovery in one process: inserts that split pages at
// several levels, a bottom-up build and a bulk delete are logged (images for
// a page's first change after a checkpoint, small insert / split / delete
// records after that); after a "crash" (shared memory discarded, index pages never
// written, or the index file lost entirely before any checkpoint) recovery
// rebuilds an index that verifies clean and finds every key whose WAL was
// flushed.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "wal_test_cluster.h"

#include "access/heap/heap_wal.h"
#include "access/heap/hio.h"
#include "access/nbtree/nbtree.h"
#include "access/transam/clog.h"
#include "access/transam/transam.h"
#include "access/transam/xact.h"
#include "access/transam/xlog.h"
#include "access/transam/xlog_blocks.h"
#include "access/transam/xlog_checkpoint.h"
#include "access/transam/xlog_recovery.h"
#include "access/transam/xlog_storage_records.h"
#include "storage/buffer/bufmgr.h"
#include "storage/ipc/shmem_layout.h"
#include "storage/lmgr/proc_array.h"
#include "storage/smgr/smgr.h"

using namespace hearth;
using types::Value;

namespace {

// Like wal_heap_test's cluster: Crash() throws away shared memory (buffer
// pool, unflushed WAL) and starts again through recovery.
// One-process WAL fixture (wal_test_cluster.h).
struct WalBtCluster : hearth::testing::WalTestCluster {
  WalBtCluster() : WalTestCluster(4) {}
};

void FlushWal() { access::XLogFlush(access::XLogInsertEndPosition()); }

// Long keys with a long common prefix: separators stay long, so a few
// thousand entries make a three-level tree.
std::string KeyText(int n) {
  char num[16];
  std::snprintf(num, sizeof num, "%06d", n);
  return std::string(300, 'k') + num;
}
nbtree::IndexDesc TextIndex(storage::RelFileLocator rel) {
  return nbtree::IndexDesc{rel, "bt_wal", {nbtree::KeyColumn::Asc(types::kTextOid, "k")}};
}
nbtree::ItemPointer TidFor(int n) {
  return nbtree::ItemPointer{static_cast<uint32_t>(n / 100 + 1), static_cast<uint16_t>(n % 100 + 1)};
}

void Insert(const nbtree::IndexDesc& idx, int n) {
  Value v = Value::Text(KeyText(n));
  REQUIRE(nbtree::BtInsert(idx, std::span<const Value>(&v, 1), TidFor(n)).inserted);
}

// TIDs the index returns for key n (an equality scan).
std::vector<nbtree::ItemPointer> Lookup(const nbtree::IndexDesc& idx, int n) {
  std::vector<nbtree::ScanKey> conds{{nbtree::ScanOp::kEq, {Value::Text(KeyText(n))}}};
  nbtree::BtScan scan(idx, conds);
  std::vector<nbtree::ItemPointer> out;
  nbtree::ItemPointer t;
  while (scan.Next(&t)) out.push_back(t);
  return out;
}

size_t CountAll(const nbtree::IndexDesc& idx) {
  nbtree::BtScan scan(idx, {});
  size_t n = 0;
  nbtree::ItemPointer t;
  while (scan.Next(&t)) ++n;
  return n;
}

bool Found(const nbtree::IndexDesc& idx, int n) {
  std::vector<nbtree::ItemPointer> t = Lookup(idx, n);
  return t.size() == 1 && t[0].block == TidFor(n).block && t[0].offset == TidFor(n).offset;
}

}  // namespace

TEST_CASE("btree wal: inserts with multi-level splits survive a crash", "[wal_nbtree]") {
  WalBtCluster c;
  auto rel = c.CreateRel(31000);
  nbtree::IndexDesc idx = TextIndex(rel);
  nbtree::BtCreateEmpty(idx);
  std::vector<int> order;
  for (int i = 0; i < 2000; ++i) order.push_back(i);
  std::shuffle(order.begin(), order.end(), std::mt19937(42));
  for (int n : order) Insert(idx, n);
  REQUIRE(nbtree::BtHeight(idx) >= 3);  // splits reached the internal levels and made new roots
  REQUIRE(nbtree::BtVerify(idx) == "");
  FlushWal();
  // More inserts whose WAL may or may not reach the disk before the crash.
  for (int n = 2000; n < 2020; ++n) Insert(idx, n);
  // Lose every index page written so far (no checkpoint ran since the index
  // was created): the tree comes back from WAL alone (relation creation,
  // metapage, every insert and split).
  REQUIRE(storage::SmgrTruncate(rel, storage::ForkNumber::kMain, 0).ok());
  c.Crash();
  CHECK(nbtree::BtVerify(idx) == "");
  CHECK(nbtree::BtHeight(idx) >= 3);
  int missing = 0;
  for (int n = 0; n < 2000; ++n)
    if (!Found(idx, n)) ++missing;
  CHECK(missing == 0);
  // The unflushed tail is a prefix of the insert order (or all of it).
  int tail = 0;
  for (int n = 2000; n < 2020; ++n) {
    if (Found(idx, n)) {
      CHECK(tail == n - 2000);
      ++tail;
    }
  }
  CHECK(CountAll(idx) == static_cast<size_t>(2000 + tail));
  // The recovered index takes further inserts (splits included).
  for (int n = 5000; n < 5500; ++n) Insert(idx, n);
  CHECK(nbtree::BtVerify(idx) == "");
  CHECK(CountAll(idx) == static_cast<size_t>(2500 + tail));
  // Second crash, an ordinary one (pages written by eviction or the
  // end-of-recovery checkpoint stay; the rest comes from WAL).
  FlushWal();
  c.Crash();
  CHECK(nbtree::BtVerify(idx) == "");
  CHECK(CountAll(idx) == static_cast<size_t>(2500 + tail));
  missing = 0;
  for (int n = 0; n < 2000; ++n)
    if (!Found(idx, n)) ++missing;
  for (int n = 5000; n < 5500; ++n)
    if (!Found(idx, n)) ++missing;
  CHECK(missing == 0);
}

TEST_CASE("btree wal: a built index is restored from WAL when its file never reached the disk", "[wal_nbtree]") {
  WalBtCluster c;
  auto rel = c.CreateRel(31001);
  nbtree::IndexDesc idx = TextIndex(rel);
  {
    nbtree::BtBuilder b(idx);
    for (int n = 2999; n >= 0; --n) {
      Value v = Value::Text(KeyText(n));
      b.Add(std::span<const Value>(&v, 1), TidFor(n));
    }
    REQUIRE(b.Finish() == 3000);
  }
  REQUIRE(nbtree::BtHeight(idx) >= 3);
  FlushWal();
  // Lose every page the build (or eviction) wrote: only WAL remains.
  REQUIRE(storage::SmgrTruncate(rel, storage::ForkNumber::kMain, 0).ok());
  c.Crash();
  CHECK(storage::SmgrNblocks(rel, storage::ForkNumber::kMain) > 100);
  CHECK(nbtree::BtVerify(idx) == "");
  CHECK(CountAll(idx) == 3000);
  int missing = 0;
  for (int n = 0; n < 3000; n += 7)
    if (!Found(idx, n)) ++missing;
  CHECK(missing == 0);
}

TEST_CASE("btree wal: an empty index and a bulk delete are logged", "[wal_nbtree]") {
  WalBtCluster c;
  auto empty_rel = c.CreateRel(31002);
  nbtree::IndexDesc empty = TextIndex(empty_rel);
  nbtree::BtCreateEmpty(empty);
  auto rel = c.CreateRel(31003);
  nbtree::IndexDesc idx = TextIndex(rel);
  {
    nbtree::BtBuilder b(idx);
    for (int n = 0; n < 1000; ++n) {
      Value v = Value::Text(KeyText(n));
      b.Add(std::span<const Value>(&v, 1), TidFor(n));
    }
    REQUIRE(b.Finish(true) == 1000);
  }
  nbtree::BulkDeleteStats st = nbtree::BtBulkDelete(idx, [](nbtree::ItemPointer t) {
    return (static_cast<int>(t.block - 1) * 100 + (t.offset - 1)) % 2 == 0;
  });
  REQUIRE(st.removed == 500);
  FlushWal();
  REQUIRE(storage::SmgrTruncate(rel, storage::ForkNumber::kMain, 0).ok());
  REQUIRE(storage::SmgrTruncate(empty_rel, storage::ForkNumber::kMain, 0).ok());
  c.Crash();
  CHECK(nbtree::BtVerify(empty) == "");
  CHECK(nbtree::BtHeight(empty) == 0);
  CHECK(CountAll(empty) == 0);
  CHECK(nbtree::BtVerify(idx) == "");
  CHECK(CountAll(idx) == 500);
  CHECK(Found(idx, 1));
  CHECK(Found(idx, 999));
  CHECK(Lookup(idx, 0).empty());
  CHECK(Lookup(idx, 998).empty());
  // The empty index accepts inserts after recovery (a new root is logged).
  Insert(empty, 7);
  CHECK(Found(empty, 7));
}

TEST_CASE("btree wal: after a checkpoint a page is logged whole once, then as small records", "[wal_nbtree]") {
  WalBtCluster c;
  auto rel = c.CreateRel(31004);
  nbtree::IndexDesc idx = TextIndex(rel);
  nbtree::BtCreateEmpty(idx);
  for (int n = 0; n < 10; ++n) Insert(idx, n * 10);
  access::CreateCheckPoint(false);
  const uint64_t images = access::BlockRecordImages();
  Insert(idx, 5);
  CHECK(access::BlockRecordImages() == images + 1);  // first change of the leaf since the checkpoint
  const access::XLogRecPtr before = access::XLogInsertEndPosition();
  Insert(idx, 15);
  CHECK(access::BlockRecordImages() == images + 1);  // the leaf already has its image in this cycle
  // A logical insert record: the entry (~315 bytes) plus headers, not a page.
  CHECK(access::XLogInsertEndPosition() - before < 500);
  FlushWal();
  c.Crash();
  CHECK(nbtree::BtVerify(idx) == "");
  CHECK(Found(idx, 5));
  CHECK(Found(idx, 15));
  CHECK(CountAll(idx) == 12);
}

TEST_CASE("btree wal: split, new root and vacuum records replay over pages from before a checkpoint",
          "[wal_nbtree]") {
  WalBtCluster c;
  auto rel = c.CreateRel(31005);
  nbtree::IndexDesc idx = TextIndex(rel);
  nbtree::BtCreateEmpty(idx);
  for (int n = 0; n < 400; n += 2) Insert(idx, n);  // several leaves
  REQUIRE(nbtree::BtHeight(idx) >= 2);
  // The checkpoint writes every page: recovery starts from these on-disk
  // pages and replays only what follows (images for first changes, then
  // split-left / set-left / insert / delete operations).
  access::CreateCheckPoint(false);
  for (int n = 1; n < 4000; n += 2) Insert(idx, n);  // leaf and internal splits, new roots
  REQUIRE(nbtree::BtHeight(idx) >= 3);
  nbtree::BulkDeleteStats st =
      nbtree::BtBulkDelete(idx, [](nbtree::ItemPointer t) { return t.offset % 3 == 0; });
  REQUIRE(st.removed > 0);
  const size_t remaining = CountAll(idx);
  for (int n = 4001; n < 4100; n += 2) Insert(idx, n);  // inserts into vacuumed leaves
  FlushWal();
  c.Crash();
  CHECK(c.last.replay.records > 2000);
  CHECK(nbtree::BtVerify(idx) == "");
  CHECK(CountAll(idx) == remaining + 50);
  int wrong = 0;
  for (int n = 0; n < 4000; ++n) {
    if (n % 2 == 0 && n >= 400) continue;
    if (Found(idx, n) == (TidFor(n).offset % 3 == 0)) ++wrong;
  }
  CHECK(wrong == 0);
  // Replaying the same WAL again over pages that already have it is a no-op.
  c.Crash();
  CHECK(nbtree::BtVerify(idx) == "");
  CHECK(CountAll(idx) == remaining + 50);
}

TEST_CASE("btree wal: entries a unique check removes stay removed after a crash", "[wal_nbtree]") {
  WalBtCluster c;
  auto rel = c.CreateRel(31006);
  nbtree::IndexDesc idx = TextIndex(rel);
  nbtree::BtCreateEmpty(idx);
  for (int n = 0; n < 50; ++n) Insert(idx, n);
  access::CreateCheckPoint(false);
  // Five more versions of key 7, each check finding the older ones dead to everyone.
  const nbtree::UniqueCheckFn gone = [](nbtree::ItemPointer) {
    return nbtree::UniqueProbe{nbtree::HeapTupleState::kDead, 0, true};
  };
  Value v = Value::Text(KeyText(7));
  for (uint16_t i = 0; i < 5; ++i) {
    REQUIRE(nbtree::BtInsert(idx, std::span<const Value>(&v, 1), nbtree::ItemPointer{900, static_cast<uint16_t>(i + 1)},
                             &gone)
                .inserted);
  }
  auto only_latest = [&] {
    std::vector<nbtree::ItemPointer> t = Lookup(idx, 7);
    return t.size() == 1 && t[0].block == 900 && t[0].offset == 5;
  };
  CHECK(only_latest());
  FlushWal();
  c.Crash();
  CHECK(nbtree::BtVerify(idx) == "");
  CHECK(only_latest());
  CHECK(CountAll(idx) == 50);
}
