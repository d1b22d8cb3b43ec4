// access/transam/subtrans.cpp
//
// Principal entry points: SubtransSetTopmost, SubtransGetTopmost.
//
// Entry word: subxid in the high 32 bits, top xid in the low 32 bits; 0 is
// empty. Xids are handed out in increasing order, so a direct-mapped table
// (index = xid mod size) sees consecutive subxids in consecutive entries and
// collides only with subxids kSubtransEntries older, normally long final.
#include "access/transam/subtrans.h"

#include "access/transam/snapshot.h"
#include "access/transam/transam_shared.h"
#include "common/error/db_error.h"

namespace hearth::access {

namespace {

using transam_internal::kSubtransEntries;
using transam_internal::Shared;
using transam_internal::SubtransShared;

constexpr int kProbe = 16;

uint64_t Pack(TransactionId sub, TransactionId top) { return (static_cast<uint64_t>(sub) << 32) | top; }
TransactionId SubOf(uint64_t word) { return static_cast<TransactionId>(word >> 32); }
TransactionId TopOf(uint64_t word) { return static_cast<TransactionId>(word); }

// True when the entry can take a new subxid: empty, or its subxid is below
// the reclaim horizon (see subtrans.h).
bool Reusable(uint64_t word, TransactionId horizon) { return word == 0 || SubOf(word) < horizon; }

bool TryInsert(SubtransShared& st, TransactionId subxid, TransactionId top, TransactionId horizon) {
  for (int i = 0; i < kProbe; ++i) {
    std::atomic<uint64_t>& e = st.entries[(subxid + static_cast<uint32_t>(i)) % kSubtransEntries];
    uint64_t cur = e.load(std::memory_order_acquire);
    while (Reusable(cur, horizon)) {
      if (e.compare_exchange_weak(cur, Pack(subxid, top), std::memory_order_acq_rel)) return true;
    }
  }
  return false;
}

}  // namespace

void SubtransSetTopmost(TransactionId subxid, TransactionId top) {
  SubtransShared& st = Shared()->subtrans;
  if (TryInsert(st, subxid, top, st.horizon.load(std::memory_order_acquire))) return;
  // Everything near is taken: move the horizon up and try once more.
  const TransactionId horizon = GetOldestXmin();
  TransactionId seen = st.horizon.load(std::memory_order_relaxed);
  while (seen < horizon && !st.horizon.compare_exchange_weak(seen, horizon)) {
  }
  if (TryInsert(st, subxid, top, horizon)) return;
  throw DbError(sqlstate::kOutOfMemory, "out of shared memory")
      .WithDetail("Too many subtransaction ids belong to transactions that are still running.")
      .WithHint("Commit or roll back long-running transactions that use savepoints.");
}

TransactionId SubtransGetTopmost(TransactionId xid) {
  const SubtransShared& st = Shared()->subtrans;
  for (int i = 0; i < kProbe; ++i) {
    const uint64_t word = st.entries[(xid + static_cast<uint32_t>(i)) % kSubtransEntries].load(std::memory_order_acquire);
    if (word != 0 && SubOf(word) == xid) return TopOf(word);
  }
  return kInvalidTransactionId;
}

void SubtransTopStarted() { Shared()->subtrans.tops_running.fetch_add(1, std::memory_order_seq_cst); }

void SubtransTopEnded() { Shared()->subtrans.tops_running.fetch_sub(1, std::memory_order_seq_cst); }

bool SubtransAnyRunning() { return Shared()->subtrans.tops_running.load(std::memory_order_seq_cst) > 0; }

}  // namespace hearth::access
