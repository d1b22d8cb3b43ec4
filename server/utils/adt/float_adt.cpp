// server/utils/adt/float_adt.cpp
//
// Principal entry points: ParseFloat, AppendFloat, CheckFloatResult.
// Output uses std::to_chars' shortest representation for the digits and
// PostgreSQL's layout: plain notation for decimal exponents in [-4, P) with
// P = 15 (float8) or 6 (float4), otherwise "d.ddde+XX".
#include "utils/adt/float_adt.h"

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <strings.h>

#include "common/error/db_error.h"

namespace hearth::types {
namespace {

const char* FloatTypeName(Oid oid) { return oid == kFloat4Oid ? "real" : "double precision"; }

}  // namespace

double ParseFloat(std::string_view text, Oid oid) {
  std::string s(text);
  auto bad = [&]() {
    return DbError(sqlstate::kInvalidTextRepresentation,
                   std::string("invalid input syntax for type ") + FloatTypeName(oid) + ": \"" +
                       s + "\"");
  };
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  std::string t = s.substr(b, e - b);
  if (t.empty()) throw bad();
  const char* p = t.c_str();
  bool neg = false;
  const char* body = p;
  if (*body == '+' || *body == '-') {
    neg = *body == '-';
    ++body;
  }
  if (strcasecmp(body, "nan") == 0) return std::nan("");
  if (strcasecmp(body, "infinity") == 0 || strcasecmp(body, "inf") == 0) {
    return neg ? -HUGE_VAL : HUGE_VAL;
  }
  // Only decimal notation: reject hex floats and words strtod would accept.
  for (const char* c = body; *c; ++c) {
    if (!(std::isdigit(static_cast<unsigned char>(*c)) || *c == '.' || *c == 'e' || *c == 'E' ||
          *c == '+' || *c == '-')) {
      throw bad();
    }
  }
  errno = 0;
  char* end = nullptr;
  double v = std::strtod(p, &end);
  if (end == p || *end != '\0') throw bad();
  bool range = errno == ERANGE && (std::isinf(v) || v == 0.0);
  if (oid == kFloat4Oid && !range) {
    float f = static_cast<float>(v);
    range = (std::isinf(f) && !std::isinf(v)) || (f == 0.0f && v != 0.0);
    v = f;
  }
  if (range) {
    throw DbError(sqlstate::kNumericValueOutOfRange,
                  "\"" + s + "\" is out of range for type " + FloatTypeName(oid));
  }
  return v;
}

void AppendFloat(double v, Oid oid, std::string* out) {
  if (std::isnan(v)) {
    out->append("NaN");
    return;
  }
  if (std::isinf(v)) {
    out->append(v < 0 ? "-Infinity" : "Infinity");
    return;
  }
  if (v == 0) {
    out->append(std::signbit(v) ? "-0" : "0");
    return;
  }
  char buf[64];
  std::to_chars_result res = oid == kFloat4Oid
                                 ? std::to_chars(buf, buf + sizeof buf, static_cast<float>(v),
                                                 std::chars_format::scientific)
                                 : std::to_chars(buf, buf + sizeof buf, v,
                                                 std::chars_format::scientific);
  std::string_view sci(buf, static_cast<size_t>(res.ptr - buf));
  // sci looks like "-1.2345e+17": split sign, digits and exponent.
  bool neg = !sci.empty() && sci[0] == '-';
  if (neg) sci.remove_prefix(1);
  size_t epos = sci.find('e');
  std::string digits;
  for (char c : sci.substr(0, epos)) {
    if (c != '.') digits.push_back(c);
  }
  int exp = std::atoi(std::string(sci.substr(epos + 1)).c_str());
  int precision = oid == kFloat4Oid ? 6 : 15;
  if (neg) out->push_back('-');
  if (exp < -4 || exp >= precision) {
    out->push_back(digits[0]);
    if (digits.size() > 1) {
      out->push_back('.');
      out->append(digits, 1, std::string::npos);
    }
    out->push_back('e');
    out->push_back(exp < 0 ? '-' : '+');
    int a = exp < 0 ? -exp : exp;
    if (a < 10) out->push_back('0');
    out->append(std::to_string(a));
    return;
  }
  if (exp < 0) {
    out->append("0.");
    out->append(static_cast<size_t>(-exp - 1), '0');
    out->append(digits);
    return;
  }
  size_t int_len = static_cast<size_t>(exp) + 1;
  if (digits.size() <= int_len) {
    out->append(digits);
    out->append(int_len - digits.size(), '0');
  } else {
    out->append(digits, 0, int_len);
    out->push_back('.');
    out->append(digits, int_len, std::string::npos);
  }
}

std::string FormatFloat(double v, Oid oid) {
  std::string s;
  AppendFloat(v, oid, &s);
  return s;
}

double CheckFloatResult(double r, bool inputs_inf, bool zero_is_valid, Oid oid) {
  if (oid == kFloat4Oid) r = static_cast<float>(r);
  if (std::isinf(r) && !inputs_inf) {
    throw DbError(sqlstate::kNumericValueOutOfRange, "value out of range: overflow");
  }
  if (r == 0.0 && !zero_is_valid) {
    throw DbError(sqlstate::kNumericValueOutOfRange, "value out of range: underflow");
  }
  return r;
}

}  // namespace hearth::types
