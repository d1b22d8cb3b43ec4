// server/executor/nodes/scan_nodes.cpp
//
// Principal entry points: SeqScanNode, ValuesScanNode, ResultNode,
// SubqueryScanNode (Open/Next/Close).
#include "executor/nodes/scan_nodes.h"

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"

namespace hearth::executor {

SeqScanNode::SeqScanNode(TableInfo table, std::string alias, PlanExpr filter, bool emit_rid)
    : table_(std::move(table)), alias_(std::move(alias)), filter_(std::move(filter)), emit_rid_(emit_rid) {
  for (const ColumnInfo& c : table_.columns) columns_.push_back({c.name, c.type, c.typmod});
  if (emit_rid_) columns_.push_back({"ctid", types::kInt8Oid, types::kNoTypmod});
}

void SeqScanNode::Open(ExecContext& ctx) {
  if (ctx.tables == nullptr) throw DbError(sqlstate::kInternalError, "no table provider");
  ctx_ = &ctx;
  eval_ = ctx.MakeEval();
  scan_ = ctx.tables->OpenScan(table_, /*bulk=*/true);
}

bool NextFilteredRow(TableScan& scan, const PlanExpr& filter, bool emit_rid, size_t ncols, ExecContext& ctx,
                     EvalContext& eval, Row& row) {
  RowId rid = kInvalidRowId;
  while (scan.Next(row, &rid)) {
    ctx.CheckInterrupts();
    if (filter.expr) {
      eval.row = row.data();
      eval.nrow = row.size();
      if (!EvalPredicate(*filter.expr, eval)) continue;
    }
    if (emit_rid) {
      row.resize(ncols + 1);
      row.back() = types::Value::Int8(static_cast<int64_t>(rid));
    }
    return true;
  }
  return false;
}

bool SeqScanNode::Next(Row& row) {
  return NextFilteredRow(*scan_, filter_, emit_rid_, table_.columns.size(), *ctx_, eval_, row);
}

void SeqScanNode::Close() { scan_.reset(); }

std::string SeqScanNode::ExplainName() const {
  std::string s = "Seq Scan on " + table_.name;
  if (!alias_.empty() && alias_ != table_.name) s += " " + alias_;
  return s;
}

void SeqScanNode::ExplainDetails(std::vector<std::string>* out) const {
  if (filter_.expr) out->push_back("Filter: " + filter_.text);
}

void SeqScanNode::Explain(std::vector<std::string>* lines, int indent, bool as_child,
                          const std::vector<std::string>* extra) const {
  if (table_.inheritors.empty()) return ExecNode::Explain(lines, indent, as_child, extra);
  const std::string pad(static_cast<size_t>(indent), ' ');
  const std::string alias0 = alias_.empty() ? table_.name : alias_;
  // A partitioned table has no rows: only its partitions are scanned (one
  // left after pruning prints alone, under the table's alias).
  if (table_.partitioned && table_.inheritors.size() == 1) {
    lines->push_back(pad + (as_child ? "->  " : "") + "Seq Scan on " + table_.inheritor_names[0] + " " + alias0);
    std::vector<std::string> details;
    if (filter_.expr) details.push_back("Filter: " + filter_.text);
    if (extra) details.insert(details.end(), extra->begin(), extra->end());
    AppendExplainDetails(lines, std::string(static_cast<size_t>(indent + (as_child ? 4 : 0) + 2), ' '), details);
    return;
  }
  lines->push_back(pad + (as_child ? "->  " : "") + "Append");
  const int body = indent + (as_child ? 4 : 0);
  const std::string& alias = alias0;
  std::vector<std::string> details;
  if (filter_.expr) details.push_back("Filter: " + filter_.text);
  if (extra) details.insert(details.end(), extra->begin(), extra->end());
  const size_t first = table_.partitioned ? 1 : 0;
  for (size_t k = first; k <= table_.inheritors.size(); ++k) {
    const std::string& name = k == 0 ? table_.name : table_.inheritor_names[k - 1];
    lines->push_back(std::string(static_cast<size_t>(body + 2), ' ') + "->  Seq Scan on " + name + " " + alias + "_" +
                     std::to_string(k + 1 - first));
    AppendExplainDetails(lines, std::string(static_cast<size_t>(body + 8), ' '), details);
  }
}

ValuesScanNode::ValuesScanNode(std::vector<std::vector<PlanExpr>> rows, std::vector<OutputColumn> columns)
    : exprs_(std::move(rows)) {
  columns_ = std::move(columns);
}

ValuesScanNode::ValuesScanNode(std::vector<Row> rows, std::vector<OutputColumn> columns)
    : fixed_(std::move(rows)) {
  columns_ = std::move(columns);
}

void ValuesScanNode::Open(ExecContext& ctx) {
  pos_ = 0;
  eval_ = ctx.MakeEval();
}

bool ValuesScanNode::Next(Row& row) {
  if (!exprs_.empty()) {
    if (pos_ >= exprs_.size()) return false;
    const std::vector<PlanExpr>& r = exprs_[pos_++];
    row.resize(r.size());
    for (size_t i = 0; i < r.size(); ++i) row[i] = Eval(*r[i].expr, eval_);
    return true;
  }
  if (pos_ >= fixed_.size()) return false;
  const Row& r = fixed_[pos_++];
  row.resize(r.size());
  for (size_t i = 0; i < r.size(); ++i) row[i] = r[i];
  return true;
}

bool ResultNode::Next(Row& row) {
  if (done_) return false;
  done_ = true;
  row.clear();
  return true;
}

SubqueryScanNode::SubqueryScanNode(ExecNodePtr child, std::string alias, std::vector<OutputColumn> columns)
    : child_(std::move(child)), alias_(std::move(alias)) {
  columns_ = std::move(columns);
}

ExecNodePtr SeqScanNode::Clone() const {
  return std::make_unique<SeqScanNode>(table_, alias_, ClonePlanExpr(filter_), emit_rid_);
}

ExecNodePtr ValuesScanNode::Clone() const {
  if (fixed_.empty()) {
    std::vector<std::vector<PlanExpr>> rows;
    rows.reserve(exprs_.size());
    for (const auto& r : exprs_) rows.push_back(ClonePlanExprs(r));
    auto n = std::make_unique<ValuesScanNode>(std::move(rows), columns_);
    n->as_result_ = as_result_;
    return n;
  }
  return std::make_unique<ValuesScanNode>(fixed_, columns_);
}

ExecNodePtr ResultNode::Clone() const {
  return std::make_unique<ResultNode>();
}

ExecNodePtr SubqueryScanNode::Clone() const {
  return std::make_unique<SubqueryScanNode>(CloneNode(child_), alias_, columns_);
}

}  // namespace hearth::executor
