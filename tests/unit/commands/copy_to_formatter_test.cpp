// Tests for commands/copy_to_formatter and for format → parse round trips.
#include <catch2/catch.hpp>

#include <random>

#include "commands/copy_row_converter.h"
#include "commands/copy_to_formatter.h"
#include "copy_test_util.h"
#include "utils/adt/value.h"

using namespace copytest;
using hearth::commands::CopyColumn;
using hearth::commands::CopyFields;
using hearth::commands::CopyFromParser;
using hearth::commands::CopyOptions;
using hearth::commands::CopyRowConverter;
using hearth::commands::CopyToFormatter;
namespace types = hearth::types;

namespace {

types::Value T(const std::string& s) { return types::Value::Text(s); }
types::Value Null() { return types::Value::Null(types::kTextOid); }

std::string Format(const CopyOptions& o, const std::vector<std::vector<types::Value>>& rows,
                   std::vector<bool> force = {}) {
  CopyToFormatter f(o, std::move(force));
  std::string out;
  for (const auto& r : rows) f.AppendRow(r, &out);
  return out;
}

}  // namespace

TEST_CASE("copy to text: escapes and NULL", "[copy][to]") {
  CopyOptions o = Options("copy t to stdout");
  std::string out = Format(o, {{types::Value::Int4(1), T("a\tb"), Null(), T("back\\slash"), T("nl\nx"), T("cr\r"),
                                T("\b\f\v"), T("\x01")}});
  CHECK(out == "1\ta\\tb\t\\N\tback\\\\slash\tnl\\nx\tcr\\r\t\\b\\f\\v\t\x01\n");
  // The text \N is escaped, so it does not read back as NULL.
  CHECK(Format(o, {{T("\\N")}}) == "\\\\N\n");
  CHECK(Format(o, {{types::Value::Bool(true), types::Value::Float8(1.5)}}) == "t\t1.5\n");
}

TEST_CASE("copy to text: custom delimiter and NULL", "[copy][to]") {
  CopyOptions o = Options("copy t to stdout (delimiter '|', null 'NULL')");
  CHECK(Format(o, {{T("a|b"), Null(), T("tab\there")}}) == "a\\|b|NULL|tab\\there\n");
}

TEST_CASE("copy to csv: quoting rules", "[copy][to]") {
  CopyOptions o = Options("copy t to stdout (format csv)");
  CHECK(Format(o, {{T("a,b"), T("q\"q"), T(""), Null(), T("plain"), T("line\nx"), T(" sp "), T("cr\r")}}) ==
        "\"a,b\",\"q\"\"q\",\"\",,plain,\"line\nx\", sp ,\"cr\r\"\n");
  // A lone \. is quoted only when it is the whole line.
  CHECK(Format(o, {{T("\\.")}}) == "\"\\.\"\n");
  CHECK(Format(o, {{T("\\."), T("x")}}) == "\\.,x\n");
  // FORCE_QUOTE quotes non-NULL values only.
  CHECK(Format(o, {{T("a"), T("b"), Null()}}, {true, false, true}) == "\"a\",b,\n");
}

TEST_CASE("copy to csv: NULL string and escape", "[copy][to]") {
  CopyOptions o = Options("copy t to stdout (format csv, null 'NULL', escape '\\')");
  CHECK(Format(o, {{T("NULL"), Null(), T(""), T("a\"b\\c"), T("x\\y")}}) ==
        "\"NULL\",NULL,,\"a\\\"b\\\\c\",x\\y\n");
}

TEST_CASE("copy to: header lines", "[copy][to]") {
  CopyOptions o = Options("copy t to stdout (format csv, header)");
  CopyToFormatter f(o, {true, true});
  std::string out;
  f.AppendHeader({"id", "a,b", "q\""}, &out);
  CHECK(out == "id,\"a,b\",\"q\"\"\"\n");  // names are never force-quoted
  CopyToFormatter t(Options("copy t to stdout (header)"));
  out.clear();
  t.AppendHeader({"id", "tab\tname"}, &out);
  CHECK(out == "id\ttab\\tname\n");
}

