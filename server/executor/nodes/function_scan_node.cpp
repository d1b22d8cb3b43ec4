// server/executor/nodes/function_scan_node.cpp
//
// Principal entry points: FunctionScanNode (Open/Next/Close), StartSrfCall.
#include "executor/nodes/function_scan_node.h"

namespace hearth::executor {

std::unique_ptr<types::SrfCall> StartSrfCall(const types::SrfDef& srf, const std::vector<PlanExpr>& args,
                                             EvalContext& eval, std::vector<types::Value>* argbuf) {
  argbuf->resize(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    (*argbuf)[i] = Eval(*args[i].expr, eval);
    if ((*argbuf)[i].is_null && srf.sig.strict) return nullptr;
  }
  return srf.start(argbuf->data(), static_cast<int>(args.size()), eval.func);
}

ScanFunction CloneScanFunction(const ScanFunction& f) {
  ScanFunction c;
  c.srf = f.srf;
  c.args = ClonePlanExprs(f.args);
  c.scalar = ClonePlanExpr(f.scalar);
  c.type = f.type;
  return c;
}

FunctionScanNode::FunctionScanNode(std::vector<ScanFunction> functions, bool ordinality, std::string name,
                                   std::vector<OutputColumn> columns)
    : functions_(std::move(functions)), ordinality_(ordinality), name_(std::move(name)) {
  columns_ = std::move(columns);
}

ExecNodePtr FunctionScanNode::Clone() const {
  std::vector<ScanFunction> fns;
  for (const ScanFunction& f : functions_) fns.push_back(CloneScanFunction(f));
  return std::make_unique<FunctionScanNode>(std::move(fns), ordinality_, name_, columns_);
}

void FunctionScanNode::Open(ExecContext& ctx) {
  ctx_ = &ctx;
  eval_ = ctx.MakeEval();
  calls_.clear();
  calls_.resize(functions_.size());
  scalars_.assign(functions_.size(), types::Value());
  scalars_pending_ = false;
  ordinal_ = 0;
  std::vector<types::Value> argbuf;
  for (size_t i = 0; i < functions_.size(); ++i) {
    const ScanFunction& f = functions_[i];
    if (f.srf != nullptr) {
      calls_[i] = StartSrfCall(*f.srf, f.args, eval_, &argbuf);
    } else {
      scalars_[i] = Eval(*f.scalar.expr, eval_);
      scalars_pending_ = true;
    }
  }
}

bool FunctionScanNode::Next(Row& row) {
  ctx_->CheckInterrupts();
  row.resize(columns_.size());
  bool any = false;
  for (size_t i = 0; i < functions_.size(); ++i) {
    const ScanFunction& f = functions_[i];
    if (f.srf == nullptr) {
      row[i] = scalars_pending_ ? scalars_[i] : types::Value::Null(f.type);
      any = any || scalars_pending_;
      continue;
    }
    if (calls_[i] && calls_[i]->Next(&row[i])) {
      any = true;
      continue;
    }
    calls_[i].reset();
    row[i] = types::Value::Null(f.type);
  }
  scalars_pending_ = false;
  if (!any) return false;
  if (ordinality_) row.back() = types::Value::Int8(++ordinal_);
  return true;
}

void FunctionScanNode::Close() {
  calls_.clear();
  scalars_.clear();
}

}  // namespace hearth::executor
