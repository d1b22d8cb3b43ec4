// server/executor/expr/user_functions.h
//
// Calls of user-defined (CREATE FUNCTION) functions in expressions. The
// backend installs a source of candidates (the catalog's functions of a
// name); the binder resolves a call among them with PostgreSQL's rules
// (implicit casts, most exact matches, defaults filling trailing
// arguments), and binds it as a call of SqlFunctionSignature() whose last
// argument is the function's oid. Evaluating it asks the session callback
// call_sql_function (func_context.h) to run the body.
//
// Built-in names resolve as before: user functions are consulted for a name
// no built-in has, or when no built-in signature matches.
//
// Process safety: the candidate source is per process (each backend sets
// its own); binding is single-threaded.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "executor/expr/bind_context.h"
#include "executor/expr/bound_expr.h"
#include "parser/ast.h"

namespace hearth::executor {

struct UserFunctionCandidate {
  uint32_t oid = 0;
  std::string name;
  char kind = 'f';                  // 'f' function, 'p' procedure
  std::vector<types::Oid> arg_types;  // declared input arguments
  std::vector<std::string> arg_names;  // per input argument ("" unnamed)
  std::vector<std::string> defaults;  // SQL text of the last defaults.size() inputs' defaults
  types::Oid result_type = types::kVoidOid;  // the element type when retset
  bool strict = false;
  bool is_volatile = true;
  bool retset = false;
};

using UserFunctionSource = std::function<std::vector<UserFunctionCandidate>(const std::string& name)>;

// Installs the backend's source (null: no user functions).
void SetUserFunctionSource(UserFunctionSource source);

// While alive, procedures may be called (CALL) and functions may not.
class ProcedureCallScope {
 public:
  ProcedureCallScope();
  ~ProcedureCallScope();
  ProcedureCallScope(const ProcedureCallScope&) = delete;
  ProcedureCallScope& operator=(const ProcedureCallScope&) = delete;

 private:
  bool saved_;
};

// While alive, unqualified (or `fname.`-qualified) names that are not
// columns resolve to the parameters of the function body being planned.
class ParamNameScope {
 public:
  ParamNameScope(std::string function_name, std::vector<std::string> names, std::vector<types::Oid> types);
  ~ParamNameScope();
  ParamNameScope(const ParamNameScope&) = delete;
  ParamNameScope& operator=(const ParamNameScope&) = delete;

 private:
  const ParamNameScope* saved_;
  friend BoundExprPtr BindParamName(const parser::ColumnRefExpr& c);
  friend int BodyParamCount();
  std::string function_name_;
  std::vector<std::string> names_;
  std::vector<types::Oid> types_;
};

// The number of parameters of the body being planned ($n beyond it is
// 42P02), or -1 outside one.
int BodyParamCount();

// The $n node a column reference names as a parameter of the body being
// planned, or null.
BoundExprPtr BindParamName(const parser::ColumnRefExpr& c);

// Binds `f` (its arguments already bound in `args`) as a user function
// call; null when no user function has that name. Throws 42883/42725 when
// one has the name but none matches, 42809 for a procedure outside CALL.
// A set-returning one goes to ctx.bind_srf like a built-in SRF.
BoundExprPtr BindUserFunction(const parser::FuncCallExpr& f, std::vector<BoundExprPtr>& args, BindContext& ctx);

// The registry rows user function calls are bound to (not in the global
// registry): args = [arguments..., int8 oid].
const types::FuncSignature* SqlFunctionSignature(bool strict);
const types::FuncSignature* SqlSetFunctionSignature(bool strict);

// "f(integer, text)" for messages.
std::string FunctionSignatureText(const std::string& name, const std::vector<types::Oid>& types);

}  // namespace hearth::executor
