// server/planner/select_function.cpp
//
// Functions in FROM: `generate_series(1, 10) g`, `upper('a')`,
// `ROWS FROM (f(...), g(...)) [WITH ORDINALITY] [AS] a(x, y)` → a
// FunctionScanNode. A set-returning call streams through its SrfDef; any
// other expression gives one row. As in PostgreSQL, a function in FROM is
// implicitly LATERAL: its arguments may name columns of the items to its
// left, which become hidden parameters set per outer row by a lateral
// nested loop (select_lateral.cpp).
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "executor/expr/binder.h"
#include "executor/nodes/function_scan_node.h"
#include "planner/planner_internal.h"
#include "utils/adt/srf_registry.h"

namespace hearth::planner {

namespace {

// Column indexes in [kLateralRefBase, kOuterRefBase) stand for columns of
// the items to the left while a function's arguments are bound: index -
// kLateralRefBase is the hidden parameter slot.
constexpr int kLateralRefBase = 1 << 23;
static_assert(kLateralRefBase < kOuterRefBase);

bool HasParam(const BoundExpr& e) {
  if (e.kind == BoundKind::kParam) return true;
  for (const BoundExprPtr& c : e.children) {
    if (HasParam(*c)) return true;
  }
  return false;
}

// The single output column's name, as PostgreSQL's FigureColname.
std::string FunctionName(const parser::Expr& call) { return executor::OutputColumnName(call); }

}  // namespace

executor::ScanFunction QueryPlanner::BindScanFunction(const parser::Expr& call, LateralRefs* lateral) {
  // Names: the items to the left first (lateral), else this query level
  // (whose parent scope is the enclosing query: correlation).
  Scope here;
  here.parent = outer_;
  here.corr = corr_;
  Scope left;
  if (lateral_scope_ != nullptr) left.entries = lateral_scope_->entries;
  BindContext ctx = Context(&here, "functions in FROM");
  ctx.resolve_column = [&](const parser::ColumnRefExpr& c) -> std::optional<ColumnBinding> {
    if (left.entries.empty()) return here.Resolve(c);
    std::optional<std::pair<const RangeEntry*, int>> found;
    try {
      found = left.Find(c);
    } catch (const DbError& e) {
      const bool absent = c.fields.size() == 1 ? e.sqlstate() == sqlstate::kUndefinedColumn
                                               : e.sqlstate() == sqlstate::kUndefinedTable;
      if (!absent) throw;
    }
    if (!found) return here.Resolve(c);
    auto [entry, i] = *found;
    const int index = entry->offset + i;
    const types::Oid type = entry->types[static_cast<size_t>(i)];
    const int32_t typmod = entry->typmods[static_cast<size_t>(i)];
    size_t k = 0;
    while (k < lateral->values.size() && lateral->values[k].expr->index != index) ++k;
    if (k == lateral->values.size()) {
      const int slot = st_.nslots++;
      lateral->values.push_back(PlanExpr{MakeColumn(index, type, typmod), ""});
      lateral->slots.push_back(HiddenParam(type, typmod, slot));
      lateral->slot_numbers.push_back(slot);
      if (lateral->first_location < 0) {
        lateral->first_table = entry->alias;
        lateral->first_location = c.location;
      }
    }
    return ColumnBinding{kLateralRefBase + lateral->slot_numbers[k], type, typmod};
  };
  // The call itself may be set-returning; one nested inside it may not.
  executor::ScanFunction out;
  std::vector<BoundExprPtr> srf_args;
  ctx.bind_srf = [&](const parser::FuncCallExpr& f, std::vector<BoundExprPtr> args, const types::ResolvedFunc& r,
                     BindContext&) -> BoundExprPtr {
    if (static_cast<const parser::Expr*>(&f) != &call || out.srf != nullptr) {
      ThrowAt(DbError(sqlstate::kFeatureNotSupported, "set-returning functions must appear at top level of FROM"),
              f.location);
    }
    out.srf = &types::LookupSrf(r.sig);
    out.type = r.result_type;
    srf_args = std::move(args);
    auto placeholder = std::make_unique<BoundExpr>(BoundKind::kConst, r.result_type);
    placeholder->value = types::Value::Null(r.result_type);
    return placeholder;
  };
  BoundExprPtr b = Bind(call, ctx);
  // Lateral placeholders → the hidden parameters the nested loop sets.
  std::function<void(BoundExpr&)> to_params = [&](BoundExpr& e) {
    if (e.kind == BoundKind::kColumn && e.index >= kLateralRefBase && e.index < kOuterRefBase) {
      const int slot = e.index - kLateralRefBase;
      e.kind = BoundKind::kParam;
      e.index = executor::kHiddenParamBase + slot;
      return;
    }
    for (BoundExprPtr& c : e.children) to_params(*c);
  };
  if (out.srf != nullptr) {
    for (BoundExprPtr& a : srf_args) {
      ConvertOuterRefs(*a);
      to_params(*a);
      out.args.push_back(PlanExpr{std::move(a), ""});
    }
    return out;
  }
  to_params(*b);
  ctx.param_types = st_.params;
  b = executor::ResolveUnknownOutput(std::move(b), ctx);
  st_.params = ctx.param_types;
  out.type = b->type;
  out.scalar = PlanExpr{std::move(b), Deparse(call)};
  return out;
}

QueryPlanner::FromResult QueryPlanner::PlanFunctionItem(const parser::FunctionRef& f) {
  std::vector<const parser::Expr*> calls{f.call.get()};
  for (const parser::ExprPtr& c : f.more_calls) calls.push_back(c.get());
  FromResult r;
  std::vector<executor::ScanFunction> fns;
  for (const parser::Expr* c : calls) fns.push_back(BindScanFunction(*c, &r.lateral));
  const std::vector<std::string> record_columns = ExpandRecordFunction(&fns);  // select_record_srf.cpp
  // Names as PostgreSQL: the item is known by its alias, else by the
  // (first) function's name; a single function's column takes the alias.
  const std::string first = FunctionName(*calls[0]);
  RangeEntry e;
  e.alias = f.alias.name.empty() ? first : f.alias.name;
  std::vector<OutputColumn> cols;
  for (size_t i = 0; i < calls.size(); ++i) {
    std::string name = calls.size() == 1 && !f.alias.name.empty() ? f.alias.name : FunctionName(*calls[i]);
    // A function whose one OUT parameter is named (json_array_elements → value).
    if (const char* out_name = fns[i].srf != nullptr ? types::SrfOutColumnName(*fns[i].srf) : nullptr) name = out_name;
    if (name == "pg_partition_ancestors") name = "relid";  // its OUT parameter (psql's \d of a partitioned table)
    cols.push_back(OutputColumn{name, fns[i].type, types::kNoTypmod});
  }
  if (!record_columns.empty()) {
    cols.clear();
    for (size_t i = 0; i < fns.size(); ++i) cols.push_back(OutputColumn{record_columns[i], fns[i].type, types::kNoTypmod});
  }
  if (f.with_ordinality) cols.push_back(OutputColumn{"ordinality", types::kInt8Oid, types::kNoTypmod});
  if (f.alias.columns.size() > cols.size()) {
    throw DbError(sqlstate::kInvalidColumnReference, "table \"" + e.alias + "\" has " + std::to_string(cols.size()) +
                                                         " columns available but " +
                                                         std::to_string(f.alias.columns.size()) + " columns specified");
  }
  for (size_t i = 0; i < f.alias.columns.size(); ++i) cols[i].name = f.alias.columns[i];
  for (const OutputColumn& c : cols) {
    e.names.push_back(c.name);
    e.types.push_back(c.type);
    e.typmods.push_back(c.typmod);
    e.hidden.push_back(false);
  }
  // EXPLAIN: a lone scalar call of constants is folded to a Result, as
  // PostgreSQL's planner does; "Function Scan on f [alias]" otherwise.
  std::string explain;
  const executor::ScanFunction& f0 = fns[0];
  const bool folded = calls.size() == 1 && f0.srf == nullptr && !HasParam(*f0.scalar.expr) && !f.with_ordinality &&
                      (f0.scalar.expr->kind == BoundKind::kConst ||
                       (f0.scalar.expr->func != nullptr && !f0.scalar.expr->func->is_volatile &&
                        f0.scalar.expr->kind == BoundKind::kFuncCall));
  if (folded) {
    explain = "Result";
  } else if (calls.size() == 1 && calls[0]->kind == parser::ExprKind::kFuncCall) {
    const std::string fname = calls[0]->As<parser::FuncCallExpr>().name.back();
    explain = "Function Scan on " + fname + (e.alias != fname ? " " + e.alias : "");
  } else {
    explain = "Function Scan on " + e.alias;
  }
  r.node = std::make_unique<executor::FunctionScanNode>(std::move(fns), f.with_ordinality, explain, cols);
  r.entries.push_back(std::move(e));
  return r;
}

}  // namespace hearth::planner
