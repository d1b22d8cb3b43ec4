// server/utils/adt/pg_lsn.cpp
//
// Principal entry points: ParseLsn, AppendLsn, LsnDiff.
#include "utils/adt/pg_lsn.h"

#include <cstdio>

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"

namespace hearth::types {

namespace {

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Reads 1..8 hex digits from text[*pos]; false when there are none or too many.
bool ReadHalf(std::string_view text, size_t* pos, uint32_t* out) {
  uint32_t v = 0;
  size_t start = *pos;
  while (*pos < text.size() && HexDigit(text[*pos]) >= 0) {
    if (*pos - start == 8) return false;
    v = (v << 4) | static_cast<uint32_t>(HexDigit(text[*pos]));
    (*pos)++;
  }
  *out = v;
  return *pos > start;
}

}  // namespace

uint64_t ParseLsn(std::string_view text) {
  size_t pos = 0;
  uint32_t hi = 0, lo = 0;
  bool ok = ReadHalf(text, &pos, &hi) && pos < text.size() && text[pos++] == '/' && ReadHalf(text, &pos, &lo) &&
            pos == text.size();
  if (!ok) {
    throw DbError(sqlstate::kInvalidTextRepresentation,
                  "invalid input syntax for type pg_lsn: \"" + std::string(text) + "\"");
  }
  return (static_cast<uint64_t>(hi) << 32) | lo;
}

void AppendLsn(uint64_t lsn, std::string* out) {
  char buf[24];
  int n = std::snprintf(buf, sizeof buf, "%X/%X", static_cast<uint32_t>(lsn >> 32), static_cast<uint32_t>(lsn));
  out->append(buf, static_cast<size_t>(n));
}

std::string LsnDiff(uint64_t a, uint64_t b) {
  return a >= b ? std::to_string(a - b) : "-" + std::to_string(b - a);
}

}  // namespace hearth::types
