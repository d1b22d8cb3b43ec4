// server/executor/nodes/lock_rows_node.cpp
//
// Principal entry points: LockRowsNode::Open, Next.
#include "executor/nodes/lock_rows_node.h"

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"

namespace hearth::executor {

LockRowsNode::LockRowsNode(ExecNodePtr child, std::vector<OutputColumn> columns, int from_width,
                           std::vector<LockedTable> tables, PlanExpr recheck_where,
                           std::vector<PlanExpr> recheck_outputs)
    : child_(std::move(child)),
      from_width_(from_width),
      tables_(std::move(tables)),
      recheck_where_(std::move(recheck_where)),
      recheck_outputs_(std::move(recheck_outputs)) {
  columns_ = std::move(columns);
}

void LockRowsNode::Open(ExecContext& ctx) {
  Close();
  if (ctx.tables == nullptr) throw DbError(sqlstate::kInternalError, "no table provider");
  ctx_ = &ctx;
  for (const LockedTable& t : tables_) lockers_.push_back(ctx.tables->OpenRowLocker(t.table, t.strength, t.policy));
  child_->Open(ctx);
}

bool LockRowsNode::LockAll(Row& row, bool* changed) {
  const size_t base = columns_.size();
  for (size_t k = 0; k < tables_.size(); ++k) {
    const LockedTable& t = tables_[k];
    types::Value& rid_value = row[base + static_cast<size_t>(t.rid_column)];
    RowId latest = kInvalidRowId;
    switch (lockers_[k]->Lock(static_cast<RowId>(rid_value.i), &latest_, &latest)) {
      case LockRowResult::kLocked: break;
      case LockRowResult::kSkipped:
      case LockRowResult::kGone: return false;
      case LockRowResult::kUpdated:
        for (size_t c = 0; c < t.table.columns.size(); ++c) {
          row[base + static_cast<size_t>(t.first_column) + c] = std::move(latest_[c]);
        }
        rid_value = types::Value::Int8(static_cast<int64_t>(latest));
        *changed = true;
        break;
    }
  }
  return true;
}

bool LockRowsNode::Next(Row& row) {
  const size_t nout = columns_.size();
  for (;;) {
    if (!child_->Next(row)) return false;
    ctx_->CheckInterrupts();
    bool changed = false;
    if (!LockAll(row, &changed)) continue;
    if (changed) {
      // EvalPlanQual: the newest version must still satisfy WHERE; the
      // outputs are recomputed from it.
      EvalContext eval = ctx_->MakeEval();
      eval.row = row.data() + nout;
      eval.nrow = static_cast<size_t>(from_width_);
      if (recheck_where_.expr && !EvalPredicate(*recheck_where_.expr, eval)) continue;
      for (size_t i = 0; i < nout; ++i) row[i] = Eval(*recheck_outputs_[i].expr, eval);
    }
    row.resize(nout);
    return true;
  }
}

void LockRowsNode::Close() {
  child_->Close();
  lockers_.clear();
}

ExecNodePtr LockRowsNode::Clone() const {
  return std::make_unique<LockRowsNode>(CloneNode(child_), columns_, from_width_, tables_, ClonePlanExpr(recheck_where_),
                                        ClonePlanExprs(recheck_outputs_));
}

}  // namespace hearth::executor
