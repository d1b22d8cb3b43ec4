#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <vector>

#include "storage/page/page.h"
#include "storage/smgr/smgr.h"
#include "storage_test_util.h"

using namespace hearth::storage;
using hearth::storage::testing::TestCluster;

namespace {

std::vector<char> PatternPage(int seed) {
  std::vector<char> p(kBlockSize);
  for (size_t i = 0; i < kBlockSize; i++) p[i] = static_cast<char>((seed * 31 + static_cast<int>(i)) & 0xFF);
  return p;
}

off_t FileSize(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) return -1;
  return st.st_size;
}

}  // namespace

TEST_CASE("smgr create/extend/read/write across segments", "[smgr]") {
  TestCluster c(16, /*segment_blocks=*/4);
  RelFileLocator rel(hearth::storage::kDefaultDatabaseId, 16384);
  REQUIRE(SmgrCreate(rel, ForkNumber::kMain).ok());
  CHECK(SmgrExists(rel, ForkNumber::kMain));
  CHECK_FALSE(SmgrExists(rel, ForkNumber::kFsm));
  CHECK_FALSE(SmgrCreate(rel, ForkNumber::kMain).ok());  // exists already
  CHECK(SmgrCreate(rel, ForkNumber::kMain, /*ok_if_exists=*/true).ok());
  CHECK(SmgrNblocks(rel, ForkNumber::kMain) == 0);

  for (BlockNumber b = 0; b < 10; b++) {
    auto page = PatternPage(static_cast<int>(b));
    REQUIRE(SmgrExtend(rel, ForkNumber::kMain, b, page.data()).ok());
    CHECK(SmgrNblocks(rel, ForkNumber::kMain) == b + 1);
  }
  // 10 blocks in segments of 4: 4 + 4 + 2.
  CHECK(FileSize(SmgrSegmentPath(rel, ForkNumber::kMain, 0)) == 4 * static_cast<off_t>(kBlockSize));
  CHECK(FileSize(SmgrSegmentPath(rel, ForkNumber::kMain, 1)) == 4 * static_cast<off_t>(kBlockSize));
  CHECK(FileSize(SmgrSegmentPath(rel, ForkNumber::kMain, 2)) == 2 * static_cast<off_t>(kBlockSize));
  CHECK(SmgrSegmentPath(rel, ForkNumber::kMain, 2) == c.dir + "/base/5/16384.2");
  CHECK(SmgrSegmentPath(rel, ForkNumber::kFsm, 0) == c.dir + "/base/5/16384_fsm");

  std::vector<char> buf(kBlockSize);
  for (BlockNumber b = 0; b < 10; b++) {
    REQUIRE(SmgrRead(rel, ForkNumber::kMain, b, buf.data()).ok());
    CHECK(buf == PatternPage(static_cast<int>(b)));
  }
  auto changed = PatternPage(99);
  REQUIRE(SmgrWrite(rel, ForkNumber::kMain, 5, changed.data()).ok());
  REQUIRE(SmgrRead(rel, ForkNumber::kMain, 5, buf.data()).ok());
  CHECK(buf == changed);
  // Beyond the end: a short read is corruption, not silence.
  Status s = SmgrRead(rel, ForkNumber::kMain, 10, buf.data());
  CHECK_FALSE(s.ok());
  // Zero extension.
  REQUIRE(SmgrExtend(rel, ForkNumber::kMain, 10, nullptr).ok());
  REQUIRE(SmgrRead(rel, ForkNumber::kMain, 10, buf.data()).ok());
  CHECK(std::vector<char>(kBlockSize, 0) == buf);
  CHECK(SmgrImmedSync(rel, ForkNumber::kMain).ok());
}

