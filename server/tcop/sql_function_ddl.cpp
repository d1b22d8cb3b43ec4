// tcop/sql_function_ddl.cpp
//
// Principal entry point: PlanFunctionStmt — CREATE [OR REPLACE]
// FUNCTION/PROCEDURE (LANGUAGE sql or plpgsql; the body is compiled at
// once, so its errors surface at CREATE as in PostgreSQL with
// check_function_bodies on), DROP FUNCTION/PROCEDURE, DO (LANGUAGE
// plpgsql, plpgsql.h; other languages: 42704), CALL, GRANT/REVOKE EXECUTE
// ON FUNCTION.
#include <algorithm>

#include "catalog/default_acl.h"
#include "catalog/privileges.h"
#include "catalog/proc_privileges.h"
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "executor/expr/bind_array.h"
#include "executor/expr/user_functions.h"
#include "parser/parser.h"
#include "tcop/session.h"
#include "tcop/sql_functions.h"
#include "utils/adt/type_catalog.h"
#include "utils/adt/user_types.h"

namespace hearth::tcop {

namespace {

using catalog::ProcInfo;
using types::Oid;

Oid ResolveTypeName(const parser::TypeName& tn) {
  const types::TypeInfo* ti = nullptr;
  if ((tn.schema.empty() || tn.schema == "pg_catalog") && tn.name == "void" && !tn.is_array) return types::kVoidOid;
  if ((tn.schema.empty() || tn.schema == "pg_catalog") && tn.name == "trigger" && !tn.is_array) return catalog::kTriggerTypeOid;
  ti = types::LookupTypeByQualifiedName(tn.schema, tn.name);
  if (ti == nullptr) {
    const std::string full = tn.schema.empty() ? tn.name : tn.schema + "." + tn.name;
    throw DbError(sqlstate::kUndefinedObject, "type \"" + full + "\" does not exist");
  }
  return tn.is_array ? executor::ArrayTypeForName(tn, ti->oid) : ti->oid;
}

[[noreturn]] void LanguageMissing(const std::string& language) {
  throw DbError(sqlstate::kUndefinedObject, "language \"" + language + "\" does not exist")
      .WithHint("Use CREATE EXTENSION to load the language into the database.");
}

void CheckLanguage(const parser::CreateFunctionStmt& stmt) {
  std::string lang = stmt.language;
  if (lang.empty()) {
    if (stmt.sql_standard_body) return;
    throw DbError("42P13", "no language specified");
  }
  if (lang == "sql" || lang == "plpgsql") return;
  if (lang == "c" || lang == "internal") {
    throw DbError(sqlstate::kFeatureNotSupported, "only LANGUAGE sql functions are supported");
  }
  LanguageMissing(lang);
}

// Parameters, result type and options of the statement as a catalog row.
ProcInfo DescribeFunction(const parser::CreateFunctionStmt& stmt) {
  ProcInfo p;
  p.name = stmt.name.name;
  p.kind = stmt.is_procedure ? 'p' : 'f';
  if (stmt.language == "plpgsql") p.lang = catalog::kPlpgsqlLanguageOid;
  p.secdef = stmt.security_definer;
  p.strict = stmt.strict == 1;
  p.volatility = stmt.volatility != 0 ? stmt.volatility : 'v';
  p.owner = catalog::OwnerForNewObject();
  bool any_named = false, any_mode = false, seen_default = false;
  std::vector<std::pair<std::string, Oid>> outputs;
  for (const parser::FuncParam& fp : stmt.params) {
    const Oid t = ResolveTypeName(fp.type);
    const char mode = static_cast<char>(fp.mode);
    any_named |= !fp.name.empty();
    any_mode |= mode != 'i';
    p.allargtypes.push_back(t);
    p.argmodes += mode;
    p.argnames.push_back(fp.name);
    if (mode == 'o' || mode == 't' || mode == 'b') outputs.emplace_back(fp.name, t);
    if (mode == 'o' || mode == 't') continue;
    if (mode == 'v') throw DbError(sqlstate::kFeatureNotSupported, "VARIADIC parameters are not supported yet");
    p.argtypes.push_back(t);
    if (fp.default_expr) {
      seen_default = true;
      p.argdefaults.push_back(fp.default_text);
    } else if (seen_default) {
      throw DbError("42P13", "input parameters after one with a default value must also have defaults");
    }
  }
  if (!any_named) p.argnames.clear();
  if (!any_mode) {
    p.allargtypes.clear();
    p.argmodes.clear();
  }
  p.retset = stmt.returns_set;
  if (stmt.has_return_type && !stmt.returns_table) {
    p.rettype = ResolveTypeName(stmt.return_type);
  } else if (!outputs.empty()) {
    if (outputs.size() > 1) {
      throw DbError(sqlstate::kFeatureNotSupported, "functions returning several columns are not supported yet");
    }
    p.rettype = outputs[0].second;
  } else if (stmt.is_procedure) {
    p.rettype = types::kVoidOid;
  } else {
    throw DbError("42P13", "function result type must be specified");
  }
  const bool plpgsql = p.lang == catalog::kPlpgsqlLanguageOid;
  if (p.rettype == catalog::kTriggerTypeOid && !plpgsql) {
    throw DbError("42P13", "SQL functions cannot return type trigger");
  }
  if (p.rettype == catalog::kTriggerTypeOid && !p.argtypes.empty()) {
    throw DbError("42P13", "trigger functions cannot have declared arguments")
        .WithHint("The arguments of the trigger can be accessed through TG_NARGS and TG_ARGV instead.")
        .WithContext("compilation of PL/pgSQL function \"" + p.name + "\" near line 1");
  }
  if (p.rettype == types::kRecordOid || (types::CategoryOf(p.rettype) == types::TypeCategory::kPseudo &&
                                         p.rettype != types::kVoidOid && p.rettype != catalog::kTriggerTypeOid)) {
    throw DbError(sqlstate::kFeatureNotSupported, std::string(plpgsql ? "PL/pgSQL" : "SQL") + " functions returning " +
                                                      types::FormatType(p.rettype) + " are not supported yet");
  }
  p.src = stmt.body;
  if (stmt.sql_standard_body) p.sqlbody = stmt.sql_body_text;
  return p;
}

const ProcInfo* SameSignature(const std::vector<ProcInfo>& existing, const std::vector<Oid>& argtypes) {
  for (const ProcInfo& e : existing) {
    if (e.argtypes == argtypes) return &e;
  }
  return nullptr;
}

std::string Signature(const ProcInfo& p) { return executor::FunctionSignatureText(p.name, p.argtypes); }

// OR REPLACE of `old` by `p`: PostgreSQL's restrictions.
void CheckReplace(const ProcInfo& old, const ProcInfo& p) {
  catalog::CheckOwnership(old.owner, old.kind == 'p' ? "procedure" : "function", old.name);
  if (old.kind != p.kind) {
    throw DbError(sqlstate::kWrongObjectType, old.kind == 'p' ? "cannot change routine kind" : "cannot change routine kind")
        .WithDetail(std::string("\"") + old.name + "\" is a " + (old.kind == 'p' ? "procedure." : "function."));
  }
  if (old.rettype != p.rettype || old.retset != p.retset) {
    std::string args;
    for (size_t i = 0; i < old.argtypes.size(); ++i) args += (i ? "," : "") + types::FormatType(old.argtypes[i]);
    throw DbError("42P13", "cannot change return type of existing function")
        .WithHint("Use DROP FUNCTION " + old.name + "(" + args + ") first.");
  }
}

// Byte offset in the query of the first character of an AS '...' body
// (after its opening quote or $tag$); -1 for SQL-standard bodies.
int BodyContentStart(const parser::CreateFunctionStmt& stmt) {
  if (stmt.sql_standard_body || stmt.body_location < stmt.location) return -1;
  const std::string_view text(stmt.text);
  const size_t at = static_cast<size_t>(stmt.body_location - stmt.location);
  if (at >= text.size()) return -1;
  if (text[at] == '$') {
    const size_t close = text.find('$', at + 1);
    return close == std::string_view::npos ? -1 : stmt.location + static_cast<int>(close + 1);
  }
  return stmt.body_location + (text[at] == '\'' ? 1 : 2);  // '...' or E'...'
}

class CreateFunctionPlan : public Plan {
 public:
  explicit CreateFunctionPlan(const parser::CreateFunctionStmt& stmt) : stmt_(stmt) {}
  std::string Run(Session& s, const std::vector<types::Value>&, RowConsumer&) override {
    CheckLanguage(stmt_);
    if (!stmt_.name.schema.empty() && stmt_.name.schema != "public") {
      throw DbError(sqlstate::kInvalidSchemaName, "schema \"" + stmt_.name.schema + "\" does not exist");
    }
    ProcInfo p = DescribeFunction(stmt_);
    catalog::LockFunctionName(p.name);
    const std::vector<ProcInfo> existing = catalog::FindFunctionsByName(p.name);
    const ProcInfo* old = SameSignature(existing, p.argtypes);
    if (old != nullptr && !stmt_.or_replace) {
      throw DbError("42723", std::string(old->kind == 'p' ? "procedure" : "function") + " \"" + p.name +
                                 "\" already exists with same argument types");
    }
    if (old != nullptr) {
      CheckReplace(*old, p);
      p.oid = old->oid;
      p.owner = old->owner;
      p.acl = old->acl;
    }
    try {
      CompileFunction(s, p);  // the body's errors, before anything is stored
    } catch (DbError& e) {
      // Positions inside the body become positions in the statement (as
      // PostgreSQL's sql_function_parse_error_callback); other errors name
      // the function.
      if (e.position() > 0) {
        const int start = BodyContentStart(stmt_);
        e.WithPosition(start < 0 ? 0 : e.position() + start);
      } else if (e.context().empty() && p.lang != catalog::kPlpgsqlLanguageOid) {
        e.WithContext("SQL function \"" + p.name + "\"");
      }
      if (p.lang == catalog::kPlpgsqlLanguageOid) plpgsql::AddCompileContext(e, p.name);
      throw;
    }
    if (old != nullptr) {
      catalog::ReplaceProc(p);
    } else {
      p.acl = catalog::NewObjectAcl('f', p.owner, p.ns);  // ALTER DEFAULT PRIVILEGES ... ON FUNCTIONS
      catalog::InsertProc(p);
    }
    return stmt_.is_procedure ? "CREATE PROCEDURE" : "CREATE FUNCTION";
  }

