// tests/unit/access/xlog_group_commit_test.cpp — multi-process group commit
// (forked children share the WAL through the shared segment) and the
// commit_delay / commit_siblings rule, measured with counters, not time.
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <csignal>
#include <cstring>
#include <new>
#include <set>
#include <utility>
#include <vector>

#include "access/transam/xlog.h"
#include "access/transam/xlog_reader.h"
#include "access/transam/xlog_stats.h"
#include "xlog_test_util.h"

using namespace hearth::access;
using hearth::access::testing::InsertBytes;
using hearth::access::testing::WalCluster;
namespace storage = hearth::storage;

namespace {

struct CommitPayload {
  uint32_t proc;
  uint32_t seq;
  uint8_t filler[40];
};

// Forks `nprocs` children; child i claims proc slot i+1 and runs `body(i)`.
// Returns the number of children that failed.
template <typename Fn>
int RunChildren(int nprocs, Fn body) {
  std::vector<pid_t> pids;
  for (int i = 0; i < nprocs; i++) {
    pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      int rc = 0;
      try {
        storage::ClaimProcSlot(i + 1, storage::BackendType::kClient);
        rc = body(i) ? 0 : 1;
      } catch (...) {
        rc = 2;
      }
      _exit(rc);
    }
    pids.push_back(pid);
  }
  int failed = 0;
  for (pid_t pid : pids) {
    int status = 0;
    REQUIRE(waitpid(pid, &status, 0) == pid);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) failed++;
  }
  return failed;
}

}  // namespace

TEST_CASE("xlog: 8 processes committing share fsyncs and every record survives", "[xlog][group]") {
  const int slots = GENERATE(1, 8);
  INFO("insert slots: " << slots);
  WalCluster c(/*wal_buffers=*/32, /*segment_size=*/1024 * 1024, /*fsync=*/true);
  c.opts.insert_slots = slots;
  c.Restart();
  constexpr int kProcs = 8;
  constexpr int kCommits = 200;
  ResetWalStats();
  const int failed = RunChildren(kProcs, [](int i) {
    for (int s = 0; s < kCommits; s++) {
      CommitPayload p{};
      p.proc = static_cast<uint32_t>(i);
      p.seq = static_cast<uint32_t>(s);
      std::memset(p.filler, 0xAB, sizeof(p.filler));
      const XLogPart part{&p, sizeof(p)};
      const XLogRecPtr end =
          XLogInsert(kRmgrXact, 0, static_cast<uint32_t>(100 + i), std::span<const XLogPart>(&part, 1));
      XLogFlushCommit(end, 0, 0);
      if (XLogNeedsFlush(end)) return false;  // durable on return
    }
    return true;
  });
  CHECK(failed == 0);
  const WalStats st = GetWalStats();
  INFO("wal_sync=" << st.wal_sync << " leader=" << st.flush_leader << " follower_waits=" << st.flush_follower_waits
                   << " already=" << st.commit_already_flushed);
  CHECK(st.commit_requests == kProcs * kCommits);
  CHECK(st.wal_records == kProcs * kCommits);
  CHECK(st.commit_delays == 0);                    // commit_delay = 0
  CHECK(st.wal_sync <= st.flush_leader);           // one sync per leader flush (1 MiB segments: no segment switch)
  CHECK(st.wal_sync < kProcs * kCommits * 3 / 4);  // groups formed
  CHECK(st.flush_follower_waits + st.commit_already_flushed > 0);

  // Every commit record is readable, in per-process order.
  XLogReader reader(c.WalDir(), c.opts.segment_size);
  reader.Seek(kXLogPageHeaderSize);
  std::vector<int> next(kProcs, 0);
  int n = 0;
  while (const XLogRecordView* r = reader.ReadRecord()) {
    REQUIRE(r->payload.size() == sizeof(CommitPayload));
    CommitPayload p;
    std::memcpy(&p, r->payload.data(), sizeof(p));
    REQUIRE(p.proc < static_cast<uint32_t>(kProcs));
    CHECK(r->header.xid == 100 + p.proc);
    CHECK(p.seq == static_cast<uint32_t>(next[p.proc]));
    next[p.proc]++;
    n++;
  }
  CHECK(n == kProcs * kCommits);
  CHECK(reader.EndOfWal() == BytePosToRecPtr(RecPtrToBytePos(XLogFlushedUpTo())));
}

