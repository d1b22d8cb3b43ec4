// B-tree under concurrency (forked backends sharing the buffer pool):
// concurrent inserters, and scans that run while another process splits
// pages under them, forward and backward.
#include <algorithm>
#include <random>
#include <set>

#include "common/error/db_error.h"
#include "nbtree_test_util.h"

using namespace hearth;
using namespace hearth::nbtree;
using namespace hearth::nbtree::testing;

TEST_CASE("4 processes insert 5000 keys each concurrently", "[nbtree][fork]") {
  HeapCluster c(64);
  auto rel = c.CreateRel(4000);
  IndexDesc idx = IntIndex(rel);
  BtCreateEmpty(idx);
  constexpr int kProcs = 4, kPer = 5000;
  std::vector<pid_t> pids;
  for (int p = 0; p < kProcs; ++p) {
    pids.push_back(SpawnBackend(p + 1, [&, p]() {
      std::mt19937 rng(static_cast<unsigned>(p));
      std::vector<int> mine;
      for (int i = 0; i < kPer; ++i) mine.push_back(i * kProcs + p);
      // Half the processes insert in random order, half ascending (rightmost splits).
      if (p % 2 == 0) std::shuffle(mine.begin(), mine.end(), rng);
      for (int k : mine) InsertInt(idx, k % 7000, k);  // duplicates across processes
      return storage::PrivatePinCount() == 0 ? 0 : 3;
    }));
  }
  for (pid_t pid : pids) CHECK(WaitChild(pid) == 0);
  REQUIRE(BtVerify(idx) == "");
  std::vector<ItemPointer> all = ScanAll(idx);
  REQUIRE(all.size() == static_cast<size_t>(kProcs * kPer));
  std::set<int64_t> seen;
  int64_t prev_key = -1;
  for (ItemPointer t : all) {
    int64_t n = NumberOf(t);
    seen.insert(n);
    CHECK(n % 7000 >= prev_key);  // key order
    prev_key = n % 7000;
  }
  CHECK(seen.size() == static_cast<size_t>(kProcs * kPer));
  CHECK(ScanAll(idx, ScanDirection::kBackward).size() == static_cast<size_t>(kProcs * kPer));
}

TEST_CASE("a scan concurrent with splits returns every pre-existing key exactly once", "[nbtree][fork]") {
  for (ScanDirection dir : {ScanDirection::kForward, ScanDirection::kBackward}) {
    HeapCluster c(64);
    auto rel = c.CreateRel(4100);
    IndexDesc idx = IntIndex(rel);
    // Even keys exist before the scan; the child inserts odd keys meanwhile.
    constexpr int kKeys = 30000;
    int next_key = 0;
    size_t built = BtBuild(
        idx,
        [&](std::vector<Value>* key, ItemPointer* tid) {
          if (next_key >= kKeys) return false;
          *key = {Value::Int4(next_key)};
          *tid = TidFor(next_key);
          next_key += 2;
          return true;
        },
        true);
    REQUIRE(built == kKeys / 2);
    const std::string go = c.dir + "/go";
    pid_t child = SpawnBackend(1, [&]() {
      std::vector<int> odd;
      for (int k = 1; k < kKeys; k += 2) odd.push_back(k);
      std::mt19937 rng(11);
      std::shuffle(odd.begin(), odd.end(), rng);
      FILE* f = std::fopen(go.c_str(), "w");  // tell the parent we started
      if (f) std::fclose(f);
      for (int k : odd) InsertInt(idx, k, k);
      return 0;
    });
    while (::access(go.c_str(), F_OK) != 0) usleep(100);
    BtScan scan(idx, {}, dir);
    std::set<int64_t> seen;
    int dups = 0, odd_seen = 0;
    ItemPointer t;
    int64_t prev = dir == ScanDirection::kForward ? -1 : kKeys;
    bool ordered = true;
    int i = 0;
    while (scan.Next(&t)) {
      int64_t n = NumberOf(t);
      if (!seen.insert(n).second) ++dups;
      if (n % 2 == 1) ++odd_seen;
      if (dir == ScanDirection::kForward ? n <= prev : n >= prev) ordered = false;
      prev = n;
      if (++i % 64 == 0) usleep(200);  // let the inserter split pages under us
    }
    CHECK(WaitChild(child) == 0);
    INFO("direction " << static_cast<int>(dir) << ", odd keys seen " << odd_seen);
    CHECK(dups == 0);
    CHECK(ordered);
    int missing = 0;
    for (int k = 0; k < kKeys; k += 2)
      if (!seen.count(k)) ++missing;
    CHECK(missing == 0);
    CHECK(BtVerify(idx) == "");
    CHECK(ScanAll(idx).size() == static_cast<size_t>(kKeys));
  }
}

