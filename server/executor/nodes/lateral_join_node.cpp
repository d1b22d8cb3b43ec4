// server/executor/nodes/lateral_join_node.cpp
//
// Principal entry point: LateralJoinNode::Next (re-runs the inner plan per
// outer row with the outer values as parameters).
#include "executor/nodes/lateral_join_node.h"

#include <algorithm>

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "executor/nodes/basic_nodes.h"

namespace hearth::executor {

LateralJoinNode::LateralJoinNode(JoinKind kind, ExecNodePtr outer, ExecNodePtr inner,
                                 std::vector<PlanExpr> outer_values, std::vector<BoundExprPtr> slots,
                                 PlanExpr filter)
    : kind_(kind),
      outer_(std::move(outer)),
      inner_(std::move(inner)),
      outer_values_(std::move(outer_values)),
      slots_(std::move(slots)),
      filter_(std::move(filter)) {
  columns_ = outer_->columns();
  for (const OutputColumn& c : inner_->columns()) columns_.push_back(c);
}

ExecNodePtr LateralJoinNode::Clone() const {
  return std::make_unique<LateralJoinNode>(kind_, CloneNode(outer_), CloneNode(inner_), ClonePlanExprs(outer_values_),
                                           CloneBoundList(slots_), ClonePlanExpr(filter_));
}

void LateralJoinNode::Open(ExecContext& ctx) {
  ctx_ = &ctx;
  inner_ctx_ = ctx;
  params_.assign(ctx.params, ctx.params + ctx.nparams);
  // The slots are hidden parameters (kHiddenParamBase + slot), stored after
  // the user's $n.
  slot_index_.clear();
  for (const BoundExprPtr& s : slots_) {
    const size_t at = s->index >= kHiddenParamBase ? ctx.nuser + static_cast<size_t>(s->index - kHiddenParamBase)
                                                   : static_cast<size_t>(s->index);
    slot_index_.push_back(at);
  }
  size_t need = params_.size();
  for (size_t at : slot_index_) need = std::max(need, at + 1);
  params_.resize(need);
  inner_ctx_.params = params_.data();
  inner_ctx_.nparams = params_.size();
  eval_ = ctx.MakeEval();
  outer_active_ = false;
  outer_->Open(ctx);
}

void LateralJoinNode::Rescan() {
  SetEvalRow(eval_, outer_row_, -1);
  for (size_t k = 0; k < slots_.size(); ++k) {
    params_[slot_index_[k]] = Eval(*outer_values_[k].expr, eval_);
  }
  if (inner_open_) inner_->Close();
  inner_open_ = false;
  inner_->Open(inner_ctx_);
  inner_open_ = true;
  matched_ = false;
}

void LateralJoinNode::Emit(Row& row, bool with_inner) {
  const size_t nouter = outer_->columns().size();
  row.resize(columns_.size());
  for (size_t i = 0; i < nouter; ++i) row[i] = outer_row_[i];
  for (size_t i = nouter; i < columns_.size(); ++i) {
    row[i] = with_inner ? inner_row_[i - nouter] : types::Value::Null(columns_[i].type);
  }
}

bool LateralJoinNode::Next(Row& row) {
  for (;;) {
    if (!outer_active_) {
      if (!outer_->Next(outer_row_)) return false;
      ctx_->CheckInterrupts();
      Rescan();
      outer_active_ = true;
    }
    while (inner_->Next(inner_row_)) {
      ctx_->CheckInterrupts();
      Emit(row, true);
      if (filter_.expr) {
        SetEvalRow(eval_, row, -1);
        if (!EvalPredicate(*filter_.expr, eval_)) continue;
      }
      matched_ = true;
      return true;
    }
    outer_active_ = false;
    if (kind_ == JoinKind::kLeft && !matched_) {
      Emit(row, false);
      return true;
    }
  }
}

void LateralJoinNode::Close() {
  if (inner_open_) inner_->Close();
  inner_open_ = false;
  outer_active_ = false;
  outer_->Close();
}

std::string LateralJoinNode::ExplainName() const {
  return kind_ == JoinKind::kLeft ? "Nested Loop Left Join" : "Nested Loop";
}

void LateralJoinNode::ExplainDetails(std::vector<std::string>* out) const {
  if (filter_.expr) out->push_back("Join Filter: " + filter_.text);
}

}  // namespace hearth::executor
