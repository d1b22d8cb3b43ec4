// server/utils/adt/builtins_regex.cpp
//
// POSIX regular expression match operators: ~, !~, ~* and !~* on text
// (name and varchar reach them by implicit cast), as psql's \d family uses
// them ('^(t)$', '^pg_toast'). Patterns are ECMAScript regular expressions,
// which agree with PostgreSQL's ARE for anchors, groups, classes,
// alternation and quantifiers; PostgreSQL-only escapes (\m, \y, ...) are
// not supported. The last compiled pattern is kept per process, so a
// pattern applied to every row is compiled once.
#include <regex>
#include <string>

#include "common/error/db_error.h"
#include "utils/adt/builtins.h"

namespace hearth::types::internal {
namespace {

constexpr char kInvalidRegularExpression[] = "2201B";

const std::regex& Compiled(const std::string& pattern, bool icase) {
  struct Cache {
    std::string pattern;
    bool icase = false;
    bool valid = false;
    std::regex re;
  };
  static Cache cache;
  if (!cache.valid || cache.icase != icase || cache.pattern != pattern) {
    try {
      auto flags = std::regex::ECMAScript | (icase ? std::regex::icase : std::regex::ECMAScript);
      cache.re = std::regex(pattern, flags);
    } catch (const std::regex_error& e) {
      cache.valid = false;
      throw DbError(kInvalidRegularExpression, std::string("invalid regular expression: ") + e.what());
    }
    cache.pattern = pattern;
    cache.icase = icase;
    cache.valid = true;
  }
  return cache.re;
}

bool Matches(const Value* a, bool icase) { return std::regex_search(a[0].str, Compiled(a[1].str, icase)); }

Value Match(const Value* a, int, FuncCallContext&) { return Value::Bool(Matches(a, false)); }
Value NotMatch(const Value* a, int, FuncCallContext&) { return Value::Bool(!Matches(a, false)); }
Value IMatch(const Value* a, int, FuncCallContext&) { return Value::Bool(Matches(a, true)); }
Value NotIMatch(const Value* a, int, FuncCallContext&) { return Value::Bool(!Matches(a, true)); }

}  // namespace

void AddRegexBuiltins(std::vector<FuncSignature>* t) {
  constexpr FuncKind kOp = FuncKind::kOperator;
  t->push_back(Row("~", kOp, {kTextOid, kTextOid}, kBoolOid, Match));
  t->push_back(Row("!~", kOp, {kTextOid, kTextOid}, kBoolOid, NotMatch));
  t->push_back(Row("~*", kOp, {kTextOid, kTextOid}, kBoolOid, IMatch));
  t->push_back(Row("!~*", kOp, {kTextOid, kTextOid}, kBoolOid, NotIMatch));
  t->push_back(Row("textregexeq", FuncKind::kFunction, {kTextOid, kTextOid}, kBoolOid, Match));
}

}  // namespace hearth::types::internal
