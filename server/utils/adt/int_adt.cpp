// server/utils/adt/int_adt.cpp
//
// Principal entry points: ParseInteger, IntDiv, IntMod.
#include "utils/adt/int_adt.h"

#include <cctype>
#include <string>

#include "common/error/db_error.h"
#include "utils/adt/type_catalog.h"

namespace hearth::types {
namespace {

const char* IntTypeName(Oid oid) {
  switch (oid) {
    case kInt2Oid:
      return "smallint";
    case kInt8Oid:
      return "bigint";
    case kOidOid:
      return "oid";
    default:
      return "integer";
  }
}

}  // namespace

void ThrowIntegerOutOfRange(Oid oid) {
  throw DbError(sqlstate::kNumericValueOutOfRange, std::string(IntTypeName(oid)) + " out of range");
}

int64_t ParseInteger(std::string_view text, Oid oid) {
  auto bad = [&]() {
    return DbError(sqlstate::kInvalidTextRepresentation,
                   std::string("invalid input syntax for type ") + IntTypeName(oid) + ": \"" +
                       std::string(text) + "\"");
  };
  auto range = [&]() {
    return DbError(sqlstate::kNumericValueOutOfRange,
                   "value \"" + std::string(text) + "\" is out of range for type " +
                       IntTypeName(oid));
  };
  size_t i = 0, n = text.size();
  while (i < n && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  bool neg = false;
  if (i < n && (text[i] == '-' || text[i] == '+')) {
    neg = text[i] == '-';
    ++i;
  }
  if (i >= n || !std::isdigit(static_cast<unsigned char>(text[i]))) throw bad();
  // Accumulate as a negative number so INT64_MIN parses.
  int64_t acc = 0;
  bool overflow = false;
  for (; i < n && std::isdigit(static_cast<unsigned char>(text[i])); ++i) {
    int d = text[i] - '0';
    if (__builtin_mul_overflow(acc, 10, &acc) || __builtin_sub_overflow(acc, d, &acc)) {
      overflow = true;
    }
  }
  while (i < n && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  if (i != n) throw bad();
  if (overflow) throw range();
  int64_t v;
  if (neg) {
    v = acc;
  } else {
    if (acc == INT64_MIN) throw range();
    v = -acc;
  }
  if (oid == kOidOid) {
    // oidin accepts negative values as their unsigned 32-bit image.
    if (v < INT32_MIN || v > static_cast<int64_t>(UINT32_MAX)) throw range();
    return v < 0 ? v + (static_cast<int64_t>(1) << 32) : v;
  }
  if (!FitsInteger(v, oid)) throw range();
  return v;
}

int64_t IntDiv(int64_t a, int64_t b, Oid oid) {
  if (b == 0) throw DbError(sqlstate::kDivisionByZero, "division by zero");
  if (b == -1) return IntSub(0, a, oid);  // INT_MIN / -1 overflows
  return a / b;
}

int64_t IntMod(int64_t a, int64_t b, Oid oid) {
  if (b == 0) throw DbError(sqlstate::kDivisionByZero, "division by zero");
  if (b == -1) return 0;
  return a % b;
}

}  // namespace hearth::types