 private:
  const parser::CreateFunctionStmt& stmt_;
};

// The function a DROP/GRANT names; nullopt when there is none (message in *missing).
std::optional<ProcInfo> FindNamed(const parser::FunctionRefSpec& ref, std::string* missing) {
  const std::vector<ProcInfo> cands = catalog::FindFunctionsByName(ref.name.name);
  if (!ref.has_args) {
    if (cands.size() > 1) {
      throw DbError(sqlstate::kAmbiguousFunction, "function name \"" + ref.name.name + "\" is not unique")
          .WithHint("Specify the argument list to select the function unambiguously.");
    }
    if (cands.empty()) {
      *missing = "could not find a function named \"" + ref.name.name + "\"";
      return std::nullopt;
    }
    return cands[0];
  }
  std::vector<Oid> types;
  for (const parser::TypeName& tn : ref.arg_types) types.push_back(ResolveTypeName(tn));
  if (const ProcInfo* p = SameSignature(cands, types)) return *p;
  *missing = "function " + executor::FunctionSignatureText(ref.name.name, types) + " does not exist";
  return std::nullopt;
}

// The signature as DROP ... IF EXISTS's notice prints it: PostgreSQL's
// TypeNameListToString, SQL-standard type names as pg_catalog.int4.
std::string WrittenSignature(const parser::FunctionRefSpec& ref) {
  static const char* const kSystemNames[] = {"int2", "int4", "int8", "float4", "float8", "bool", "bpchar", "varchar",
                                             "numeric", "timestamp", "timestamptz", "time", "timetz", "interval"};
  std::string out = ref.name.name + "(";
  for (size_t i = 0; i < ref.arg_types.size(); ++i) {
    const parser::TypeName& tn = ref.arg_types[i];
    std::string name = tn.name;
    for (const char* sys : kSystemNames) {
      if (tn.schema.empty() && name == sys) name = std::string("pg_catalog.") + sys;
    }
    if (!tn.schema.empty()) name = tn.schema + "." + name;
    out += (i ? "," : "") + name + (tn.is_array ? "[]" : "");
  }
  return out + ")";
}

class DropFunctionPlan : public Plan {
 public:
  explicit DropFunctionPlan(const parser::DropFunctionStmt& stmt) : stmt_(stmt) {}
  std::string Run(Session& s, const std::vector<types::Value>&, RowConsumer&) override {
    for (const parser::FunctionRefSpec& ref : stmt_.functions) {
      catalog::LockFunctionName(ref.name.name);
      std::string missing;
      std::optional<ProcInfo> p = FindNamed(ref, &missing);
      if (!p) {
        if (!stmt_.if_exists) throw DbError(sqlstate::kUndefinedFunction, missing);
        s.Notice(Severity::kNotice, "00000", "function " + WrittenSignature(ref) + " does not exist, skipping");
        continue;
      }
      if (stmt_.is_procedure && p->kind != 'p') {
        throw DbError(sqlstate::kWrongObjectType, Signature(*p) + " is not a procedure");
      }
      catalog::CheckOwnership(p->owner, p->kind == 'p' ? "procedure" : "function", p->name);
      catalog::DeleteProc(p->oid);
    }
    return stmt_.is_procedure ? "DROP PROCEDURE" : "DROP FUNCTION";
  }

