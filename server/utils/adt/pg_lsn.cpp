// server/utils/adt/pg_lsn.cpp
//
// Principal entry points: ParseLsn, AppendLsn, LsnDiff.
#include "utils/adt/pg_lsn.h"

#include <charconv>
#include <cstdio>

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"

namespace hearth::types {

namespace {

// Reads 1..8 hex digits from text[*pos]; false when there are none or too many.
bool ReadHalf(std::string_view text, size_t* pos, uint32_t* out) {
  const char* begin = text.data() + *pos;
  auto [end, ec] = std::from_chars(begin, text.data() + text.size(), *out, 16);
  if (ec != std::errc() || end - begin > 8) return false;
  *pos += static_cast<size_t>(end - begin);
  return true;
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
