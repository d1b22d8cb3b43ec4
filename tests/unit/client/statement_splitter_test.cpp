// Statement splitting as psql does it: ';' ends a statement only outside
// quotes, dollar quotes, comments and parentheses.
#include <catch2/catch.hpp>

#include "client/shell/statement_splitter.h"

using hearth::client::StatementSplitter;
using Stmts = std::vector<std::string>;

namespace {

Stmts Feed(StatementSplitter& s, const std::vector<std::string>& lines) {
  Stmts all;
  for (const auto& l : lines) {
    for (auto& st : s.AddLine(l)) all.push_back(st);
  }
  return all;
}

}  // namespace

TEST_CASE("several statements on one line, ';' kept", "[client][splitter]") {
  StatementSplitter s;
  CHECK(Feed(s, {"select 1; select 2;select 3"}) == Stmts{"select 1;", "select 2;"});
  CHECK_FALSE(s.empty());
  CHECK(s.Finish() == std::optional<std::string>("select 3"));
  CHECK(s.empty());
}

TEST_CASE("statements span lines", "[client][splitter]") {
  StatementSplitter s;
  CHECK(Feed(s, {"select", "  1 +", "  2", ";"}) == Stmts{"select\n  1 +\n  2\n;"});
  CHECK(s.empty());
  CHECK_FALSE(s.Finish().has_value());
}

TEST_CASE("semicolons inside quotes do not split", "[client][splitter]") {
  StatementSplitter s;
  CHECK(Feed(s, {"select 'a;b', \"c;d\", 'it''s;' as x;"}) ==
        Stmts{"select 'a;b', \"c;d\", 'it''s;' as x;"});
  CHECK(Feed(s, {"select E'\\';' as e; select 'x\\';"}) ==
        Stmts{"select E'\\';' as e;", "select 'x\\';"});
  // A string left open continues on the next line.
  CHECK(Feed(s, {"select 'one;"}).empty());
  CHECK(s.ContinuationChar() == '\'');
  CHECK(Feed(s, {"two';"}) == Stmts{"select 'one;\ntwo';"});
}

TEST_CASE("dollar quotes", "[client][splitter]") {
  StatementSplitter s;
  CHECK(Feed(s, {"select $$a;b$$, $tag$ $$; $tag$;"}) == Stmts{"select $$a;b$$, $tag$ $$; $tag$;"});
  CHECK(Feed(s, {"create function f() returns int as $body$", "begin; return 1;",
                 "end $body$ language plpgsql;"}) ==
        Stmts{"create function f() returns int as $body$\nbegin; return 1;\nend $body$ language "
              "plpgsql;"});
  // $1 is a parameter, not a quote; a$b$ is an identifier.
  CHECK(Feed(s, {"select $1; select a$b$;"}) == Stmts{"select $1;", "select a$b$;"});
  CHECK(Feed(s, {"select $q$"}).empty());
  CHECK(s.ContinuationChar() == '$');
}

TEST_CASE("comments", "[client][splitter]") {
  StatementSplitter s;
  CHECK(Feed(s, {"select 1 -- not the end;", ";"}) == Stmts{"select 1 -- not the end;\n;"});
  CHECK(Feed(s, {"select /* ; /* nested ; */ still ; */ 2;"}) ==
        Stmts{"select /* ; /* nested ; */ still ; */ 2;"});
  CHECK(Feed(s, {"/* open"}).empty());
  CHECK(s.ContinuationChar() == '*');
  CHECK(Feed(s, {"close */ select 3;"}) == Stmts{"/* open\nclose */ select 3;"});
  // Leading "--" comments and blank lines are dropped, as psql does.
  CHECK(Feed(s, {"-- header", "", "  select 4;"}) == Stmts{"select 4;"});
  CHECK(Feed(s, {"-- only a comment"}).empty());
  CHECK(s.empty());
}

TEST_CASE("parentheses hold semicolons", "[client][splitter]") {
  StatementSplitter s;
  CHECK(Feed(s, {"create rule r as on insert to t do also (select 1; select 2);"}) ==
        Stmts{"create rule r as on insert to t do also (select 1; select 2);"});
  CHECK(Feed(s, {"select (1"}).empty());
  CHECK(s.ContinuationChar() == '(');
  CHECK(Feed(s, {");"}) == Stmts{"select (1\n);"});
  CHECK(s.ContinuationChar() == '-');
}

TEST_CASE("empty statements and reset", "[client][splitter]") {
  StatementSplitter s;
  CHECK(Feed(s, {";"}) == Stmts{";"});
  CHECK(Feed(s, {"select 'unterminated"}).empty());
  s.Reset();
  CHECK(s.empty());
  CHECK(Feed(s, {"select 5;"}) == Stmts{"select 5;"});
}

TEST_CASE("backslash meta-commands are cut from the line", "[client][splitter]") {
  StatementSplitter s;
  CHECK(Feed(s, {"\\timing on"}).empty());
  CHECK(s.TakeMetaCommand() == std::optional<std::string>("\\timing on"));
  CHECK_FALSE(s.TakeMetaCommand().has_value());
  CHECK(s.empty());
  // Statements before the backslash complete first; the rest stays buffered.
  CHECK(Feed(s, {"select 1; select 2 \\g"}) == Stmts{"select 1;"});
  CHECK(s.TakeMetaCommand() == std::optional<std::string>("\\g"));
  CHECK(s.TakeBuffer() == std::optional<std::string>("select 2"));
  // Backslashes inside strings or comments are data.
  CHECK(Feed(s, {"select '\\x' -- \\q", ";"}) == Stmts{"select '\\x' -- \\q\n;"});
  CHECK_FALSE(s.TakeMetaCommand().has_value());
}
