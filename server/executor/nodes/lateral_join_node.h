// server/executor/nodes/lateral_join_node.h
//
// LateralJoinNode: a nested loop whose inner side depends on the outer row
// (LATERAL subqueries, functions in FROM with column arguments). For each
// outer row the node evaluates `outer_values` on it, stores them in the
// hidden parameter slots the inner plan reads as $n, and re-runs the inner
// plan (Close/Open). The inner plan runs with the node's own copy of the
// parameter array, so other parts of the plan never see these values.
// Output rows are [outer..., inner...]; `filter` (bound on that combined
// row) decides a match; LEFT emits an unmatched outer row with NULLs.
// EXPLAIN: "Nested Loop [Left Join]" with a "Join Filter:" line.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "executor/exec_node.h"
#include "executor/nodes/join_nodes.h"

namespace hearth::executor {

class LateralJoinNode : public ExecNode {
 public:
  ExecNodePtr Clone() const override;
  // slots[k]: a kParam node whose (final) index is the slot outer_values[k]
  // goes to. kind: kInner or kLeft.
  LateralJoinNode(JoinKind kind, ExecNodePtr outer, ExecNodePtr inner, std::vector<PlanExpr> outer_values,
                  std::vector<BoundExprPtr> slots, PlanExpr filter);
  void Open(ExecContext& ctx) override;
  bool Next(Row& row) override;
  void Close() override;

 protected:
  std::string ExplainName() const override;
  void ExplainDetails(std::vector<std::string>* out) const override;
  std::vector<const ExecNode*> ExplainChildren() const override { return {outer_.get(), inner_.get()}; }

 private:
  // Starts the inner plan for outer_row_.
  void Rescan();
  void Emit(Row& row, bool with_inner);

  // plan
  JoinKind kind_;
  ExecNodePtr outer_, inner_;
  std::vector<PlanExpr> outer_values_;
  std::vector<BoundExprPtr> slots_;
  PlanExpr filter_;
  // run time
  ExecContext* ctx_ = nullptr;
  ExecContext inner_ctx_;
  std::vector<types::Value> params_;  // inner_ctx_'s parameters
  std::vector<size_t> slot_index_;     // where each outer value goes in params_
  EvalContext eval_;
  Row outer_row_, inner_row_;
  bool outer_active_ = false;
  bool inner_open_ = false;
  bool matched_ = false;
};

}  // namespace hearth::executor
