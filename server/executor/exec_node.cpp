// server/executor/exec_node.cpp
//
// Principal entry points: ExecNode::Explain (the shared EXPLAIN layout) and
// the clone helpers.
#include "executor/exec_node.h"

namespace hearth::executor {

PlanExpr ClonePlanExpr(const PlanExpr& e) { return PlanExpr{CloneBound(e.expr), e.text}; }

std::vector<PlanExpr> ClonePlanExprs(const std::vector<PlanExpr>& v) {
  std::vector<PlanExpr> out;
  out.reserve(v.size());
  for (const PlanExpr& e : v) out.push_back(ClonePlanExpr(e));
  return out;
}

std::vector<BoundExprPtr> CloneBoundList(const std::vector<BoundExprPtr>& v) {
  std::vector<BoundExprPtr> out;
  out.reserve(v.size());
  for (const BoundExprPtr& e : v) out.push_back(CloneBound(e));
  return out;
}

void ExecNode::Explain(std::vector<std::string>* lines, int indent, bool as_child,
                       const std::vector<std::string>* extra) const {
  std::string pad(static_cast<size_t>(indent), ' ');
  lines->push_back(pad + (as_child ? "->  " : "") + ExplainName());
  // Properties and children line up under the node name (past "->  ").
  int body = indent + (as_child ? 4 : 0);
  std::vector<std::string> details;
  ExplainDetails(&details);
  if (extra) details.insert(details.end(), extra->begin(), extra->end());
  std::string dpad(static_cast<size_t>(body + 2), ' ');
  for (const std::string& d : details) {
    lines->push_back(dpad + d);
  }
  for (const ExecNode* c : ExplainChildren()) c->Explain(lines, body + 2, true);
}

}  // namespace hearth::executor