TEST_CASE("smgr keeps nblocks exact in the shared cache", "[smgr]") {
  RelFileLocator rel(hearth::storage::kDefaultDatabaseId, 20000);
  std::string dir;
  {
    TestCluster c(16, 4);
    dir = c.dir;
    REQUIRE(SmgrCreate(rel, ForkNumber::kMain).ok());
    for (BlockNumber b = 0; b < 11; b++) REQUIRE(SmgrExtend(rel, ForkNumber::kMain, b, nullptr).ok());
    REQUIRE(SmgrCachedNblocks(rel, ForkNumber::kMain).has_value());
    CHECK(*SmgrCachedNblocks(rel, ForkNumber::kMain) == 11);

    // Truncate into the middle of segment 1: segment 2 stays, empty.
    REQUIRE(SmgrTruncate(rel, ForkNumber::kMain, 6).ok());
    CHECK(*SmgrCachedNblocks(rel, ForkNumber::kMain) == 6);
    CHECK(SmgrNblocks(rel, ForkNumber::kMain) == 6);
    CHECK(FileSize(SmgrSegmentPath(rel, ForkNumber::kMain, 1)) == 2 * static_cast<off_t>(kBlockSize));
    CHECK(FileSize(SmgrSegmentPath(rel, ForkNumber::kMain, 2)) == 0);
    std::vector<char> buf(kBlockSize);
    CHECK_FALSE(SmgrRead(rel, ForkNumber::kMain, 7, buf.data()).ok());

    // A fresh segment ("server restart"): the size is learned once with lseek, then cached.
    ShmemParams p;
    p.nbuffers = 16;
    p.max_connections = 2;
    p.max_aux_processes = 1;
    auto seg2 = CreateSharedMemory(p);
    SmgrInit(dir);
    CHECK_FALSE(SmgrCachedNblocks(rel, ForkNumber::kMain).has_value());
    CHECK(SmgrNblocks(rel, ForkNumber::kMain) == 6);
    CHECK(SmgrCachedNblocks(rel, ForkNumber::kMain) == std::optional<BlockNumber>(6));
    // Growing again past a zero-length segment file works.
    for (BlockNumber b = 6; b < 9; b++) REQUIRE(SmgrExtend(rel, ForkNumber::kMain, b, nullptr).ok());
    CHECK(SmgrNblocks(rel, ForkNumber::kMain) == 9);
    CHECK(FileSize(SmgrSegmentPath(rel, ForkNumber::kMain, 2)) == static_cast<off_t>(kBlockSize));

    // Truncate at an exact segment boundary.
    REQUIRE(SmgrTruncate(rel, ForkNumber::kMain, 4).ok());
    CHECK(SmgrNblocks(rel, ForkNumber::kMain) == 4);

    // Unlink removes every segment and forgets the size.
    REQUIRE(SmgrCreate(rel, ForkNumber::kFsm).ok());
    REQUIRE(SmgrUnlinkAllForks(rel).ok());
    CHECK_FALSE(SmgrExists(rel, ForkNumber::kMain));
    CHECK_FALSE(SmgrExists(rel, ForkNumber::kFsm));
    CHECK(FileSize(SmgrSegmentPath(rel, ForkNumber::kMain, 1)) == -1);
    CHECK(FileSize(SmgrSegmentPath(rel, ForkNumber::kMain, 2)) == -1);
    // Remembered as absent: 0 blocks, no file needed to know it.
    CHECK(SmgrCachedNblocks(rel, ForkNumber::kMain) == std::optional<BlockNumber>(0));
    CHECK(SmgrNblocks(rel, ForkNumber::kMain) == 0);
  }
}

