// Heap operations from several forked processes: concurrent inserts into one
// relation, an updater waiting for a concurrent updater's commit, and
// another backend's uncommitted insert.
#include <time.h>

#include <chrono>
#include <cstdio>
#include <set>
#include <thread>

#include <catch2/catch.hpp>

#include "access/heap/heapam.h"
#include "access/heap/heapscan.h"
#include "access/heap/vacuumlazy.h"
#include "heap_test_util.h"

using namespace hearth;
using namespace hearth::heap;
using hearth::heap::testing::HeapCluster;
using hearth::heap::testing::WaitChild;
using types::Value;

namespace {

const TupleDesc& Desc() {
  static const TupleDesc d = TupleDesc::FromTypes({types::kInt4Oid, types::kTextOid});
  return d;
}

// Runs `body` in a forked "backend" on proc slot `slot`; its return value is
// the exit code (90 on an exception). Never returns in the child.
template <typename F>
pid_t Spawn(int slot, F body) {
  REQUIRE(storage::PrivatePinCount() == 0);  // pins must not cross fork
  REQUIRE_FALSE(access::IsTransactionInProgress());
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    int rc = 0;
    try {
      storage::ClaimProcSlot(slot, storage::BackendType::kClient);
      rc = body();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "child %d: %s\n", slot, e.what());
      rc = 90;
    }
    access::AbortTransaction();
    storage::ReleaseProcSlot();
    _exit(rc);
  }
  return pid;
}

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

TEST_CASE("4 processes insert concurrently: every row once, no TID twice", "[heap][fork]") {
  HeapCluster c(32);
  auto rel = c.CreateRel(200);
  constexpr int kProcs = 4;
  constexpr int kRows = 600;
  std::vector<pid_t> pids;
  for (int p = 1; p <= kProcs; ++p) {
    pids.push_back(Spawn(p, [&, p]() {
      const std::string path = c.dir + "/tids_" + std::to_string(p);
      FILE* f = std::fopen(path.c_str(), "wb");
      if (f == nullptr) return 2;
      access::StartTransaction();
      const auto xid = access::GetCurrentTransactionId();
      const auto cid = access::GetCurrentCommandId(true);
      std::vector<ItemPointer> tids;
      if (p % 2 == 1) {
        for (int i = 0; i < kRows; ++i) {
          tids.push_back(HeapInsert(rel, Desc(), Row{Value::Int4(p * 100000 + i), Value::Text(std::string(50, 'a' + p))},
                                    xid, cid));
        }
      } else {  // COPY-style: batches through a bulk state
        BulkInsertState bulk;
        HeapInsertOptions opts;
        opts.bulk = &bulk;
        std::vector<Row> batch;
        for (int i = 0; i < kRows; ++i) {
          batch.push_back(Row{Value::Int4(p * 100000 + i), Value::Text(std::string(50, 'a' + p))});
          if (batch.size() == 50) {
            HeapMultiInsert(rel, Desc(), batch, xid, cid, opts, &tids);
            batch.clear();
          }
        }
      }
      access::CommitTransaction();
      const size_t n = std::fwrite(tids.data(), sizeof(ItemPointer), tids.size(), f);
      std::fclose(f);
      return n == static_cast<size_t>(kRows) ? 0 : 3;
    }));
  }
  for (pid_t pid : pids) CHECK(WaitChild(pid) == 0);

  // Every child's TIDs are distinct across all children.
  std::set<std::pair<uint32_t, uint16_t>> child_tids;
  for (int p = 1; p <= kProcs; ++p) {
    const std::string path = c.dir + "/tids_" + std::to_string(p);
    FILE* f = std::fopen(path.c_str(), "rb");
    REQUIRE(f != nullptr);
    ItemPointer tid;
    while (std::fread(&tid, sizeof(tid), 1, f) == 1) child_tids.insert({tid.block, tid.offset});
    std::fclose(f);
  }
  CHECK(child_tids.size() == static_cast<size_t>(kProcs * kRows));

  // The scan sees every row exactly once, at the TIDs the children got.
  access::StartTransaction();
  HeapScan scan(rel, Desc(), access::GetTransactionSnapshot(), access::kInvalidTransactionId);
  Row row;
  ItemPointer tid;
  std::set<int64_t> ids;
  std::set<std::pair<uint32_t, uint16_t>> scan_tids;
  int n = 0;
  while (scan.Next(&row, &tid)) {
    ++n;
    ids.insert(row[0].i);
    scan_tids.insert({tid.block, tid.offset});
    const int p = static_cast<int>(row[0].i / 100000);
    CHECK(row[1].str == std::string(50, 'a' + p));
  }
  access::CommitTransaction();
  CHECK(n == kProcs * kRows);
  CHECK(ids.size() == static_cast<size_t>(kProcs * kRows));
  CHECK(scan_tids == child_tids);
  // 88-byte tuples + line pointer: 88 per page; no page wasted beyond one per process.
  const auto nblocks = storage::SmgrNblocks(rel, storage::ForkNumber::kMain);
  CHECK(nblocks <= (kProcs * kRows + 87) / 88 + kProcs);
}

