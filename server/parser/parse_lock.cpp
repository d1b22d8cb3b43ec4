// parser/parse_lock.cpp
//
// Principal entry point: ParseLock — LOCK [TABLE] [ONLY] name [*] [, ...]
// [IN lockmode MODE] [NOWAIT], PostgreSQL 15's grammar (pg_dump locks every
// table it dumps with LOCK TABLE ... IN ACCESS SHARE MODE).
#include "parser/parser_internal.h"

namespace hearth::parser {

namespace {

// The eight lock mode names, as word sequences, with storage::LockMode's
// numbers. Longer names first where one is a prefix of another.
struct LockModeName {
  std::initializer_list<const char*> words;
  int mode;
};
const LockModeName kLockModeNames[] = {
    {{"access", "share"}, 1},
    {{"access", "exclusive"}, 8},
    {{"row", "share"}, 2},
    {{"row", "exclusive"}, 3},
    {{"share", "update", "exclusive"}, 4},
    {{"share", "row", "exclusive"}, 6},
    {{"share"}, 5},
    {{"exclusive"}, 7},
};

}  // namespace

StmtPtr Parser::ParseLock() {
  auto s = std::make_unique<LockStmt>();
  s->location = Loc();
  ExpectKw("lock");
  AcceptKw("table");
  do {
    const bool only = AcceptKw("only");
    RangeVar rv = ParseQualifiedName();
    if (only) rv.inh = false;
    AcceptOp("*");
    s->tables.push_back(std::move(rv));
  } while (AcceptOp(","));
  if (AcceptKw("in")) {
    bool matched = false;
    for (const LockModeName& m : kLockModeNames) {
      size_t k = 0;
      for (const char* w : m.words) {
        if (!PeekKw(k, w)) break;
        ++k;
      }
      if (k != m.words.size()) continue;
      for (size_t i = 0; i < k; ++i) Advance();
      s->mode = m.mode;
      matched = true;
      break;
    }
    if (!matched) SyntaxError();
    ExpectKw("mode");
  }
  s->nowait = AcceptKw("nowait");
  return s;
}

}  // namespace hearth::parser
