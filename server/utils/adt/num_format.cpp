// server/utils/adt/num_format.cpp
//
// Principal entry points: ParseNumFormat (PostgreSQL's NUMDesc_prepare over
// the template's keywords), FormatNumber (NUM_processor writing, with
// NUM_numpart_to_char) and ParseNumberText (NUM_processor reading, with
// NUM_numpart_from_char). The walk mirrors PostgreSQL's position by
// position so padding, signs and fill mode come out byte for byte alike.
#include "utils/adt/num_format.h"

#include <cctype>
#include <cstring>

#include "common/error/db_error.h"

namespace hearth::types {
namespace {

struct KeyWord {
  const char* word;
  NumKey key;
};

// PostgreSQL's NUM_keywords, in its search order (longer words that share
// a first letter come first: "SG" before "S").
constexpr KeyWord kKeyWords[] = {
    {",", NumKey::kComma}, {".", NumKey::kDec},  {"0", NumKey::kZero},    {"9", NumKey::kNine},
    {"B", NumKey::kB},     {"C", NumKey::kC},    {"D", NumKey::kD},       {"EEEE", NumKey::kE},
    {"FM", NumKey::kFm},   {"G", NumKey::kG},    {"L", NumKey::kL},       {"MI", NumKey::kMi},
    {"PL", NumKey::kPl},   {"PR", NumKey::kPr},  {"RN", NumKey::kRn},     {"SG", NumKey::kSg},
    {"SP", NumKey::kSp},   {"S", NumKey::kS},    {"TH", NumKey::kTh},     {"V", NumKey::kV},
    {"b", NumKey::kB},     {"c", NumKey::kC},    {"d", NumKey::kD},       {"eeee", NumKey::kE},
    {"fm", NumKey::kFm},   {"g", NumKey::kG},    {"l", NumKey::kL},       {"mi", NumKey::kMi},
    {"pl", NumKey::kPl},   {"pr", NumKey::kPr},  {"rn", NumKey::kRnLower}, {"sg", NumKey::kSg},
    {"sp", NumKey::kSp},   {"s", NumKey::kS},    {"th", NumKey::kThLower}, {"v", NumKey::kV},
};

[[noreturn]] void TemplateError(const std::string& msg) { throw DbError(sqlstate::kSyntaxError, msg); }

// NUMDesc_prepare: one keyword's effect on the description.
void Describe(NumKey k, NumFormat* n) {
  switch (k) {
    case NumKey::kNine:
      if (n->bracket) TemplateError("\"9\" must be ahead of \"PR\"");
      if (n->multi_flag) {
        ++n->multi;
      } else if (n->decimal) {
        ++n->post;
      } else {
        ++n->pre;
      }
      break;
    case NumKey::kZero:
      if (n->bracket) TemplateError("\"0\" must be ahead of \"PR\"");
      if (!n->zero && !n->decimal) {
        n->zero = true;
        n->zero_start = n->pre + 1;
      }
      if (!n->decimal) {
        ++n->pre;
      } else {
        ++n->post;
      }
      n->zero_end = n->pre + n->post;
      break;
    case NumKey::kB:
      if (n->pre == 0 && n->post == 0 && !n->zero) n->blank = true;
      break;
    case NumKey::kD:
    case NumKey::kDec:
      if (k == NumKey::kD) n->ldecimal = true;
      if (n->decimal) TemplateError("multiple decimal points");
      if (n->multi_flag) TemplateError("cannot use \"V\" and decimal point together");
      n->decimal = true;
      break;
    case NumKey::kFm: n->fillmode = true; break;
    case NumKey::kS:
      if (n->lsign_flag) TemplateError("cannot use \"S\" twice");
      if (n->plus || n->minus || n->bracket) TemplateError("cannot use \"S\" and \"PL\"/\"MI\"/\"SG\"/\"PR\" together");
      if (!n->decimal) {
        n->lsign = NumFormat::LSign::kPre;
        n->pre_lsign_num = n->pre;
        n->lsign_flag = true;
      } else if (n->lsign == NumFormat::LSign::kNone) {
        n->lsign = NumFormat::LSign::kPost;
        n->lsign_flag = true;
      }
      break;
    case NumKey::kMi:
      if (n->lsign_flag) TemplateError("cannot use \"S\" and \"MI\" together");
      n->minus = true;
      if (n->decimal) n->minus_post = true;
      break;
    case NumKey::kPl:
      if (n->lsign_flag) TemplateError("cannot use \"S\" and \"PL\" together");
      n->plus = true;
      if (n->decimal) n->plus_post = true;
      break;
    case NumKey::kSg:
      if (n->lsign_flag) TemplateError("cannot use \"S\" and \"SG\" together");
      n->minus = n->plus = true;
      break;
    case NumKey::kPr:
      if (n->lsign_flag || n->plus || n->minus) TemplateError("cannot use \"PR\" and \"S\"/\"PL\"/\"MI\"/\"SG\" together");
      n->bracket = true;
      break;
    case NumKey::kRn:
    case NumKey::kRnLower: n->roman = true; break;
    case NumKey::kV:
      if (n->decimal) TemplateError("cannot use \"V\" and decimal point together");
      n->multi_flag = true;
      break;
    case NumKey::kE:
      if (n->eeee) TemplateError("cannot use \"EEEE\" twice");
      if (n->blank || n->fillmode || n->lsign_flag || n->bracket || n->minus || n->plus || n->roman || n->multi_flag) {
        throw DbError(sqlstate::kSyntaxError, "\"EEEE\" is incompatible with other formats")
            .WithDetail("\"EEEE\" may only be used together with digit and decimal point patterns.");
      }
      n->eeee = true;
      break;
    default: break;
  }
}

// The writer's state (PostgreSQL's NUMProc, to_char half).
class Writer {
 public:
  Writer(NumFormat& f, const std::string& number, int pre_spaces, char sign)
      : n_(f), number_(number), pre_spaces_(pre_spaces), sign_(sign) {}

