// server/executor/exec_node.cpp
//
// Principal entry points: ExecNode::Explain (the shared EXPLAIN layout) and
// the clone helpers.
#include "executor/exec_node.h"

#include <algorithm>

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

void AppendExplainDetails(std::vector<std::string>* lines, const std::string& pad, std::vector<std::string> details) {
  auto is_sub = [](const std::string& d) { return !d.empty() && d[0] == kExplainSubPlanMark; };
  std::stable_partition(details.begin(), details.end(), [&](const std::string& d) { return !is_sub(d); });
  for (const std::string& d : details) lines->push_back(pad + (is_sub(d) ? d.substr(1) : d));
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
  AppendExplainDetails(lines, std::string(static_cast<size_t>(body + 2), ' '), std::move(details));
  for (const ExecNode* c : ExplainChildren()) c->Explain(lines, body + 2, true);
}

}  // namespace hearth::executor
