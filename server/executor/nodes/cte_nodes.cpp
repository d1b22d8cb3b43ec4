// server/executor/nodes/cte_nodes.cpp
//
// Principal entry points: CteScanNode, RecursiveUnionNode, CteAnchorNode (see cte_nodes.h).
#include "executor/nodes/cte_nodes.h"

#include "executor/row_codec.h"

namespace hearth::executor {

// ---- CteScanNode -------------------------------------------------------------

CteScanNode::CteScanNode(PlanExpr store_ref, std::string cte_name, std::string alias,
                         std::vector<OutputColumn> columns, bool work_table)
    : store_ref_(std::move(store_ref)), cte_name_(std::move(cte_name)), alias_(std::move(alias)),
      work_table_(work_table) {
  columns_ = std::move(columns);
}

ExecNodePtr CteScanNode::Clone() const {
  return std::make_unique<CteScanNode>(ClonePlanExpr(store_ref_), cte_name_, alias_, columns_, work_table_);
}

void CteScanNode::Open(ExecContext& ctx) {
  store_ = CteStoreAt(store_ref_, ctx);
  pos_ = 0;
  cursor_ = RowStore::Cursor{};
}

bool CteScanNode::Next(Row& row) {
  if (store_ == nullptr || !store_->Fetch(pos_, &row, &cursor_)) return false;
  ++pos_;
  return true;
}

std::string CteScanNode::ExplainName() const {
  std::string s = std::string(work_table_ ? "WorkTable Scan" : "CTE Scan") + " on " + cte_name_;
  if (!alias_.empty() && alias_ != cte_name_) s += " " + alias_;
  return s;
}

// ---- RecursiveUnionNode ------------------------------------------------------

RecursiveUnionNode::RecursiveUnionNode(ExecNodePtr non_recursive, ExecNodePtr recursive, PlanExpr table_ref,
                                       bool distinct, std::vector<OutputColumn> columns)
    : non_recursive_(std::move(non_recursive)),
      recursive_(std::move(recursive)),
      table_ref_(std::move(table_ref)),
      distinct_(distinct) {
  columns_ = std::move(columns);
}

ExecNodePtr RecursiveUnionNode::Clone() const {
  return std::make_unique<RecursiveUnionNode>(CloneNode(non_recursive_), CloneNode(recursive_),
                                              ClonePlanExpr(table_ref_), distinct_, columns_);
}

void RecursiveUnionNode::Open(ExecContext& ctx) {
  ctx_ = &ctx;
  work_ = CteStoreAt(table_ref_, ctx);
  work_->rows().Clear();
  collected_.Clear();
  collected_.SetSpill(ctx.work_mem, ctx.temp_dir);
  seen_.clear();
  in_recursive_ = false;
  done_ = false;
  non_recursive_->Open(ctx);
  child_open_ = true;
}

bool RecursiveUnionNode::FirstSeen(const Row& row) {
  if (!distinct_) return true;
  key_.clear();
  for (const types::Value& v : row) AppendHashKey(v, &key_);
  return seen_.insert(key_).second;
}

bool RecursiveUnionNode::NextRound() {
  if (collected_.empty()) return false;
  work_->rows().Swap(collected_);
  collected_.Clear();
  recursive_->Open(*ctx_);
  child_open_ = true;
  in_recursive_ = true;
  return true;
}

bool RecursiveUnionNode::Next(Row& row) {
  while (!done_) {
    ExecNode& child = in_recursive_ ? *recursive_ : *non_recursive_;
    if (child.Next(row)) {
      ctx_->CheckInterrupts();
      if (!FirstSeen(row)) continue;
      collected_.Append(row);
      return true;
    }
    child.Close();
    child_open_ = false;
    if (!NextRound()) done_ = true;
  }
  return false;
}

void RecursiveUnionNode::Close() {
  non_recursive_->Close();
  recursive_->Close();
  child_open_ = false;
  collected_.Clear();
  seen_.clear();
  if (work_ != nullptr) work_->rows().Clear();
  work_ = nullptr;
}

// ---- CteAnchorNode -----------------------------------------------------------

CteAnchorNode::CteAnchorNode(ExecNodePtr child, std::vector<std::pair<std::string, const ExecNode*>> ctes)
    : child_(std::move(child)), ctes_(std::move(ctes)) {
  columns_ = child_->columns();
}

ExecNodePtr CteAnchorNode::Clone() const { return std::make_unique<CteAnchorNode>(CloneNode(child_), ctes_); }

void CteAnchorNode::Explain(std::vector<std::string>* lines, int indent, bool as_child,
                            const std::vector<std::string>* extra) const {
  std::vector<std::string> mine;
  if (extra) mine = *extra;
  for (const auto& [name, plan] : ctes_) {
    std::vector<std::string> sub;
    plan->Explain(&sub, 2, true);
    mine.push_back(std::string(1, kExplainSubPlanMark) + "CTE " + name);
    for (std::string& l : sub) mine.push_back(kExplainSubPlanMark + l);
  }
  child_->Explain(lines, indent, as_child, &mine);
}

}  // namespace hearth::executor
