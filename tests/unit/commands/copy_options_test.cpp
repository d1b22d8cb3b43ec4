// Tests for commands/copy_options: PostgreSQL's option rules and messages.
#include <catch2/catch.hpp>

#include "commands/copy_options.h"
#include "common/error/db_error.h"
#include "parser/parser.h"

using hearth::DbError;
using namespace hearth::commands;

namespace {

// Parses `sql` (ending with a COPY statement) and validates its options.
CopyOptions Opts(const std::string& sql) {
  auto stmts = hearth::parser::ParseStatements(sql);
  REQUIRE(!stmts.empty());
  const auto& copy = stmts.back()->As<hearth::parser::CopyStmt>();
  return ParseCopyOptions(copy.options, copy.is_from, sql);
}

struct Failure {
  std::string sqlstate;
  std::string message;
  int position = 0;
};

Failure Fails(const std::string& sql) {
  try {
    Opts(sql);
  } catch (const DbError& e) {
    return {e.sqlstate(), e.message(), e.position()};
  }
  FAIL("no error for: " << sql);
  return {};
}

}  // namespace

TEST_CASE("copy options: text defaults", "[copy][options]") {
  CopyOptions o = Opts("copy t from stdin");
  CHECK(o.format == CopyFormat::kText);
  CHECK(o.delimiter == '\t');
  CHECK(o.null_string == "\\N");
  CHECK(o.header == CopyHeader::kNone);
  CHECK_FALSE(o.freeze);
  CHECK(o.is_from);
}

TEST_CASE("copy options: csv defaults and explicit values", "[copy][options]") {
  CopyOptions o = Opts("copy t from stdin (format csv)");
  CHECK(o.format == CopyFormat::kCsv);
  CHECK(o.delimiter == ',');
  CHECK(o.null_string.empty());
  CHECK(o.quote == '"');
  CHECK(o.escape == '"');

  o = Opts("copy t to stdout (format csv, delimiter ';', null 'NULL', quote '''', escape '\\', header on)");
  CHECK(o.delimiter == ';');
  CHECK(o.null_string == "NULL");
  CHECK(o.quote == '\'');
  CHECK(o.escape == '\\');
  CHECK(o.header == CopyHeader::kSkip);
  CHECK_FALSE(o.is_from);

  o = Opts("copy t from stdin with csv header delimiter as '|' null as 'x' quote as '$' force not null a, b");
  CHECK(o.csv());
  CHECK(o.header == CopyHeader::kSkip);
  CHECK(o.delimiter == '|');
  CHECK(o.null_string == "x");
  CHECK(o.quote == '$');
  CHECK(o.escape == '$');
  CHECK(o.force_not_null == std::vector<std::string>{"a", "b"});
}

TEST_CASE("copy options: pgbench's freeze and booleans", "[copy][options]") {
  CHECK(Opts("copy pgbench_accounts from stdin with (freeze on)").freeze);
  CHECK(Opts("copy t from stdin (freeze)").freeze);
  CHECK_FALSE(Opts("copy t from stdin (freeze false)").freeze);
  CHECK(Opts("copy t from stdin (freeze 1)").freeze);
  CHECK(Opts("copy t from stdin freeze").freeze);
  Failure f = Fails("copy t from stdin (freeze maybe)");
  CHECK(f.sqlstate == "42601");
  CHECK(f.message == "freeze requires a Boolean value");
}

TEST_CASE("copy options: header match", "[copy][options]") {
  CHECK(Opts("copy t from stdin (format csv, header match)").header == CopyHeader::kMatch);
  CHECK(Opts("copy t from stdin (header match)").header == CopyHeader::kMatch);  // text too (PG15)
  CHECK(Opts("copy t from stdin (header off)").header == CopyHeader::kNone);
  Failure f = Fails("copy t to stdout (format csv, header match)");
  CHECK(f.sqlstate == "0A000");
  CHECK(f.message == "cannot use \"match\" with HEADER in COPY TO");
  f = Fails("copy t from stdin (header 2)");
  CHECK(f.sqlstate == "42601");
  CHECK(f.message == "header requires a Boolean value or \"match\"");
}