TEST_CASE("a concurrent updater waits for the first to commit, then gets Updated", "[heap][fork]") {
  HeapCluster c(32);
  auto rel = c.CreateRel(201);
  access::StartTransaction();
  const ItemPointer tid0 = HeapInsert(rel, Desc(), Row{Value::Int4(1), Value::Text("orig")},
                                      access::GetCurrentTransactionId(), access::GetCurrentCommandId(true));
  access::CommitTransaction();

  int go[2], res[2];
  REQUIRE(pipe(go) == 0);
  REQUIRE(pipe(res) == 0);
  struct Result {
    TmResult nowait;
    access::TransactionId nowait_xmax;
    TmResult waited;
    ItemPointer ctid;
    int64_t waited_ms;
    bool found_latest;
    ItemPointer latest;
    char latest_value[16];
    TmResult second;
  };
  pid_t pid = Spawn(1, [&]() {
    char b;
    if (read(go[0], &b, 1) != 1) return 2;
    Result r{};
    access::StartTransaction();
    const auto xid = access::GetCurrentTransactionId();
    const auto cid = access::GetCurrentCommandId(true);
    TmFailureData fd;
    r.nowait = HeapLockTuple(rel, tid0, xid, cid, /*wait=*/false, &fd);
    r.nowait_xmax = fd.xmax;
    const int64_t t0 = NowMs();
    ItemPointer nt;
    r.waited = HeapUpdate(rel, tid0, Desc(), Row{Value::Int4(1), Value::Text("child")}, xid, cid, nullptr,
                          /*wait=*/true, &fd, &nt);
    r.waited_ms = NowMs() - t0;
    r.ctid = fd.ctid;
    // Read Committed re-check: the newest version under a fresh snapshot.
    Row latest_row;
    r.found_latest = HeapGetLatestVersion(rel, Desc(), fd.ctid, access::GetLatestSnapshot(), xid, &r.latest, &latest_row);
    if (r.found_latest) {
      std::snprintf(r.latest_value, sizeof(r.latest_value), "%s", latest_row[1].str.c_str());
      r.second = HeapUpdate(rel, r.latest, Desc(), Row{Value::Int4(1), Value::Text(latest_row[1].str + "+child")},
                            xid, cid, nullptr, true, &fd, &nt);
    }
    access::CommitTransaction();
    return write(res[1], &r, sizeof(r)) == static_cast<ssize_t>(sizeof(r)) ? 0 : 3;
  });

  access::StartTransaction();
  const auto xid1 = access::GetCurrentTransactionId();
  ItemPointer nt1;
  TmFailureData fd;
  REQUIRE(HeapUpdate(rel, tid0, Desc(), Row{Value::Int4(1), Value::Text("parent")}, xid1,
                     access::GetCurrentCommandId(true), nullptr, true, &fd, &nt1) == TmResult::kOk);
  REQUIRE(storage::PrivatePinCount() == 0);
  REQUIRE(write(go[1], "g", 1) == 1);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  int status = 0;
  CHECK(waitpid(pid, &status, WNOHANG) == 0);  // still blocked on our xid
  CHECK(storage::GetLockStatus(storage::LockTag::Transaction(xid1)).waiters == 1);
  access::CommitTransaction();

  Result r{};
  REQUIRE(read(res[0], &r, sizeof(r)) == static_cast<ssize_t>(sizeof(r)));
  CHECK(WaitChild(pid) == 0);
  CHECK(r.nowait == TmResult::kBeingModified);
  CHECK(r.nowait_xmax == xid1);
  CHECK(r.waited == TmResult::kUpdated);
  CHECK(r.ctid == nt1);
  CHECK(r.waited_ms >= 250);
  CHECK(r.found_latest);
  CHECK(r.latest == nt1);
  CHECK(std::string(r.latest_value) == "parent");
  CHECK(r.second == TmResult::kOk);

  access::StartTransaction();
  HeapScan scan(rel, Desc(), access::GetTransactionSnapshot(), access::kInvalidTransactionId);
  Row row;
  REQUIRE(scan.Next(&row));
  CHECK(row[1].str == "parent+child");
  CHECK_FALSE(scan.Next(&row));
  access::CommitTransaction();
  for (int fdn : {go[0], go[1], res[0], res[1]}) close(fdn);
}

