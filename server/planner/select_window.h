// server/planner/select_window.h
//
// Window functions of one plain SELECT while it is planned (internal to
// server/planner). Window calls are bound at select-list level (after GROUP
// BY/HAVING) and stand for kAggRef nodes numbered from kWindowRefBase until
// AddWindowAggs places the WindowAgg nodes and knows their columns. Every
// argument, PARTITION BY and ORDER BY expression becomes an "input": a
// column a projection appends to the rows below the first WindowAgg.
#pragma once

#include <utility>
#include <vector>

#include "executor/nodes/window_node.h"
#include "planner/planner_internal.h"

namespace hearth::planner {

inline constexpr int kWindowRefBase = 1 << 22;

// A window specification with WINDOW-clause names resolved (into the AST).
struct ResolvedWindow {
  const std::vector<parser::ExprPtr>* partition = nullptr;
  const std::vector<parser::SortBy>* order = nullptr;
  const parser::WindowFrame* frame = nullptr;  // null: the default frame
  int location = -1;
};

// One distinct window specification and its functions; columns are indexes
// into WindowParts::inputs until AddWindowAggs shifts them.
struct WindowGroup {
  std::vector<executor::SortKey> partition;
  std::vector<executor::SortKey> order;
  executor::WindowFrameSpec frame;
  std::vector<executor::WindowFunc> funcs;
};

struct WindowParts {
  std::vector<PlanExpr> inputs;
  std::vector<WindowGroup> groups;
  std::vector<std::pair<size_t, size_t>> refs;  // kWindowRefBase + n → (group, function)
  bool in_call = false;        // binding a window call's arguments
  bool in_definition = false;  // binding PARTITION BY / ORDER BY
};

// OVER w / OVER (w ...) against the WINDOW clause with PostgreSQL's errors
// (42704 unknown window, 42P20 overriding PARTITION BY / ORDER BY, copying
// a window with a frame).
ResolvedWindow ResolveWindow(const parser::WindowSpec& spec, const parser::SelectStmt& s);
// The WINDOW clause itself: duplicate names (42P20) and references.
void CheckWindowClause(const parser::SelectStmt& s);

// A window function call resolved: its kind, aggregate, result type and
// name, with the arguments coerced to their parameter types.
struct ResolvedWindowFunc {
  executor::WindowFunc fn;
  std::vector<BoundExprPtr> args;
};
ResolvedWindowFunc ResolveWindowFunc(const parser::FuncCallExpr& f, std::vector<BoundExprPtr> args,
                                     BindContext& ctx);

bool SameFrame(const executor::WindowFrameSpec& a, const executor::WindowFrameSpec& b);

}  // namespace hearth::planner
