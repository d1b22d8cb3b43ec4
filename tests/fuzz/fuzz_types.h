// tests/fuzz/fuzz_types.h
//
// The column types the fuzz targets pick from with one input byte: every
// built-in type a table column or a Bind parameter can have, some with a
// typmod (varchar(5), numeric(6,2), ...), so the fuzzer reaches each text
// input and binary receive function.
#pragma once

#include <cstdint>
#include <iterator>

#include "utils/adt/type_oid.h"

namespace hearth::fuzz {

struct FuzzType {
  types::Oid oid;
  int32_t typmod;
};

// Typmods as PostgreSQL stores them: n + 4 for char types, and
// ((precision << 16) | scale) + 4 for numeric.
inline constexpr FuzzType kFuzzTypes[] = {
    {types::kBoolOid, -1},        {types::kInt2Oid, -1},          {types::kInt4Oid, -1},
    {types::kInt8Oid, -1},        {types::kTextOid, -1},          {types::kOidOid, -1},
    {types::kFloat4Oid, -1},      {types::kFloat8Oid, -1},        {types::kBpcharOid, 5 + 4},
    {types::kVarcharOid, 5 + 4},  {types::kVarcharOid, -1},       {types::kDateOid, -1},
    {types::kTimestampOid, -1},   {types::kTimestampTzOid, -1},   {types::kNumericOid, -1},
    {types::kNumericOid, ((6 << 16) | 2) + 4},                    {types::kNameOid, -1},
    {types::kPgLsnOid, -1},
};

inline const FuzzType& PickType(uint8_t b) { return kFuzzTypes[b % std::size(kFuzzTypes)]; }

}  // namespace hearth::fuzz
