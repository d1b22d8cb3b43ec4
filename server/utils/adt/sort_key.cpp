// server/utils/adt/sort_key.cpp
//
// Principal entry points: AppendStringSortKey, AppendNumericSortKey — the
// memcmp-ordered encodings btree keys (access/nbtree/nbtkey.cpp) and jsonb's
// sort key (jsonb_order.cpp) share.
#include "utils/adt/sort_key.h"

#include <stdexcept>

namespace hearth::types {

// Bytes with 0x00 escaped as 00 01, terminated by 00 00: prefix-free, order kept.
void AppendStringSortKey(std::string_view s, std::string* out) {
  for (char c : s) {
    out->push_back(c);
    if (c == '\0') out->push_back('\x01');
  }
  out->push_back('\0');
  out->push_back('\0');
}

// Numeric from its canonical text ("-12.50", "0", "NaN"): class byte
// (0 negative, 1 zero, 2 positive, 3 NaN), then for non-zero numbers the
// decimal exponent (sign-flipped 32 bit) and the significant digits ending
// in 0x00, all inverted for negatives.
void AppendNumericSortKey(std::string_view s, std::string* out) {
  if (s == "NaN") {
    out->push_back('\x03');
    return;
  }
  bool neg = !s.empty() && s[0] == '-';
  if (neg || (!s.empty() && s[0] == '+')) s.remove_prefix(1);
  size_t dot = s.find('.');
  std::string_view ip = s.substr(0, dot), fp = dot == std::string_view::npos ? std::string_view() : s.substr(dot + 1);
  std::string digits;
  digits.reserve(s.size());
  int32_t exp = 0;
  size_t i = 0;
  while (i < ip.size() && ip[i] == '0') ++i;
  if (i < ip.size()) {
    exp = static_cast<int32_t>(ip.size() - i);
    digits.append(ip.substr(i));
    digits.append(fp);
  } else {
    size_t j = 0;
    while (j < fp.size() && fp[j] == '0') ++j;
    exp = -static_cast<int32_t>(j);
    digits.append(fp.substr(j));
  }
  while (!digits.empty() && digits.back() == '0') digits.pop_back();
  for (char c : digits)
    if (c < '0' || c > '9') throw std::invalid_argument("bad numeric text in a sort key");
  if (digits.empty()) {
    out->push_back('\x01');
    return;
  }
  out->push_back(neg ? '\x00' : '\x02');
  size_t start = out->size();
  const uint32_t e = static_cast<uint32_t>(exp) ^ 0x80000000u;
  for (int sh = 24; sh >= 0; sh -= 8) out->push_back(static_cast<char>((e >> sh) & 0xFF));
  out->append(digits);
  out->push_back('\0');
  if (neg)
    for (size_t k = start; k < out->size(); ++k) (*out)[k] = static_cast<char>(~(*out)[k]);
}

}  // namespace hearth::types
