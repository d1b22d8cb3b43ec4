// tests/unit/access/nbtree_test_util.h
//
// Helpers for the B-tree tests: a throwaway cluster (temp datadir, shared
// segment with a small buffer pool, smgr, transam; from heap_test_util.h),
// index descriptions, TIDs that encode an integer key (so a scan result can
// be checked without the heap), a full-scan helper and a fork helper.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <vector>

#include "access/nbtree/nbtree.h"
#include "heap/heap_test_util.h"

namespace hearth::nbtree::testing {

using heap::testing::HeapCluster;
using heap::testing::WaitChild;
using types::Value;

inline IndexDesc IntIndex(storage::RelFileLocator rel, std::string name = "idx") {
  return IndexDesc{rel, std::move(name), {KeyColumn::Asc(types::kInt4Oid, "k")}};
}

// TID for entry number n (unique per n): block n/200+1, offset n%200+1.
inline ItemPointer TidFor(int64_t n) {
  return ItemPointer{static_cast<uint32_t>(n / 200 + 1), static_cast<uint16_t>(n % 200 + 1)};
}
inline int64_t NumberOf(ItemPointer t) { return (static_cast<int64_t>(t.block) - 1) * 200 + (t.offset - 1); }
inline uint64_t TidOrder(ItemPointer t) { return (uint64_t{t.block} << 16) | t.offset; }

inline std::vector<ItemPointer> ScanAll(const IndexDesc& idx, ScanDirection dir = ScanDirection::kForward,
                                        std::vector<ScanKey> conds = {}) {
  BtScan scan(idx, conds, dir);
  std::vector<ItemPointer> out;
  ItemPointer t;
  while (scan.Next(&t)) out.push_back(t);
  return out;
}

inline void InsertInt(const IndexDesc& idx, int64_t key, int64_t n) {
  Value v = Value::Int4(static_cast<int32_t>(key));
  InsertResult r = BtInsert(idx, std::span<const Value>(&v, 1), TidFor(n));
  if (!r.inserted) throw std::runtime_error("insert did not happen");
}

// Runs `body` in a forked backend on proc slot `slot`; exit code = its
// return value (90 on an exception). Never returns in the child.
template <typename F>
pid_t SpawnBackend(int slot, F body) {
  REQUIRE(storage::PrivatePinCount() == 0);
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
    storage::ReleaseProcSlot();
    _exit(rc);
  }
  return pid;
}

}  // namespace hearth::nbtree::testing
