// server/utils/adt/cast.h
//
// Casts between built-in types (pg_cast): which casts exist in which
// context, and performing them with PostgreSQL's rounding and range rules.
// Stateless; safe from any thread.
#pragma once

#include <cstdint>

#include "utils/adt/type_oid.h"
#include "utils/adt/value.h"

namespace hearth::types {

// pg_cast.castcontext, ordered: an implicit cast is also allowed in
// assignment and explicit contexts.
enum class CoercionContext { kImplicit = 0, kAssignment = 1, kExplicit = 2 };

// True if a value of type `from` can be converted to `to` in `ctx`.
// unknown converts to anything implicitly (through the input function);
// any type converts to a string type by assignment (output function), and
// a string type converts to anything explicitly (input function).
bool CanCoerce(Oid from, Oid to, CoercionContext ctx);

// Converts v to type `to` and applies `typmod`. NULL stays NULL (retagged).
// Rounding: float → int rounds half to even (rint), numeric → int half away
// from zero; float → numeric keeps 15 (float8) / 6 (float4) significant
// digits. Errors: 22003 out of range, 22001 value too long (non-explicit),
// 22P02 bad input text, 42846 `cannot cast type X to Y` if no cast exists.
Value CastValue(const Value& v, Oid to, int32_t typmod, CoercionContext ctx);

}  // namespace hearth::types
