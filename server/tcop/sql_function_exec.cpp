// tcop/sql_function_exec.cpp
//
// Principal entry points: CompileFunction, InstallSqlFunctionCallbacks.
// A call runs the cached plans of the body one after another with the
// arguments as $1..$n; the value is the final statement's first row's
// first column (NULL without a row), or, for SETOF, every row's.
#include <algorithm>
#include <map>

#include "access/transam/xact.h"
#include "catalog/catalog_shared.h"
#include "catalog/privileges.h"
#include "catalog/proc_privileges.h"
#include "catalog/role_ddl.h"
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "common/error/stack_depth.h"
#include "executor/executor.h"
#include "executor/expr/user_functions.h"
#include "parser/parser.h"
#include "planner/planner.h"
#include "tcop/session.h"
#include "tcop/sql_functions.h"
#include "utils/adt/cast.h"
#include "utils/adt/type_catalog.h"

namespace hearth::tcop {

namespace {

using types::Oid;
using types::Value;

[[noreturn]] void ReturnTypeMismatch(const catalog::ProcInfo& p, const std::string& detail) {
  throw DbError("42P13", "return type mismatch in function declared to return " + types::FormatType(p.rettype))
      .WithDetail(detail);
}

bool ReturnsRows(const parser::Statement& stmt) {
  switch (stmt.kind) {
    case parser::StmtKind::kSelect: return true;
    case parser::StmtKind::kInsert: return !stmt.As<parser::InsertStmt>().returning.empty();
    case parser::StmtKind::kUpdate: return !stmt.As<parser::UpdateStmt>().returning.empty();
    case parser::StmtKind::kDelete: return !stmt.As<parser::DeleteStmt>().returning.empty();
    default: return false;
  }
}

// The final statement against the declared result (PostgreSQL's check_sql_fn_retval).
Oid CheckResult(const catalog::ProcInfo& p, const CompiledFunction& f) {
  if (p.rettype == types::kVoidOid || p.kind == 'p') return types::kInvalidOid;
  if (f.statements.empty() || !ReturnsRows(*f.statements.back())) {
    ReturnTypeMismatch(p, "Function's final statement must be SELECT or INSERT/UPDATE/DELETE RETURNING.");
  }
  const std::vector<executor::OutputColumn>& cols = f.plans.back().columns;
  if (cols.size() != 1) ReturnTypeMismatch(p, "Final statement must return exactly one column.");
  Oid t = cols[0].type == types::kUnknownOid ? types::kTextOid : cols[0].type;
  if (t != p.rettype && !types::CanCoerce(t, p.rettype, types::CoercionContext::kAssignment)) {
    ReturnTypeMismatch(p, "Actual return type is " + types::FormatType(t) + ".");
  }
  return t;
}

void CheckBodyStatement(const parser::Statement& stmt) {
  switch (stmt.kind) {
    case parser::StmtKind::kSelect:
      if (stmt.As<parser::SelectStmt>().into) break;
      return;
    case parser::StmtKind::kInsert:
    case parser::StmtKind::kUpdate:
    case parser::StmtKind::kDelete:
      return;
    case parser::StmtKind::kTransaction:
      throw DbError(sqlstate::kFeatureNotSupported, std::string(parser::StatementName(stmt)) +
                                                        " is not allowed in an SQL function");
    default:
      break;
  }
  throw DbError(sqlstate::kFeatureNotSupported,
                std::string(parser::StatementName(stmt)) + " is not supported in SQL functions yet");
}

// The per-backend cache of compiled bodies, valid for one catalog state.
struct FunctionCache {
  uint64_t catalog_version = 0;
  uint64_t proc_generation = 0;
  std::map<Oid, std::shared_ptr<CompiledFunction>> compiled;
};

FunctionCache& Cache() {
  static FunctionCache cache;
  return cache;
}

}  // namespace

std::shared_ptr<CompiledFunction> CompiledFunctionByOid(Session& s, Oid oid) {
  FunctionCache& c = Cache();
  const uint64_t gen = catalog::FunctionCacheGeneration();
  const uint64_t version = catalog::CatalogVersion();
  if (c.proc_generation != gen || c.catalog_version != version) {
    c.compiled.clear();
    c.proc_generation = gen;
    c.catalog_version = version;
  }
  auto it = c.compiled.find(oid);
  if (it != c.compiled.end()) return it->second;
  std::optional<catalog::ProcInfo> p = catalog::FindFunctionByOid(oid);
  if (!p) throw DbError(sqlstate::kUndefinedFunction, "function with OID " + std::to_string(oid) + " does not exist");
  std::shared_ptr<CompiledFunction> f = CompileFunction(s, *p);
  c.compiled[oid] = f;
  return f;
}

namespace {

std::shared_ptr<CompiledFunction> Compiled(Session& s, Oid oid) { return CompiledFunctionByOid(s, oid); }

// Acts as the function's owner while a SECURITY DEFINER body runs.
class DefinerScope {
 public:
  DefinerScope(const catalog::ProcInfo& p)
      : active_(p.secdef), saved_role_(catalog::GetCurrentUserId()), saved_super_(catalog::CurrentUserIsSuperuser()) {
    if (active_) catalog::SetCurrentUser(p.owner, catalog::RoleIsSuperuser(p.owner));
  }
  ~DefinerScope() {
    if (active_) catalog::SetCurrentUser(saved_role_, saved_super_);
  }
  DefinerScope(const DefinerScope&) = delete;
  DefinerScope& operator=(const DefinerScope&) = delete;

