#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "common/error/db_error.h"
#include "storage/buffer/bufmgr.h"
#include "storage/page/page.h"
#include "storage/smgr/smgr.h"
#include "storage_test_util.h"

using namespace hearth::storage;
using hearth::storage::testing::TestCluster;

namespace {

constexpr ForkNumber kMain = ForkNumber::kMain;

struct Payload {
  uint64_t block;
  uint64_t value;
};

void InitPayloadPage(Page p, BlockNumber block, uint64_t value) {
  p.Init(0);
  Payload pl{block, value};
  REQUIRE(p.AddItem({reinterpret_cast<const char*>(&pl), sizeof pl}) == 1);
}

Payload* PayloadOf(Page p) { return reinterpret_cast<Payload*>(p.GetItem(1).data()); }

// Creates `rel` with n initialised, dirty pages (value = base + block).
void MakeRelation(RelFileLocator rel, BlockNumber n, uint64_t base, BufferAccessStrategy* strategy = nullptr) {
  REQUIRE(SmgrCreate(rel, kMain).ok());
  for (BlockNumber b = 0; b < n; b++) {
    PinnedBuffer buf = ExtendRelation(rel, kMain, strategy);
    REQUIRE(buf.block() == b);
    REQUIRE(buf.locked_exclusive());
    InitPayloadPage(buf.page(), b, base + b);
    buf.MarkDirty();
  }
}

uint64_t ReadValue(RelFileLocator rel, BlockNumber b, BufferAccessStrategy* strategy = nullptr) {
  ReadPageGuard g = ReadPageShared(rel, kMain, b, strategy);
  const Payload* pl = PayloadOf(g.page());
  REQUIRE(pl->block == b);
  return pl->value;
}

std::vector<char> DiskBlock(RelFileLocator rel, BlockNumber b) {
  std::vector<char> buf(kBlockSize);
  REQUIRE(SmgrRead(rel, kMain, b, buf.data()).ok());
  return buf;
}

bool Resident(RelFileLocator rel, BlockNumber b) { return LookupBuffer(rel, kMain, b).has_value(); }

}  // namespace

TEST_CASE("Buffers pin, unpin and count pins per process", "[buffer]") {
  TestCluster c(32);
  RelFileLocator rel(hearth::storage::kDefaultDatabaseId, 16384);
  MakeRelation(rel, 3, 100);
  CHECK(PrivatePinCount() == 0);
  CHECK(SmgrNblocks(rel, kMain) == 3);
  {
    PinnedBuffer a = ReadBuffer(rel, kMain, 1);
    PinnedBuffer b = ReadBuffer(rel, kMain, 1);
    CHECK(a.id() == b.id());
    BufferInfo info = GetBufferInfo(a.id());
    CHECK(info.refcount == 1);  // shared refcount counts processes, not pins
    CHECK(info.dirty);
    CHECK(info.valid);
    CHECK(info.usage_count >= 2);
    CHECK(PrivatePinCount() == 1);
    b.Release();
    CHECK(GetBufferInfo(a.id()).refcount == 1);
    PinnedBuffer moved = std::move(a);
    CHECK_FALSE(a.valid());
    CHECK(moved.valid());
  }
  CHECK(PrivatePinCount() == 0);
  CHECK(GetBufferInfo(*LookupBuffer(rel, kMain, 1)).refcount == 0);
  // Usage count is capped at 5.
  for (int i = 0; i < 10; i++) ReadBuffer(rel, kMain, 2);
  CHECK(GetBufferInfo(*LookupBuffer(rel, kMain, 2)).usage_count == 5);
  CHECK(ReadValue(rel, 0) == 100);
  CHECK(ReadValue(rel, 2) == 102);
  // FlushBuffer writes one page now (with its checksum) and clears DIRTY.
  {
    PinnedBuffer buf = ReadBuffer(rel, kMain, 2);
    buf.Lock(LWLockMode::kShared);
    REQUIRE(FlushBuffer(buf).ok());
    CHECK_FALSE(GetBufferInfo(buf.id()).dirty);
  }
  std::vector<char> disk = DiskBlock(rel, 2);
  CHECK(Page(disk.data()).Verify(2));
  CHECK(PayloadOf(Page(disk.data()))->value == 102);
}

