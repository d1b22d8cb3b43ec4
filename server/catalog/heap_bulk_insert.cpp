// catalog/heap_bulk_insert.cpp
//
// Principal entry points: HeapBulkInserter::{Insert, Finish}.
#include "catalog/heap_bulk_insert.h"

#include <algorithm>
#include <cstring>

#include "access/heap/heap_tuple.h"
#include "access/heap/heapam.h"
#include "access/transam/xact.h"
#include "catalog/index_maint.h"
#include "catalog/table_stats_counts.h"
#include "utils/adt/compare.h"

namespace hearth::catalog {

HeapBulkInserter::HeapBulkInserter(RelationRef rel, bool frozen)
    : rel_(std::move(rel)),
      xid_(access::GetCurrentTransactionId()),
      cid_(access::GetCurrentCommandId(true)),
      frozen_(frozen) {}

HeapBulkInserter::~HeapBulkInserter() { bulk_.ReleaseBuffer(); }

void HeapBulkInserter::Insert(const executor::Row& row, uint64_t tag) {
  failing_tag_ = tag;
  if (rel_->has_toast) {  // 54000 names this row
    toasted_.clear();
    heap::HeapFormToasted(rel_->rel, rel_->desc, row, rel_->toast, xid_, cid_, {}, &form_scratch_, &toasted_);
  } else {
    heap::HeapFormTuple(rel_->desc, row, &form_scratch_);
  }
  starts_.push_back(arena_.size());
  lens_.push_back(form_scratch_.size());
  // 8-aligned so the header can be stamped in place.
  arena_.insert(arena_.end(), form_scratch_.begin(), form_scratch_.end());
  arena_.resize(access::MaxAlign(arena_.size()));
  if (!rel_->indexes.empty()) {
    if (used_ == rows_kept_.size()) rows_kept_.emplace_back();
    rows_kept_[used_] = row;  // element-wise: reuses each Value's string capacity
  }
  tags_.push_back(tag);
  ++used_;
  if (used_ >= kBatchRows || arena_.size() >= kBatchBytes) FlushBatch(/*last=*/false);
}

void HeapBulkInserter::FlushBatch(bool last) {
  if (used_ == 0) return;
  tuples_.clear();
  for (size_t i = 0; i < used_; ++i) tuples_.emplace_back(arena_.data() + starts_[i], lens_[i]);
  heap::HeapInsertOptions opts;
  opts.fillfactor = rel_->fillfactor;
  opts.bulk = &bulk_;
  opts.frozen = frozen_;
  tids_.clear();
  failing_tag_ = tags_.front();
  // Rows that would only partly fill their page wait for the next batch:
  // one WAL record per page filled.
  const size_t written = heap::HeapMultiInsertFormed(rel_->rel, tuples_, xid_, cid_, opts,
                                                     rel_->indexes.empty() ? nullptr : &tids_, !last);
  PendingCounts(rel_->oid).CountInsert(static_cast<int64_t>(written));  // one lookup per batch
  InsertBatchIndexEntries(written);
  rows_ += written;
  KeepTail(written);
}

void HeapBulkInserter::KeepTail(size_t written) {
  const size_t tail = used_ - written;
  if (tail > 0) {
    const size_t base = starts_[written];
    std::memmove(arena_.data(), arena_.data() + base, arena_.size() - base);
    arena_.resize(arena_.size() - base);
    for (size_t k = 0; k < tail; ++k) {
      starts_[k] = starts_[written + k] - base;
      lens_[k] = lens_[written + k];
      tags_[k] = tags_[written + k];
      if (!rel_->indexes.empty()) std::swap(rows_kept_[k], rows_kept_[written + k]);
    }
  } else {
    arena_.clear();
  }
  starts_.resize(tail);
  lens_.resize(tail);
  tags_.resize(tail);
  used_ = tail;
}

void HeapBulkInserter::InsertBatchIndexEntries(size_t count) {
  if (rel_->indexes.empty()) return;
  for (size_t x = 0; x < rel_->indexes.size(); ++x) {
    const std::vector<int>& cols = rel_->indexes[x].columns;
    order_.resize(count);
    for (size_t i = 0; i < count; ++i) order_[i] = i;
    // Key order (NULLs last); heap order among equal keys, so a duplicate
    // in the batch is reported at its later row, as row by row would.
    std::stable_sort(order_.begin(), order_.end(), [&](size_t a, size_t b) {
      for (int c : cols) {
        const types::Value& va = rows_kept_[a][static_cast<size_t>(c)];
        const types::Value& vb = rows_kept_[b][static_cast<size_t>(c)];
        if (va.is_null || vb.is_null) {
          if (va.is_null != vb.is_null) return vb.is_null;
          continue;
        }
        const int r = types::CompareValues(va, vb);
        if (r != 0) return r < 0;
      }
      return false;
    });
    for (size_t i : order_) {
      failing_tag_ = tags_[i];
      InsertIndexEntry(*rel_, x, rows_kept_[i], tids_[i], &key_scratch_);
    }
  }
}

void HeapBulkInserter::Finish() {
  FlushBatch(/*last=*/true);
  bulk_.Finish();
}

}  // namespace hearth::catalog