TEST_CASE("xlog: commit_delay is not taken by a lone committer", "[xlog][group]") {
  WalCluster c(16, 1024 * 1024, /*fsync=*/true);
  ResetWalStats();
  for (int i = 0; i < 10; i++) {
    const XLogRecPtr end = InsertBytes({1, 2, 3, 4}, kRmgrXact, 0, 50);
    XLogFlushCommit(end, /*commit_delay_us=*/2000, /*commit_siblings=*/5);
  }
  WalStats st = GetWalStats();
  CHECK(st.commit_requests == 10);
  CHECK(st.commit_delays == 0);
  CHECK(st.wal_sync == 10);  // exactly one sync per commit for one client
  // commit_siblings = 1 still needs one other active WAL writer.
  XLogFlushCommit(InsertBytes({1}, kRmgrXact, 0, 50), 2000, 1);
  CHECK(GetWalStats().commit_delays == 0);
}

TEST_CASE("xlog: commit_delay is taken when enough siblings wrote WAL", "[xlog][group]") {
  WalCluster c(16, 1024 * 1024, /*fsync=*/true);
  storage::ProcArrayShared* pa = storage::ProcArray();
  REQUIRE(pa != nullptr);
  // Three other client backends inside WAL-writing transactions.
  for (int i = 1; i <= 3; i++) {
    pa->slots[i].type.store(storage::BackendType::kClient);
    pa->slots[i].wrote_wal.store(true);
    pa->slots[i].waiting_on_lock.store(false);
  }
  REQUIRE(storage::CountActiveWalWriters(storage::MyProcNumber()) == 3);
  // Nothing is slept before a flush has been timed (the delay is capped by
  // half the average flush).
  ResetWalStats();
  XLogFlushCommit(InsertBytes({9}, kRmgrXact, 0, 60), 500, 3);
  CHECK(GetWalStats().commit_delays == 0);
  CHECK(GetWalStats().flush_time_avg > 0);
  ResetWalStats();
  for (int i = 0; i < 5; i++) XLogFlushCommit(InsertBytes({9}, kRmgrXact, 0, 60), 500, 3);
  CHECK(GetWalStats().commit_delays == 5);
  CHECK(GetWalStats().commit_delay_time <= 5 * 0.5);  // ms: never more than commit_delay each
  // Four siblings required: not enough.
  XLogFlushCommit(InsertBytes({9}, kRmgrXact, 0, 60), 500, 4);
  CHECK(GetWalStats().commit_delays == 5);
  // A sibling waiting on a lock does not count.
  pa->slots[3].waiting_on_lock.store(true);
  XLogFlushCommit(InsertBytes({9}, kRmgrXact, 0, 60), 500, 3);
  CHECK(GetWalStats().commit_delays == 5);
  // commit_delay = 0 never sleeps; fsync = off never sleeps.
  pa->slots[3].waiting_on_lock.store(false);
  XLogFlushCommit(InsertBytes({9}, kRmgrXact, 0, 60), 0, 3);
  XLogSetSyncOptions(false, WalSyncMethod::kFdatasync);
  XLogFlushCommit(InsertBytes({9}, kRmgrXact, 0, 60), 500, 3);
  CHECK(GetWalStats().commit_delays == 5);
  for (int i = 1; i <= 3; i++) {
    pa->slots[i].type.store(storage::BackendType::kUnused);
    pa->slots[i].wrote_wal.store(false);
  }
}

