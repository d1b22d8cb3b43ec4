// access/heap/heap_toast.cpp
//
// Principal entry points: HeapFormToasted (the toaster), DetoastRow,
// DeleteToastValues, EnsureToastRelation, HeapVacuumToast. Chunk storage is
// in toast_chunks.cpp.
#include "access/heap/heap_toast.h"

#include <algorithm>
#include <cstring>
#include <unordered_set>

#include "access/heap/toast_chunks.h"
#include "access/heap/vacuumlazy.h"
#include "access/transam/crc32c.h"
#include "access/transam/xlog_storage_records.h"
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "storage/lmgr/lock.h"
#include "storage/smgr/smgr.h"

namespace hearth::heap {

namespace {

using toast::ToastPointer;
using types::Value;

constexpr uint32_t kToastRelBit = 0x80000000u;
constexpr uint32_t kToastIndexBits = 0xC0000000u;
constexpr uint32_t kToastNumberMask = 0x3FFFFFFFu;

uint32_t (*g_alloc_value_id)() = nullptr;

// Toast relations this backend has seen exist (numbers are never reused).
std::unordered_set<uint32_t>& KnownToastRelations() {
  static std::unordered_set<uint32_t> known;
  return known;
}

char StorageOf(const ToastOptions& opts, int i) {
  return opts.storage.empty() ? 'x' : opts.storage[static_cast<size_t>(i)];
}
bool CompressionOn(const ToastOptions& opts) { return opts.compress; }

// One column the toaster may work on.
struct Candidate {
  bool varlena = false;
  bool done_compress = false;  // tried (or not to be tried)
  bool external = false;
};

// The toaster's state for one row: the attribute forms chosen so far.
class Toaster {
 public:
  Toaster(RelFileLocator heap, const TupleDesc& desc, const Row& row, const ToastOptions& opts,
          access::TransactionId xid, access::CommandId cid, std::vector<std::string>* enc,
          std::vector<ToastPointer>* stored)
      : heap_(heap), desc_(desc), row_(row), opts_(opts), xid_(xid), cid_(cid), enc_(*enc), stored_(stored) {
    cand_.resize(static_cast<size_t>(desc.natts()));
    for (int i = 0; i < desc.natts(); ++i) {
      const Value& v = row[static_cast<size_t>(i)];
      cand_[static_cast<size_t>(i)].varlena = desc.col(i).kind == AttrKind::kVarlena && !v.is_null;
      if (cand_[static_cast<size_t>(i)].varlena && v.str.size() > toast::kMaxVarlenaPayload) {
        throw DbError(sqlstate::kProgramLimitExceeded, "value too large to store: " + std::to_string(v.str.size()) +
                                                           " bytes (the maximum is 1 GB)");
      }
    }
  }

  // Keeps the old version's pointer for each value read from it unchanged.
  void Reuse(std::span<const ToastPointer> reusable) {
    for (size_t i = 0; i < cand_.size(); ++i) {
      if (!cand_[i].varlena) continue;
      const uint32_t id = toast::TaggedValueId(row_[i]);
      if (id == 0) continue;
      for (const ToastPointer& p : reusable) {
        if (p.valueid != id || p.rawsize != row_[i].str.size()) continue;
        if (access::Crc32c(row_[i].str.data(), row_[i].str.size()) != p.crc) continue;
        enc_[i] = toast::FormExternalAttr(p);
        cand_[i].external = cand_[i].done_compress = true;
        break;
      }
    }
  }

  size_t Size() const { return HeapComputeTupleSize(desc_, row_, enc_); }

  // The widest attribute still inline whose storage is in `storages`
  // (and, for compression, not tried yet); -1 when none is wider than a pointer.
  int Widest(std::string_view storages, bool for_compress) const {
    int best = -1;
    size_t best_width = toast::kExternalAttrSize;
    for (size_t i = 0; i < cand_.size(); ++i) {
      const Candidate& c = cand_[i];
      if (!c.varlena || c.external || (for_compress && c.done_compress)) continue;
      if (storages.find(StorageOf(opts_, static_cast<int>(i))) == std::string_view::npos) continue;
      const size_t w = Width(i);
      if (w > best_width) {
        best = static_cast<int>(i);
        best_width = w;
      }
    }
    return best;
  }

  size_t Width(size_t i) const { return enc_[i].empty() ? 4 + row_[i].str.size() : enc_[i].size(); }