 private:
  const parser::DropFunctionStmt& stmt_;
};

class DoPlan : public Plan {
 public:
  explicit DoPlan(const parser::DoStmt& stmt) : stmt_(stmt) {}
  std::string Run(Session& s, const std::vector<types::Value>&, RowConsumer&) override {
    if (stmt_.language == "plpgsql") {
      plpgsql::RunInlineBlock(s, stmt_.code);
      return "DO";
    }
    if (stmt_.language == "sql") {
      throw DbError(sqlstate::kFeatureNotSupported, "language \"sql\" does not support inline code execution");
    }
    LanguageMissing(stmt_.language);
  }

 private:
  const parser::DoStmt& stmt_;
};

// CALL p(args): the call planned as SELECT p(args) with procedures allowed.
class CallPlan : public Plan {
 public:
  CallPlan(Session& s, const parser::CallStmt& stmt) {
    std::string text = stmt.text.substr(stmt.text.find_first_of(" \t\n\r"));
    select_ = parser::ParseStatements("SELECT" + text);
    executor::ProcedureCallScope scope;
    try {
      query_ = PlanQuery(s, *select_.at(0), {});
    } catch (DbError& e) {
      // Positions in "SELECT ..." back to the CALL statement in the query.
      if (e.position() > 2) e.WithPosition(e.position() - 2 + std::max(stmt.location, 0));
      throw;
    }
  }
  std::string Run(Session& s, const std::vector<types::Value>& params, RowConsumer&) override {
    class Discard : public RowConsumer {
     public:
      void Row(const std::vector<types::Value>&) override {}
    } discard;
    query_->Run(s, params, discard);
    return "CALL";
  }

