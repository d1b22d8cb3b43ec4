// server/executor/cte_store.cpp
//
// Principal entry points: RowStore (encoded rows by position), CteStore
// (lazily filled shared rows), MakeCteStore / CteStoreAt (the parameter
// slot that carries a store's address).
#include "executor/cte_store.h"

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "executor/row_codec.h"

namespace hearth::executor {

void RowStore::Append(const Row& row) {
  if (starts_.empty()) width_ = row.size();
  starts_.push_back(data_.size());
  EncodeValues(row.data(), width_, &data_);
}

void RowStore::Read(size_t i, Row* row) const {
  row->resize(width_);
  const char* p = data_.data() + starts_[i];
  DecodeValues(&p, row->data(), width_);
}

void RowStore::Clear() {
  data_.clear();
  starts_.clear();
}

void RowStore::Swap(RowStore& other) {
  data_.swap(other.data_);
  starts_.swap(other.starts_);
  std::swap(width_, other.width_);
}

bool CteStore::Fetch(size_t i, Row* row) {
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
  if (i >= rows_.size()) return false;
  rows_.Read(i, row);
  return true;
}

void CteStore::Close() {
  if (producer_ != nullptr && opened_) producer_->Close();
}

void CteStore::FetchAll() {
  Row row;
  while (Fetch(rows_.size(), &row)) {
  }
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
