// server/executor/exec_node.h
//
// ExecNode: the Volcano-style (pull) plan node interface, and PlanExpr, a
// bound expression together with its EXPLAIN text.
//
// Protocol: Open(ctx) → Next(row)* until false → Close(). A node may be
// re-opened after Close (rescans, repeated executions of a prepared plan).
// `row` is owned by the caller and reused across calls: nodes resize it to
// their width and assign into it, so fixed-width values never allocate in
// steady state. Errors are DbErrors thrown from any call; the caller then
// destroys or Closes the tree, which must release everything (temp files).
//
// EXPLAIN format (PostgreSQL's text format without costs): a node's line is
// its name ("Seq Scan on t", "Hash Join"), its properties follow on lines
// indented two more spaces ("  Filter: (x > 1)"), and each child starts
// with "->  " indented two spaces past its parent's name column, its own
// properties six spaces past that.
//
// Plans are prototypes: the planner builds a tree that is never opened
// itself; each execution runs its own Clone(), so any number of executions
// (portals, cursors) of one planned statement can be open at once. A node
// keeps its plan-time fields (children, bound expressions, columns,
// options) apart from its run-time state; Clone copies the former and
// starts the latter fresh.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "executor/exec_context.h"
#include "executor/expr/bound_expr.h"
#include "executor/table_access.h"

namespace hearth::executor {

// One output column: RowDescription facts plus the column name.
struct OutputColumn {
  std::string name;
  types::Oid type = types::kInvalidOid;
  int32_t typmod = types::kNoTypmod;
};

// A bound expression and how EXPLAIN prints it ("(a.id = b.id)").
struct PlanExpr {
  BoundExprPtr expr;
  std::string text;
};

class ExecNode {
 public:
  virtual ~ExecNode() = default;
  ExecNode(const ExecNode&) = delete;
  ExecNode& operator=(const ExecNode&) = delete;

  // Prepares for Next. May throw. REQUIRES: ctx outlives the Open..Close span.
  virtual void Open(ExecContext& ctx) = 0;
  // Produces the next row into `row` (resized to columns().size()); false at end.
  virtual bool Next(Row& row) = 0;
  // Releases per-execution resources (scans, hash tables, temp files).
  // Safe to call more than once and without a prior successful Open.
  virtual void Close() = 0;

  const std::vector<OutputColumn>& columns() const { return columns_; }

  // A fresh, unopened copy of this subtree's plan (no run-time state).
  virtual std::unique_ptr<ExecNode> Clone() const = 0;

  // Appends this subtree's EXPLAIN lines. `indent` is the column where this
  // node's text starts; `as_child` prefixes "->  "; `extra` are property
  // lines contributed by an invisible parent (Filter, Project) that print
  // as if they were this node's own.
  virtual void Explain(std::vector<std::string>* lines, int indent = 0, bool as_child = false,
                       const std::vector<std::string>* extra = nullptr) const;

 protected:
  ExecNode() = default;
  // "Seq Scan on t", "Sort", ...
  virtual std::string ExplainName() const = 0;
  // Property lines without indentation ("Filter: (x > 1)").
  virtual void ExplainDetails(std::vector<std::string>* /*out*/) const {}
  // Children in EXPLAIN order (outer first).
  virtual std::vector<const ExecNode*> ExplainChildren() const { return {}; }

  std::vector<OutputColumn> columns_;
};

using ExecNodePtr = std::unique_ptr<ExecNode>;

// First character of an `extra` EXPLAIN line that belongs to a sub-plan
// section ("CTE x" and its plan): such lines print after the node's
// property lines, whichever invisible parent added them.
inline constexpr char kExplainSubPlanMark = '\x02';
// Appends `details` (property lines, then marked sub-plan lines with the
// mark removed) to *lines, each prefixed with `pad`.
void AppendExplainDetails(std::vector<std::string>* lines, const std::string& pad, std::vector<std::string> details);

// Clone helpers for nodes' Clone(): null-safe, element-wise.
inline ExecNodePtr CloneNode(const ExecNodePtr& n) { return n ? n->Clone() : nullptr; }
PlanExpr ClonePlanExpr(const PlanExpr& e);
std::vector<PlanExpr> ClonePlanExprs(const std::vector<PlanExpr>& v);
std::vector<BoundExprPtr> CloneBoundList(const std::vector<BoundExprPtr>& v);

}  // namespace hearth::executor