  std::string Run();

 private:
  NumFormat& n_;
  const std::string& number_;
  size_t p_ = 0;  // number_p
  int pre_spaces_;
  char sign_;
  bool sign_wrote_ = false, num_in_ = false;
  int num_count_ = 0, num_curr_ = 0;
  // last_relevant: index in number_ of the last digit fill mode keeps; -1 none.
  long last_relevant_ = -1;
  std::string out_;

  char NumberAt(size_t i) const { return i < number_.size() ? number_[i] : '\0'; }
  bool LastRelevantIsDot() const { return last_relevant_ >= 0 && NumberAt(last_relevant_) == '.'; }
  bool PredecSpace() const { return !n_.zero && p_ == 0 && NumberAt(0) == '0' && n_.post != 0; }
  void NumPart(NumKey id);
  void Prepare();
};

// get_last_relevant_decnum: the last non-zero digit after the point (or the
// point itself).
long LastRelevantDecimal(const std::string& num) {
  size_t dot = num.find('.');
  if (dot == std::string::npos) return -1;
  long result = static_cast<long>(dot);
  for (size_t i = dot + 1; i < num.size(); ++i) {
    if (num[i] != '0') result = static_cast<long>(i);
  }
  return result;
}

void Writer::Prepare() {
  if (n_.zero_start) --n_.zero_start;
  if (n_.roman) {
    n_.lsign = NumFormat::LSign::kNone;
    n_.pre_lsign_num = n_.post = n_.pre = 0;
    pre_spaces_ = 0;
    sign_ = 0;
    bool fm = n_.fillmode;
    n_.decimal = n_.ldecimal = n_.zero = n_.blank = n_.lsign_flag = n_.bracket = n_.minus = n_.plus = false;
    n_.multi_flag = n_.eeee = false;
    n_.fillmode = fm;
    n_.roman = true;
  }
  if (n_.plus || n_.minus) {
    sign_wrote_ = !(n_.plus && !n_.minus);
  } else {
    if (sign_ != '-' && n_.fillmode) n_.bracket = false;
    sign_wrote_ = sign_ == '+' && n_.fillmode && !n_.lsign_flag;
    if (n_.lsign == NumFormat::LSign::kPre && n_.pre == n_.pre_lsign_num) n_.lsign = NumFormat::LSign::kPost;
  }
  num_count_ = n_.post + n_.pre - 1;
  if (n_.fillmode && n_.decimal) {
    last_relevant_ = LastRelevantDecimal(number_);
    if (last_relevant_ >= 0 && n_.zero_end > pre_spaces_) {
      long last_zero = n_.zero_end - pre_spaces_;
      if (last_relevant_ < last_zero) last_relevant_ = last_zero;
    }
  }
  if (!sign_wrote_ && pre_spaces_ == 0) ++num_count_;
}

// NUM_numpart_to_char: one digit position (9, 0, '.', D).
void Writer::NumPart(NumKey id) {
  if (n_.roman) return;
  num_in_ = false;
  bool zero_here = n_.zero && n_.zero_start == num_curr_;
  if (!sign_wrote_ && (num_curr_ >= pre_spaces_ || zero_here) && (!PredecSpace() || LastRelevantIsDot())) {
    if (n_.lsign_flag) {
      if (n_.lsign == NumFormat::LSign::kPre) {
        out_ += sign_ == '-' ? '-' : '+';
        sign_wrote_ = true;
      }
    } else if (n_.bracket) {
      out_ += sign_ == '+' ? ' ' : '<';
      sign_wrote_ = true;
    } else if (sign_ == '+') {
      if (!n_.fillmode) out_ += ' ';
      sign_wrote_ = true;
    } else if (sign_ == '-') {
      out_ += '-';
      sign_wrote_ = true;
    }
  }
  if (num_curr_ < pre_spaces_ && (n_.zero_start > num_curr_ || !n_.zero)) {
    if (!n_.fillmode) out_ += ' ';
  } else if (n_.zero && num_curr_ < pre_spaces_ && n_.zero_start <= num_curr_) {
    out_ += '0';
    num_in_ = true;
  } else {
    if (NumberAt(p_) == '.') {
      if (!LastRelevantIsDot() || n_.fillmode) out_ += '.';
    } else if (last_relevant_ >= 0 && static_cast<long>(p_) > last_relevant_ && id != NumKey::kZero) {
      // fill mode drops trailing zeros after the point
    } else if (PredecSpace()) {
      if (!n_.fillmode) {
        out_ += ' ';
      } else if (LastRelevantIsDot()) {
        out_ += '0';
      }
    } else {
      out_ += NumberAt(p_);
      num_in_ = true;
    }
    if (p_ < number_.size()) ++p_;
  }
  int end = num_count_ + (pre_spaces_ ? 1 : 0) + (n_.decimal ? 1 : 0);
  if (last_relevant_ >= 0 && static_cast<long>(p_) == last_relevant_) end = num_curr_;
  if (num_curr_ + 1 == end) {
    if (sign_wrote_ && n_.bracket) {
      out_ += sign_ == '+' ? ' ' : '>';
    } else if (n_.lsign_flag && n_.lsign == NumFormat::LSign::kPost) {
      out_ += sign_ == '-' ? '-' : '+';
    }
  }
  ++num_curr_;
}

// English ordinal suffix of the number's last digits (get_th).
const char* OrdinalSuffix(const std::string& num, bool upper) {
  size_t end = num.find('.');
  if (end == std::string::npos) end = num.size();
  if (end == 0) return upper ? "TH" : "th";
  char last = num[end - 1];
  bool teen = end >= 2 && num[end - 2] == '1';
  const char* s = teen ? "th" : last == '1' ? "st" : last == '2' ? "nd" : last == '3' ? "rd" : "th";
  static const char* kUpper[] = {"TH", "ST", "ND", "RD"};
  if (!upper) return s;
  return s[0] == 's' ? kUpper[1] : s[0] == 'n' ? kUpper[2] : s[0] == 'r' ? kUpper[3] : kUpper[0];
}

std::string Writer::Run() {
  if (n_.eeee) return number_;
  Prepare();
  for (const NumNode& node : n_.nodes) {
    if (!node.is_key) {
      out_ += node.text;
      continue;
    }
    switch (node.key) {
      case NumKey::kNine:
      case NumKey::kZero:
      case NumKey::kDec:
      case NumKey::kD: NumPart(node.key); break;
      case NumKey::kComma:
      case NumKey::kG:
        if (num_in_) {
          out_ += ',';
        } else if (!n_.fillmode) {
          out_ += ' ';
        }
        break;
      case NumKey::kL: out_ += ' '; break;
      case NumKey::kRn:
      case NumKey::kRnLower: {
        std::string r = number_;
        if (node.key == NumKey::kRnLower) {
          for (char& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        }
        if (!n_.fillmode && r.size() < 15) r.insert(0, 15 - r.size(), ' ');
        out_ += r;
        break;
      }
      case NumKey::kTh:
      case NumKey::kThLower:
        if (n_.roman || NumberAt(0) == '#' || sign_ == '-' || n_.decimal) break;
        out_ += OrdinalSuffix(number_, node.key == NumKey::kTh);
        break;
      case NumKey::kMi:
        if (sign_ == '-') {
          out_ += '-';
        } else if (!n_.fillmode) {
          out_ += ' ';
        }
        break;
      case NumKey::kPl:
        if (sign_ == '+') {
          out_ += '+';
        } else if (!n_.fillmode) {
          out_ += ' ';
        }
        break;
      case NumKey::kSg:
        if (sign_ != 0) out_ += sign_;
        break;
      default: break;
    }
  }
  return out_;
}


// The reader's state (NUMProc, to_number half): `number_` starts with a
// sign slot (' ', '-' or '+') followed by the digits and point read.
class Reader {
 public:
  Reader(const NumFormat& f, std::string_view in) : n_(f), in_(in) {}

  std::string Run() {
    if (n_.roman) throw DbError(sqlstate::kFeatureNotSupported, "\"RN\" not supported for input");
    if (n_.eeee) throw DbError(sqlstate::kFeatureNotSupported, "\"EEEE\" not supported for input");
    for (const NumNode& node : n_.nodes) {
      if (Overload()) break;
      if (!node.is_key) {
        ++p_;
        continue;
      }
      if (!Step(node.key)) continue;
      ++p_;
    }
    if (!number_.empty() && number_.back() == '.' && number_.size() > 1) number_.pop_back();
    return number_;
  }

  int read_post() const { return read_post_; }

 private:
  const NumFormat& n_;
  std::string_view in_;
  size_t p_ = 0;
  std::string number_ = " ";
  bool read_dec_ = false, num_in_ = false;
  int read_pre_ = 0, read_post_ = 0;

  bool Overload() const { return p_ >= in_.size(); }
  char At(size_t i) const { return i < in_.size() ? in_[i] : '\0'; }
  static bool Digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

  // One keyword; false when it consumes no input character.
  bool Step(NumKey k) {
    switch (k) {
      case NumKey::kNine:
      case NumKey::kZero:
      case NumKey::kDec:
      case NumKey::kD: NumPart(k); return true;
      case NumKey::kComma:
      case NumKey::kG:  // skipped only where the input has one
        if (!num_in_ && n_.fillmode) return false;
        return At(p_) == ',';
      case NumKey::kL: return true;  // the currency symbol's place, whatever it holds
      case NumKey::kTh:
      case NumKey::kThLower:
        if (n_.decimal) return false;
        ++p_;
        return true;
      case NumKey::kMi:
        if (At(p_) == '-') number_[0] = '-';
        return true;
      case NumKey::kPl:
        if (At(p_) == '+') number_[0] = '+';
        return true;
      case NumKey::kSg:
        if (At(p_) == '-' || At(p_) == '+') number_[0] = At(p_);
        return true;
      default: return false;
    }
  }

  // NUM_numpart_from_char.
  void NumPart(NumKey id) {
    if (Overload()) return;
    if (At(p_) == ' ') ++p_;
    if (Overload()) return;
    bool digit_key = id == NumKey::kZero || id == NumKey::kNine;
    if (number_[0] == ' ' && digit_key && read_pre_ + read_post_ == 0) {
      if (At(p_) == '-' || (n_.bracket && At(p_) == '<')) {
        number_[0] = '-';
        ++p_;
      } else if (At(p_) == '+') {
        number_[0] = '+';
        ++p_;
      }
    }
    if (Overload()) return;
    bool read = false;
    if (Digit(At(p_))) {
      if (read_dec_ && read_post_ == n_.post) return;
      number_ += At(p_);
      ++(read_dec_ ? read_post_ : read_pre_);
      read = true;
    } else if (n_.decimal && !read_dec_ && At(p_) == '.') {
      number_ += '.';
      read_dec_ = true;
      read = true;
    }
    if (Overload()) return;
    if (number_[0] == ' ' && read_pre_ + read_post_ > 0) {
      if (n_.lsign_flag && read && p_ + 1 < in_.size() && !Digit(At(p_ + 1))) {
        if (At(p_ + 1) == '-' || At(p_ + 1) == '+') number_[0] = At(++p_);
      } else if (!read && !n_.lsign_flag && (n_.plus || n_.minus)) {
        if (At(p_) == '-' || At(p_) == '+') number_[0] = At(p_);
      }
    }
  }
};

}  // namespace

NumFormat ParseNumFormat(std::string_view fmt) {
  NumFormat f;
  size_t i = 0;
  while (i < fmt.size()) {
    const KeyWord* match = nullptr;
    for (const KeyWord& k : kKeyWords) {
      size_t len = std::strlen(k.word);
      if (fmt.substr(i, len) == k.word) {
        match = &k;
        break;
      }
    }
    if (match != nullptr) {
      NumNode node;
      node.is_key = true;
      node.key = match->key;
      Describe(match->key, &f);
      f.nodes.push_back(node);
      i += std::strlen(match->word);
      continue;
    }
    if (fmt[i] == '"') {  // quoted text, \ escaping the next character
      for (++i; i < fmt.size() && fmt[i] != '"'; ++i) {
        if (fmt[i] == '\\' && i + 1 < fmt.size()) ++i;
        f.nodes.push_back(NumNode{false, NumKey::kNine, std::string(1, fmt[i])});
      }
      if (i < fmt.size()) ++i;
      continue;
    }
    if (fmt[i] == '\\' && i + 1 < fmt.size() && fmt[i + 1] == '"') ++i;
    f.nodes.push_back(NumNode{false, NumKey::kNine, std::string(1, fmt[i])});
    ++i;
  }
  return f;
}

std::string FormatNumber(NumFormat f, const std::string& number, int pre_spaces, char sign) {
  return Writer(f, number, pre_spaces, sign).Run();
}

std::string ToRoman(int64_t n) {
  if (n < 1 || n > 3999) return std::string(15, '#');
  static const char* kThousands[] = {"", "M", "MM", "MMM"};
  static const char* kHundreds[] = {"", "C", "CC", "CCC", "CD", "D", "DC", "DCC", "DCCC", "CM"};
  static const char* kTens[] = {"", "X", "XX", "XXX", "XL", "L", "LX", "LXX", "LXXX", "XC"};
  static const char* kOnes[] = {"", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX"};
  return std::string(kThousands[n / 1000]) + kHundreds[n / 100 % 10] + kTens[n / 10 % 10] + kOnes[n % 10];
}

std::string ParseNumberText(const NumFormat& f, std::string_view input, int* read_post) {
  Reader r(f, input);
  std::string text = r.Run();
  *read_post = r.read_post();
  return text;
}

}  // namespace hearth::types