TEST_CASE("copy options: errors match PostgreSQL", "[copy][options]") {
  struct Case {
    const char* sql;
    const char* state;
    const char* message;
  };
  const Case cases[] = {
      {"copy t from stdin (delimiter '||')", "0A000", "COPY delimiter must be a single one-byte character"},
      {"copy t from stdin (delimiter '')", "0A000", "COPY delimiter must be a single one-byte character"},
      {"copy t from stdin (delimiter E'\\n')", "22023", "COPY delimiter cannot be newline or carriage return"},
      {"copy t from stdin (delimiter E'\\r')", "22023", "COPY delimiter cannot be newline or carriage return"},
      {"copy t from stdin (null E'a\\nb')", "22023", "COPY null representation cannot use newline or carriage return"},
      {"copy t from stdin (delimiter '\\')", "22023", "COPY delimiter cannot be \"\\\""},
      {"copy t from stdin (delimiter 'a')", "22023", "COPY delimiter cannot be \"a\""},
      {"copy t from stdin (delimiter '.')", "22023", "COPY delimiter cannot be \".\""},
      {"copy t from stdin (delimiter '5')", "22023", "COPY delimiter cannot be \"5\""},
      {"copy t from stdin (quote '\"')", "0A000", "COPY quote available only in CSV mode"},
      {"copy t from stdin (escape '\\')", "0A000", "COPY escape available only in CSV mode"},
      {"copy t from stdin (format csv, quote 'ab')", "0A000", "COPY quote must be a single one-byte character"},
      {"copy t from stdin (format csv, escape '')", "0A000", "COPY escape must be a single one-byte character"},
      {"copy t from stdin (format csv, delimiter '\"')", "22023", "COPY delimiter and quote must be different"},
      {"copy t to stdout (force_quote *)", "0A000", "COPY force quote available only in CSV mode"},
      {"copy t from stdin (format csv, force_quote (a))", "0A000", "COPY force quote only available using COPY TO"},
      {"copy t from stdin (force_not_null (a))", "0A000", "COPY force not null available only in CSV mode"},
      {"copy t to stdout (format csv, force_not_null (a))", "0A000",
       "COPY force not null only available using COPY FROM"},
      {"copy t from stdin (force_null (a))", "0A000", "COPY force null available only in CSV mode"},
      {"copy t to stdout (format csv, force_null (a))", "0A000", "COPY force null only available using COPY FROM"},
      {"copy t from stdin (delimiter ',', null 'a,b')", "0A000",
       "COPY delimiter must not appear in the NULL specification"},
      {"copy t from stdin (format csv, null '\"')", "0A000",
       "CSV quote character must not appear in the NULL specification"},
      {"copy t from stdin (format binary, delimiter ',')", "42601", "cannot specify DELIMITER in BINARY mode"},
      {"copy t from stdin (format binary, null 'x')", "42601", "cannot specify NULL in BINARY mode"},
      {"copy t from stdin (format binary, header)", "0A000", "cannot specify HEADER in BINARY mode"},
      {"copy t from stdin (format json)", "22023", "COPY format \"json\" not recognized"},
      {"copy t from stdin (format 'CSV')", "22023", "COPY format \"CSV\" not recognized"},
      {"copy t from stdin (format text, format csv)", "42601", "conflicting or redundant options"},
      {"copy t from stdin (delimiter ',', delimiter ';')", "42601", "conflicting or redundant options"},
      {"copy t from stdin (header, header false)", "42601", "conflicting or redundant options"},
      {"copy t from stdin (bogus 1)", "42601", "option \"bogus\" not recognized"},
      {"copy t from stdin (delimiter)", "42601", "delimiter requires a parameter"},
      {"copy t from stdin (encoding 'klingon')", "22023", "argument to option \"encoding\" must be a valid encoding name"},
      {"copy t from stdin (encoding 'LATIN1')", "0A000", "COPY encoding \"LATIN1\" is not supported yet"},
  };
  for (const Case& c : cases) {
    INFO(c.sql);
    Failure f = Fails(c.sql);
    CHECK(f.sqlstate == c.state);
    CHECK(f.message == c.message);
  }
}

TEST_CASE("copy options: positions point at the option", "[copy][options]") {
  Failure f = Fails("copy t from stdin (format text, format csv)");
  CHECK(f.position == 33);  // 1-based position of the second "format"
  f = Fails("copy t from stdin (bogus 1)");
  CHECK(f.position == 20);
  f = Fails("select 1; copy t from stdin (format json)");
  CHECK(f.position == 30);
}

TEST_CASE("copy options: encodings", "[copy][options]") {
  CHECK_NOTHROW(Opts("copy t from stdin (encoding 'UTF8')"));
  CHECK_NOTHROW(Opts("copy t from stdin (encoding 'utf-8')"));
  CHECK_NOTHROW(Opts("copy t from stdin encoding 'unicode'"));
}

TEST_CASE("copy options: force lists resolve to column flags", "[copy][options]") {
  CopyOptions o = Opts("copy t to stdout (format csv, force_quote (b))");
  CopyColumnFlags f = ResolveCopyColumnFlags(o, {"a", "b"}, {"a", "b", "c"}, "t");
  CHECK(f.force_quote == std::vector<bool>{false, true});

  o = Opts("copy t to stdout (format csv, force_quote *)");
  f = ResolveCopyColumnFlags(o, {"a", "b"}, {"a", "b"}, "t");
  CHECK(f.force_quote == std::vector<bool>{true, true});

  o = Opts("copy t from stdin (format csv, force_not_null (a), force_null (b))");
  f = ResolveCopyColumnFlags(o, {"a", "b"}, {"a", "b"}, "t");
  CHECK(f.force_not_null == std::vector<bool>{true, false});
  CHECK(f.force_null == std::vector<bool>{false, true});

  o = Opts("copy t from stdin (format csv, force_not_null (zz))");
  try {
    ResolveCopyColumnFlags(o, {"a"}, {"a", "c"}, "t");
    FAIL("expected an error");
  } catch (const DbError& e) {
    CHECK(e.sqlstate() == "42703");
    CHECK(e.message() == "column \"zz\" of relation \"t\" does not exist");
  }
  o = Opts("copy t from stdin (format csv, force_null (c))");
  try {
    ResolveCopyColumnFlags(o, {"a"}, {"a", "c"}, "t");
    FAIL("expected an error");
  } catch (const DbError& e) {
    CHECK(e.sqlstate() == "42P10");
    CHECK(e.message() == "FORCE_NULL column \"c\" not referenced by COPY");
  }
}