TEST_CASE("Dirty pages are written on eviction and read back intact", "[buffer]") {
  TestCluster c(16);
  RelFileLocator rel(hearth::storage::kDefaultDatabaseId, 16385);
  MakeRelation(rel, 64, 1000);  // 64 pages through 16 buffers: most were evicted dirty
  BgWriterStats st = GetBgWriterStats();
  CHECK(st.buffers_backend >= 48);
  CHECK(st.buffers_alloc >= 64);
  for (BlockNumber b = 0; b < 64; b++) CHECK(ReadValue(rel, b) == 1000 + b);
  // Change every page, then read twice around the pool.
  for (BlockNumber b = 0; b < 64; b++) {
    WritePageGuard g = ReadPageExclusive(rel, kMain, b);
    PayloadOf(g.page())->value += 5;
    g.MarkDirty();
  }
  // The last 16 changed pages are still dirty in the pool: a checkpoint writes them.
  REQUIRE(FlushAllBuffers().ok());
  CHECK(GetBgWriterStats().buffers_checkpoint == 16);
  for (BlockNumber b = 0; b < 64; b++) CHECK(ReadValue(rel, b) == 1005 + b);
  // On disk every page carries a valid checksum for its own block number.
  for (BlockNumber b = 0; b < 64; b++) {
    std::vector<char> disk = DiskBlock(rel, b);
    Page p(disk.data());
    CHECK(p.Verify(b));
    CHECK(PayloadOf(p)->value == 1005 + b);
  }
  for (BufferId id = 0; id < NBuffers(); id++) CHECK_FALSE(GetBufferInfo(id).dirty);
}

TEST_CASE("Clock sweep keeps a hot page and evicts a cold one", "[buffer]") {
  TestCluster c(16);
  RelFileLocator rel(hearth::storage::kDefaultDatabaseId, 16386);
  MakeRelation(rel, 64, 0);
  REQUIRE(FlushAllBuffers().ok());
  RelFileLocator rels[] = {rel};
  DropRelationsBuffers(rels);  // empty pool, files intact
  CHECK(CountBuffersOfRelation(rel) == 0);
  for (int i = 0; i < 6; i++) ReadValue(rel, 0);  // hot: usage 5
  ReadValue(rel, 1);                              // cold: usage 1
  CHECK(GetBufferInfo(*LookupBuffer(rel, kMain, 0)).usage_count == 5);
  for (BlockNumber b = 2; b < 42; b++) ReadValue(rel, b);
  CHECK(Resident(rel, 0));
  CHECK_FALSE(Resident(rel, 1));
  CHECK(CountBuffersOfRelation(rel) == 16);
}

TEST_CASE("A BULKWRITE ring reuses its buffers and leaves the hot set alone", "[buffer]") {
  TestCluster c(256);
  RelFileLocator hot(kDefaultDatabaseId, 17000), bulk(kDefaultDatabaseId, 17001);
  MakeRelation(hot, 64, 0);
  for (int round = 0; round < 5; round++) {
    for (BlockNumber b = 0; b < 64; b++) ReadValue(hot, b);
  }
  auto ring = GetAccessStrategy(StrategyType::kBulkWrite);
  REQUIRE(ring != nullptr);
  CHECK(ring->ring.size() == 32);  // 16 MiB capped at 1/8 of 256 buffers
  CHECK(GetAccessStrategy(StrategyType::kBulkRead)->ring.size() == 32);
  CHECK(GetAccessStrategy(StrategyType::kNormal) == nullptr);
  uint64_t backend_before = GetBgWriterStats().buffers_backend;
  MakeRelation(bulk, 600, 5000, ring.get());
  // The bulk load lived in its ring: at most ring-size buffers hold its pages.
  CHECK(CountBuffersOfRelation(bulk) <= 32);
  CHECK(GetBgWriterStats().buffers_backend - backend_before >= 600 - 32);
  for (BlockNumber b = 0; b < 64; b++) CHECK(Resident(hot, b));
  // Everything the ring wrote reads back (through a BULKREAD ring).
  auto reader = GetAccessStrategy(StrategyType::kBulkRead);
  for (BlockNumber b = 0; b < 600; b++) CHECK(ReadValue(bulk, b, reader.get()) == 5000 + b);
  for (BlockNumber b = 0; b < 64; b++) CHECK(Resident(hot, b));
}

namespace {
int g_flush_calls = 0;
uint64_t g_max_flushed_lsn = 0;
void CountingFlush(uint64_t lsn) {
  g_flush_calls++;
  g_max_flushed_lsn = std::max(g_max_flushed_lsn, lsn);
}
bool AlwaysNeedsFlush(uint64_t lsn) { return lsn > 0; }
}  // namespace

