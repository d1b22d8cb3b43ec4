// server/utils/adt/builtins_to_char_num.cpp
//
// to_char(int4|int8|numeric|float4|float8, text) and to_number(text, text)
// as PostgreSQL 15's formatting.c: each type turns its value into the
// unsigned digit string the template asks for (rounded to the template's
// decimals, '#'s when the integer part does not fit, a Roman numeral for
// RN, scientific notation for EEEE) and num_format.cpp lays it out.
#include <cmath>
#include <cstdio>

#include "common/error/db_error.h"
#include "utils/adt/builtins.h"
#include "utils/adt/int_adt.h"
#include "utils/adt/num_format.h"
#include "utils/adt/numeric.h"
#include "utils/adt/type_catalog.h"

namespace hearth::types::internal {
namespace {

// What the formatter gets: digits without sign, padding, sign.
struct Digits {
  std::string number;
  int pre_spaces = 0;
  char sign = '+';
};

// Splits a signed decimal text and fits it to the template's integer
// digits (the padding, or '#'s as PostgreSQL when it overflows).
Digits Fit(const std::string& text, const NumFormat& f) {
  Digits d;
  d.sign = !text.empty() && text[0] == '-' ? '-' : '+';
  d.number = d.sign == '-' ? text.substr(1) : text;
  size_t dot = d.number.find('.');
  int pre_len = static_cast<int>(dot == std::string::npos ? d.number.size() : dot);
  if (pre_len < f.pre) {
    d.pre_spaces = f.pre - pre_len;
  } else if (pre_len > f.pre) {
    d.number.assign(static_cast<size_t>(f.pre + f.post + 1), '#');
    d.number[static_cast<size_t>(f.pre)] = '.';
  }
  return d;
}

// numeric_out_sci: d.ddd…e±XX with `post` decimals (not renormalised when
// rounding reaches 10, as PostgreSQL).
std::string NumericSci(const Numeric& n, int post) {
  std::string s = n.Abs().ToString();
  size_t dot = s.find('.');
  std::string digits = dot == std::string::npos ? s : s.substr(0, dot) + s.substr(dot + 1);
  int int_len = static_cast<int>(dot == std::string::npos ? s.size() : dot);
  size_t first = digits.find_first_not_of('0');
  int exponent = first == std::string::npos ? 0 : int_len - 1 - static_cast<int>(first);
  // The significand: the digits with the point moved `exponent` places.
  std::string sig;
  if (first == std::string::npos) {
    sig = "0";
  } else {
    std::string body = digits.substr(first);
    sig = body.substr(0, 1) + "." + (body.size() > 1 ? body.substr(1) : "0");
  }
  std::string out = Numeric::Parse(sig).Round(post).ToString();
  char exp[16];
  std::snprintf(exp, sizeof exp, "e%+03d", exponent);
  return (n.is_negative() ? "-" : "") + out + exp;
}

// EEEE for NaN and infinities: '#'s in the shape of the template.
std::string SciOverflow(const NumFormat& f) {
  std::string s(static_cast<size_t>(f.pre + f.post + 6), '#');
  s[0] = ' ';
  s[static_cast<size_t>(f.pre + 1)] = '.';
  return s;
}

std::string WithSignSpace(std::string s) { return s[0] == '-' ? s : " " + s; }

std::string ToCharNumeric(Numeric n, NumFormat f) {
  if (f.roman) {
    std::optional<int64_t> i = n.is_nan() ? std::nullopt : n.Round(0).ToInt64();
    if (!i || *i < INT32_MIN || *i > INT32_MAX) ThrowIntegerOutOfRange(kInt4Oid);
    return FormatNumber(f, ToRoman(*i), 0, '+');
  }
  if (f.eeee) return FormatNumber(f, n.is_nan() ? SciOverflow(f) : WithSignSpace(NumericSci(n, f.post)), 0, '+');
  if (f.multi_flag) {
    n = n.Mul(Numeric::Parse("1" + std::string(static_cast<size_t>(f.multi), '0')));
    f.pre += f.multi;
  }
  Digits d = Fit(n.Round(f.post).ToString(), f);
  return FormatNumber(f, d.number, d.pre_spaces, d.sign);
}

std::string ToCharInteger(int64_t v, Oid type, NumFormat f) {
  if (f.roman) {
    if (v < INT32_MIN || v > INT32_MAX) ThrowIntegerOutOfRange(kInt4Oid);
    return FormatNumber(f, ToRoman(v), 0, '+');
  }
  if (f.eeee) {
    if (type == kInt8Oid) return FormatNumber(f, WithSignSpace(NumericSci(Numeric::FromInt64(v), f.post)), 0, '+');
    char buf[64];
    std::snprintf(buf, sizeof buf, "%+.*e", f.post, static_cast<double>(v));
    if (buf[0] == '+') buf[0] = ' ';
    return FormatNumber(f, buf, 0, '+');
  }
  if (f.multi_flag) {
    int64_t scale = 1;
    for (int k = 0; k < f.multi; ++k) scale *= 10;
    if (type == kInt8Oid) {
      if (__builtin_mul_overflow(v, scale, &v)) ThrowIntegerOutOfRange(kInt8Oid);
    } else {
      v = static_cast<int32_t>(static_cast<uint32_t>(v) * static_cast<uint32_t>(scale));  // int4 wraps as in C
    }
    f.pre += f.multi;
  }
  std::string text = std::to_string(v);
  if (f.post > 0) text += "." + std::string(static_cast<size_t>(f.post), '0');
  Digits d = Fit(text, f);
  return FormatNumber(f, d.number, d.pre_spaces, d.sign);
}

std::string ToCharFloat(double v, Oid type, NumFormat f) {
  const int max_digits = type == kFloat4Oid ? 6 : 15;  // FLT_DIG / DBL_DIG
  if (f.roman) return FormatNumber(f, ToRoman(static_cast<int64_t>(std::rint(v))), 0, '+');
  char buf[400];
  if (f.eeee) {
    if (std::isnan(v) || std::isinf(v)) return FormatNumber(f, SciOverflow(f), 0, '+');
    std::snprintf(buf, sizeof buf, "%+.*e", f.post, v);
    if (buf[0] == '+') buf[0] = ' ';
    return FormatNumber(f, buf, 0, '+');
  }
  if (f.multi_flag) {
    v *= std::pow(10.0, f.multi);
    f.pre += f.multi;
  }
  std::snprintf(buf, sizeof buf, "%.0f", std::fabs(v));
  int pre_len = static_cast<int>(std::string(buf).size());
  if (pre_len >= max_digits) {
    f.post = 0;
  } else if (pre_len + f.post > max_digits) {
    f.post = max_digits - pre_len;
  }
  std::snprintf(buf, sizeof buf, "%.*f", f.post, v);
  Digits d = Fit(buf, f);
  return FormatNumber(f, d.number, d.pre_spaces, d.sign);
}

Value ToCharNum(const Value* a, int, FuncCallContext&) {
  NumFormat f = ParseNumFormat(a[1].str);
  const Value& v = a[0];
  switch (v.type) {
    case kNumericOid: return Value::Text(ToCharNumeric(Numeric::Parse(v.str), f));
    case kFloat4Oid:
    case kFloat8Oid: return Value::Text(ToCharFloat(v.f, v.type, f));
    default: return Value::Text(ToCharInteger(v.i, v.type, f));
  }
}

// to_number: the digits read, as numeric(pre + V digits + read decimals,
// read decimals), shifted back by V.
Value ToNumber(const Value* a, int, FuncCallContext&) {
  NumFormat f = ParseNumFormat(a[1].str);
  int read_post = 0;
  std::string text = ParseNumberText(f, a[0].str, &read_post);
  int precision = f.pre + f.multi + read_post;
  Numeric n = Numeric::Parse(text);
  if (precision >= 1 && precision <= 1000) n = n.ApplyTypmod(NumericTypmod(precision, read_post));
  if (f.multi_flag) {
    // × power(10::numeric, -V), which PostgreSQL computes to 16 decimals.
    std::string shift = "0." + std::string(16, '0');
    if (f.multi >= 1 && f.multi <= 16) shift[1 + static_cast<size_t>(f.multi)] = '1';
    n = n.Mul(Numeric::Parse(shift));
  }
  return Value::Bytes(kNumericOid, n.ToString());
}

}  // namespace

void AddToCharNumberBuiltins(std::vector<FuncSignature>* t) {
  for (Oid x : {kInt4Oid, kInt8Oid, kNumericOid, kFloat4Oid, kFloat8Oid}) {
    t->push_back(Row("to_char", FuncKind::kFunction, {x, kTextOid}, kTextOid, ToCharNum));
  }
  t->push_back(Row("to_number", FuncKind::kFunction, {kTextOid, kTextOid}, kNumericOid, ToNumber));
}

}  // namespace hearth::types::internal
