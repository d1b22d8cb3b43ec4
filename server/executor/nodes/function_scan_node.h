// server/executor/nodes/function_scan_node.h
//
// FunctionScanNode: the rows of function calls in FROM — one function
// (`FROM generate_series(1, 10) g`) or several side by side (`ROWS FROM
// (f(...), g(...))`: run in lockstep, each padded with NULLs after its
// set ends), optionally numbered (WITH ORDINALITY: a trailing int8). A
// set-returning function streams through its types::SrfCall; a scalar
// function in FROM gives one row. Arguments are evaluated at Open (they
// may read $n, including the outer values a lateral nested loop sets), so
// re-opening restarts the calls.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "executor/exec_node.h"
#include "utils/adt/srf_registry.h"

namespace hearth::executor {

// One function of a FunctionScan: a set-returning call (srf + args) or a
// scalar expression (one row).
struct ScanFunction {
  const types::SrfDef* srf = nullptr;
  std::vector<PlanExpr> args;  // srf's arguments
  PlanExpr scalar;             // when srf is null
  types::Oid type = types::kInvalidOid;  // the column's type
};
ScanFunction CloneScanFunction(const ScanFunction& f);

class FunctionScanNode : public ExecNode {
 public:
  ExecNodePtr Clone() const override;
  // `name`: the EXPLAIN line ("Function Scan on generate_series g", "Result").
  // columns: one per function, then ordinality when `ordinality`.
  FunctionScanNode(std::vector<ScanFunction> functions, bool ordinality, std::string name,
                   std::vector<OutputColumn> columns);
  void Open(ExecContext& ctx) override;
  bool Next(Row& row) override;
  void Close() override;

 protected:
  std::string ExplainName() const override { return name_; }

 private:
  // plan
  std::vector<ScanFunction> functions_;
  bool ordinality_;
  std::string name_;
  // run time
  ExecContext* ctx_ = nullptr;
  EvalContext eval_;
  std::vector<std::unique_ptr<types::SrfCall>> calls_;  // null: ended (or scalar)
  std::vector<types::Value> scalars_;                   // scalar functions' value
  bool scalars_pending_ = false;                        // scalar row not emitted yet
  int64_t ordinal_ = 0;
};

// Starts `srf` on arguments evaluated in `eval`; null when a strict SRF
// gets a NULL argument (the empty set). `argbuf` is reused scratch space.
std::unique_ptr<types::SrfCall> StartSrfCall(const types::SrfDef& srf, const std::vector<PlanExpr>& args,
                                             EvalContext& eval, std::vector<types::Value>* argbuf);

}  // namespace hearth::executor
