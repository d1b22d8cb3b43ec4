// access/heap/heapam.cpp
//
// Principal entry points: HeapInsert, HeapMultiInsert, HeapDelete,
// HeapUpdate, HeapLockTuple, HeapFetch, HeapGetLatestVersion.
//
// The "may I modify it" loop (ModifyPrologue) is shared by delete, update
// and lock: exclusive-lock the page, ask TupleSatisfiesUpdate, and on
// kBeingModified (with wait) unlock, XactLockTableWait(xmax) keeping the pin,
// and ask again — the tuple may have been re-locked or changed meanwhile.
#include "access/heap/heapam.h"

#include <algorithm>
#include <stdexcept>

#include "access/heap/heap_lock.h"
#include "access/heap/heap_wal.h"
#include "access/transam/xlog.h"
#include "access/heap/pruneheap.h"
#include "access/heap/heapam_internal.h"
#include "access/transam/xact.h"
#include "access/heap/heap_toast.h"
#include "storage/lmgr/lock.h"
#include "storage/smgr/smgr.h"

namespace hearth::heap {

namespace {

using access::HeapTupleHeaderSetXmax;
using access::kHeapHintBits;
using access::kHeapXmaxInvalid;
using access::kHeapXmaxLockOnly;
using access::TupleSatisfiesMVCC;
using access::TupleSatisfiesUpdate;
using storage::ForkNumber;
using storage::LWLockMode;
using storage::OffsetNumber;
using storage::Page;

// A bulk batch's tail is held back when writing it would leave at least
// this much of its page free (HeapMultiInsertFormed, hold_partial_tail).
constexpr size_t kHoldBackSlack = storage::kBlockSize / 8;

// Scratch buffers reused by every call in this process (no per-row allocation).
std::vector<char>& FormScratch() {
  static std::vector<char> buf;
  return buf;
}

HeapTupleHeaderData* Header(std::vector<char>& t) { return reinterpret_cast<HeapTupleHeaderData*>(t.data()); }

// Forms a new version of `rel`, toasting it when the relation has TOAST.
void FormVersion(RelFileLocator rel, const TupleDesc& desc, const Row& row, TransactionId xid, CommandId cid,
                 const HeapInsertOptions& opts, std::span<const toast::ToastPointer> reusable, std::vector<char>* out,
                 std::vector<toast::ToastPointer>* stored) {
  if (opts.toast == nullptr) {
    HeapFormTuple(desc, row, out);
    return;
  }
  HeapFormToasted(rel, desc, row, *opts.toast, xid, cid, reusable, out, stored);
}

// The out-of-line values of the version at `tid` (an UPDATE may keep them).
void ReadExternalPointers(RelFileLocator rel, const TupleDesc& desc, ItemPointer tid,
                          std::vector<toast::ToastPointer>* out) {
  PinnedBuffer buf = storage::ReadBuffer(rel, ForkNumber::kMain, tid.block);
  buf.Lock(LWLockMode::kShared);
  const Page pg = buf.page();
  if (tid.offset < storage::kFirstOffsetNumber || tid.offset > pg.MaxOffset() || !pg.GetItemId(tid.offset).IsNormal()) {
    return;
  }
  const std::span<char> item = pg.GetItem(tid.offset);
  const auto* tup = reinterpret_cast<const HeapTupleHeaderData*>(item.data());
  if ((tup->t_infomask & access::kHeapHasExternal) != 0) CollectExternalPointers(desc, tup, item.size(), out);
}

// After an UPDATE: deletes the old version's out-of-line values the new
// version `t` does not keep.
void DropReplacedValues(RelFileLocator rel, const TupleDesc& desc, std::vector<char>& t,
                        std::vector<toast::ToastPointer>* dropped, TransactionId xid, CommandId cid) {
  std::vector<toast::ToastPointer> kept;
  if ((Header(t)->t_infomask & access::kHeapHasExternal) != 0) CollectExternalPointers(desc, Header(t), t.size(), &kept);
  std::erase_if(*dropped, [&](const toast::ToastPointer& p) {
    return std::any_of(kept.begin(), kept.end(), [&](const toast::ToastPointer& k) { return k.valueid == p.valueid; });
  });
  DeleteToastValues(rel, *dropped, xid, cid);
}

bool RowHasToastTag(const Row& row) {
  for (const types::Value& v : row) {
    if (toast::TaggedValueId(v) != 0) return true;
  }
  return false;
}

// The live tuple at `off`, or nullptr when the line pointer is out of range
// or not normal. REQUIRES: the page is content-locked.
HeapTupleHeaderData* NormalTuple(const Page& pg, OffsetNumber off, size_t* len = nullptr) {
  if (off < storage::kFirstOffsetNumber || off > pg.MaxOffset()) return nullptr;
  if (!pg.GetItemId(off).IsNormal()) return nullptr;
  std::span<char> item = pg.GetItem(off);
  if (len != nullptr) *len = item.size();
  return reinterpret_cast<HeapTupleHeaderData*>(item.data());
}

// MVCC fields of a version about to be inserted by (xid, cid).
void StampInsert(HeapTupleHeaderData* t, TransactionId xid, CommandId cid) {
  t->t_xmin = xid;
  t->t_xmax = access::kInvalidTransactionId;
  t->t_cid = cid;
  t->t_infomask = static_cast<uint16_t>((t->t_infomask & ~(kHeapHintBits | access::kHeapComboCid |
                                                            kHeapXmaxLockOnly | access::kHeapUpdated)) |
                                        kHeapXmaxInvalid);
}

// Copies a formed tuple onto the locked page and points its t_ctid at itself.
OffsetNumber PutTuple(PinnedBuffer& buf, const char* data, size_t len) {
  Page pg = buf.page();
  OffsetNumber off = pg.AddItem(std::span<const char>(data, len));
  if (off == storage::kInvalidOffsetNumber) throw std::logic_error("heap: tuple does not fit on the chosen page");
  NormalTuple(pg, off)->set_ctid(ItemPointer{buf.block(), off});
  return off;
}

// Remembers on the page that a version on it may become prunable once `xid`
// is old enough (a hint for a future opportunistic prune; vacuum ignores it).
void NotePrunable(Page pg, TransactionId xid) {
  if (pg.prune_xid() == 0 || xid < pg.prune_xid()) pg.set_prune_xid(xid);
}

// After a delete or super-delete changed the header of the version at
// `off` (page exclusively locked): prunable hint, dirty, WAL.
void MarkDeleted(PinnedBuffer& buf, OffsetNumber off, TransactionId xid) {
  NotePrunable(buf.page(), xid);
  buf.MarkDirty();
  // WAL: delete, or super-delete (the header with xmin marked invalid).
  HeapWalRecord rec(kHeapInfoDelete);
  rec.Block(buf);
  rec.SetHeader(off);
  rec.Insert(xid);
}

void FillFailure(TmFailureData* fd, const HeapTupleHeaderData* tup, ItemPointer tid, TmResult r) {
  if (fd == nullptr) return;
  fd->ctid = (tup != nullptr && r == TmResult::kUpdated) ? tup->ctid() : tid;
  fd->xmax = tup != nullptr ? tup->t_xmax : access::kInvalidTransactionId;
  fd->cmax = (tup != nullptr && r == TmResult::kSelfUpdated) ? access::HeapTupleHeaderGetCmax(*tup)
                                                             : access::kInvalidCommandId;
}

// Row-locks the version for xid (xmax with kHeapXmaxLockOnly). REQUIRES: the
// page exclusively locked and TupleSatisfiesUpdate said kOk.
void MarkTupleLocked(PinnedBuffer& buf, HeapTupleHeaderData* tup, OffsetNumber off, TransactionId xid, CommandId cid) {
  if (tup->t_xmax == xid && (tup->t_infomask & kHeapXmaxLockOnly) != 0 &&
      (tup->t_infomask & (kHeapXmaxInvalid | access::kHeapXmaxKeyShrLock | access::kHeapXmaxExclLock |
                          access::kHeapXmaxIsMulti)) == 0) {
    return;  // already ours, FOR UPDATE strength (heap_lock.h encoding)
  }
  HeapTupleHeaderSetXmax(*tup, xid, cid, /*is_update=*/false, /*lock_only=*/true);
  buf.MarkDirty();
  // WAL: lock (row lock by xmax; also the temporary lock of a cross-page update).
  HeapWalRecord rec(kHeapInfoLock);
  rec.Block(buf);
  rec.SetHeader(off);
  rec.Insert(xid);
}

}  // namespace

// The modify prologue (heapam_internal.h).
TmResult LockForModify(RelFileLocator rel, ItemPointer tid, TransactionId xid, CommandId cid,
                       const Snapshot* crosscheck, access::RowLockMode mode, bool wait, PinnedBuffer* buf,
                       HeapTupleHeaderData** tup_out, TmFailureData* fd) {
  *tup_out = nullptr;
  if (tid.block >= storage::SmgrNblocks(rel, ForkNumber::kMain)) {
    FillFailure(fd, nullptr, tid, TmResult::kInvisible);
    return TmResult::kInvisible;
  }
  *buf = storage::ReadBuffer(rel, ForkNumber::kMain, tid.block);
  for (;;) {
    buf->Lock(LWLockMode::kExclusive);
    HeapTupleHeaderData* tup = NormalTuple(buf->page(), tid.offset);
    if (tup == nullptr) {
      FillFailure(fd, nullptr, tid, TmResult::kInvisible);
      return TmResult::kInvisible;
    }
    bool hints = false;
    TmResult r = TupleSatisfiesUpdate(*tup, cid, xid, &hints);
    if (hints) buf->MarkDirtyHint();
    TransactionId xwait = tup->t_xmax;
    // Row locks (heap_lock.h): only a holder of a conflicting mode blocks.
    if (LockersDecide(*tup, r)) {
      r = RowLockConflicts(*tup, xid, mode, &xwait) ? TmResult::kBeingModified : TmResult::kOk;
    }
    if (r == TmResult::kBeingModified && wait) {
      buf->Unlock();  // never sleep on a lock while holding a content lock
      storage::XactLockTableWait(xwait);
      continue;
    }
    if (r == TmResult::kOk && crosscheck != nullptr && !TupleSatisfiesMVCC(*tup, *crosscheck, xid, &hints)) {
      r = TmResult::kUpdated;
    }
    *tup_out = tup;
    if (r != TmResult::kOk) FillFailure(fd, tup, tid, r);
    if (r == TmResult::kBeingModified && fd != nullptr) fd->xmax = xwait;
    return r;
  }
}

ItemPointer HeapInsert(RelFileLocator rel, const TupleDesc& desc, const Row& row, TransactionId xid, CommandId cid,
                       const HeapInsertOptions& opts) {
  if (!access::TransactionIdIsValid(xid)) throw std::logic_error("HeapInsert: no transaction id");
  std::vector<char>& t = FormScratch();
  std::vector<toast::ToastPointer> stored;
  FormVersion(rel, desc, row, xid, cid, opts, {}, &t, &stored);  // throws 54000 before any page is touched
  StampInsert(Header(t), xid, cid);
  access::XLogEnsureSpaceForChange();  // a full disk: 53100 before any page is touched
  TargetBuffer target = GetBufferForTuple(rel, t.size(), opts.fillfactor, opts.bulk);
  const OffsetNumber off = PutTuple(target.buf, t.data(), t.size());
  target.buf.MarkDirty();
  // WAL: insert (one tuple).
  {
    HeapWalRecord rec(kHeapInfoInsert);
    rec.Block(target.buf, /*force_image=*/target.fresh);
    rec.PutTuple(off);
    rec.Insert(xid);
  }
  const ItemPointer tid{target.buf.block(), off};
  ReleaseInsertBuffer(rel, std::move(target.buf), opts.bulk);
  return tid;
}

void HeapMultiInsert(RelFileLocator rel, const TupleDesc& desc, std::span<const Row> rows, TransactionId xid,
                     CommandId cid, const HeapInsertOptions& opts, std::vector<ItemPointer>* tids) {
  // Form everything first (an oversized row fails before anything is written).
  static std::vector<char> arena;
  static std::vector<size_t> starts;
  static std::vector<std::span<char>> tuples;
  arena.clear();
  starts.clear();
  tuples.clear();
  std::vector<char>& t = FormScratch();
  static std::vector<size_t> lens;
  lens.clear();
  std::vector<toast::ToastPointer> stored;
  for (const Row& row : rows) {
    FormVersion(rel, desc, row, xid, cid, opts, {}, &t, &stored);
    starts.push_back(arena.size());
    lens.push_back(t.size());
    // Keep each tuple 8-aligned in the arena so its header can be used in place.
    arena.insert(arena.end(), t.begin(), t.end());
    arena.resize(access::MaxAlign(arena.size()));
  }
  for (size_t i = 0; i < starts.size(); ++i) tuples.emplace_back(arena.data() + starts[i], lens[i]);
  HeapMultiInsertFormed(rel, tuples, xid, cid, opts, tids);
}

size_t HeapMultiInsertFormed(RelFileLocator rel, std::span<const std::span<char>> tuples, TransactionId xid,
                             CommandId cid, const HeapInsertOptions& opts, std::vector<ItemPointer>* tids,
                             bool hold_partial_tail) {
  if (!access::TransactionIdIsValid(xid)) throw std::logic_error("HeapMultiInsert: no transaction id");
  for (const std::span<char>& tup : tuples) {
    auto* t = reinterpret_cast<HeapTupleHeaderData*>(tup.data());
    StampInsert(t, xid, cid);
    // Logged as part of the tuple, so redo keeps the frozen bits.
    if (opts.frozen) t->t_infomask |= access::kHeapXminFrozen;
  }
  const size_t reserve = FillfactorReserve(opts.fillfactor);
  const size_t n = tuples.size();
  // Page space the tuples from k on need (aligned, with line pointers).
  static std::vector<size_t> need_from;
  if (hold_partial_tail) {
    need_from.assign(n + 1, 0);
    for (size_t k = n; k-- > 0;) {
      need_from[k] = need_from[k + 1] + access::MaxAlign(tuples[k].size()) + storage::kItemIdSize;
    }
  }
  size_t i = 0;
  while (i < n) {
    // Per page: a batch may log megabytes. 53100 here leaves the pages
    // filled so far logged (the transaction aborts) and this one untouched.
    access::XLogEnsureSpaceForChange();
    TargetBuffer target = GetBufferForTuple(rel, tuples[i].size(), opts.fillfactor, opts.bulk);
    if (hold_partial_tail && opts.bulk != nullptr &&
        target.buf.page().FreeSpace() >= need_from[i] + reserve + kHoldBackSlack) {
      // The rest would leave this page well short of full: keep them for
      // the caller's next batch, which continues on this page (kept pinned
      // by the bulk state; formatted but unlogged, so its first record
      // carries it whole).
      ReleaseInsertBuffer(rel, std::move(target.buf), opts.bulk);
      return i;
    }
    HeapWalRecord rec(kHeapInfoMultiInsert);
    // A page formatted just now goes into the record whole (no init record).
    rec.Block(target.buf, /*force_image=*/target.fresh);
    bool first = true;
    while (i < n && (first || PageHasRoomFor(target.buf.page(), tuples[i].size(), reserve))) {
      const OffsetNumber off = PutTuple(target.buf, tuples[i].data(), tuples[i].size());
      rec.PutTuple(off);
      if (tids != nullptr) tids->push_back(ItemPointer{target.buf.block(), off});
      first = false;
      ++i;
    }
    target.buf.MarkDirty();
    // WAL: multi-insert (all tuples this page received, one record).
    rec.Insert(xid);
    ReleaseInsertBuffer(rel, std::move(target.buf), opts.bulk);
  }
  return n;
}

TmResult HeapDelete(RelFileLocator rel, ItemPointer tid, TransactionId xid, CommandId cid,
                    const Snapshot* crosscheck, bool wait, TmFailureData* fd, const TupleDesc* toast_desc) {
  access::XLogEnsureSpaceForChange();  // a full disk: 53100 before the tuple is touched
  PinnedBuffer buf;
  HeapTupleHeaderData* tup = nullptr;
  TmResult r = LockForModify(rel, tid, xid, cid, crosscheck, access::RowLockMode::kUpdate, wait, &buf, &tup, fd);
  if (r != TmResult::kOk) return r;
  HeapTupleHeaderSetXmax(*tup, xid, cid, /*is_update=*/false, /*lock_only=*/false);
  tup->set_ctid(tid);  // a delete ends the chain here
  std::vector<toast::ToastPointer> dropped;
  if (toast_desc != nullptr && (tup->t_infomask & access::kHeapHasExternal) != 0) {
    CollectExternalPointers(*toast_desc, tup, buf.page().GetItemId(tid.offset).length(), &dropped);
  }
  MarkDeleted(buf, tid.offset, xid);
  buf.Release();  // the toast relation is changed with no heap page locked
  DeleteToastValues(rel, dropped, xid, cid);
  return TmResult::kOk;
}

void HeapSuperDelete(RelFileLocator rel, ItemPointer tid, TransactionId xid) {
  PinnedBuffer buf = storage::ReadBuffer(rel, ForkNumber::kMain, tid.block);
  buf.Lock(LWLockMode::kExclusive);
  HeapTupleHeaderData* tup = NormalTuple(buf.page(), tid.offset);
  if (tup == nullptr || tup->t_xmin != xid) throw std::logic_error("HeapSuperDelete: not a version of this transaction");
  // Every visibility check looks at this hint first: nobody treats the
  // version as inserted any more, whatever the fate of xid.
  tup->t_infomask = static_cast<uint16_t>((tup->t_infomask & ~access::kHeapXminCommitted) | access::kHeapXminInvalid);
  MarkDeleted(buf, tid.offset, xid);
}

bool HeapVersionVisibleOrMine(RelFileLocator rel, ItemPointer tid, const Snapshot& snap, TransactionId my_xid) {
  if (tid.block >= storage::SmgrNblocks(rel, ForkNumber::kMain)) return false;
  PinnedBuffer buf = storage::ReadBuffer(rel, ForkNumber::kMain, tid.block);
  buf.Lock(LWLockMode::kShared);
  HeapTupleHeaderData* tup = NormalTuple(buf.page(), tid.offset);
  if (tup == nullptr) return false;
  if (access::TransactionIdIsMine(tup->t_xmin, my_xid)) return true;
  bool hints = false;
  const bool visible = TupleSatisfiesMVCC(*tup, snap, my_xid, &hints);
  if (hints) buf.MarkDirtyHint();
  return visible;
}

TmResult HeapUpdate(RelFileLocator rel, ItemPointer otid, const TupleDesc& desc, const Row& newrow, TransactionId xid,
                    CommandId cid, const Snapshot* crosscheck, bool wait, TmFailureData* fd, ItemPointer* new_tid,
                    const HeapInsertOptions& opts, HotUpdate* hot) {
  if (hot != nullptr) hot->was_hot = false;
  std::vector<char>& t = FormScratch();
  std::vector<toast::ToastPointer> reusable;
  std::vector<toast::ToastPointer> stored;
  if (opts.toast != nullptr && RowHasToastTag(newrow)) ReadExternalPointers(rel, desc, otid, &reusable);
  FormVersion(rel, desc, newrow, xid, cid, opts, reusable, &t, &stored);  // 54000 before anything is locked
  StampInsert(Header(t), xid, cid);
  access::XLogEnsureSpaceForChange();  // and 53100 on a full disk
  PinnedBuffer obuf;
  HeapTupleHeaderData* old = nullptr;
  const access::RowLockMode mode = opts.key_update ? access::RowLockMode::kUpdate : access::RowLockMode::kNoKeyUpdate;
  TmResult r = LockForModify(rel, otid, xid, cid, crosscheck, mode, wait, &obuf, &old, fd);
  if (r != TmResult::kOk) {
    obuf.Release();
    DeleteToastValues(rel, stored, xid, cid);  // the values stored for the version not made
    return r;
  }
  KeyShareLockers key_share;  // FOR KEY SHARE holders a non-key update lets stay
  key_share.Collect(*old, xid, Header(t));

  // Where the new version goes: the old page when it fits there (fillfactor is
  // not applied: keeping versions together is what it reserved room for),
  // else another page. For the latter, row-lock the old version first so
  // nobody can change it while its page is unlocked, then lock both pages
  // in block order (GetBufferForTuple).
  TargetBuffer target;
  PinnedBuffer* nbuf = &obuf;
  // A full page first loses the versions nobody can see any more (their
  // data move: re-find the old version afterwards).
  if (!PageHasRoomFor(obuf.page(), t.size(), 0) && HeapPagePruneOpt(obuf)) {
    old = NormalTuple(obuf.page(), otid.offset);
  }
  if (!PageHasRoomFor(obuf.page(), t.size(), 0)) {
    MarkTupleLocked(obuf, old, otid.offset, xid, cid);
    obuf.Unlock();
    target = GetBufferForTuple(rel, t.size(), opts.fillfactor, opts.bulk, &obuf);
    if (!target.use_other) nbuf = &target.buf;
  }
  // HOT: same page and no indexed column changed (compared before the old
  // version is touched; its data stay in place: our pin blocks compaction).
  const bool is_hot = hot != nullptr && nbuf == &obuf &&
                      HeapAttrsEqual(desc, old, obuf.page().GetItemId(otid.offset).length(), Header(t), t.size(),
                                     hot->indexed_attrs);
  if (is_hot) Header(t)->t_infomask2 |= access::kHeapOnlyTuple;
  const OffsetNumber off = PutTuple(*nbuf, t.data(), t.size());
  const ItemPointer ntid{nbuf->block(), off};
  old = NormalTuple(obuf.page(), otid.offset);  // still in place: our pin blocks compaction
  HeapTupleHeaderSetXmax(*old, xid, cid, /*is_update=*/true, /*lock_only=*/false);
  old->set_ctid(ntid);
  // (A flag left by an aborted HOT update must not survive a cold one.)
  if (is_hot) {
    old->t_infomask2 |= access::kHeapHotUpdated;
  } else {
    old->t_infomask2 &= static_cast<uint16_t>(~access::kHeapHotUpdated);
  }
  if (hot != nullptr) hot->was_hot = is_hot;
  key_share.KeepOnOldVersion(*old, xid, cid);
  NotePrunable(obuf.page(), xid);
  obuf.MarkDirty();
  if (nbuf != &obuf) nbuf->MarkDirty();
  // WAL: update (one record: the old page and, when different, the new one).
  {
    HeapWalRecord rec(kHeapInfoUpdate);
    rec.Block(obuf);
    rec.SetHeader(otid.offset);
    if (nbuf != &obuf) rec.Block(*nbuf);
    rec.PutTuple(off);
    rec.Insert(xid);
  }
  std::vector<toast::ToastPointer> dropped;
  if (opts.toast != nullptr && (old->t_infomask & access::kHeapHasExternal) != 0) {
    CollectExternalPointers(desc, old, obuf.page().GetItemId(otid.offset).length(), &dropped);
  }
  if (target.buf.valid()) ReleaseInsertBuffer(rel, std::move(target.buf), opts.bulk);
  obuf.Release();
  if (new_tid != nullptr) *new_tid = ntid;
  if (!dropped.empty()) DropReplacedValues(rel, desc, t, &dropped, xid, cid);
  return TmResult::kOk;
}

TmResult HeapLockTuple(RelFileLocator rel, ItemPointer tid, TransactionId xid, CommandId cid, bool wait,
                       TmFailureData* fd) {
  TmResult r = HeapLockRow(rel, tid, xid, cid, access::RowLockMode::kUpdate,
                           wait ? RowLockWait::kBlock : RowLockWait::kError, fd);
  return r == TmResult::kWouldBlock ? TmResult::kBeingModified : r;
}

bool HeapFetch(RelFileLocator rel, const TupleDesc& desc, ItemPointer tid, const Snapshot& snap,
               TransactionId my_xid, Row* out, ItemPointer* found) {
  if (tid.block >= storage::SmgrNblocks(rel, ForkNumber::kMain)) return false;
  PinnedBuffer buf = storage::ReadBuffer(rel, ForkNumber::kMain, tid.block);
  HeapPagePruneOnRead(buf, snap.xmin);
  buf.Lock(LWLockMode::kShared);
  const Page pg = buf.page();
  OffsetNumber off = tid.offset;
  TransactionId prior_xmax = access::kInvalidTransactionId;
  bool hints = false;
  bool visible = false;
  bool pending = false;
  // Walk the HOT chain: at most one step per line pointer on the page.
  for (int steps = 0; steps <= pg.MaxOffset() && !visible; ++steps) {
    if (off < storage::kFirstOffsetNumber || off > pg.MaxOffset()) break;
    const storage::ItemId id = pg.GetItemId(off);
    if (id.state() == storage::ItemState::kRedirect && steps == 0) {
      off = id.offset();  // the root was pruned away: its chain goes on there
      continue;
    }
    if (!id.IsNormal()) break;
    auto* tup = reinterpret_cast<HeapTupleHeaderData*>(pg.GetItem(off).data());
    // A slot reused after pruning holds an unrelated tuple: the chain ends.
    if (access::TransactionIdIsValid(prior_xmax) && tup->t_xmin != prior_xmax) break;
    visible = TupleSatisfiesMVCC(*tup, snap, my_xid, &hints);
    if (visible) {
      if (out != nullptr) pending = HeapDeformTuple(desc, tup, id.length(), out);
      if (found != nullptr) *found = ItemPointer{tid.block, off};
      break;
    }
    if (!tup->hot_updated() || tup->ctid().block != tid.block) break;
    prior_xmax = tup->t_xmax;
    off = tup->ctid().offset;
  }
  if (hints) buf.MarkDirtyHint();
  if (pending) {
    buf.Release();  // out-of-line values are read with no heap page locked
    DetoastRow(rel, out);
  }
  return visible;
}

bool HeapGetLatestVersion(RelFileLocator rel, const TupleDesc& desc, ItemPointer tid, const Snapshot& snap,
                          TransactionId my_xid, ItemPointer* latest, Row* out) {
  const BlockNumber nblocks = storage::SmgrNblocks(rel, ForkNumber::kMain);
  ItemPointer cur = tid;
  TransactionId prior_xmax = access::kInvalidTransactionId;
  bool found = false;
  bool pending = false;
  // Chains are acyclic (each link goes to a version with a larger xmin), so
  // the bound only guards against a corrupt page.
  for (int hops = 0; hops < 1'000'000; ++hops) {
    if (cur.block >= nblocks) break;
    PinnedBuffer buf = storage::ReadBuffer(rel, ForkNumber::kMain, cur.block);
    buf.Lock(LWLockMode::kShared);
    if (hops == 0 && cur.offset >= storage::kFirstOffsetNumber && cur.offset <= buf.page().MaxOffset() &&
        buf.page().GetItemId(cur.offset).state() == storage::ItemState::kRedirect) {
      cur.offset = buf.page().GetItemId(cur.offset).offset();  // a pruned HOT root
    }
    size_t len = 0;
    HeapTupleHeaderData* tup = NormalTuple(buf.page(), cur.offset, &len);
    if (tup == nullptr) break;
    // A slot reused after vacuum holds an unrelated tuple: the chain ends.
    if (access::TransactionIdIsValid(prior_xmax) && tup->t_xmin != prior_xmax) break;
    bool hints = false;
    if (TupleSatisfiesMVCC(*tup, snap, my_xid, &hints)) {
      found = true;
      if (latest != nullptr) *latest = cur;
      if (out != nullptr) pending = HeapDeformTuple(desc, tup, len, out);
    }
    if (hints) buf.MarkDirtyHint();
    const uint16_t mask = tup->t_infomask;
    const ItemPointer next = tup->ctid();
    if (!access::TransactionIdIsValid(tup->t_xmax) || (mask & kHeapXmaxInvalid) != 0 ||
        (mask & kHeapXmaxLockOnly) != 0 || (mask & access::kHeapUpdated) == 0 || next == cur) {
      break;
    }
    prior_xmax = tup->t_xmax;
    cur = next;
  }
  if (found && pending) DetoastRow(rel, out);
  return found;
}

}  // namespace hearth::heap
