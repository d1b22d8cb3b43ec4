// server/executor/nodes/cte_nodes.h
//
// WITH queries: CteScanNode (reads a WITH query's shared result, or as
// WorkTable Scan a recursive query's working table), RecursiveUnionNode
// (WITH RECURSIVE's iteration over the working table), and CteAnchorNode (invisible; shows the "CTE x"
// sub-plans of one query level in EXPLAIN). The shared rows live in the
// Execution (cte_store.h); these nodes reach them through a hidden
// parameter holding the store's address, so clones of one plan never
// share run-time state.
#pragma once

#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "executor/cte_store.h"
#include "executor/exec_node.h"

namespace hearth::executor {

// "CTE Scan on x [alias]": the rows of WITH query x, from the start at
// each Open. With work_table, "WorkTable Scan on x [alias]": the rows the
// previous round of a recursive union produced (a store without producer).
class CteScanNode : public ExecNode {
 public:
  CteScanNode(PlanExpr store_ref, std::string cte_name, std::string alias, std::vector<OutputColumn> columns,
              bool work_table = false);
  ExecNodePtr Clone() const override;
  void Open(ExecContext& ctx) override;
  bool Next(Row& row) override;
  void Close() override { store_ = nullptr; }

 protected:
  std::string ExplainName() const override;

 private:
  PlanExpr store_ref_;
  std::string cte_name_;
  std::string alias_;
  bool work_table_;
  // run time
  CteStore* store_ = nullptr;
  size_t pos_ = 0;
  RowStore::Cursor cursor_;  // this reader's window into spilled rows
};

// PostgreSQL's recursive union: emit the non-recursive term's rows and
// collect them as the working table; then, while the last round produced
// rows, run the recursive term over them (read by its WorkTableScan),
// emitting and collecting its rows for the next round. UNION (distinct)
// drops rows seen before, which ends cycles.
class RecursiveUnionNode : public ExecNode {
 public:
  RecursiveUnionNode(ExecNodePtr non_recursive, ExecNodePtr recursive, PlanExpr table_ref, bool distinct,
                     std::vector<OutputColumn> columns);
  ExecNodePtr Clone() const override;
  void Open(ExecContext& ctx) override;
  bool Next(Row& row) override;
  void Close() override;

 protected:
  std::string ExplainName() const override { return "Recursive Union"; }
  std::vector<const ExecNode*> ExplainChildren() const override { return {non_recursive_.get(), recursive_.get()}; }

 private:
  // True if the row is new (always true for UNION ALL).
  bool FirstSeen(const Row& row);
  // Makes the rows collected so far the working table and restarts the
  // recursive term; false when the last round produced nothing.
  bool NextRound();

  ExecNodePtr non_recursive_;
  ExecNodePtr recursive_;
  PlanExpr table_ref_;
  bool distinct_;
  // run time
  ExecContext* ctx_ = nullptr;
  CteStore* work_ = nullptr;
  RowStore collected_;
  std::unordered_set<std::string> seen_;
  std::string key_;
  bool in_recursive_ = false;
  bool child_open_ = false;
  bool done_ = false;
};

// Pass-through over the top node of a query level with WITH queries; its
// EXPLAIN prints the level's materialized WITH queries as "CTE x" sub-plans
// after the top node's own properties, as PostgreSQL does. `ctes` point
// into the PlannedStatement's init plans (the prototype outlives every
// clone and every EXPLAIN of it).
class CteAnchorNode : public ExecNode {
 public:
  CteAnchorNode(ExecNodePtr child, std::vector<std::pair<std::string, const ExecNode*>> ctes);
  ExecNodePtr Clone() const override;
  void Open(ExecContext& ctx) override { child_->Open(ctx); }
  bool Next(Row& row) override { return child_->Next(row); }
  void Close() override { child_->Close(); }
  void Explain(std::vector<std::string>* lines, int indent = 0, bool as_child = false,
               const std::vector<std::string>* extra = nullptr) const override;
  const ExecNode& child() const { return *child_; }

 protected:
  std::string ExplainName() const override { return ""; }

 private:
  ExecNodePtr child_;
  std::vector<std::pair<std::string, const ExecNode*>> ctes_;
};

}  // namespace hearth::executor
