// server/planner/select_window_spec.cpp
//
// Window specifications: resolving `OVER w` / `OVER (w ...)` against the
// WINDOW clause with PostgreSQL's 42704/42P20 errors, and comparing frames.
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "planner/select_window.h"

namespace hearth::planner {

namespace {

// Index of the WINDOW entry `name` among the first `before`; -1 if none.
int FindWindowDef(const parser::SelectStmt& s, const std::string& name, size_t before) {
  for (size_t i = 0; i < before && i < s.windows.size(); ++i) {
    if (s.windows[i]->def_name == name) return static_cast<int>(i);
  }
  return -1;
}

// `spec` (of an OVER clause or of WINDOW entry number `limit`, which may
// name only earlier entries) resolved.
ResolvedWindow Resolve(const parser::WindowSpec& spec, const parser::SelectStmt& s, size_t limit) {
  ResolvedWindow r;
  r.partition = &spec.partition_by;
  r.order = &spec.order_by;
  r.frame = spec.frame.get();
  r.location = spec.location;
  if (spec.name.empty()) return r;
  const int def = FindWindowDef(s, spec.name, limit);
  if (def < 0) {
    ThrowAt(DbError(sqlstate::kUndefinedObject, "window \"" + spec.name + "\" does not exist"), spec.location);
  }
  ResolvedWindow base = Resolve(*s.windows[static_cast<size_t>(def)], s, static_cast<size_t>(def));
  if (spec.bare_name) {
    base.location = spec.location;
    return base;
  }
  if (!spec.partition_by.empty()) {
    ThrowAt(DbError(sqlstate::kWindowingError, "cannot override PARTITION BY clause of window \"" + spec.name + "\""),
            spec.location);
  }
  if (!spec.order_by.empty() && !base.order->empty()) {
    ThrowAt(DbError(sqlstate::kWindowingError, "cannot override ORDER BY clause of window \"" + spec.name + "\""),
            spec.location);
  }
  if (base.frame != nullptr) {
    DbError e(sqlstate::kWindowingError, "cannot copy window \"" + spec.name + "\" because it has a frame clause");
    if (spec.order_by.empty() && spec.frame == nullptr) e.WithHint("Omit the parentheses in this OVER clause.");
    ThrowAt(std::move(e), spec.location);
  }
  r.partition = base.partition;
  if (spec.order_by.empty()) r.order = base.order;
  return r;
}

}  // namespace

ResolvedWindow ResolveWindow(const parser::WindowSpec& spec, const parser::SelectStmt& s) {
  return Resolve(spec, s, s.windows.size());
}

void CheckWindowClause(const parser::SelectStmt& s) {
  for (size_t i = 0; i < s.windows.size(); ++i) {
    const parser::WindowSpec& w = *s.windows[i];
    if (FindWindowDef(s, w.def_name, i) >= 0) {
      ThrowAt(DbError(sqlstate::kWindowingError, "window \"" + w.def_name + "\" is already defined"), w.location);
    }
    Resolve(w, s, i);
  }
}

bool SameFrame(const executor::WindowFrameSpec& a, const executor::WindowFrameSpec& b) {
  auto same_offset = [](const PlanExpr& x, const PlanExpr& y) {
    if (!x.expr || !y.expr) return !x.expr && !y.expr;
    return SameExpr(*x.expr, *y.expr);
  };
  return a.mode == b.mode && a.start == b.start && a.end == b.end && a.exclude == b.exclude &&
         same_offset(a.start_offset, b.start_offset) && same_offset(a.end_offset, b.end_offset);
}

}  // namespace hearth::planner