 private:
  std::vector<parser::StmtPtr> select_;
  std::unique_ptr<Plan> query_;
};

class GrantFunctionPlan : public Plan {
 public:
  explicit GrantFunctionPlan(const parser::GrantFunctionStmt& stmt) : stmt_(stmt) {}
  std::string Run(Session&, const std::vector<types::Value>&, RowConsumer&) override {
    for (const parser::FunctionRefSpec& ref : stmt_.functions) {
      catalog::LockFunctionName(ref.name.name);
      std::string missing;
      std::optional<ProcInfo> p = FindNamed(ref, &missing);
      if (!p) throw DbError(sqlstate::kUndefinedFunction, missing);
      catalog::GrantRevokeFunctionExecute(*p, stmt_.is_grant, stmt_.grantees, stmt_.grant_option, stmt_.cascade);
    }
    return stmt_.is_grant ? "GRANT" : "REVOKE";
  }

 private:
  const parser::GrantFunctionStmt& stmt_;
};

}  // namespace

std::optional<catalog::ProcInfo> FindFunctionForDdl(const parser::FunctionRefSpec& ref, std::string* missing) {
  return FindNamed(ref, missing);
}

std::unique_ptr<Plan> PlanFunctionStmt(Session& s, const parser::Statement& stmt) {
  switch (stmt.kind) {
    case parser::StmtKind::kCreateFunction:
      return std::make_unique<CreateFunctionPlan>(stmt.As<parser::CreateFunctionStmt>());
    case parser::StmtKind::kDropFunction:
      return std::make_unique<DropFunctionPlan>(stmt.As<parser::DropFunctionStmt>());
    case parser::StmtKind::kDo:
      return std::make_unique<DoPlan>(stmt.As<parser::DoStmt>());
    case parser::StmtKind::kCall:
      return std::make_unique<CallPlan>(s, stmt.As<parser::CallStmt>());
    case parser::StmtKind::kGrantFunction:
      return std::make_unique<GrantFunctionPlan>(stmt.As<parser::GrantFunctionStmt>());
    default:
      return nullptr;
  }
}

}  // namespace hearth::tcop
