// server/executor/exec_node.cpp
//
// Principal entry point: ExecNode::Explain (the shared EXPLAIN layout).
#include "executor/exec_node.h"

namespace hearth::executor {

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
