// server/utils/adt/srf_registry.h
//
// Set-returning functions (generate_series, ...): the registry rows the
// planner resolves like any function (FuncKind::kSetReturning in
// func_registry.h, so overload resolution and 42883 errors are the same),
// and behind each row an SrfDef whose `start` begins one call.
//
// A call is an SrfCall object holding its own state (the next value, the
// bounds); the executor asks it for one row at a time, so no set is ever
// materialized. Both FunctionScan (FROM generate_series(...)) and
// ProjectSet (SELECT generate_series(...)) drive calls through this
// interface.
//
// Adding an SRF: write an SrfCall subclass and a start function, and add an
// SrfDef row in an Add*Srfs function (see srf_series.cpp). The result type
// may be polymorphic (kAnyNonArrayOid: the type of the polymorphic
// argument), resolved like a scalar function's. Definitions are built once
// and never change; lookups need no locking.
#pragma once

#include <memory>
#include <vector>

#include "utils/adt/func_registry.h"
#include "utils/adt/value.h"

namespace hearth::types {

// One running call of a set-returning function.
class SrfCall {
 public:
  virtual ~SrfCall() = default;
  // Writes the next row's value into *out; false when the set is exhausted
  // (then *out is untouched). May throw DbError.
  virtual bool Next(Value* out) = 0;
};

// Begins a call. `args` are already coerced to the resolved argument types;
// for a strict SRF none is NULL (a NULL argument gives the empty set
// without a call). Argument errors (22023 `step size cannot equal zero`)
// are thrown here.
using SrfStartFn = std::unique_ptr<SrfCall> (*)(const Value* args, int nargs, FuncCallContext& ctx);

struct SrfDef {
  FuncSignature sig;  // kind kSetReturning, fn null; sig.result = the row's type
  SrfStartFn start;
};

// The definition behind a registry row of kind kSetReturning (as returned
// by ResolveFunction(name, types, FuncKind::kSetReturning)).
// REQUIRES: sig is such a row.
const SrfDef& LookupSrf(const FuncSignature* sig);

// The definition behind calls of user-defined set-returning SQL functions
// (executor/expr/user_functions.h): args = [arguments..., int8 oid]; the
// rows come from SessionCallbacks::call_sql_set_function.
const SrfDef& UserSqlSrfDef(bool strict);

// True if `name` is a set-returning function (with any signature).
bool IsSetReturningName(std::string_view name);

// pg_options_to_table's second column (option_value): the planner plans
// the record-returning call as two single-column calls over one argument,
// the registry's (option_name) and this one.
const SrfDef& OptionValuesSrf();

// json(b)_each(_text) in FROM: the registry row gives records; *keys gets
// the call streaming the key column and the result streams the values of
// the same argument (nullptr for other functions; *value_type: its type).
const SrfDef* JsonEachValueSrf(const FuncSignature& record_sig, const SrfDef** keys, Oid* value_type);

// The name of a set-returning function's single OUT parameter, which
// names its column in FROM whatever the alias (nullptr: the function has
// none; the column takes the alias or the function's name).
const char* SrfOutColumnName(const SrfDef& def);

namespace internal {
// The registry rows of all SRFs (func_registry.cpp adds them to its table).
void AddSetReturningBuiltins(std::vector<FuncSignature>* table);
// Per-family definitions (one file each).
void AddSeriesSrfs(std::vector<SrfDef>* defs);  // generate_series
void AddArraySrfs(std::vector<SrfDef>* defs);   // unnest
void AddCatalogSrfs(std::vector<SrfDef>* defs); // pg_partition_ancestors (always empty)
void AddOptionsSrfs(std::vector<SrfDef>* defs); // pg_options_to_table (srf_options.cpp)
void AddJsonSrfs(std::vector<SrfDef>* defs);    // json(b)_each & co (json_srf.cpp)
}  // namespace internal

}  // namespace hearth::types
