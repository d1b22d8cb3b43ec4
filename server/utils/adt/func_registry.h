// server/utils/adt/func_registry.h
//
// The function and operator registry (pg_proc + pg_operator for built-ins)
// and PostgreSQL-style overload resolution. The table is built once at
// static-initialisation time and never changes, so lookups are safe from
// any thread or process without locking.
//
// Resolution (ResolveFunction/ResolveOperator), in PostgreSQL's order:
//   1. an exact match of argument types (for a binary operator with one
//      unknown literal, the literal is first assumed to have the other
//      operand's type: '1' + 2 → int4 + int4);
//   2. otherwise candidates every argument can reach by implicit casts
//      (int2 → int4 → int8 → numeric → float4 → float8, unknown → anything);
//   3. among them, those with the most exact matches, then the most
//      preferred-type matches (float8, text, timestamptz, bool), then, for
//      unknown arguments, the string category or a single agreed category.
// Failure throws 42883 `operator does not exist: integer + boolean` or
// `function foo(integer) does not exist` with PostgreSQL's hint, or 42725
// when several candidates remain.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "utils/adt/func_context.h"
#include "utils/adt/type_oid.h"
#include "utils/adt/value.h"

namespace hearth::types {

// kSetReturning: a set-returning function (srf_registry.h); fn is null.
enum class FuncKind : uint8_t { kFunction, kOperator, kAggregate, kSetReturning };

// A built-in's implementation. `args` holds nargs values already coerced to
// the resolved argument types; for strict functions none is NULL.
using BuiltinFn = Value (*)(const Value* args, int nargs, FuncCallContext& ctx);

// Max declared parameters of a built-in (variadic ones repeat the last).
inline constexpr int kMaxFuncArgs = 7;

struct FuncSignature {
  const char* name;  // function name, or operator symbol ("+", "~~")
  FuncKind kind;
  int nargs;         // operators: 2 = infix, 1 = prefix
  Oid args[kMaxFuncArgs];
  Oid result;        // kAnyNonArrayOid: the type bound to the polymorphic arg
  BuiltinFn fn;      // null for aggregates (executed elsewhere)
  bool strict;       // NULL input → NULL result without calling fn
  bool variadic;     // the last parameter accepts 1..n arguments
  bool is_volatile;  // not foldable at bind time (random(), now())
};

struct ResolvedFunc {
  const FuncSignature* sig = nullptr;
  // Type each actual argument must be cast to before the call (unknown
  // literals resolved; polymorphic/"any" parameters keep the argument's type).
  std::vector<Oid> arg_types;
  Oid result_type = kInvalidOid;
};

// REQUIRES: arg_types.size() <= 100. Throws DbError (42883/42725) without a
// position; callers add it.
ResolvedFunc ResolveFunction(std::string_view name, const std::vector<Oid>& arg_types,
                             FuncKind kind = FuncKind::kFunction);
// Prefix operators pass left = kInvalidOid.
ResolvedFunc ResolveOperator(std::string_view op, Oid left, Oid right);

// The registry name of `name`'s form called as f(..., VARIADIC array): the
// array arrives whole (json_build_object, jsonb_extract_path, ...). Names
// are interned, so the result lives for the process.
const char* VariadicArrayForm(std::string_view name);

// True if a function or aggregate of this name exists with any signature.
bool FunctionNameExists(std::string_view name, FuncKind kind);

// PostgreSQL's select_common_type for CASE/COALESCE/IN/GREATEST/LEAST/VALUES:
// all-unknown → text; otherwise the first known type, promoted along
// implicit casts within its category. Throws 42804
// `<context> types integer and boolean cannot be matched`.
Oid SelectCommonType(const std::vector<Oid>& types, const char* context);

// The whole table, for documentation and tests.
const std::vector<FuncSignature>& AllBuiltins();

}  // namespace hearth::types
