// server/executor/nodes/basic_nodes.cpp
//
// Principal entry points: FilterNode, ProjectNode, LimitNode, AppendNode.
#include "executor/nodes/basic_nodes.h"

#include <optional>

#include "common/error/db_error.h"
#include "utils/adt/cast.h"

namespace hearth::executor {

void SetEvalRow(EvalContext& eval, const Row& row, int agg_base) {
  eval.row = row.data();
  if (agg_base < 0) {
    eval.nrow = row.size();
    eval.aggregates = nullptr;
    eval.naggregates = 0;
  } else {
    eval.nrow = static_cast<size_t>(agg_base);
    eval.aggregates = row.data() + agg_base;
    eval.naggregates = row.size() - static_cast<size_t>(agg_base);
  }
}

FilterNode::FilterNode(ExecNodePtr child, PlanExpr predicate, int agg_base)
    : child_(std::move(child)), pred_(std::move(predicate)), agg_base_(agg_base) {
  columns_ = child_->columns();
}

void FilterNode::Open(ExecContext& ctx) {
  eval_ = ctx.MakeEval();
  child_->Open(ctx);
}

bool FilterNode::Next(Row& row) {
  while (child_->Next(row)) {
    SetEvalRow(eval_, row, agg_base_);
    if (EvalPredicate(*pred_.expr, eval_)) return true;
  }
  return false;
}

void FilterNode::Explain(std::vector<std::string>* lines, int indent, bool as_child,
                         const std::vector<std::string>* extra) const {
  std::vector<std::string> mine;
  if (extra) mine = *extra;
  mine.push_back("Filter: " + pred_.text);
  child_->Explain(lines, indent, as_child, &mine);
}

ProjectNode::ProjectNode(ExecNodePtr child, std::vector<PlanExpr> exprs, std::vector<OutputColumn> columns,
                         int agg_base)
    : child_(std::move(child)), exprs_(std::move(exprs)), agg_base_(agg_base) {
  columns_ = std::move(columns);
}

void ProjectNode::Open(ExecContext& ctx) {
  eval_ = ctx.MakeEval();
  child_->Open(ctx);
}

bool ProjectNode::Next(Row& row) {
  if (!child_->Next(in_)) return false;
  SetEvalRow(eval_, in_, agg_base_);
  row.resize(exprs_.size());
  for (size_t i = 0; i < exprs_.size(); ++i) row[i] = Eval(*exprs_[i].expr, eval_);
  return true;
}

LimitNode::LimitNode(ExecNodePtr child, PlanExpr limit, PlanExpr offset)
    : child_(std::move(child)), limit_(std::move(limit)), offset_(std::move(offset)) {
  columns_ = child_->columns();
}

std::optional<int64_t> EvalCount(const PlanExpr& e, ExecContext& ctx) {
  if (!e.expr) return std::nullopt;
  EvalContext ev = ctx.MakeEval();
  types::Value v = Eval(*e.expr, ev);
  if (v.is_null) return std::nullopt;
  if (v.type != types::kInt8Oid) v = types::CastValue(v, types::kInt8Oid, types::kNoTypmod,
                                                      types::CoercionContext::kAssignment);
  return v.i;
}

void LimitNode::Open(ExecContext& ctx) {
  std::optional<int64_t> limit = EvalCount(limit_, ctx);
  if (limit && *limit < 0) throw DbError("2201W", "LIMIT must not be negative");
  remaining_ = limit ? *limit : -1;
  skip_ = EvalCount(offset_, ctx).value_or(0);
  if (skip_ < 0) throw DbError("2201X", "OFFSET must not be negative");
  child_->Open(ctx);
}

bool LimitNode::Next(Row& row) {
  if (remaining_ == 0) return false;
  while (skip_ > 0) {
    if (!child_->Next(row)) return false;
    --skip_;
  }
  if (!child_->Next(row)) return false;
  if (remaining_ > 0) --remaining_;
  return true;
}

AppendNode::AppendNode(std::vector<ExecNodePtr> children, std::vector<OutputColumn> columns)
    : children_(std::move(children)) {
  columns_ = std::move(columns);
}

void AppendNode::Open(ExecContext& ctx) {
  ctx_ = &ctx;
  current_ = 0;
  if (!children_.empty()) children_[0]->Open(ctx);
}

bool AppendNode::Next(Row& row) {
  while (current_ < children_.size()) {
    if (children_[current_]->Next(row)) return true;
    children_[current_]->Close();
    if (++current_ < children_.size()) children_[current_]->Open(*ctx_);
  }
  return false;
}

void AppendNode::Close() {
  for (auto& c : children_) c->Close();
}

std::vector<const ExecNode*> AppendNode::ExplainChildren() const {
  std::vector<const ExecNode*> out;
  for (const auto& c : children_) out.push_back(c.get());
  return out;
}

ExecNodePtr FilterNode::Clone() const {
  return std::make_unique<FilterNode>(CloneNode(child_), ClonePlanExpr(pred_), agg_base_);
}

ExecNodePtr ProjectNode::Clone() const {
  return std::make_unique<ProjectNode>(CloneNode(child_), ClonePlanExprs(exprs_), columns_, agg_base_);
}

ExecNodePtr LimitNode::Clone() const {
  return std::make_unique<LimitNode>(CloneNode(child_), ClonePlanExpr(limit_), ClonePlanExpr(offset_));
}

ExecNodePtr AppendNode::Clone() const {
  std::vector<ExecNodePtr> children;
  children.reserve(children_.size());
  for (const ExecNodePtr& c : children_) children.push_back(CloneNode(c));
  return std::make_unique<AppendNode>(std::move(children), columns_);
}

}  // namespace hearth::executor