TEST_CASE("smgr size cache evicts instead of overflowing and remembers absent forks", "[smgr]") {
  TestCluster c(16, 4);  // relation_size_cache = 256 forks
  // A new main fork marks its other forks absent.
  RelFileLocator fresh(hearth::storage::kDefaultDatabaseId, 40000);
  REQUIRE(SmgrCreate(fresh, ForkNumber::kMain).ok());
  CHECK(SmgrCachedNblocks(fresh, ForkNumber::kFsm) == std::optional<BlockNumber>(0));
  CHECK_FALSE(SmgrExists(fresh, ForkNumber::kVisibilityMap));
  REQUIRE(SmgrCreate(fresh, ForkNumber::kFsm).ok());
  CHECK(SmgrExists(fresh, ForkNumber::kFsm));
  // Far more forks than the cache holds: every size stays right.
  constexpr uint32_t kRels = 3000;
  for (uint32_t i = 0; i < kRels; i++) {
    RelFileLocator r(hearth::storage::kDefaultDatabaseId, 41000 + i);
    REQUIRE(SmgrCreate(r, ForkNumber::kMain).ok());
    for (BlockNumber b = 0; b < i % 3; b++) REQUIRE(SmgrExtend(r, ForkNumber::kMain, b, nullptr).ok());
  }
  int cached = 0;
  for (uint32_t i = 0; i < kRels; i++) {
    RelFileLocator r(hearth::storage::kDefaultDatabaseId, 41000 + i);
    if (SmgrCachedNblocks(r, ForkNumber::kMain).has_value()) cached++;
    REQUIRE(SmgrNblocks(r, ForkNumber::kMain) == i % 3);
    REQUIRE(SmgrCachedNblocks(r, ForkNumber::kMain) == std::optional<BlockNumber>(i % 3));
  }
  CHECK(cached < static_cast<int>(kRels));  // some were evicted and re-read
  // A never-created fork is looked up once and then known absent.
  RelFileLocator ghost(hearth::storage::kDefaultDatabaseId, 49999);
  CHECK_FALSE(SmgrCachedNblocks(ghost, ForkNumber::kMain).has_value());
  CHECK_FALSE(SmgrExists(ghost, ForkNumber::kMain));
  CHECK(SmgrCachedNblocks(ghost, ForkNumber::kMain) == std::optional<BlockNumber>(0));
  // Creating it afterwards replaces the absent mark.
  REQUIRE(SmgrCreate(ghost, ForkNumber::kMain).ok());
  REQUIRE(SmgrExtend(ghost, ForkNumber::kMain, 0, nullptr).ok());
  CHECK(SmgrNblocks(ghost, ForkNumber::kMain) == 1);
}

TEST_CASE("smgr queues fsync requests for the checkpointer", "[smgr]") {
  TestCluster c(64, 4);
  RelFileLocator a(kDefaultDatabaseId, 30001), b(kDefaultDatabaseId, 30002);
  REQUIRE(SmgrCreate(a, ForkNumber::kMain).ok());
  REQUIRE(SmgrCreate(b, ForkNumber::kMain).ok());
  CHECK(SmgrPendingSyncRequests() == 0);
  for (BlockNumber blk = 0; blk < 8; blk++) {
    REQUIRE(SmgrExtend(a, ForkNumber::kMain, blk, nullptr).ok());
    REQUIRE(SmgrExtend(b, ForkNumber::kMain, blk, nullptr).ok());
  }
  // Consecutive duplicates are folded; at most one entry per write.
  int pending = SmgrPendingSyncRequests();
  CHECK(pending >= 4);
  CHECK(pending <= 16);
  // skip_fsync writes queue nothing.
  REQUIRE(SmgrExtend(a, ForkNumber::kMain, 8, nullptr, /*skip_fsync=*/true).ok());
  CHECK(SmgrPendingSyncRequests() == pending);
  REQUIRE(SmgrSyncPending().ok());
  CHECK(SmgrPendingSyncRequests() == 0);
  // A request for an unlinked relation is skipped, not an error.
  REQUIRE(SmgrWrite(b, ForkNumber::kMain, 0, std::vector<char>(kBlockSize, 1).data()).ok());
  REQUIRE(SmgrUnlink(b, ForkNumber::kMain).ok());
  CHECK(SmgrSyncPending().ok());
  // Filling the queue (capacity 256 here: the relation size cache's, larger
  // than the pool) with distinct segments falls back to fsync-now.
  uint64_t before = SmgrBackendFsyncCount();
  std::vector<RelFileLocator> rels;
  for (uint32_t r = 0; r < 262; r++) {
    RelFileLocator rel(hearth::storage::kDefaultDatabaseId, 40000 + r);
    rels.push_back(rel);
    REQUIRE(SmgrCreate(rel, ForkNumber::kMain).ok());
    REQUIRE(SmgrExtend(rel, ForkNumber::kMain, 0, nullptr).ok());
  }
  CHECK(SmgrBackendFsyncCount() == before + 6);
  CHECK(SmgrPendingSyncRequests() == 256);
  // Dropping relations takes their requests out of the queue.
  REQUIRE(SmgrUnlinkRelations(std::span<const RelFileLocator>(rels.data(), 100)).ok());
  CHECK(SmgrPendingSyncRequests() == 156);
  CHECK_FALSE(SmgrExists(rels[0], ForkNumber::kMain));
  CHECK(SmgrExists(rels[100], ForkNumber::kMain));
  CHECK(SmgrSyncPending().ok());
}
