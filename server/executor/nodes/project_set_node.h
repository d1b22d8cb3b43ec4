// server/executor/nodes/project_set_node.h
//
// ProjectSetNode: set-returning functions in a select list (PostgreSQL 10+
// ProjectSet). For each input row every SRF call is started on that row;
// the node then emits [input row..., value of each SRF...] until all calls
// have ended, a call that ended early giving NULL (calls run in lockstep,
// not as a cross product). An input row whose calls all return the empty
// set emits nothing. The Project above reads the SRF values as the
// trailing columns. agg_base: as basic_nodes.h (above an aggregate).
// Nested SRFs (`generate_series(1, generate_series(1, 3))`) take one
// ProjectSet per nesting level, each over the one below.
#pragma once

#include <memory>
#include <vector>

#include "executor/exec_node.h"
#include "utils/adt/srf_registry.h"

namespace hearth::executor {

struct SrfSpec {
  const types::SrfDef* srf = nullptr;
  std::vector<PlanExpr> args;  // bound on the input row
  types::Oid type = types::kInvalidOid;
  int level = 0;  // planner only: nesting depth (an SRF in an SRF's arguments is one deeper)
};

class ProjectSetNode : public ExecNode {
 public:
  ExecNodePtr Clone() const override;
  ProjectSetNode(ExecNodePtr child, std::vector<SrfSpec> srfs, int agg_base);
  void Open(ExecContext& ctx) override;
  bool Next(Row& row) override;
  void Close() override;

 protected:
  std::string ExplainName() const override { return "ProjectSet"; }
  std::vector<const ExecNode*> ExplainChildren() const override { return {child_.get()}; }

 private:
  // plan
  ExecNodePtr child_;
  std::vector<SrfSpec> srfs_;
  int agg_base_;
  // run time
  ExecContext* ctx_ = nullptr;
  EvalContext eval_;
  Row input_;
  bool active_ = false;  // input_ holds a row whose calls may have more values
  std::vector<std::unique_ptr<types::SrfCall>> calls_;
  std::vector<types::Value> argbuf_;
};

}  // namespace hearth::executor