TEST_CASE("xlog: concurrent inserters with a small buffer ring stay consistent", "[xlog][group]") {
  // 4 processes insert big and small records into an 8-page ring (evictions
  // under contention) and flush now and then.
  const int slots = GENERATE(1, 4);
  INFO("insert slots: " << slots);
  WalCluster c(/*wal_buffers=*/8, /*segment_size=*/64 * 1024, /*fsync=*/false);
  c.opts.insert_slots = slots;
  c.Restart();
  const int failed = RunChildren(4, [](int i) {
    std::vector<uint8_t> big(20000, static_cast<uint8_t>(i));
    for (int s = 0; s < 60; s++) {
      big[0] = static_cast<uint8_t>(s);
      const size_t len = (s % 5 == 0) ? big.size() : 100 + static_cast<size_t>(s);
      const XLogPart part{big.data(), len};
      const XLogRecPtr end = XLogInsert(kRmgrTest, static_cast<uint8_t>(i), 0, std::span<const XLogPart>(&part, 1));
      if (s < 30 && s % 7 == i) XLogFlush(end);  // flushers race with evicting inserters
      // (from s = 30 on only evictions write: wal_buffers_full must grow)
    }
    return true;
  });
  CHECK(failed == 0);
  XLogBackgroundFlush();
  XLogReader reader(c.WalDir(), c.opts.segment_size);
  reader.Seek(kXLogPageHeaderSize);
  std::vector<int> next(4, 0);
  int n = 0;
  while (const XLogRecordView* r = reader.ReadRecord()) {
    const int who = r->header.info;
    REQUIRE(who < 4);
    const int s = next[who]++;
    CHECK(r->payload.size() == ((s % 5 == 0) ? 20000u : 100u + static_cast<size_t>(s)));
    CHECK(r->payload[0] == static_cast<uint8_t>(s));
    CHECK(r->payload[r->payload.size() - 1] == static_cast<uint8_t>(who));
    n++;
  }
  INFO("end: " << reader.EndReason());
  CHECK(n == 4 * 60);
  CHECK(GetWalStats().wal_buffers_full > 0);
}

TEST_CASE("xlog: every acknowledged commit survives kill -9 of all committers", "[xlog][group]") {
  WalCluster c(/*wal_buffers=*/16, /*segment_size=*/64 * 1024, /*fsync=*/true);
  constexpr int kProcs = 4;
  // acked[i] = 1 + highest seq child i saw durable (shared with the children).
  auto* acked = static_cast<std::atomic<int32_t>*>(
      mmap(nullptr, sizeof(std::atomic<int32_t>) * kProcs, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0));
  REQUIRE(acked != MAP_FAILED);
  for (int i = 0; i < kProcs; i++) new (&acked[i]) std::atomic<int32_t>(0);
  std::vector<pid_t> pids;
  for (int i = 0; i < kProcs; i++) {
    pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      try {
        storage::ClaimProcSlot(i + 1, storage::BackendType::kClient);
        for (uint32_t s = 0;; s++) {
          CommitPayload p{};
          p.proc = static_cast<uint32_t>(i);
          p.seq = s;
          const XLogPart part{&p, (s % 9 == 0) ? sizeof(p) : 12u};  // some short records
          XLogFlushCommit(XLogInsert(kRmgrXact, 0, 7, std::span<const XLogPart>(&part, 1)), 0, 0);
          acked[i].store(static_cast<int32_t>(s + 1));
        }
      } catch (...) {
        _exit(2);
      }
    }
    pids.push_back(pid);
  }
  usleep(150 * 1000);
  for (pid_t pid : pids) kill(pid, SIGKILL);
  for (pid_t pid : pids) waitpid(pid, nullptr, 0);
  // Crash: the shared memory (and any unwritten WAL buffers) is thrown away.
  c.Restart();
  std::vector<int32_t> found(kProcs, 0);
  XLogReader reader(c.WalDir(), c.opts.segment_size);
  reader.Seek(kXLogPageHeaderSize);
  while (const XLogRecordView* r = reader.ReadRecord()) {
    CommitPayload p{};
    std::memcpy(&p, r->payload.data(), std::min(r->payload.size(), sizeof(p)));
    REQUIRE(p.proc < static_cast<uint32_t>(kProcs));
    CHECK(p.seq == static_cast<uint32_t>(found[p.proc]));  // no gaps, in order
    found[p.proc]++;
  }
  for (int i = 0; i < kProcs; i++) {
    INFO("proc " << i << " acked " << acked[i].load() << " found " << found[i]);
    CHECK(acked[i].load() > 0);
    CHECK(found[i] >= acked[i].load());
  }
  CHECK(c.info.end_of_wal == reader.EndOfWal());
  munmap(acked, sizeof(std::atomic<int32_t>) * kProcs);
}