TEST_CASE("copy: random rows survive format then parse", "[copy][roundtrip]") {
  const char* const option_sets[] = {
      "copy t to stdout",
      "copy t to stdout (delimiter '|')",
      "copy t to stdout (null 'NULL')",
      "copy t to stdout (format csv)",
      "copy t to stdout (format csv, escape '\\')",
      "copy t to stdout (format csv, null 'NULL', delimiter ';', quote '''')",
  };
  // Bytes that stress escaping and quoting, plus a two-byte character.
  const std::vector<std::string> alphabet = {"a", "b",  "\t", "\n", "\r", "\\", "\"", ",", "N",
                                             " ", ".",  "|",  ";",  "'",  "\xc3\xa9", "0", "\b"};
  std::mt19937 rng(20261130);
  for (const char* sql : option_sets) {
    INFO(sql);
    CopyOptions out_opts = Options(sql);
    CopyOptions in_opts = out_opts;
    in_opts.is_from = true;
    for (int ncols = 1; ncols <= 3; ncols++) {
      std::vector<std::vector<types::Value>> rows;
      std::vector<Row> want;
      for (int r = 0; r < 60; r++) {
        std::vector<types::Value> row;
        Row w;
        for (int c = 0; c < ncols; c++) {
          if (rng() % 6 == 0) {
            row.push_back(Null());
            w.push_back(std::nullopt);
            continue;
          }
          std::string s;
          size_t len = rng() % 7;
          for (size_t k = 0; k < len; k++) s += alphabet[rng() % alphabet.size()];
          if (rng() % 10 == 0) s = "\\.";
          // The NULL string as text: CSV quotes it, text escapes a `\N`; a
          // text-format NULL string without a backslash is ambiguous (in
          // PostgreSQL too), so it is not generated there.
          if (rng() % 15 == 0 && (out_opts.csv() || out_opts.null_string[0] == '\\')) s = out_opts.null_string;
          row.push_back(T(s));
          w.push_back(s);
        }
        rows.push_back(std::move(row));
        want.push_back(std::move(w));
      }
      std::string data = Format(out_opts, rows);
      std::vector<std::string> cols = {"a", "b", "c"};
      cols.resize(static_cast<size_t>(ncols));
      CHECK(Parse(in_opts, cols, data) == want);
      // Random chunking.
      std::vector<std::string> chunks;
      for (size_t k = 0; k < data.size();) {
        size_t n = 1 + rng() % 13;
        chunks.push_back(data.substr(k, n));
        k += n;
      }
      CHECK(ParseChunks(in_opts, cols, chunks) == want);
    }
  }
}

TEST_CASE("copy: typed values round trip through the converter", "[copy][roundtrip]") {
  CopyOptions o = Options("copy t to stdout");
  std::vector<types::Value> row = {types::Value::Int4(-42), types::Value::Int8(1LL << 40), types::Value::Bool(false),
                                   types::Value::Float8(0.25), T("x\ty"), types::Value::Null(types::kInt4Oid)};
  std::string data = Format(o, {row});
  CopyOptions in = Options("copy t from stdin");
  CopyRowConverter conv({{"a", types::kInt4Oid, -1},
                         {"b", types::kInt8Oid, -1},
                         {"c", types::kBoolOid, -1},
                         {"d", types::kFloat8Oid, -1},
                         {"e", types::kTextOid, -1},
                         {"f", types::kInt4Oid, -1}});
  CopyFromParser p(in, "t", conv.Names());
  p.Feed(data);
  CopyFields f;
  REQUIRE(p.NextRow(&f));
  std::vector<types::Value> back;
  conv.Convert(f, p, &back);
  REQUIRE(back.size() == row.size());
  CHECK(back[0].type == types::kInt4Oid);
  CHECK(back[0].i == -42);
  CHECK(back[1].i == (1LL << 40));
  CHECK(back[2].b == false);
  CHECK(back[3].f == 0.25);
  CHECK(back[4].str == "x\ty");
  CHECK(back[5].is_null);
  CHECK(back[5].type == types::kInt4Oid);
}

TEST_CASE("copy: conversion errors name line and column", "[copy][convert]") {
  CopyOptions in = Options("copy t from stdin");
  CopyRowConverter conv({{"a", types::kInt4Oid, -1}, {"b", types::kVarcharOid, 4 + 3}});
  auto run = [&](const std::string& data) -> Error {
    CopyFromParser p(in, "t", conv.Names());
    p.Feed(data);
    p.Finish();
    CopyFields f;
    std::vector<types::Value> row;
    try {
      while (p.NextRow(&f)) conv.Convert(f, p, &row);
    } catch (const hearth::DbError& e) {
      return {e.sqlstate(), e.message(), e.context(), e.hint(), true};
    }
    return {};
  };
  Error e = run("1\tabc\nabc\tx\n");
  REQUIRE(e.thrown);
  CHECK(e.sqlstate == "22P02");
  CHECK(e.message == "invalid input syntax for type integer: \"abc\"");
  CHECK(e.context == "COPY t, line 2, column a: \"abc\"");

  e = run("1\tabcd\n");
  REQUIRE(e.thrown);
  CHECK(e.sqlstate == "22001");
  CHECK(e.context == "COPY t, line 1, column b: \"abcd\"");

  e = run("99999999999\tx\n");
  CHECK(e.sqlstate == "22003");
  CHECK(e.context == "COPY t, line 1, column a: \"99999999999\"");

  std::string long_value(150, '7');
  e = run(long_value + "\tx\n");
  CHECK(e.sqlstate == "22003");
  CHECK(e.context == "COPY t, line 1, column a: \"" + std::string(100, '7') + "...\"");
}
