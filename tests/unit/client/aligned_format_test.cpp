// psql-style table output. Every expected string below was produced by
// psql 15.18 (psql -X -c ...) against PostgreSQL 15 for the same columns/rows.
#include <catch2/catch.hpp>

#include "client/shell/aligned_format.h"

using hearth::client::Column;
using hearth::client::DisplayWidth;
using hearth::client::FormatTable;
using hearth::client::PrintOptions;
using hearth::client::Result;
using hearth::client::Row;

namespace {

constexpr uint32_t kInt4 = 23;
constexpr uint32_t kText = 25;
constexpr uint32_t kNumeric = 1700;

Result Make(std::vector<std::pair<std::string, uint32_t>> cols, std::vector<Row> rows) {
  Result r;
  r.has_columns = true;
  for (auto& [name, oid] : cols) {
    Column c;
    c.name = name;
    c.type_oid = oid;
    r.columns.push_back(c);
  }
  r.rows = std::move(rows);
  return r;
}

std::string Render(const Result& r, PrintOptions opts = {}) {
  std::string out;
  FormatTable(r, opts, &out);
  return out;
}

}  // namespace

TEST_CASE("aligned: centered header, numeric right, text left, NULL empty", "[client][format]") {
  // select 12345 as x, 'a' as yyyy, 1.5::numeric as z union all select 1, 'bbbbbbbbbbbbb', null
  Result r = Make({{"x", kInt4}, {"yyyy", kText}, {"z", kNumeric}},
                  {{"12345", "a", "1.5"}, {"1", "bbbbbbbbbbbbb", std::nullopt}});
  CHECK(Render(r) ==
        "   x   |     yyyy      |  z  \n"
        "-------+---------------+-----\n"
        " 12345 | a             | 1.5\n"
        "     1 | bbbbbbbbbbbbb |    \n"
        "(2 rows)\n"
        "\n");
}

TEST_CASE("aligned: last text column is not padded, header is", "[client][format]") {
  // select 1 as a, 'xyz'::text as longheader, null as n
  Result r = Make({{"a", kInt4}, {"longheader", kText}, {"n", kText}}, {{"1", "xyz", std::nullopt}});
  CHECK(Render(r) ==
        " a | longheader | n \n"
        "---+------------+---\n"
        " 1 | xyz        | \n"
        "(1 row)\n"
        "\n");
}

TEST_CASE("aligned: zero rows and zero columns", "[client][format]") {
  CHECK(Render(Make({{"a", kInt4}}, {})) == " a \n---\n(0 rows)\n\n");
  // select  (no target list): psql prints only the rule.
  Result none = Make({}, {Row{}});
  CHECK(Render(none) == "--\n(1 row)\n\n");
}

TEST_CASE("aligned: values with newlines get '+' continuation markers", "[client][format]") {
  // select 'a\nb' as ml, 'c\nd\ne' as n, 1 as k
  Result r = Make({{"ml", kText}, {"n", kText}, {"k", kInt4}}, {{"a\nb", "c\nd\ne", "1"}});
  CHECK(Render(r) ==
        " ml | n | k \n"
        "----+---+---\n"
        " a +| c+| 1\n"
        " b  | d+| \n"
        "    | e | \n"
        "(1 row)\n"
        "\n");
  // select 'x' as a, 'a\nbc' as b: continuation in the last column.
  Result last = Make({{"a", kText}, {"b", kText}}, {{"x", "a\nbc"}});
  CHECK(Render(last) ==
        " a | b  \n"
        "---+----\n"
        " x | a +\n"
        "   | bc\n"
        "(1 row)\n"
        "\n");
}

TEST_CASE("aligned: display width of UTF-8 and tabs", "[client][format]") {
  CHECK(DisplayWidth("héllo") == 5);
  CHECK(DisplayWidth("日本") == 4);
  CHECK(DisplayWidth("") == 0);
  // select 'héllo' as h, 'x' as ü
  Result r = Make({{"h", kText}, {"\xc3\xbc", kText}}, {{"h\xc3\xa9llo", "x"}});
  CHECK(Render(r) ==
        "   h   | \xc3\xbc \n"
        "-------+---\n"
        " h\xc3\xa9llo | x\n"
        "(1 row)\n"
        "\n");
  // select 'a<TAB>b' as tab: tabs expand to 8-column stops.
  Result tab = Make({{"tab", kText}}, {{"a\tb"}});
  CHECK(Render(tab) ==
        "    tab    \n"
        "-----------\n"
        " a       b\n"
        "(1 row)\n"
        "\n");
}

TEST_CASE("tuples only and unaligned modes", "[client][format]") {
  Result r = Make({{"a", kInt4}, {"b", kText}}, {{"1", "b"}});
  PrintOptions t;
  t.tuples_only = true;
  CHECK(Render(r, t) == " 1 | b\n\n");
  // -t still sizes columns by their (hidden) headers: select 2 → "?column?".
  Result wide = Make({{"?column?", kInt4}}, {{"2"}});
  CHECK(Render(wide, t) == "        2\n\n");

  PrintOptions a;
  a.format = PrintOptions::Format::kUnaligned;
  Result u = Make({{"a", kInt4}, {"b", kText}, {"c", kText}}, {{"1", std::nullopt, "x\ny"}});
  CHECK(Render(u, a) == "a|b|c\n1||x\ny\n(1 row)\n");
  CHECK(Render(Make({{"?column?", kInt4}}, {}), a) == "?column?\n(0 rows)\n");
  a.tuples_only = true;
  CHECK(Render(r, a) == "1|b\n");
}

TEST_CASE("numeric type OIDs are right-aligned", "[client][format]") {
  for (uint32_t oid : {20u, 21u, 23u, 26u, 700u, 701u, 1700u}) CHECK(hearth::client::IsNumericTypeOid(oid));
  for (uint32_t oid : {16u, 25u, 1043u, 1082u, 1114u}) CHECK_FALSE(hearth::client::IsNumericTypeOid(oid));
}

TEST_CASE("Result::AffectedRows reads the tag's trailing count", "[client][result]") {
  Result r;
  r.command_tag = "INSERT 0 17";
  CHECK(r.AffectedRows() == 17);
  r.command_tag = "SELECT 3";
  CHECK(r.AffectedRows() == 3);
  r.command_tag = "CREATE TABLE";
  CHECK(r.AffectedRows() == 0);
}