TEST_CASE("BULKWRITE picks another victim instead of waiting for WAL", "[buffer]") {
  TestCluster c(256);
  RelFileLocator bulk(hearth::storage::kDefaultDatabaseId, 17100);
  g_flush_calls = 0;
  g_max_flushed_lsn = 0;
  SetXLogFlushHook(CountingFlush);
  SetXLogNeedsFlushHook(AlwaysNeedsFlush);
  auto ring = GetAccessStrategy(StrategyType::kBulkWrite);
  REQUIRE(SmgrCreate(bulk, kMain).ok());
  for (BlockNumber b = 0; b < 100; b++) {
    PinnedBuffer buf = ExtendRelation(bulk, kMain, ring.get());
    InitPayloadPage(buf.page(), b, b);
    buf.page().set_lsn(1000 + b);
    buf.MarkDirty();
  }
  // Every ring reuse was rejected: no write (so no WAL flush) happened and
  // the load spread into the pool.
  CHECK(CountBuffersOfRelation(bulk) == 100);
  CHECK(g_flush_calls == 0);
  CHECK(GetBgWriterStats().buffers_backend == 0);
  // A checkpoint writes them, calling the WAL hook with each page's LSN first.
  REQUIRE(FlushAllBuffers().ok());
  CHECK(g_flush_calls == 100);
  CHECK(g_max_flushed_lsn == 1099);
}

TEST_CASE("DropRelationsBuffers by lookup drops without writing", "[buffer]") {
  TestCluster c(1024);  // lookup threshold: 1024 / 32 = 32 blocks
  RelFileLocator keep(hearth::storage::kDefaultDatabaseId, 18000);
  MakeRelation(keep, 4, 0);
  std::vector<RelFileLocator> drop;
  for (uint32_t r = 0; r < 3; r++) {
    drop.emplace_back(kDefaultDatabaseId, 18100 + r);
    MakeRelation(drop.back(), 5, 0);  // on disk: zero pages (extension), in memory: dirty data
  }
  uint64_t written_before = GetBgWriterStats().buffers_backend;
  DropRelationsBuffers(drop);
  CHECK(LastDropUsedLookup());
  for (const RelFileLocator& r : drop) {
    CHECK(CountBuffersOfRelation(r) == 0);
    for (BlockNumber b = 0; b < 5; b++) CHECK(DiskBlock(r, b) == std::vector<char>(kBlockSize, 0));
  }
  CHECK(GetBgWriterStats().buffers_backend == written_before);
  CHECK(CountBuffersOfRelation(keep) == 4);
  CHECK(GetBufferInfo(*LookupBuffer(keep, kMain, 0)).dirty);
  // Dropped buffers went back to the free list and are reused.
  MakeRelation(RelFileLocator(hearth::storage::kDefaultDatabaseId, 18200), 15, 0);
  CHECK(CountBuffersOfRelation(keep) == 4);
}

TEST_CASE("DropRelationsBuffers by scan drops without writing", "[buffer]") {
  TestCluster c(256);  // lookup threshold: 8 blocks
  RelFileLocator keep(hearth::storage::kDefaultDatabaseId, 19000);
  MakeRelation(keep, 4, 0);
  SECTION("many relations: sorted array and binary search") {
    std::vector<RelFileLocator> drop;
    for (uint32_t r = 0; r < 25; r++) {
      drop.emplace_back(kDefaultDatabaseId, 19500 - r * 7);  // unsorted on purpose
      MakeRelation(drop.back(), 4, 0);
    }
    DropRelationsBuffers(drop);
    CHECK_FALSE(LastDropUsedLookup());
    for (const RelFileLocator& r : drop) {
      CHECK(CountBuffersOfRelation(r) == 0);
      for (BlockNumber b = 0; b < 4; b++) CHECK(DiskBlock(r, b) == std::vector<char>(kBlockSize, 0));
    }
  }
  SECTION("few large relations: linear match") {
    RelFileLocator drop[] = {RelFileLocator(hearth::storage::kDefaultDatabaseId, 19600), RelFileLocator(hearth::storage::kDefaultDatabaseId, 19601)};
    MakeRelation(drop[0], 40, 0);
    MakeRelation(drop[1], 40, 0);
    DropRelationsBuffers(drop);
    CHECK_FALSE(LastDropUsedLookup());
    CHECK(CountBuffersOfRelation(drop[0]) == 0);
    CHECK(CountBuffersOfRelation(drop[1]) == 0);
    CHECK(DiskBlock(drop[1], 39) == std::vector<char>(kBlockSize, 0));
  }
  CHECK(GetBgWriterStats().buffers_backend == 0);
  CHECK(CountBuffersOfRelation(keep) == 4);
}

