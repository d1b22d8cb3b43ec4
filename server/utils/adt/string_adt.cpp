// server/utils/adt/string_adt.cpp
//
// Principal entry points: ApplyCharTypmod, LikeMatch, CharLength.
#include "utils/adt/string_adt.h"

#include <cstdint>
#include <vector>

#include "common/error/db_error.h"
#include "utils/adt/type_catalog.h"

namespace hearth::types {
namespace {

const char kInvalidEscapeSequence[] = "22025";

// Length of the UTF-8 sequence starting with byte c (1 for invalid bytes).
size_t Utf8Len(unsigned char c) {
  if (c < 0x80) return 1;
  if ((c & 0xE0) == 0xC0) return 2;
  if ((c & 0xF0) == 0xE0) return 3;
  if ((c & 0xF8) == 0xF0) return 4;
  return 1;
}

// Decodes s into code points (invalid bytes map to themselves).
std::vector<char32_t> Decode(std::string_view s, bool lower) {
  std::vector<char32_t> out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    size_t n = Utf8Len(c);
    if (i + n > s.size()) n = 1;
    char32_t cp = n == 1 ? c : (c & (0xFF >> (n + 1)));
    for (size_t k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    if (lower) {
      if (cp >= 'A' && cp <= 'Z') cp += 32;
      // Latin-1 supplement and Greek/Cyrillic basic ranges.
      else if (cp >= 0xC0 && cp <= 0xDE && cp != 0xD7) cp += 32;
      else if (cp >= 0x410 && cp <= 0x42F) cp += 32;
      else if (cp >= 0x391 && cp <= 0x3A9) cp += 32;
    }
    out.push_back(cp);
    i += n;
  }
  return out;
}

// A LIKE pattern compiled into tokens: a literal code point, '_' (exactly
// one character) or '%' (any run).
struct LikeToken {
  enum Kind : uint8_t { kLiteral, kOne, kAny } kind;
  char32_t cp;
};

std::vector<LikeToken> CompileLike(const std::vector<char32_t>& p, char32_t esc) {
  std::vector<LikeToken> out;
  out.reserve(p.size());
  for (size_t i = 0; i < p.size(); ++i) {
    if (esc != 0 && p[i] == esc) {
      if (i + 1 >= p.size()) {
        throw DbError(kInvalidEscapeSequence, "LIKE pattern must not end with escape character");
      }
      out.push_back({LikeToken::kLiteral, p[++i]});
    } else if (p[i] == '%') {
      if (out.empty() || out.back().kind != LikeToken::kAny) out.push_back({LikeToken::kAny, 0});
    } else if (p[i] == '_') {
      out.push_back({LikeToken::kOne, 0});
    } else {
      out.push_back({LikeToken::kLiteral, p[i]});
    }
  }
  return out;
}

// Wildcard matching with a single backtrack point: on a mismatch, retry from
// the most recent '%' one character further. The last '%' subsumes earlier
// ones, so this is exact and O(|text| * |pattern|) in the worst case, with
// no exponential blow-up on patterns like '%a%a%a%b'.
bool MatchTokens(const std::vector<char32_t>& t, const std::vector<LikeToken>& p) {
  size_t ti = 0, pi = 0;
  size_t star = SIZE_MAX, mark = 0;
  while (ti < t.size()) {
    if (pi < p.size() && (p[pi].kind == LikeToken::kOne ||
                          (p[pi].kind == LikeToken::kLiteral && p[pi].cp == t[ti]))) {
      ++ti;
      ++pi;
    } else if (pi < p.size() && p[pi].kind == LikeToken::kAny) {
      star = pi++;
      mark = ti;
    } else if (star != SIZE_MAX) {
      pi = star + 1;
      ti = ++mark;
    } else {
      return false;
    }
  }
  while (pi < p.size() && p[pi].kind == LikeToken::kAny) ++pi;
  return pi == p.size();
}

}  // namespace

int64_t CharLength(std::string_view s) {
  // Valid UTF-8: one character per byte that is not a continuation byte
  // (10xxxxxx). A branch-free count the compiler vectorises (COPY into
  // char(n) columns measures every value).
  int64_t continuation = 0;
  for (unsigned char c : s) continuation += (c & 0xC0) == 0x80;
  return static_cast<int64_t>(s.size()) - continuation;
}

size_t CharOffset(std::string_view s, int64_t chars) {
  size_t i = 0;
  while (chars > 0 && i < s.size()) {
    i += Utf8Len(static_cast<unsigned char>(s[i]));
    --chars;
  }
  return i < s.size() ? i : s.size();
}

std::string ApplyCharTypmod(std::string s, Oid oid, int32_t typmod, bool is_explicit) {
  ApplyCharTypmodInPlace(&s, oid, typmod, is_explicit);
  return s;
}

void ApplyCharTypmodInPlace(std::string* s, Oid oid, int32_t typmod, bool is_explicit) {
  if (typmod < 4) return;
  int64_t maxlen = typmod - 4;
  int64_t len = CharLength(*s);
  if (len > maxlen) {
    size_t cut = CharOffset(*s, maxlen);
    if (!is_explicit) {
      for (size_t i = cut; i < s->size(); ++i) {
        if ((*s)[i] != ' ') {
          throw DbError(sqlstate::kStringDataRightTruncation,
                        "value too long for type " + FormatType(oid, typmod));
        }
      }
    }
    s->resize(cut);
    len = maxlen;
  }
  if (oid == kBpcharOid && len < maxlen) s->append(static_cast<size_t>(maxlen - len), ' ');
}

std::string_view BpcharTrim(std::string_view s) {
  size_t n = s.size();
  while (n > 0 && s[n - 1] == ' ') --n;
  return s.substr(0, n);
}

bool LikeMatch(std::string_view text, std::string_view pattern, char32_t escape,
               bool case_insensitive) {
  std::vector<char32_t> t = Decode(text, case_insensitive);
  std::vector<char32_t> p = Decode(pattern, case_insensitive);
  return MatchTokens(t, CompileLike(p, escape));
}

std::string AsciiLower(std::string_view s) {
  std::string r(s);
  for (char& c : r) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
  }
  return r;
}

std::string AsciiUpper(std::string_view s) {
  std::string r(s);
  for (char& c : r) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 32);
  }
  return r;
}

}  // namespace hearth::types
