// access/heap/hio.cpp
//
// Principal entry points: GetBufferForTuple, ReleaseInsertBuffer,
// InitHeapPage, the per-backend target-block cache.
#include "access/heap/hio.h"

#include <unordered_map>

#include "access/heap/freespace.h"
#include "access/heap/heap_tuple.h"
#include "access/heap/heap_wal.h"
#include "storage/smgr/smgr.h"

namespace hearth::heap {

struct HioAccess {
  static PinnedBuffer& Current(BulkInsertState& b) { return b.current_; }
  static TargetBuffer FromRun(RelFileLocator rel, size_t len, size_t reserve, BulkInsertState& b);
  static bool HasRun(const BulkInsertState& b, RelFileLocator rel) {
    return b.run_rel_ == rel && b.run_next_ < b.run_end_;
  }
};

namespace {

using storage::ForkNumber;
using storage::kInvalidBlockNumber;
using storage::LWLockMode;
using storage::Page;

std::unordered_map<uint64_t, BlockNumber>& TargetCache() {
  static std::unordered_map<uint64_t, BlockNumber> cache;
  return cache;
}

// How many FSM candidates to try before giving up and extending: each
// failed candidate is re-recorded with its true free space, so the map
// converges; the bound only protects against heavy concurrent churn.
constexpr int kMaxFsmAttempts = 16;

// Locks `cand` (and *other, in block order) exclusively and checks the fit.
// On success returns the target; on failure unlocks everything, records the
// page's real free space in the FSM and returns an invalid target.
bool TryCandidate(RelFileLocator rel, PinnedBuffer cand, size_t len, size_t reserve, PinnedBuffer* other,
                  TargetBuffer* out) {
  const BlockNumber b = cand.block();
  if (other != nullptr && b == other->block()) {
    cand.Release();  // the same page: use the caller's pin
    other->Lock(LWLockMode::kExclusive);
    if (PageHasRoomFor(other->page(), len, reserve)) {
      SetTargetBlock(rel, b);
      out->use_other = true;
      return true;
    }
    const size_t free = other->page().FreeSpace();
    other->Unlock();
    RecordPageWithFreeSpace(rel, b, free);
    return false;
  }
  if (other != nullptr && other->block() < b) other->Lock(LWLockMode::kExclusive);
  cand.Lock(LWLockMode::kExclusive);
  if (other != nullptr && other->block() > b) other->Lock(LWLockMode::kExclusive);
  if (cand.page().IsNew()) InitHeapPage(cand);
  if (PageHasRoomFor(cand.page(), len, reserve)) {
    SetTargetBlock(rel, b);
    out->buf = std::move(cand);
    return true;
  }
  const size_t free = cand.page().FreeSpace();
  cand.Release();
  if (other != nullptr) other->Unlock();
  RecordPageWithFreeSpace(rel, b, free);
  return false;
}

}  // namespace

void InitHeapPage(PinnedBuffer& buf) {
  buf.page().Init(0);
  buf.MarkDirty();
  HeapWalRecord rec(kHeapInfoInitPage);
  rec.Block(buf);
  rec.InitPage();
  rec.Insert(access::kInvalidTransactionId);
  // WAL: page init. The one place a heap page is formatted; PostgreSQL folds
  // it into the first insert's record (XLOG_HEAP_INIT_PAGE) — the WAL issue
  // may do the same by flagging the page as "just initialised" here.
}

BulkInsertState::BulkInsertState() : strategy_(storage::GetAccessStrategy(storage::StrategyType::kBulkWrite)) {}

void BulkInsertState::Finish() {
  current_.Release();
  for (; run_next_ < run_end_; ++run_next_) {
    RecordPageWithFreeSpace(run_rel_, run_next_, storage::kBlockSize - storage::kPageHeaderSize);
  }
}

// The next block of the load's extended run (extending the relation by a
// new run first when it is used up), exclusively locked. Normally an
// all-zero page, formatted here and returned `fresh`; VACUUM may have
// formatted (and someone filled) it meanwhile, so the page is read, not
// assumed zero, and a used page is taken only when the tuple fits.
TargetBuffer HioAccess::FromRun(RelFileLocator rel, size_t len, size_t reserve, BulkInsertState& b) {
  constexpr BlockNumber kFirstRun = 8;
  constexpr BlockNumber kMaxRun = 64;
  for (;;) {
    if (!HasRun(b, rel)) {
      b.extend_by_ = b.run_rel_ == rel ? std::min(kMaxRun, std::max(kFirstRun, b.extend_by_ * 2)) : kFirstRun;
      b.run_rel_ = rel;
      b.run_next_ = storage::ExtendRelationBy(rel, ForkNumber::kMain, b.extend_by_);
      b.run_end_ = b.run_next_ + b.extend_by_;
    }
    const BlockNumber blk = b.run_next_++;
    PinnedBuffer buf = storage::ReadBuffer(rel, ForkNumber::kMain, blk, storage::ReadMode::kNormal, b.strategy());
    buf.Lock(LWLockMode::kExclusive);
    TargetBuffer out;
    if (buf.page().IsNew()) {
      buf.page().Init(0);
      buf.MarkDirty();
      out.fresh = true;
    } else if (!PageHasRoomFor(buf.page(), len, reserve)) {
      continue;  // taken by someone else through the free-space map
    }
    SetTargetBlock(rel, blk);
    out.buf = std::move(buf);
    return out;
  }
}

TargetBuffer GetBufferForTuple(RelFileLocator rel, size_t len, int fillfactor, BulkInsertState* bulk,
                               PinnedBuffer* other) {
  const size_t reserve = FillfactorReserve(fillfactor);
  storage::BufferAccessStrategy* strategy = bulk != nullptr ? bulk->strategy() : nullptr;
  TargetBuffer out;
  // A bulk load: its kept page, then the rest of its extended run, without
  // asking for the relation size (the caller's lock keeps TRUNCATE away, so
  // neither can have been cut off).
  if (bulk != nullptr && other == nullptr) {
    PinnedBuffer& cur = HioAccess::Current(*bulk);
    if (cur.valid() && cur.rel() == rel) {
      cur.Lock(LWLockMode::kExclusive);
      if (PageHasRoomFor(cur.page(), len, reserve)) {
        out.buf = std::move(cur);
        return out;
      }
      cur.Release();
      return HioAccess::FromRun(rel, len, reserve, *bulk);
    }
    if (HioAccess::HasRun(*bulk, rel)) return HioAccess::FromRun(rel, len, reserve, *bulk);
  }
  const BlockNumber nblocks = storage::SmgrNblocks(rel, ForkNumber::kMain);
  BlockNumber tried = kInvalidBlockNumber;

  // 1. The page we used last: kept pinned by a bulk load, else from the cache.
  if (bulk != nullptr && HioAccess::Current(*bulk).valid()) {
    PinnedBuffer cur = std::move(HioAccess::Current(*bulk));
    if (cur.rel() == rel && cur.block() < nblocks) {
      tried = cur.block();
      if (TryCandidate(rel, std::move(cur), len, reserve, other, &out)) return out;
    }
  }
  if (tried == kInvalidBlockNumber) {
    const BlockNumber target = GetTargetBlock(rel);
    if (target != kInvalidBlockNumber && target < nblocks) {
      tried = target;
      PinnedBuffer cand = storage::ReadBuffer(rel, ForkNumber::kMain, target, storage::ReadMode::kNormal, strategy);
      if (TryCandidate(rel, std::move(cand), len, reserve, other, &out)) return out;
    }
  }

  // 2. A page the free-space map offers.
  for (int attempt = 0; attempt < kMaxFsmAttempts; ++attempt) {
    const BlockNumber b = GetPageWithFreeSpace(rel, access::MaxAlign(len) + reserve, nblocks);
    if (b == kInvalidBlockNumber) break;
    PinnedBuffer cand = storage::ReadBuffer(rel, ForkNumber::kMain, b, storage::ReadMode::kNormal, strategy);
    if (TryCandidate(rel, std::move(cand), len, reserve, other, &out)) return out;
  }

  // 3. A new page at the end: a bulk load extends by a run of pages.
  if (bulk != nullptr && other == nullptr) return HioAccess::FromRun(rel, len, reserve, *bulk);
  // Nobody else can know the new page yet, so locking *other after it
  // cannot deadlock (see README.md, lock order).
  PinnedBuffer nb = storage::ExtendRelation(rel, ForkNumber::kMain, strategy);
  InitHeapPage(nb);
  if (other != nullptr) other->Lock(LWLockMode::kExclusive);
  SetTargetBlock(rel, nb.block());
  out.buf = std::move(nb);
  return out;
}

void ReleaseInsertBuffer(RelFileLocator rel, PinnedBuffer&& buf, BulkInsertState* bulk) {
  if (!buf.valid()) return;
  SetTargetBlock(rel, buf.block());
  if (bulk != nullptr) {
    buf.Unlock();
    HioAccess::Current(*bulk) = std::move(buf);
  } else {
    buf.Release();
  }
}

bool PageHasRoomFor(const storage::Page& pg, size_t len, size_t reserve) {
  const size_t need = access::MaxAlign(len);
  const size_t free = pg.FreeSpace();
  if (pg.MaxOffset() == 0) return free >= need;  // an empty page takes any tuple that fits at all
  return free >= need + reserve;
}

BlockNumber GetTargetBlock(RelFileLocator rel) {
  auto& c = TargetCache();
  auto it = c.find(rel.Key());
  return it == c.end() ? kInvalidBlockNumber : it->second;
}

void SetTargetBlock(RelFileLocator rel, BlockNumber block) { TargetCache()[rel.Key()] = block; }

void ForgetTargetBlock(RelFileLocator rel) { TargetCache().erase(rel.Key()); }

void ForgetAllTargetBlocks() { TargetCache().clear(); }

}  // namespace hearth::heap