TEST_CASE("DropRelationBuffersFrom drops the tail before a truncate", "[buffer]") {
  TestCluster c(64);
  RelFileLocator rel(hearth::storage::kDefaultDatabaseId, 19700);
  MakeRelation(rel, 10, 0);
  DropRelationBuffersFrom(rel, kMain, 6);
  for (BlockNumber b = 0; b < 10; b++) CHECK(Resident(rel, b) == (b < 6));
  REQUIRE(SmgrTruncate(rel, kMain, 6).ok());
  PinnedBuffer next = ExtendRelation(rel, kMain);
  CHECK(next.block() == 6);
  CHECK(next.page().IsNew());
}

TEST_CASE("A page with a bad checksum raises data_corrupted", "[buffer]") {
  TestCluster c(16);
  RelFileLocator rel(hearth::storage::kDefaultDatabaseId, 19800);
  MakeRelation(rel, 3, 0);
  REQUIRE(FlushAllBuffers().ok());
  RelFileLocator rels[] = {rel};
  DropRelationsBuffers(rels);
  std::vector<char> disk = DiskBlock(rel, 2);
  disk[4000] ^= 0x01;
  REQUIRE(SmgrWrite(rel, kMain, 2, disk.data()).ok());
  try {
    ReadBuffer(rel, kMain, 2);
    FAIL("expected DbError");
  } catch (const hearth::DbError& e) {
    CHECK(e.sqlstate() == "XX001");
    CHECK(e.message() == "invalid page in block 2 of relation base/5/19800");
  }
  CHECK(PrivatePinCount() == 0);
  CHECK(ReadValue(rel, 1) == 1);  // neighbours are fine
  // Reading past the end is an error too, and leaves no pin behind.
  CHECK_THROWS_AS(ReadBuffer(rel, kMain, 3), hearth::DbError);
  CHECK(PrivatePinCount() == 0);
  // Failed reads leave no buffer behind.
  CHECK_FALSE(Resident(rel, 2));
  CHECK_FALSE(Resident(rel, 3));
}

TEST_CASE("bgwriter cleans dirty buffers just ahead of the clock hand", "[buffer]") {
  TestCluster c(32);
  RelFileLocator a(kDefaultDatabaseId, 19900), b(kDefaultDatabaseId, 19901);
  MakeRelation(a, 32, 0);  // fills the pool with 32 dirty pages
  REQUIRE(FlushAllBuffers().ok());
  for (BlockNumber blk = 0; blk < 32; blk++) {
    WritePageGuard g = ReadPageExclusive(a, kMain, blk);
    PayloadOf(g.page())->value = 700 + blk;
    g.MarkDirty();
  }
  MakeRelation(b, 16, 0);  // the sweep zeroes usage counts and evicts 16 of a's pages
  uint64_t clean_before = GetBgWriterStats().buffers_clean;
  BgWriterSettings settings;
  settings.lru_maxpages = 100;
  bool hibernate = BgBufferSync(settings);
  CHECK_FALSE(hibernate);
  uint64_t cleaned = GetBgWriterStats().buffers_clean - clean_before;
  CHECK(cleaned == 16);
  int dirty_a = 0;
  for (BlockNumber blk = 0; blk < 32; blk++) {
    if (auto id = LookupBuffer(a, kMain, blk)) dirty_a += GetBufferInfo(*id).dirty ? 1 : 0;
    CHECK(PayloadOf(Page(DiskBlock(a, blk).data()))->value == 700 + blk);
  }
  CHECK(dirty_a == 0);
  // A round with a tight lru_maxpages stops early and counts it.
  MakeRelation(RelFileLocator(hearth::storage::kDefaultDatabaseId, 19902), 24, 0);  // re-dirties the pool and sweeps usage to 0
  settings.lru_maxpages = 1;
  uint64_t maxw = GetBgWriterStats().maxwritten_clean;
  BgBufferSync(settings);
  CHECK(GetBgWriterStats().maxwritten_clean == maxw + 1);
}

