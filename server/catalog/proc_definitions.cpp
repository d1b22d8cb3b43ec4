// catalog/proc_definitions.cpp
//
// Principal entry point: FunctionDefinition — the text of PostgreSQL's
// pg_get_functiondef, pg_get_function_arguments,
// pg_get_function_identity_arguments and pg_get_function_result for user
// functions, laid out as PostgreSQL 15's ruleutils prints them. Default
// expressions are printed as written (Hearth keeps their SQL text).
#include "catalog/object_definitions.h"
#include "catalog/proc_catalog.h"
#include "utils/adt/type_catalog.h"

namespace hearth::catalog {

namespace {

// PostgreSQL prints IN only for procedures' parameters.
const char* ModePrefix(char mode, bool procedure) {
  switch (mode) {
    case 'i': return procedure ? "IN " : "";
    case 'o': return "OUT ";
    case 'b': return "INOUT ";
    case 'v': return "VARIADIC ";
    default: return "";
  }
}

// The parameter list; `identity`: without defaults; `table`: the RETURNS
// TABLE columns instead of the arguments.
std::string Arguments(const ProcInfo& p, bool identity, bool table) {
  const size_t n = p.argmodes.empty() ? p.argtypes.size() : p.argmodes.size();
  const size_t first_default = p.argtypes.size() - p.argdefaults.size();
  std::string out;
  size_t input = 0;
  for (size_t i = 0; i < n; ++i) {
    const char mode = p.argmodes.empty() ? 'i' : p.argmodes[i];
    const Oid type = p.argmodes.empty() ? p.argtypes[i] : p.allargtypes[i];
    const bool is_input = mode == 'i' || mode == 'b' || mode == 'v';
    if ((mode == 't') != table) continue;
    if (!out.empty()) out += ", ";
    out += ModePrefix(mode, p.kind == 'p');
    if (i < p.argnames.size() && !p.argnames[i].empty()) out += p.argnames[i] + " ";
    out += types::FormatType(type);
    if (is_input) {
      if (!identity && input >= first_default) out += " DEFAULT " + p.argdefaults[input - first_default];
      ++input;
    }
  }
  return out;
}

// pg_get_function_arg_default: the default of the 1-based argument
// `position` (counting every argument, OUT ones too), nullopt when it is
// not an input argument with a default.
std::optional<std::string> ArgDefault(const ProcInfo& p, int position) {
  const size_t n = p.argmodes.empty() ? p.argtypes.size() : p.argmodes.size();
  if (position < 1 || static_cast<size_t>(position) > n) return std::nullopt;
  const size_t first_default = p.argtypes.size() - p.argdefaults.size();
  size_t input = 0;
  for (size_t i = 0; i < static_cast<size_t>(position); ++i) {
    const char mode = p.argmodes.empty() ? 'i' : p.argmodes[i];
    const bool is_input = mode == 'i' || mode == 'b' || mode == 'v';
    if (i + 1 == static_cast<size_t>(position)) {
      if (!is_input || input < first_default) return std::nullopt;
      return p.argdefaults[input - first_default];
    }
    if (is_input) ++input;
  }
  return std::nullopt;
}

std::string Result(const ProcInfo& p) {
  if (p.argmodes.find('t') != std::string::npos) return "TABLE(" + Arguments(p, true, true) + ")";
  return std::string(p.retset ? "SETOF " : "") + types::FormatType(p.rettype);
}

std::string Definition(const ProcInfo& p) {
  const bool proc = p.kind == 'p';
  std::string out = std::string("CREATE OR REPLACE ") + (proc ? "PROCEDURE " : "FUNCTION ") +
                    NamespaceName(p.ns) + "." + p.name + "(" + Arguments(p, false, false) + ")\n";
  if (!proc) out += " RETURNS " + Result(p) + "\n";
  out += " LANGUAGE sql\n";
  std::string options;
  if (p.volatility == 'i') options += " IMMUTABLE";
  if (p.volatility == 's') options += " STABLE";
  if (p.strict) options += " STRICT";
  if (p.secdef) options += " SECURITY DEFINER";
  if (!options.empty()) out += options + "\n";
  if (p.sqlbody) return out + *p.sqlbody + "\n";
  const std::string tag = proc ? "$procedure$" : "$function$";
  return out + "AS " + tag + p.src + tag + "\n";
}

}  // namespace

std::optional<std::string> FunctionDefinition(Oid oid, int what) {
  std::optional<ProcInfo> p = FindFunctionByOid(oid);
  if (!p) return std::nullopt;
  if (what > kFunctionArgDefault && what < kFunctionExecutePrivilege) return ArgDefault(*p, what - kFunctionArgDefault);
  switch (what) {
    case types::kFunctionDef: return Definition(*p);
    case types::kFunctionArguments: return Arguments(*p, false, false);
    case types::kFunctionIdentityArguments: return Arguments(*p, true, false);
    default: return p->kind == 'p' ? std::optional<std::string>() : Result(*p);
  }
}

}  // namespace hearth::catalog
