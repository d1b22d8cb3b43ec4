// server/utils/adt/binary_io.h
//
// Binary send/receive (format code 1 in Bind/RowDescription): network byte
// order, layouts identical to PostgreSQL's typsend/typreceive, including
// date as int32 days and timestamps as int64 µs since 2000-01-01 and
// numeric in base-10000 digits. Stateless; safe from any thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "utils/adt/type_oid.h"
#include "utils/adt/value.h"

namespace hearth::types {

// Appends the binary representation of non-NULL `v` to *out.
// Throws 42883-like DbError (0A000) for types without a send function.
void AppendBinary(const Value& v, std::string* out);

// Decodes `bytes` as type `oid`. Throws 22P03
// "insufficient data left in message" / "incorrect binary data format".
Value ReceiveBinary(Oid oid, int32_t typmod, std::string_view bytes);

}  // namespace hearth::types