namespace {

constexpr int kWorkers = 4;
// HEARTH_STORAGE_STRESS=<n> multiplies the work for a longer manual stress run.
int StressFactor() {
  const char* v = getenv("HEARTH_STORAGE_STRESS");
  return v != nullptr && atoi(v) > 0 ? atoi(v) : 1;
}
const int kIncrementsPerWorker = 3000 * StressFactor();
constexpr BlockNumber kRelBlocks = 64;

BlockNumber WorkerBlock(int worker, int i) {
  return static_cast<BlockNumber>((static_cast<unsigned>(i) * 7u + static_cast<unsigned>(worker) * 13u +
                                   static_cast<unsigned>(i / 64)) % kRelBlocks);
}

int RunWorker(RelFileLocator rel, int worker) {
  try {
    for (int i = 0; i < kIncrementsPerWorker; i++) {
      BlockNumber blk = WorkerBlock(worker, i);
      WritePageGuard g = ReadPageExclusive(rel, ForkNumber::kMain, blk);
      Payload* pl = PayloadOf(g.page());
      if (pl->block != blk) return 3;
      pl->value = pl->value + 1;
      g.MarkDirty();
    }
    return PrivatePinCount() == 0 ? 0 : 4;
  } catch (...) {
    return 2;
  }
}

}  // namespace

TEST_CASE("Four processes increment page counters through 16 shared buffers", "[buffer][multiprocess]") {
  TestCluster c(16);
  RelFileLocator rel(hearth::storage::kDefaultDatabaseId, 20100);
  MakeRelation(rel, kRelBlocks, 0);
  for (BlockNumber b = 0; b < kRelBlocks; b++) {
    WritePageGuard g = ReadPageExclusive(rel, kMain, b);
    PayloadOf(g.page())->value = 0;
    g.MarkDirty();
  }
  REQUIRE(PrivatePinCount() == 0);
  std::vector<pid_t> pids;
  for (int w = 0; w < kWorkers; w++) {
    pid_t pid = fork();
    if (pid == 0) _exit(RunWorker(rel, w));
    pids.push_back(pid);
  }
  for (pid_t p : pids) {
    int status = 0;
    waitpid(p, &status, 0);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
  }
  std::vector<uint64_t> expected(kRelBlocks, 0);
  for (int w = 0; w < kWorkers; w++) {
    for (int i = 0; i < kIncrementsPerWorker; i++) expected[WorkerBlock(w, i)]++;
  }
  uint64_t total = 0;
  for (BlockNumber b = 0; b < kRelBlocks; b++) {
    uint64_t v = ReadValue(rel, b);
    CHECK(v == expected[b]);
    total += v;
  }
  CHECK(total == static_cast<uint64_t>(kWorkers) * kIncrementsPerWorker);
  for (BufferId id = 0; id < NBuffers(); id++) CHECK(GetBufferInfo(id).refcount == 0);
  REQUIRE(FlushAllBuffers().ok());
  RelFileLocator rels[] = {rel};
  DropRelationsBuffers(rels);
  for (BlockNumber b = 0; b < kRelBlocks; b++) {
    std::vector<char> disk = DiskBlock(rel, b);
    Page p(disk.data());
    CHECK(p.Verify(b));
    CHECK(PayloadOf(p)->value == expected[b]);
  }
}

TEST_CASE("Concurrent extension from several processes never hands out a block twice", "[buffer][multiprocess]") {
  TestCluster c(32);
  RelFileLocator rel(hearth::storage::kDefaultDatabaseId, 20200);
  REQUIRE(SmgrCreate(rel, kMain).ok());
  constexpr int kPerWorker = 50;
  std::vector<pid_t> pids;
  for (int w = 0; w < kWorkers; w++) {
    pid_t pid = fork();
    if (pid == 0) {
      int rc = 0;
      try {
        for (int i = 0; i < kPerWorker; i++) {
          PinnedBuffer buf = ExtendRelation(rel, kMain);
          Page p = buf.page();
          if (!p.IsNew()) rc = 3;
          p.Init(0);
          Payload pl{buf.block(), static_cast<uint64_t>(w + 1)};
          if (p.AddItem({reinterpret_cast<const char*>(&pl), sizeof pl}) != 1) rc = 4;
          buf.MarkDirty();
        }
      } catch (...) {
        rc = 2;
      }
      _exit(rc);
    }
    pids.push_back(pid);
  }
  for (pid_t p : pids) {
    int status = 0;
    waitpid(p, &status, 0);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
  }
  REQUIRE(SmgrNblocks(rel, kMain) == static_cast<BlockNumber>(kWorkers * kPerWorker));
  std::vector<int> per_worker(kWorkers + 1, 0);
  for (BlockNumber b = 0; b < SmgrNblocks(rel, kMain); b++) {
    uint64_t w = ReadValue(rel, b);  // also checks payload.block == b
    REQUIRE(w >= 1);
    REQUIRE(w <= static_cast<uint64_t>(kWorkers));
    per_worker[w]++;
  }
  for (int w = 1; w <= kWorkers; w++) CHECK(per_worker[static_cast<size_t>(w)] == kPerWorker);
}