TEST_CASE("another backend's uncommitted insert is invisible and not vacuumed", "[heap][fork][mvcc]") {
  HeapCluster c(32);
  auto rel = c.CreateRel(202);
  int ready[2], go[2];
  REQUIRE(pipe(ready) == 0);
  REQUIRE(pipe(go) == 0);
  pid_t pid = Spawn(1, [&]() {
    access::StartTransaction();
    ItemPointer tid = HeapInsert(rel, Desc(), Row{Value::Int4(5), Value::Text("pending")},
                                 access::GetCurrentTransactionId(), access::GetCurrentCommandId(true));
    if (write(ready[1], &tid, sizeof(tid)) != static_cast<ssize_t>(sizeof(tid))) return 2;
    char b;
    if (read(go[0], &b, 1) != 1) return 3;
    access::CommitTransaction();
    return 0;
  });
  ItemPointer tid;
  REQUIRE(read(ready[0], &tid, sizeof(tid)) == static_cast<ssize_t>(sizeof(tid)));

  access::StartTransaction();
  const auto xid = access::GetCurrentTransactionId();
  Row row;
  CHECK_FALSE(HeapFetch(rel, Desc(), tid, access::GetTransactionSnapshot(), xid, &row));
  HeapScan scan(rel, Desc(), access::GetTransactionSnapshot(), xid);
  CHECK_FALSE(scan.Next(&row));
  TmFailureData fd;
  CHECK(HeapDelete(rel, tid, xid, access::GetCurrentCommandId(true), nullptr, false, &fd) == TmResult::kInvisible);
  access::CommitTransaction();
  VacuumStats vs = HeapVacuumRelation(rel, access::GetOldestXmin());
  CHECK(vs.tuples_removed == 0);
  CHECK(vs.tuples_live == 1);

  REQUIRE(write(go[1], "g", 1) == 1);
  CHECK(WaitChild(pid) == 0);
  access::StartTransaction();
  REQUIRE(HeapFetch(rel, Desc(), tid, access::GetTransactionSnapshot(), access::kInvalidTransactionId, &row));
  CHECK(row[1].str == "pending");
  access::CommitTransaction();
  for (int fdn : {ready[0], ready[1], go[0], go[1]}) close(fdn);
}

TEST_CASE("3 processes increment one row under Read Committed while vacuum runs", "[heap][fork][vacuum]") {
  HeapCluster c(32);
  auto rel = c.CreateRel(203);
  // A wide row: successive versions spill to other pages now and then.
  const std::string pad(1500, 'w');
  access::StartTransaction();
  HeapInsert(rel, Desc(), Row{Value::Int4(0), Value::Text(pad)}, access::GetCurrentTransactionId(),
             access::GetCurrentCommandId(true));
  access::CommitTransaction();
  constexpr int kProcs = 3;
  constexpr int kIncrements = 40;
  std::vector<pid_t> pids;
  for (int p = 1; p <= kProcs; ++p) {
    pids.push_back(Spawn(p, [&]() {
      for (int k = 0; k < kIncrements; ++k) {
        access::StartTransaction();
        const auto xid = access::GetCurrentTransactionId();
        const auto cid = access::GetCurrentCommandId(true);
        Row row;
        ItemPointer tid;
        {
          HeapScan scan(rel, Desc(), access::GetTransactionSnapshot(), xid);
          if (!scan.Next(&row, &tid)) return 4;
        }
        for (;;) {
          TmFailureData fd;
          ItemPointer nt;
          TmResult r = HeapUpdate(rel, tid, Desc(), Row{Value::Int4(static_cast<int32_t>(row[0].i + 1)), Value::Text(pad)},
                                  xid, cid, nullptr, /*wait=*/true, &fd, &nt);
          if (r == TmResult::kOk) break;
          if (r != TmResult::kUpdated) return 5;
          // Read Committed: re-read the newest version and try again on it.
          if (!HeapGetLatestVersion(rel, Desc(), fd.ctid, access::GetLatestSnapshot(), xid, &tid, &row)) return 6;
        }
        access::CommitTransaction();
        std::this_thread::sleep_for(std::chrono::milliseconds(1));  // let vacuum interleave
      }
      return 0;
    }));
  }
  // Vacuum concurrently until every child is done.
  int running = kProcs;
  std::vector<bool> done(kProcs, false);
  uint64_t removed_concurrently = 0;
  int passes = 0;
  while (running > 0) {
    VacuumStats pass = HeapVacuumRelation(rel, access::GetOldestXmin());
    removed_concurrently += pass.tuples_removed;
    ++passes;
    for (int i = 0; i < kProcs; ++i) {
      int status = 0;
      if (!done[static_cast<size_t>(i)] && waitpid(pids[static_cast<size_t>(i)], &status, WNOHANG) == pids[static_cast<size_t>(i)]) {
        done[static_cast<size_t>(i)] = true;
        --running;
        CHECK(WIFEXITED(status));
        CHECK(WEXITSTATUS(status) == 0);
      }
    }
  }
  access::StartTransaction();
  HeapScan scan(rel, Desc(), access::GetTransactionSnapshot(), access::kInvalidTransactionId);
  Row row;
  REQUIRE(scan.Next(&row));
  CHECK(row[0].i == kProcs * kIncrements);
  CHECK_FALSE(scan.Next(&row));
  access::CommitTransaction();
  VacuumStats vs = HeapVacuumRelation(rel, access::GetOldestXmin());
  CHECK(vs.tuples_live == 1);
  CHECK(vs.tuples_recently_dead == 0);
  // Every old version was removed exactly once, during the run or now.
  CHECK(removed_concurrently + vs.tuples_removed == static_cast<uint64_t>(kProcs * kIncrements));
  CHECK(passes >= 1);
  INFO("vacuum passes during the run: " << passes << ", relation pages: " << vs.pages);
}
