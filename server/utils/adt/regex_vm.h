// server/utils/adt/regex_vm.h
//
// A small regular-expression engine for the ~ operators: the pattern is
// compiled to a program for a Pike VM (Thompson's construction), which
// runs in time linear in the subject (times the program size) and never
// recurses on the subject, so no input can exhaust the stack or backtrack
// exponentially. Code points (UTF-8), not bytes.
//
// Syntax (the common core of PostgreSQL's AREs): literals, `.`, `^`, `$`,
// `|`, `( )`, `(?: )`, `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}` (a trailing `?`
// — non-greedy — does not change whether a string matches), bracket
// expressions `[a-z]`, `[^...]` with `[:alpha:]` & co., escapes `\d \D \w
// \W \s \S` and `\` before any other punctuation. Anything else PostgreSQL
// knows (back references, `\m`, `\y`, lookahead, ...) is 2201B `invalid
// regular expression: ...`.
//
// Thread safety: a compiled Regex is immutable; Search may run concurrently.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace hearth::types {

class Regex {
 public:
  // Throws DbError 2201B for a pattern outside the syntax above, and for one
  // nested deeper than 256 groups or compiling to over 100,000 instructions.
  Regex(std::string_view pattern, bool icase);

  // True if the pattern matches somewhere in `subject`.
  bool Search(std::string_view subject) const;

 private:
  enum class Op : uint8_t { kChar, kAny, kClass, kSplit, kJmp, kBol, kEol, kMatch };
  struct Inst {
    Op op;
    bool negate = false;  // kClass
    char32_t c = 0;       // kChar
    int x = 0, y = 0;     // kSplit/kJmp targets; kClass: index into classes_
  };
  struct Range {
    char32_t lo, hi;
  };
  friend class RegexCompiler;

  bool ClassHas(int cls, char32_t c) const;
  bool Step(const Inst& in, char32_t c) const;

  std::vector<Inst> prog_;
  std::vector<std::vector<Range>> classes_;
  bool icase_ = false;
};

}  // namespace hearth::types
