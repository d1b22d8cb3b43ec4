// server/executor/nodes/basic_nodes.h
//
// Row-at-a-time plan nodes: FilterNode (WHERE/HAVING), ProjectNode (select
// list), LimitNode (LIMIT/OFFSET), AppendNode (UNION ALL). Filter and
// Project do not show as nodes in EXPLAIN (PostgreSQL folds them into the
// node below): Filter adds a "Filter:" line to its child.
//
// agg_base: nodes above an aggregate see rows [group keys..., aggregate
// results...]; with agg_base = k, kColumn indexes the first k values and
// kAggRef indexes the values from k on. -1: plain rows, no aggregates.
// Immutable plan, one execution at a time.
#pragma once

#include <optional>
#include <vector>

#include "executor/exec_node.h"

namespace hearth::executor {

// Points eval's row/aggregates at `row` according to agg_base (see above).
void SetEvalRow(EvalContext& eval, const Row& row, int agg_base);

class FilterNode : public ExecNode {
 public:
  ExecNodePtr Clone() const override;
  FilterNode(ExecNodePtr child, PlanExpr predicate, int agg_base = -1);
  void Open(ExecContext& ctx) override;
  bool Next(Row& row) override;
  void Close() override { child_->Close(); }
  void Explain(std::vector<std::string>* lines, int indent, bool as_child,
               const std::vector<std::string>* extra) const override;

 protected:
  std::string ExplainName() const override { return "Filter"; }

 private:
  ExecNodePtr child_;
  PlanExpr pred_;
  int agg_base_;
  EvalContext eval_;
};

class ProjectNode : public ExecNode {
 public:
  ExecNodePtr Clone() const override;
  ProjectNode(ExecNodePtr child, std::vector<PlanExpr> exprs, std::vector<OutputColumn> columns,
              int agg_base = -1);
  void Open(ExecContext& ctx) override;
  bool Next(Row& row) override;
  void Close() override { child_->Close(); }
  void Explain(std::vector<std::string>* lines, int indent, bool as_child,
               const std::vector<std::string>* extra) const override {
    child_->Explain(lines, indent, as_child, extra);
  }

 protected:
  std::string ExplainName() const override { return "Project"; }

 private:
  ExecNodePtr child_;
  std::vector<PlanExpr> exprs_;
  int agg_base_;
  Row in_;
  EvalContext eval_;
};

// Evaluates a LIMIT/OFFSET expression to int8; absent or NULL → nullopt.
std::optional<int64_t> EvalCount(const PlanExpr& e, ExecContext& ctx);

class LimitNode : public ExecNode {
 public:
  ExecNodePtr Clone() const override;
  // Either expression may be null (absent). Evaluated at Open (params
  // allowed): NULL means no limit / offset 0; negative → 2201W/2201X.
  LimitNode(ExecNodePtr child, PlanExpr limit, PlanExpr offset);
  void Open(ExecContext& ctx) override;
  bool Next(Row& row) override;
  void Close() override { child_->Close(); }

 protected:
  std::string ExplainName() const override { return "Limit"; }
  std::vector<const ExecNode*> ExplainChildren() const override { return {child_.get()}; }

 private:
  ExecNodePtr child_;
  PlanExpr limit_, offset_;
  int64_t remaining_ = -1;  // -1: unlimited
  int64_t skip_ = 0;
};

class AppendNode : public ExecNode {
 public:
  ExecNodePtr Clone() const override;
  AppendNode(std::vector<ExecNodePtr> children, std::vector<OutputColumn> columns);
  void Open(ExecContext& ctx) override;
  bool Next(Row& row) override;
  void Close() override;

 protected:
  std::string ExplainName() const override { return "Append"; }
  std::vector<const ExecNode*> ExplainChildren() const override;

 private:
  std::vector<ExecNodePtr> children_;
  size_t current_ = 0;
  ExecContext* ctx_ = nullptr;
};

}  // namespace hearth::executor
