// server/executor/domain_checks.cpp
//
// Principal entry point: CheckDomainValue.
#include "executor/domain_checks.h"

#include <unordered_map>

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "executor/expr/binder.h"
#include "executor/expr/bound_expr.h"
#include "parser/parser.h"
#include "utils/adt/user_types.h"

namespace hearth::executor {
namespace {

struct BoundDomain {
  const types::UserType* type = nullptr;  // the snapshot entry these were bound from
  std::vector<std::pair<std::string, BoundExprPtr>> checks;
};

// Bound conditions of one domain level, rebound when the type snapshot
// changed (snapshots stay alive, so the entry pointer identifies one).
const BoundDomain& Bound(const types::UserType& d) {
  static std::unordered_map<types::Oid, BoundDomain> cache;
  BoundDomain& b = cache[d.oid];
  if (b.type == &d) return b;
  b.checks.clear();
  int32_t typmod = d.base_typmod;
  const types::Oid base = types::DomainBaseType(d.base_type, &typmod);
  for (const types::DomainCheck& c : d.checks) {
    std::vector<parser::StmtPtr> parsed = parser::ParseStatements("SELECT " + c.expr);
    const parser::Expr& e = *parsed.at(0)->As<parser::SelectStmt>().targets.at(0).expr;
    b.checks.emplace_back(c.name, BindDomainCheck(e, base, typmod));
  }
  b.type = &d;
  return b;
}

}  // namespace

BoundExprPtr BindDomainCheck(const parser::Expr& cond, types::Oid base, int32_t typmod) {
  BindContext ctx;
  ctx.allow_new_params = false;
  ctx.resolve_column = [&](const parser::ColumnRefExpr& ref) -> std::optional<ColumnBinding> {
    if (ref.fields.size() != 1 || ref.fields[0] != "value") return std::nullopt;
    return ColumnBinding{0, base, typmod};
  };
  return BindCondition(cond, ctx, "CHECK");
}

namespace {

void CheckLevel(const types::UserType& d, const std::string& shown, const types::Value& v, EvalContext& eval) {
  if (const types::UserType* base = types::FindDomainType(d.base_type)) CheckLevel(*base, shown, v, eval);
  if (v.is_null) {
    if (d.not_null) throw DbError(sqlstate::kNotNullViolation, "domain " + shown + " does not allow null values");
    return;
  }
  const BoundDomain& b = Bound(d);
  if (b.checks.empty()) return;
  // The conditions read VALUE as column 0; the caller's row comes back after.
  struct RowSwap {
    EvalContext& eval;
    const types::Value* row;
    size_t nrow;
    ~RowSwap() {
      eval.row = row;
      eval.nrow = nrow;
    }
  } restore{eval, eval.row, eval.nrow};
  eval.row = &v;
  eval.nrow = 1;
  for (const auto& [name, expr] : b.checks) {
    const types::Value ok = Eval(*expr, eval);
    if (ok.is_null || ok.b) continue;
    throw DbError(sqlstate::kCheckViolation,
                  "value for domain " + shown + " violates check constraint \"" + name + "\"");
  }
}

}  // namespace

void CheckDomainValue(types::Oid domain, const types::Value& v, EvalContext& eval) {
  const types::UserType* d = types::FindDomainType(domain);
  if (d != nullptr) CheckLevel(*d, d->name, v, eval);
}

}  // namespace hearth::executor
