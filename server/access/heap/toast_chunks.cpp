// access/heap/toast_chunks.cpp
//
// Principal entry points: StoreToastChunks, FetchToastValue, DeleteToastChunks.
#include "access/heap/toast_chunks.h"

#include <cstring>
#include <vector>

#include "access/heap/heap_toast.h"
#include "access/heap/heapam.h"
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "storage/buffer/bufmgr.h"

namespace hearth::heap {

namespace {

using storage::ForkNumber;
using storage::LWLockMode;
using storage::PinnedBuffer;
using types::Value;

// Chunks formed and written per HeapMultiInsertFormed call (~64 kB).
constexpr size_t kChunksPerBatch = 32;

std::string ToastName(storage::RelFileLocator trel) {
  return "pg_toast_" + std::to_string(trel.number.value & 0x3FFFFFFFu);
}

[[noreturn]] void Corrupt(const std::string& what) { throw DbError(sqlstate::kDataCorrupted, what); }

std::vector<ItemPointer> ChunkTids(const nbtree::IndexDesc& tidx, uint32_t valueid) {
  const nbtree::ScanKey key{nbtree::ScanOp::kEq, {Value::Int(types::kOidOid, valueid)}};
  nbtree::BtScan scan(tidx, std::span<const nbtree::ScanKey>(&key, 1));
  std::vector<ItemPointer> tids;
  ItemPointer tid;
  while (scan.Next(&tid)) tids.push_back(tid);
  return tids;
}

}  // namespace

void StoreToastChunks(storage::RelFileLocator trel, const nbtree::IndexDesc& tidx, uint32_t valueid,
                      std::string_view data, access::TransactionId xid, access::CommandId cid) {
  const TupleDesc& desc = ToastChunkDesc();
  Row row{Value::Int(types::kOidOid, valueid), Value::Int4(0), Value::Bytes(types::kByteaOid, "")};
  std::vector<char> form;
  std::vector<char> arena;
  std::vector<size_t> starts;
  std::vector<size_t> lens;
  std::vector<std::span<char>> tuples;
  std::vector<ItemPointer> tids;
  std::vector<Value> key(2);
  const size_t nchunks = (data.size() + kToastMaxChunkSize - 1) / kToastMaxChunkSize;
  for (size_t first = 0; first < nchunks; first += kChunksPerBatch) {
    const size_t last = std::min(nchunks, first + kChunksPerBatch);
    arena.clear();
    starts.clear();
    lens.clear();
    for (size_t seq = first; seq < last; ++seq) {
      row[1].i = static_cast<int64_t>(seq);
      row[2].str.assign(data.substr(seq * kToastMaxChunkSize, kToastMaxChunkSize));
      HeapFormTuple(desc, row, &form);
      starts.push_back(arena.size());
      lens.push_back(form.size());
      arena.insert(arena.end(), form.begin(), form.end());
      arena.resize(access::MaxAlign(arena.size()));  // headers are stamped in place
    }
    tuples.clear();
    for (size_t k = 0; k < starts.size(); ++k) tuples.emplace_back(arena.data() + starts[k], lens[k]);
    tids.clear();
    HeapMultiInsertFormed(trel, tuples, xid, cid, HeapInsertOptions{}, &tids);
    for (size_t k = 0; k < tids.size(); ++k) {
      key[0] = Value::Int(types::kOidOid, valueid);
      key[1] = Value::Int4(static_cast<int32_t>(first + k));
      nbtree::BtInsert(tidx, key, tids[k]);
    }
  }
}

void FetchToastValue(storage::RelFileLocator trel, const nbtree::IndexDesc& tidx, const toast::ToastPointer& p,
                     std::string* out) {
  const std::vector<ItemPointer> tids = ChunkTids(tidx, p.valueid);
  const size_t nchunks = (p.extsize + kToastMaxChunkSize - 1) / kToastMaxChunkSize;
  const std::string where = " for toast value " + std::to_string(p.valueid) + " in " + ToastName(trel);
  std::string stored;
  std::string* dst = p.method == 0 ? out : &stored;
  dst->clear();
  dst->reserve(p.extsize);
  const TupleDesc& desc = ToastChunkDesc();
  Row chunk;
  PinnedBuffer buf;
  size_t expected = 0;
  for (const ItemPointer tid : tids) {
    if (!buf.valid() || buf.block() != tid.block) {
      buf = storage::ReadBuffer(trel, ForkNumber::kMain, tid.block);
    }
    buf.Lock(LWLockMode::kShared);
    const storage::Page pg = buf.page();
    if (tid.offset < storage::kFirstOffsetNumber || tid.offset > pg.MaxOffset() ||
        !pg.GetItemId(tid.offset).IsNormal()) {
      buf.Unlock();
      continue;  // an entry whose chunk vacuum is removing: not one of ours
    }
    const std::span<char> item = pg.GetItem(tid.offset);
    (void)HeapDeformTuple(desc, reinterpret_cast<const access::HeapTupleHeaderData*>(item.data()), item.size(), &chunk);
    buf.Unlock();
    if (chunk[0].is_null || static_cast<uint32_t>(chunk[0].i) != p.valueid) continue;
    const size_t seq = static_cast<size_t>(chunk[1].i);
    if (seq != expected) {
      Corrupt(seq > expected ? "missing chunk number " + std::to_string(expected) + where
                             : "unexpected chunk number " + std::to_string(seq) + " (expected " +
                                   std::to_string(expected) + ")" + where);
    }
    const size_t want = seq + 1 < nchunks ? kToastMaxChunkSize : p.extsize - seq * kToastMaxChunkSize;
    if (chunk[2].str.size() != want) {
      Corrupt("unexpected chunk size " + std::to_string(chunk[2].str.size()) + " (expected " + std::to_string(want) +
              ") in chunk " + std::to_string(seq) + " of " + std::to_string(nchunks) + where);
    }
    dst->append(chunk[2].str);
    ++expected;
  }
  if (expected != nchunks) Corrupt("missing chunk number " + std::to_string(expected) + where);
  if (p.method != 0) toast::Lz4Decompress(stored.data(), stored.size(), p.rawsize, out);
  if (out->size() != p.rawsize) Corrupt("wrong size of toast value " + std::to_string(p.valueid) + " in " + ToastName(trel));
}

void DeleteToastChunks(storage::RelFileLocator trel, const nbtree::IndexDesc& tidx, uint32_t valueid,
                       access::TransactionId xid, access::CommandId cid) {
  for (const ItemPointer tid : ChunkTids(tidx, valueid)) {
    TmFailureData fd;
    // Chunks are only ever deleted with the version that points at them;
    // one already deleted (a value shared by two versions of this
    // transaction) is left as it is.
    (void)HeapDelete(trel, tid, xid, cid, nullptr, /*wait=*/true, &fd);
  }
}

}  // namespace hearth::heap
