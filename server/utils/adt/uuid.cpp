// server/utils/adt/uuid.cpp
//
// Principal entry points: ParseUuid, AppendUuid, RandomUuid.
#include "utils/adt/uuid.h"

#include <openssl/rand.h>

#include "common/error/db_error.h"
#include "utils/adt/bytea.h"

namespace hearth::types {

std::string ParseUuid(std::string_view text) {
  auto bad = [&]() {
    return DbError(sqlstate::kInvalidTextRepresentation,
                   "invalid input syntax for type uuid: \"" + std::string(text) + "\"");
  };
  size_t i = 0;
  bool braces = !text.empty() && text[0] == '{';
  if (braces) ++i;
  std::string out(kUuidLen, '\0');
  for (size_t b = 0; b < kUuidLen; ++b) {
    if (i + 2 > text.size()) throw bad();
    int hi = HexDigitValue(text[i]), lo = HexDigitValue(text[i + 1]);
    if (hi < 0 || lo < 0) throw bad();
    out[b] = static_cast<char>(hi * 16 + lo);
    i += 2;
    // A hyphen may follow every second byte except the last.
    if (i < text.size() && text[i] == '-' && b % 2 == 1 && b < kUuidLen - 1) ++i;
  }
  if (braces) {
    if (i >= text.size() || text[i] != '}') throw bad();
    ++i;
  }
  if (i != text.size()) throw bad();
  return out;
}

void AppendUuid(std::string_view bytes, std::string* out) {
  static const char kDigits[] = "0123456789abcdef";
  for (size_t b = 0; b < bytes.size(); ++b) {
    if (b == 4 || b == 6 || b == 8 || b == 10) out->push_back('-');
    auto c = static_cast<unsigned char>(bytes[b]);
    out->push_back(kDigits[c >> 4]);
    out->push_back(kDigits[c & 0xF]);
  }
}

std::string RandomUuid() {
  std::string out(kUuidLen, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(out.data()), static_cast<int>(kUuidLen)) != 1) {
    throw DbError(sqlstate::kInternalError, "could not generate random values");
  }
  out[6] = static_cast<char>((out[6] & 0x0F) | 0x40);  // version 4
  out[8] = static_cast<char>((out[8] & 0x3F) | 0x80);  // RFC 4122 variant
  return out;
}

}  // namespace hearth::types
