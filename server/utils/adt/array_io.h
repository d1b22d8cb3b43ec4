// server/utils/adt/array_io.h
//
// Text and binary I/O of array values (PostgreSQL's array_in/array_out and
// array_send/array_recv), called by text_io.cpp and binary_io.cpp for every
// array type. Stateless; safe from any thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "utils/adt/value.h"

namespace hearth::types {

// '{1,2}', '{{1,2},{3,4}}', '[0:1]={a,b}', '{"a b",NULL}'. typmod applies to
// each element (varchar(3)[]). Throws 22P02 `malformed array literal` with
// PostgreSQL's DETAIL, 2202E for inverted bounds, 54000 past 6 dimensions,
// and the element type's own input errors.
Value ParseArrayText(Oid array_type, int32_t typmod, std::string_view text);
// array_out: quotes elements that need it, prints NULL, and prefixes
// `[lo:hi]...=` when a lower bound is not 1.
void AppendArrayText(const Value& v, std::string* out);

// array_send: ndim, has-null flag, element type, (length, lower bound) per
// dimension, then each element as int32 length (-1 for NULL) and its
// binary form.
void AppendArrayBinary(const Value& v, std::string* out);
// array_recv. Throws 22P03 for malformed data and 42804 when the element
// type in the data is not the column's.
Value ReceiveArrayBinary(Oid array_type, int32_t typmod, std::string_view bytes);

}  // namespace hearth::types
