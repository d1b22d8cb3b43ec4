// server/utils/adt/num_format.h
//
// PostgreSQL 15's number templates (to_char(number, text), to_number):
// 9 0 . , D G S PR MI PL SG FM EEEE RN/rn TH/th V L B, "quoted text" and
// \" escapes, anything else copied. Locale-dependent patterns use the C
// locale as Hearth's collation does (D '.', G ',', L ' '). The template is
// parsed into a NumFormat (PostgreSQL's NUMDesc plus its nodes); template
// errors are 42601 with PostgreSQL's messages ("multiple decimal points",
// "cannot use \"S\" twice", ...). Stateless.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace hearth::types {

enum class NumKey : uint8_t {
  kComma, kDec, kZero, kNine, kB, kC, kD, kE, kFm, kG, kL, kMi, kPl, kPr, kRn, kSg, kSp, kS, kTh, kV,
  kRnLower, kThLower
};

struct NumNode {
  bool is_key = false;
  NumKey key = NumKey::kNine;
  std::string text;  // a copied character (is_key false)
};

struct NumFormat {
  std::vector<NumNode> nodes;
  int pre = 0, post = 0;        // digit positions before/after the decimal point
  int multi = 0;                // V: digits shifted
  int zero_start = 0, zero_end = 0;
  int pre_lsign_num = 0;
  enum class LSign : uint8_t { kNone, kPre, kPost } lsign = LSign::kNone;
  bool decimal = false, ldecimal = false, zero = false, blank = false, fillmode = false;
  bool lsign_flag = false, bracket = false, minus = false, plus = false, roman = false, multi_flag = false;
  bool eeee = false, minus_post = false, plus_post = false;
};

// Parses a number template. Throws DbError 42601 for contradictory patterns.
NumFormat ParseNumFormat(std::string_view fmt);

// PostgreSQL's NUM_processor for to_char: `number` is the unsigned digits
// ("123.40", "###.##", a Roman numeral or an EEEE form), `pre_spaces` the
// digit positions left of it, `sign` '+' or '-'.
std::string FormatNumber(NumFormat f, const std::string& number, int pre_spaces, char sign);

// Roman numeral of 1..3999, else 15 '#' (int_to_roman).
std::string ToRoman(int64_t n);

// NUM_processor for to_number: the decimal text read from `input` under
// `f` (" 12454.8", "-5"; a sign slot first), and how many digits were read
// after the point. 0A000 for RN and EEEE templates.
std::string ParseNumberText(const NumFormat& f, std::string_view input, int* read_post);

}  // namespace hearth::types