  void Compress(int i) {
    Candidate& c = cand_[static_cast<size_t>(i)];
    c.done_compress = true;
    if (!CompressionOn(opts_)) return;
    std::string attr;
    if (toast::FormCompressedAttr(row_[static_cast<size_t>(i)].str, &attr)) enc_[static_cast<size_t>(i)] = std::move(attr);
  }

  void MoveOut(int i) {
    const size_t k = static_cast<size_t>(i);
    const std::string& raw = row_[k].str;
    ToastPointer p;
    p.rawsize = static_cast<uint32_t>(raw.size());
    p.toastrelid = opts_.toastrelid;
    p.crc = access::Crc32c(raw.data(), raw.size());
    if (g_alloc_value_id == nullptr) throw DbError(sqlstate::kInternalError, "TOAST is not available here");
    p.valueid = g_alloc_value_id();
    std::string_view data = raw;
    if (!enc_[k].empty()) {  // compressed: store the compressed bytes
      data = std::string_view(enc_[k]).substr(8);
      p.method = static_cast<uint8_t>(toast::Compression::kLz4);
    }
    p.extsize = static_cast<uint32_t>(data.size());
    EnsureToastRelation(heap_);
    StoreToastChunks(ToastRelOf(heap_), ToastIndexDesc(heap_), p.valueid, data, xid_, cid_);
    stored_->push_back(p);
    enc_[k] = toast::FormExternalAttr(p);
    cand_[k].external = true;
  }

  // PostgreSQL's order: compress EXTENDED values widest first, move
  // EXTENDED/EXTERNAL values out, then compress MAIN values, and move MAIN
  // values out only when the row does not fit on a page otherwise.
  void Run() {
    for (int i; Size() > kToastTupleThreshold && (i = Widest("x", true)) >= 0;) Compress(i);
    for (int i; Size() > kToastTupleThreshold && (i = Widest("xe", false)) >= 0;) MoveOut(i);
    for (int i; Size() > kToastTupleThreshold && (i = Widest("m", true)) >= 0;) Compress(i);
    for (int i; Size() > kMaxHeapTupleSize && (i = Widest("m", false)) >= 0;) MoveOut(i);
  }