 private:
  bool active_;
  Oid saved_role_;
  bool saved_super_;
};

// PostgreSQL's CONTEXT line for an error inside a body (innermost call
// first; a deep recursion keeps its first lines only). A position inside
// the body means nothing to the caller's query.
void AddCallContext(DbError& e, const CompiledFunction& f, size_t statement) {
  e.WithPosition(0);
  const std::string line = "SQL function \"" + f.info.name + "\" statement " + std::to_string(statement + 1);
  const std::string& ctx = e.context();
  if (ctx.empty()) {
    e.WithContext(line);
  } else if (std::count(ctx.begin(), ctx.end(), '\n') < 20) {
    e.WithContext(ctx + "\n" + line);
  }
}

// Runs the body; `sink` receives the final statement's rows' first column
// (it returns false to stop early).
void RunBody(Session& s, const CompiledFunction& f, const Value* args, int nargs,
             const std::function<bool(Value)>& sink) {
  CheckStackDepth();
  catalog::CheckFunctionExecute(f.info);
  DefinerScope definer(f.info);
  const std::vector<Value> params(args, args + nargs);
  for (size_t i = 0; i < f.plans.size(); ++i) {
    try {
      CheckPrivileges(f.required[i]);
      executor::Execution exec(f.plans[i], MakeExecContext(s, params));
      std::vector<Value> row;
      const bool last = i + 1 == f.plans.size();
      while (exec.Next(row)) {
        if (last && !row.empty() && !sink(std::move(row[0]))) break;
      }
    } catch (DbError& e) {
      AddCallContext(e, f, i);
      throw;
    }
    // A later statement of a volatile body sees what this one changed.
    if (f.info.volatility == 'v' && f.statements[i]->kind != parser::StmtKind::kSelect) {
      access::CommandCounterIncrement();
    }
  }
}

Value ToResult(const CompiledFunction& f, Value v) {
  if (f.info.rettype == types::kVoidOid || f.info.kind == 'p') return Value::Null(types::kVoidOid);
  if (v.is_null) return Value::Null(f.info.rettype);
  if (f.result_column_type != f.info.rettype) {
    return types::CastValue(v, f.info.rettype, types::kNoTypmod, types::CoercionContext::kAssignment);
  }
  return v;
}

// A PL/pgSQL body: the interpreter, with the checks of every call.
Value CallPlpgsql(Session& s, const CompiledFunction& f, const Value* args, int nargs, std::vector<Value>* rows) {
  CheckStackDepth();
  catalog::CheckFunctionExecute(f.info);
  DefinerScope definer(f.info);
  return plpgsql::CallFunction(s, *f.pl, args, nargs, rows);
}

Value CallScalar(Session& s, Oid oid, const Value* args, int nargs) {
  std::shared_ptr<CompiledFunction> f = Compiled(s, oid);
  if (f->pl) return CallPlpgsql(s, *f, args, nargs, nullptr);
  Value result = Value::Null(f->info.rettype);
  bool have = false;
  RunBody(s, *f, args, nargs, [&](Value v) {
    if (!have) result = std::move(v);
    have = true;
    return false;  // the first row is the value
  });
  return ToResult(*f, std::move(result));
}

std::vector<Value> CallSet(Session& s, Oid oid, const Value* args, int nargs) {
  std::shared_ptr<CompiledFunction> f = Compiled(s, oid);
  std::vector<Value> rows;
  if (f->pl) {
    CallPlpgsql(s, *f, args, nargs, &rows);
    return rows;
  }
  RunBody(s, *f, args, nargs, [&](Value v) {
    rows.push_back(ToResult(*f, std::move(v)));
    return true;
  });
  return rows;
}

executor::UserFunctionCandidate ToCandidate(const catalog::ProcInfo& p) {
  executor::UserFunctionCandidate c;
  c.oid = p.oid;
  c.name = p.name;
  c.kind = p.kind;
  c.arg_types = p.argtypes;
  c.arg_names = p.InputNames();
  c.defaults = p.argdefaults;
  c.result_type = p.rettype;
  c.strict = p.strict;
  c.is_volatile = p.volatility == 'v';
  c.retset = p.retset;
  return c;
}

}  // namespace

std::unique_ptr<CompiledFunction> CompileFunction(Session& s, const catalog::ProcInfo& p) {
  auto f = std::make_unique<CompiledFunction>();
  f->info = p;
  if (p.lang == catalog::kPlpgsqlLanguageOid) {
    f->pl = plpgsql::CompileBody(p);
    return f;
  }
  f->statements = parser::ParseStatements(p.src);
  executor::ParamNameScope names(p.name, p.InputNames(), p.argtypes);
  planner::PlannerOptions options;
  options.enable_hashjoin = s.settings.GetBool("enable_hashjoin");
  options.enable_indexscan = s.settings.GetBool("enable_indexscan");
  for (const parser::StmtPtr& stmt : f->statements) {
    CheckBodyStatement(*stmt);
    LookupRecorder recorder(s);
    executor::PlannedStatement plan = planner::PlanStatement(*stmt, *s.tables, p.argtypes, options);
    if (plan.param_types.size() > p.argtypes.size()) {
      throw DbError(sqlstate::kUndefinedParameter,
                    "there is no parameter $" + std::to_string(p.argtypes.size() + 1));
    }
    f->required.push_back(recorder.Required(*stmt));
    f->plans.push_back(std::move(plan));
  }
  f->result_column_type = CheckResult(p, *f);
  return f;
}

plpgsql::TriggerResult CallTriggerFunction(Session& s, Oid oid, const plpgsql::TriggerCall& call) {
  std::shared_ptr<CompiledFunction> f = Compiled(s, oid);
  if (!f->pl || f->info.rettype != catalog::kTriggerTypeOid) {
    throw DbError("42P17",
                  "function " + f->info.name + " must return type trigger");
  }
  CheckStackDepth();
  catalog::CheckFunctionExecute(f->info);
  DefinerScope definer(f->info);
  return plpgsql::CallTrigger(s, *f->pl, call);
}

void InstallSqlFunctionCallbacks(Session& s) {
  s.callbacks.call_sql_function = [&s](uint32_t oid, const Value* args, int nargs) {
    return CallScalar(s, oid, args, nargs);
  };
  s.callbacks.call_sql_set_function = [&s](uint32_t oid, const Value* args, int nargs) {
    return CallSet(s, oid, args, nargs);
  };
  executor::SetUserFunctionSource([](const std::string& name) {
    std::vector<executor::UserFunctionCandidate> out;
    if (!access::IsTransactionInProgress()) return out;
    for (const catalog::ProcInfo& p : catalog::FindFunctionsByName(name)) out.push_back(ToCandidate(p));
    return out;
  });
}

}  // namespace hearth::tcop
