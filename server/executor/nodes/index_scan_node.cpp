// server/executor/nodes/index_scan_node.cpp
//
// Principal entry points: IndexScanNode (Open/Next/Close, EXPLAIN lines).
#include "executor/nodes/index_scan_node.h"

#include "executor/nodes/scan_nodes.h"

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"

namespace hearth::executor {

IndexScanNode::IndexScanNode(TableInfo table, std::string alias, IndexInfo index, std::vector<IndexBoundExpr> bounds,
                             std::vector<BoundExprPtr> in_values, bool has_in, bool backward,
                             std::string index_cond_text, PlanExpr filter, bool emit_rid)
    : table_(std::move(table)),
      alias_(std::move(alias)),
      index_(std::move(index)),
      bounds_(std::move(bounds)),
      in_values_(std::move(in_values)),
      has_in_(has_in),
      backward_(backward),
      index_cond_text_(std::move(index_cond_text)),
      filter_(std::move(filter)),
      emit_rid_(emit_rid) {
  for (const ColumnInfo& c : table_.columns) columns_.push_back({c.name, c.type, c.typmod});
  if (emit_rid_) columns_.push_back({"ctid", types::kInt8Oid, types::kNoTypmod});
}

void IndexScanNode::Open(ExecContext& ctx) {
  if (ctx.tables == nullptr) throw DbError(sqlstate::kInternalError, "no table provider");
  ctx_ = &ctx;
  eval_ = ctx.MakeEval();
  IndexScanRequest req;
  req.backward = backward_;
  req.has_in = has_in_;
  for (const IndexBoundExpr& b : bounds_) req.bounds.push_back({b.op, Eval(*b.value, eval_)});
  for (const BoundExprPtr& v : in_values_) req.in_values.push_back(Eval(*v, eval_));
  scan_ = ctx.tables->OpenIndexScan(table_, index_, req);
}

bool IndexScanNode::Next(Row& row) {
  return NextFilteredRow(*scan_, filter_, emit_rid_, table_.columns.size(), *ctx_, eval_, row);
}

void IndexScanNode::Close() { scan_.reset(); }

std::string IndexScanNode::ExplainName() const {
  std::string s = std::string(backward_ ? "Index Scan Backward" : "Index Scan") + " using " + index_.name + " on " +
                  table_.name;
  if (!alias_.empty() && alias_ != table_.name) s += " " + alias_;
  return s;
}

void IndexScanNode::ExplainDetails(std::vector<std::string>* out) const {
  if (!index_cond_text_.empty()) out->push_back("Index Cond: " + index_cond_text_);
  if (!filter_.text.empty()) out->push_back("Filter: " + filter_.text);
}

ExecNodePtr IndexScanNode::Clone() const {
  std::vector<IndexBoundExpr> bounds;
  bounds.reserve(bounds_.size());
  for (const IndexBoundExpr& b : bounds_) bounds.push_back(IndexBoundExpr{b.op, CloneBound(b.value)});
  return std::make_unique<IndexScanNode>(table_, alias_, index_, std::move(bounds), CloneBoundList(in_values_), has_in_,
                                         backward_, index_cond_text_, ClonePlanExpr(filter_), emit_rid_);
}

}  // namespace hearth::executor