 private:
  RelFileLocator heap_;
  const TupleDesc& desc_;
  const Row& row_;
  const ToastOptions& opts_;
  access::TransactionId xid_;
  access::CommandId cid_;
  std::vector<std::string>& enc_;
  std::vector<ToastPointer>* stored_;
  std::vector<Candidate> cand_;
};

bool HasTaggedExternal(const Row& row) {
  for (const Value& v : row) {
    if (toast::TaggedValueId(v) != 0) return true;
  }
  return false;
}

}  // namespace

RelFileLocator ToastRelOf(RelFileLocator heap) {
  return RelFileLocator(heap.db, (heap.number.value & kToastNumberMask) | kToastRelBit);
}
RelFileLocator ToastIndexOf(RelFileLocator heap) {
  return RelFileLocator(heap.db, (heap.number.value & kToastNumberMask) | kToastIndexBits);
}
bool IsToastRelation(RelFileLocator rel) { return (rel.number.value & kToastRelBit) != 0; }

nbtree::IndexDesc ToastIndexDesc(RelFileLocator heap) {
  nbtree::IndexDesc d;
  d.rel = ToastIndexOf(heap);
  d.name = "pg_toast_" + std::to_string(heap.number.value) + "_index";
  d.cols = {nbtree::KeyColumn::Asc(types::kOidOid, "chunk_id"), nbtree::KeyColumn::Asc(types::kInt4Oid, "chunk_seq")};
  return d;
}

bool HasToastableColumn(const TupleDesc& desc) {
  for (const ColumnDesc& c : desc.cols()) {
    if (c.kind == AttrKind::kVarlena) return true;
  }
  return false;
}

const TupleDesc& ToastChunkDesc() {
  static const TupleDesc desc = TupleDesc::FromTypes({types::kOidOid, types::kInt4Oid, types::kByteaOid});
  return desc;
}

void SetToastValueIdAllocator(uint32_t (*alloc)()) { g_alloc_value_id = alloc; }

void EnsureToastRelation(RelFileLocator heap) {
  const RelFileLocator trel = ToastRelOf(heap);
  if ((heap.number.value & ~kToastNumberMask) != 0) {
    throw DbError(sqlstate::kProgramLimitExceeded, "relation file number too large for TOAST");
  }
  if (KnownToastRelations().count(trel.number.value) != 0) return;
  const RelFileLocator tidx = ToastIndexOf(heap);
  // Creators of the same toast relation queue here; the index's metapage
  // is written last, so an index with a block means "made".
  const storage::LockTag tag = storage::LockTag::Relation(0, trel.number.value);
  storage::LockAcquire(tag, storage::LockMode::kExclusive);
  try {
    if (!storage::SmgrExists(tidx, storage::ForkNumber::kMain) ||
        storage::SmgrNblocks(tidx, storage::ForkNumber::kMain) == 0) {
      for (RelFileLocator r : {trel, tidx}) {
        storage::Status st = storage::SmgrCreate(r, storage::ForkNumber::kMain, /*ok_if_exists=*/true);
        if (!st.ok()) throw DbError("58030", "could not create toast relation file: " + st.message());
        access::XLogLogRelationCreate(r);  // redo recreates it
      }
      nbtree::BtCreateEmpty(ToastIndexDesc(heap));
    }
  } catch (...) {
    storage::LockRelease(tag, storage::LockMode::kExclusive);
    throw;
  }
  storage::LockRelease(tag, storage::LockMode::kExclusive);
  KnownToastRelations().insert(trel.number.value);
}

void HeapFormToasted(RelFileLocator heap, const TupleDesc& desc, const Row& row, const ToastOptions& opts,
                     access::TransactionId xid, access::CommandId cid, std::span<const ToastPointer> reusable,
                     std::vector<char>* out, std::vector<ToastPointer>* stored) {
  const bool reuse = !reusable.empty() && HasTaggedExternal(row);
  if (!reuse && HeapComputeTupleSize(desc, row) <= kToastTupleThreshold) {
    HeapFormTuple(desc, row, out);
    return;
  }
  static std::vector<std::string> enc;
  enc.assign(static_cast<size_t>(desc.natts()), std::string());
  Toaster t(heap, desc, row, opts, xid, cid, &enc, stored);
  if (reuse) t.Reuse(reusable);
  t.Run();
  HeapFormTuple(desc, row, enc, out);  // 54000 when it still does not fit
}

void DetoastRow(RelFileLocator heap, Row* row) {
  for (Value& v : *row) {
    if (!toast::IsPendingExternal(v)) continue;
    const ToastPointer p = toast::ReadPointer(v.str);
    FetchToastValue(ToastRelOf(heap), ToastIndexDesc(heap), p, &v.str);
    v.i = static_cast<int64_t>(toast::ExternalTag(p));
  }
}

void CollectExternalPointers(const TupleDesc& desc, const access::HeapTupleHeaderData* tup, size_t len,
                             std::vector<ToastPointer>* out) {
  HeapForEachAttr(desc, tup, len, [&](int i, std::span<const char> bytes) {
    if (desc.col(i).kind != AttrKind::kVarlena) return;
    uint32_t word;
    std::memcpy(&word, bytes.data(), 4);
    if ((word & toast::kVarlenaExternal) != 0) {
      out->push_back(toast::ReadPointer(std::string_view(bytes.data() + 4, bytes.size() - 4)));
    }
  });
}

void DeleteToastValues(RelFileLocator heap, std::span<const ToastPointer> values, access::TransactionId xid,
                       access::CommandId cid) {
  if (values.empty()) return;
  const nbtree::IndexDesc idx = ToastIndexDesc(heap);
  for (const ToastPointer& p : values) DeleteToastChunks(ToastRelOf(heap), idx, p.valueid, xid, cid);
}

uint32_t HeapVacuumToast(RelFileLocator heap, access::TransactionId oldest_xmin) {
  const RelFileLocator trel = ToastRelOf(heap);
  if (!storage::SmgrExists(trel, storage::ForkNumber::kMain)) return 0;
  const nbtree::IndexDesc idx = ToastIndexDesc(heap);
  const bool has_index = storage::SmgrExists(idx.rel, storage::ForkNumber::kMain) &&
                         storage::SmgrNblocks(idx.rel, storage::ForkNumber::kMain) > 0;
  DeadTidCallback cleanup;
  if (has_index) {
    cleanup = [&idx](std::span<const ItemPointer> dead) {
      auto less = [](const ItemPointer& a, const ItemPointer& b) {
        return a.block != b.block ? a.block < b.block : a.offset < b.offset;
      };
      nbtree::BtBulkDelete(idx, [&](ItemPointer t) { return std::binary_search(dead.begin(), dead.end(), t, less); });
    };
  }
  return HeapVacuumRelation(trel, oldest_xmin, cleanup).pages;
}

}  // namespace hearth::heap
