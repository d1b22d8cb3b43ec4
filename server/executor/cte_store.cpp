// server/executor/cte_store.cpp
//
// Principal entry points: RowStore (encoded rows by position), CteStore
// (lazily filled shared rows), MakeCteStore / CteStoreAt (the parameter
// slot that carries a store's address).
#include "executor/cte_store.h"

#include <algorithm>

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "executor/row_codec.h"

namespace hearth::executor {

namespace {
constexpr size_t kReadWindow = 64 * 1024;
}  // namespace

void RowStore::SetSpill(int64_t memory_limit, std::string temp_dir) {
  // At least 64 kB, as the sort's work_mem floor.
  memory_limit_ = memory_limit <= 0 ? 0 : std::max<int64_t>(memory_limit, 64 * 1024);
  temp_dir_ = std::move(temp_dir);
}

void RowStore::Append(const Row& row) {
  if (starts_.empty()) width_ = row.size();
  starts_.push_back(spilled_ + data_.size());
  EncodeValues(row.data(), width_, &data_);
  if (memory_limit_ > 0 && data_.size() >= static_cast<size_t>(memory_limit_)) SpillMemory();
}

void RowStore::SpillMemory() {
  if (!file_) file_ = std::make_unique<SpillFile>(temp_dir_);
  file_->Append(data_.data(), data_.size());
  spilled_ += data_.size();
  data_.clear();
}

void RowStore::Read(size_t i, Row* row, Cursor* cursor) {
  row->resize(width_);
  const uint64_t start = starts_[i];
  const char* p = nullptr;
  if (start >= spilled_) {
    p = data_.data() + (start - spilled_);
  } else {
    // Rows never straddle the file's end: memory moves to disk whole.
    const uint64_t end = i + 1 < starts_.size() ? starts_[i + 1] : spilled_;
    Cursor& c = cursor != nullptr ? *cursor : scratch_;
    if (start < c.start || end > c.start + c.window.size()) {
      const uint64_t n = std::min<uint64_t>(std::max<uint64_t>(kReadWindow, end - start), spilled_ - start);
      file_->ReadAt(start, static_cast<size_t>(n), &c.window);
      c.start = start;
    }
    p = c.window.data() + (start - c.start);
  }
  DecodeValues(&p, row->data(), width_);
}

void RowStore::Clear() {
  data_.clear();
  starts_.clear();
  spilled_ = 0;
  file_.reset();
  scratch_ = Cursor{};
}

void RowStore::Swap(RowStore& other) {
  data_.swap(other.data_);
  starts_.swap(other.starts_);
  std::swap(spilled_, other.spilled_);
  file_.swap(other.file_);
  std::swap(scratch_, other.scratch_);
  std::swap(width_, other.width_);
}

CteStore::CteStore(ExecNode* producer, ExecContext* ctx) : producer_(producer), ctx_(ctx) {
  rows_.SetSpill(ctx->work_mem, ctx->temp_dir);
}

bool CteStore::FillTo(size_t i) {
  while (i >= rows_.size() && !done_ && producer_ != nullptr) {
    if (!opened_) {
      opened_ = true;
      producer_->Open(*ctx_);
    }
    if (producer_->Next(scratch_)) {
      rows_.Append(scratch_);
    } else {
      done_ = true;
      producer_->Close();
    }
  }
  return i < rows_.size();
}

bool CteStore::Fetch(size_t i, Row* row, RowStore::Cursor* cursor) {
  if (!FillTo(i)) return false;
  rows_.Read(i, row, cursor);
  return true;
}

void CteStore::FetchAll() {
  while (FillTo(rows_.size())) {
  }
}

void CteStore::Close() {
  if (producer_ != nullptr && opened_) producer_->Close();
}

types::Value MakeCteStore(ExecNode* plan, ExecContext* ctx, bool run_to_completion,
                          std::vector<std::unique_ptr<CteStore>>* owned) {
  owned->push_back(std::make_unique<CteStore>(plan, ctx));
  if (run_to_completion) owned->back()->FetchAll();
  return types::Value::Int8(static_cast<int64_t>(reinterpret_cast<uintptr_t>(owned->back().get())));
}

CteStore* CteStoreAt(const PlanExpr& ref, const ExecContext& ctx) {
  EvalContext eval = ctx.MakeEval();
  types::Value v = Eval(*ref.expr, eval);
  if (v.is_null) throw DbError(sqlstate::kInternalError, "WITH query store is not set up");
  return reinterpret_cast<CteStore*>(static_cast<uintptr_t>(v.i));
}

}  // namespace hearth::executor
