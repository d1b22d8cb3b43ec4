// server/utils/adt/text_io.h
//
// Text-format input/output for every built-in type: the type's input and
// output functions (PostgreSQL's typinput/typoutput). Used for literals,
// casts to and from text, DataRow text columns and COPY. Stateless;
// safe from any thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "utils/adt/type_oid.h"
#include "utils/adt/value.h"

namespace hearth::types {

// Converts `text` to a non-NULL Value of type `oid`, applying `typmod`
// (varchar/bpchar length, numeric precision). Errors are PostgreSQL's for
// that type (22P02, 22003, 22007, 22008, 22001). Throws 42704 for types
// without an input function here.
Value InputValue(Oid oid, int32_t typmod, std::string_view text);
// InputValue into an existing Value, reusing its string buffer (COPY
// converts every field this way: no allocation per field once warm).
void InputValueInto(Oid oid, int32_t typmod, std::string_view text, Value* out);

// Appends the output-function text of a non-NULL `v` to *out; no
// allocation beyond growing *out for fixed-width types.
// REQUIRES: !v.is_null.
void AppendOutput(const Value& v, std::string* out);
std::string OutputValue(const Value& v);

// Boolean input: t/true/yes/on/1 and f/false/no/off/0, any case, unique
// prefixes, surrounding whitespace. Throws 22P02
// `invalid input syntax for type boolean: "x"`.
bool ParseBool(std::string_view text);

}  // namespace hearth::types
