// server/utils/adt/builtins_regex.cpp
//
// POSIX regular expression match operators: ~, !~, ~* and !~* on text
// (name and varchar reach them by implicit cast), as psql's \d family uses
// them ('^(t)$', '^pg_toast'). Matching is regex_vm's Pike VM: linear in
// the subject, so no input can exhaust the stack or run exponentially. The
// last compiled pattern is kept per process, so a pattern applied to every
// row is compiled once.
#include <memory>
#include <string>

#include "utils/adt/builtins.h"
#include "utils/adt/regex_vm.h"

namespace hearth::types::internal {
namespace {

const Regex& Compiled(const std::string& pattern, bool icase) {
  struct Cache {
    std::string pattern;
    bool icase = false;
    std::unique_ptr<Regex> re;
  };
  static Cache cache;
  if (cache.re == nullptr || cache.icase != icase || cache.pattern != pattern) {
    auto re = std::make_unique<Regex>(pattern, icase);  // throws 2201B: cache unchanged
    cache.re = std::move(re);
    cache.pattern = pattern;
    cache.icase = icase;
  }
  return *cache.re;
}

bool Matches(const Value* a, bool icase) { return Compiled(a[1].str, icase).Search(a[0].str); }
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