TEST_CASE("concurrent unique inserts of the same keys: exactly one wins each key", "[nbtree][fork][unique]") {
  HeapCluster c(64);
  auto rel = c.CreateRel(4200);
  IndexDesc idx{rel, "u_key", {KeyColumn::Asc(types::kInt4Oid, "k")}};
  BtCreateEmpty(idx);
  constexpr int kProcs = 3, kKeys = 3000;
  std::vector<pid_t> pids;
  for (int p = 0; p < kProcs; ++p) {
    pids.push_back(SpawnBackend(p + 1, [&, p]() {
      UniqueCheckFn live = [](ItemPointer) { return UniqueProbe{HeapTupleState::kLive, 0}; };
      std::vector<int> keys;
      for (int k = 0; k < kKeys; ++k) keys.push_back(k);
      std::mt19937 rng(static_cast<unsigned>(p + 7));
      std::shuffle(keys.begin(), keys.end(), rng);
      int won = 0;
      for (int k : keys) {
        Value v = Value::Int4(k);
        try {
          if (BtInsert(idx, std::span<const Value>(&v, 1), TidFor(p * kKeys + k), &live).inserted) ++won;
        } catch (const DbError& e) {
          if (e.sqlstate() != "23505") return 4;
        }
      }
      const std::string path = c.dir + "/won_" + std::to_string(p);
      FILE* f = std::fopen(path.c_str(), "w");
      if (f == nullptr) return 2;
      std::fprintf(f, "%d\n", won);
      std::fclose(f);
      return 0;
    }));
  }
  for (pid_t pid : pids) CHECK(WaitChild(pid) == 0);
  int total = 0;
  for (int p = 0; p < kProcs; ++p) {
    FILE* f = std::fopen((c.dir + "/won_" + std::to_string(p)).c_str(), "r");
    REQUIRE(f != nullptr);
    int w = 0;
    REQUIRE(std::fscanf(f, "%d", &w) == 1);
    std::fclose(f);
    total += w;
  }
  CHECK(total == kKeys);
  REQUIRE(BtVerify(idx) == "");
  std::vector<ItemPointer> all = ScanAll(idx);
  CHECK(all.size() == static_cast<size_t>(kKeys));
  std::set<int64_t> keys;
  for (ItemPointer t : all) keys.insert(NumberOf(t) % kKeys);
  CHECK(keys.size() == static_cast<size_t>(kKeys));
}

TEST_CASE("bulk delete waits for a scan's pin on a leaf", "[nbtree][fork][vacuum]") {
  HeapCluster c(64);
  auto rel = c.CreateRel(4300);
  IndexDesc idx = IntIndex(rel);
  BtCreateEmpty(idx);
  for (int n = 0; n < 100; ++n) InsertInt(idx, n, n);  // one leaf
  // The vacuum runs in a child; it must not finish while our scan holds its pin.
  const std::string go = c.dir + "/vac_go";
  BtScan scan(idx, {}, ScanDirection::kForward);
  pid_t child = 0;
  {
    child = SpawnBackend(1, [&]() {
      while (::access(go.c_str(), F_OK) != 0) usleep(100);
      BulkDeleteStats st = BtBulkDelete(idx, [](ItemPointer t) { return NumberOf(t) % 2 == 0; });
      return st.removed == 50 ? 0 : 5;
    });
  }
  ItemPointer t;
  REQUIRE(scan.Next(&t));  // now pinned (batch of the whole leaf)
  FILE* f = std::fopen(go.c_str(), "w");
  REQUIRE(f != nullptr);
  std::fclose(f);
  usleep(200 * 1000);
  int status = 0;
  CHECK(waitpid(child, &status, WNOHANG) == 0);  // still waiting for the cleanup lock
  int returned = 1;
  while (scan.Next(&t)) ++returned;
  CHECK(returned == 100);  // the batch was taken before the vacuum
  CHECK(WaitChild(child) == 0);
  CHECK(ScanAll(idx).size() == 50);
  CHECK(BtVerify(idx) == "");
}
