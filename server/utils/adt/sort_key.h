// server/utils/adt/sort_key.h
//
// Byte encodings whose memcmp order is the values' order, each
// prefix-free (so keys of several values concatenate): what btree index
// keys and jsonb's sort key are built from. Stateless.
#pragma once

#include <string>
#include <string_view>

namespace hearth::types {

// Bytes with 0x00 escaped as 00 01, ended by 00 00 (byte-wise order).
void AppendStringSortKey(std::string_view s, std::string* out);
// A numeric's canonical text ("-12.50", "0", "NaN"): class byte (0
// negative, 1 zero, 2 positive, 3 NaN), then for non-zero numbers the
// decimal exponent and the significant digits ending in 0x00, inverted for
// negatives; 1.5 and 1.50 encode alike. Throws std::invalid_argument for
// text that is not a number.
void AppendNumericSortKey(std::string_view canonical, std::string* out);

}  // namespace hearth::types
