// server/executor/expr/user_functions.cpp
//
// Principal entry points: BindUserFunction, BindParamName,
// SqlFunctionSignature. Resolution follows PostgreSQL's func_select_candidate
// in small: candidates whose input count the call reaches (defaults fill
// the tail), every argument implicitly castable, then the most exact type
// matches; a tie is 42725.
#include "executor/expr/user_functions.h"

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "executor/expr/bind_helpers.h"
#include "executor/expr/binder.h"
#include "parser/parser.h"
#include "utils/adt/cast.h"
#include "utils/adt/srf_registry.h"
#include "utils/adt/type_catalog.h"

namespace hearth::executor {

using bind::ThrowAt;
using types::Oid;
using types::Value;

namespace {

UserFunctionSource& Source() {
  static UserFunctionSource source;
  return source;
}

bool& InProcedureCall() {
  static bool in_call = false;
  return in_call;
}

const ParamNameScope*& CurrentParamNames() {
  static const ParamNameScope* current = nullptr;
  return current;
}

Value CallSqlFunction(const Value* args, int nargs, types::FuncCallContext& ctx) {
  if (ctx.session == nullptr || !ctx.session->call_sql_function) {
    throw DbError(sqlstate::kFeatureNotSupported, "SQL functions are not available here");
  }
  const auto oid = static_cast<uint32_t>(args[nargs - 1].i);
  return ctx.session->call_sql_function(oid, args, nargs - 1);
}

// -1 when `c` cannot take `given` arguments of these types; else the
// number of exact type matches.
int MatchScore(const UserFunctionCandidate& c, const std::vector<Oid>& given) {
  const size_t nparams = c.arg_types.size();
  if (given.size() > nparams || given.size() + c.defaults.size() < nparams) return -1;
  int exact = 0;
  for (size_t i = 0; i < given.size(); ++i) {
    const Oid from = given[i];
    const Oid to = c.arg_types[i];
    if (from == to) {
      ++exact;
      continue;
    }
    if (from == types::kUnknownOid || from == types::kInvalidOid) continue;
    if (!types::CanCoerce(from, to, types::CoercionContext::kImplicit)) return -1;
  }
  return exact;
}

const UserFunctionCandidate* Choose(const std::vector<UserFunctionCandidate>& cands, const std::vector<Oid>& given,
                                    const parser::FuncCallExpr& f) {
  const UserFunctionCandidate* best = nullptr;
  int best_score = -1;
  bool tie = false;
  for (const UserFunctionCandidate& c : cands) {
    const int score = MatchScore(c, given);
    if (score < 0) continue;
    if (score > best_score) {
      best = &c;
      best_score = score;
      tie = false;
    } else if (score == best_score) {
      tie = true;
    }
  }
  const std::string sig = FunctionSignatureText(f.name.back(), given);
  if (best == nullptr) return nullptr;
  if (tie) {
    ThrowAt(DbError(sqlstate::kAmbiguousFunction, "function " + sig + " is not unique")
                .WithHint("Could not choose a best candidate function. You might need to add explicit type casts."),
            f.location);
  }
  return best;
}

// The default expression `text` bound in `ctx` (the call's context).
BoundExprPtr BindDefault(const std::string& text, BindContext& ctx) {
  std::vector<parser::StmtPtr> parsed = parser::ParseStatements("SELECT " + text);
  const auto& sel = parsed.at(0)->As<parser::SelectStmt>();
  BindContext dctx;
  dctx.param_types = ctx.param_types;
  dctx.allow_new_params = false;
  return BindExpr(*sel.targets.at(0).expr, dctx);
}

}  // namespace

void SetUserFunctionSource(UserFunctionSource source) { Source() = std::move(source); }

ProcedureCallScope::ProcedureCallScope() : saved_(InProcedureCall()) { InProcedureCall() = true; }
ProcedureCallScope::~ProcedureCallScope() { InProcedureCall() = saved_; }

ParamNameScope::ParamNameScope(std::string function_name, std::vector<std::string> names, std::vector<Oid> types)
    : saved_(CurrentParamNames()),
      function_name_(std::move(function_name)),
      names_(std::move(names)),
      types_(std::move(types)) {
  CurrentParamNames() = this;
}
ParamNameScope::~ParamNameScope() { CurrentParamNames() = saved_; }

int BodyParamCount() {
  const ParamNameScope* scope = CurrentParamNames();
  return scope == nullptr ? -1 : static_cast<int>(scope->types_.size());
}

BoundExprPtr BindParamName(const parser::ColumnRefExpr& c) {
  const ParamNameScope* scope = CurrentParamNames();
  if (scope == nullptr || c.star || c.fields.empty() || c.fields.size() > 2) return nullptr;
  // "a.b" is a record variable's field ("a.b" in names, PL/pgSQL) or
  // function-qualified parameter b; the last of equal names wins (an inner
  // block's variable hides an outer one).
  const std::string joined = c.fields.size() == 2 ? c.fields[0] + "." + c.fields[1] : c.fields[0];
  const bool qualified_ok = c.fields.size() == 1 || c.fields[0] == scope->function_name_;
  const std::string& name = c.fields.back();
  for (size_t i = scope->names_.size(); i-- > 0;) {
    const std::string& n = scope->names_[i];
    if (!n.empty() && (n == joined || (qualified_ok && n == name))) {
      auto e = bind::Node(BoundKind::kParam, scope->types_[i], c.location);
      e->index = static_cast<int>(i);
      return e;
    }
  }
  return nullptr;
}

std::string FunctionSignatureText(const std::string& name, const std::vector<Oid>& types) {
  std::string out = name + "(";
  for (size_t i = 0; i < types.size(); ++i) {
    out += (i ? ", " : "") + types::FormatType(types[i] == types::kInvalidOid ? types::kUnknownOid : types[i]);
  }
  return out + ")";
}

const types::FuncSignature* SqlFunctionSignature(bool strict) {
  static const types::FuncSignature sigs[2] = {
      {"sql_function", types::FuncKind::kFunction, 1, {types::kAnyOid, 0, 0}, types::kAnyOid, &CallSqlFunction,
       /*strict=*/false, /*variadic=*/true, /*is_volatile=*/true},
      {"sql_function", types::FuncKind::kFunction, 1, {types::kAnyOid, 0, 0}, types::kAnyOid, &CallSqlFunction,
       /*strict=*/true, /*variadic=*/true, /*is_volatile=*/true},
  };
  return &sigs[strict ? 1 : 0];
}

const types::FuncSignature* SqlSetFunctionSignature(bool strict) { return &types::UserSqlSrfDef(strict).sig; }

BoundExprPtr BindUserFunction(const parser::FuncCallExpr& f, std::vector<BoundExprPtr>& args, BindContext& ctx) {
  if (!Source()) return nullptr;
  if (f.name.size() > 1 && f.name[f.name.size() - 2] != "public") return nullptr;
  std::vector<UserFunctionCandidate> cands = Source()(f.name.back());
  if (cands.empty()) return nullptr;
  std::vector<Oid> given;
  for (const BoundExprPtr& a : args) given.push_back(a->type);
  const UserFunctionCandidate* c = Choose(cands, given, f);
  if (c == nullptr) return nullptr;
  const std::string sig = FunctionSignatureText(f.name.back(), given);
  if (c->kind == 'p' && !InProcedureCall()) {
    ThrowAt(DbError(sqlstate::kWrongObjectType, sig + " is a procedure")
                .WithHint("To call a procedure, use CALL."),
            f.location);
  }
  if (c->kind != 'p' && InProcedureCall()) {
    ThrowAt(DbError(sqlstate::kWrongObjectType, sig + " is not a procedure")
                .WithHint("To call a function, use SELECT."),
            f.location);
  }
  if (f.star || f.distinct || f.filter || !f.agg_order.empty() || f.over) {
    ThrowAt(DbError(sqlstate::kWrongObjectType,
                    std::string(f.over ? "OVER" : "DISTINCT") + " specified, but " + f.name.back() +
                        " is not an aggregate function"),
            f.location);
  }
  // Trailing defaults for the arguments not given.
  const size_t first_default = c->arg_types.size() - c->defaults.size();
  for (size_t i = args.size(); i < c->arg_types.size(); ++i) {
    args.push_back(BindDefault(c->defaults[i - first_default], ctx));
  }
  for (size_t i = 0; i < args.size(); ++i) {
    args[i] = Coerce(std::move(args[i]), c->arg_types[i], -1, types::CoercionContext::kImplicit, ctx);
  }
  auto oid = bind::Node(BoundKind::kConst, types::kInt8Oid, f.location);
  oid->value = Value::Int8(c->oid);
  args.push_back(std::move(oid));
  if (c->retset) {
    types::ResolvedFunc r;
    r.sig = SqlSetFunctionSignature(c->strict);
    r.result_type = c->result_type;
    for (const BoundExprPtr& a : args) r.arg_types.push_back(a->type);
    if (ctx.bind_srf) return ctx.bind_srf(f, std::move(args), r, ctx);
    ThrowAt(DbError(sqlstate::kFeatureNotSupported, "set-returning functions are not allowed in this context"),
            f.location);
  }
  auto e = bind::Node(BoundKind::kFuncCall, c->result_type, f.location);
  e->func = SqlFunctionSignature(c->strict);
  e->children = std::move(args);
  return e;
}

}  // namespace hearth::executor
