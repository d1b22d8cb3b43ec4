// Tests for commands/copy_from_parser: text and CSV input, fed in every
// possible chunking, with PostgreSQL's results and errors.
#include <catch2/catch.hpp>

#include "copy_test_util.h"

using namespace copytest;
using hearth::commands::CopyColumnFlags;
using hearth::commands::CopyFields;
using hearth::commands::CopyFromParser;
using hearth::commands::CopyOptions;

namespace {

const std::vector<std::string> kAB = {"a", "b"};
const std::vector<std::string> kABC = {"a", "b", "c"};

Row R(std::initializer_list<std::optional<std::string>> l) { return Row(l); }
const std::optional<std::string> kNull = std::nullopt;

// Parses `input` whole and in every chunking; all must agree with `want`.
void CheckAllSplits(const CopyOptions& o, const std::vector<std::string>& cols, const std::string& input,
                    const std::vector<Row>& want, CopyColumnFlags flags = {}) {
  REQUIRE(Parse(o, cols, input, flags) == want);
  for (const auto& chunks : Splits(input)) {
    INFO("first chunk: " << (chunks.empty() ? 0 : chunks[0].size()) << " bytes of " << input.size() << ", chunks "
                          << chunks.size());
    CHECK(ParseChunks(o, cols, chunks, flags) == want);
  }
}

// The error must be the same whatever the chunking.
Error CheckErrorAllSplits(const CopyOptions& o, const std::vector<std::string>& cols, const std::string& input) {
  Error e = ErrorOfChunks(o, cols, {input});
  REQUIRE(e.thrown);
  for (const auto& chunks : Splits(input)) {
    Error e2 = ErrorOfChunks(o, cols, chunks);
    INFO("first chunk: " << (chunks.empty() ? 0 : chunks[0].size()) << " bytes, chunks " << chunks.size());
    CHECK(e2.thrown);
    CHECK(e2.sqlstate == e.sqlstate);
    CHECK(e2.message == e.message);
    CHECK(e2.context == e.context);
  }
  return e;
}

}  // namespace

TEST_CASE("copy text: fields, NULL and empty strings", "[copy][text]") {
  CopyOptions o = Options("copy t from stdin");
  CheckAllSplits(o, kABC, "1\tabc\t\\N\n2\t\\\\N\t\n", {R({"1", "abc", kNull}), R({"2", "\\N", ""})});
  // \N is NULL only as the whole field.
  CheckAllSplits(o, kAB, "a\\N\t\\Nb\n", {R({"aN", "Nb"})});
}

TEST_CASE("copy text: escapes", "[copy][text]") {
  CopyOptions o = Options("copy t from stdin");
  CheckAllSplits(o, {"a"}, "\\b\\f\\n\\r\\t\\v\n", {R({"\b\f\n\r\t\v"})});
  CheckAllSplits(o, kABC, "\\101\\x41\\x4g\t\\xg\\q\\7\t\\1234\\\\\n",
                 {R({"AA\x04g", "xgq\x07", "S4\\"})});
  // Backslash-delimiter is a data tab; backslash-newline a data newline.
  CheckAllSplits(o, kAB, "x\\\ty\tz\\\nw\n", {R({"x\ty", "z\nw"})});
  // Escaped UTF-8 bytes are fine when they form valid UTF-8.
  CheckAllSplits(o, {"a"}, "caf\\xc3\\xa9 caf\xc3\xa9\n", {R({"caf\xc3\xa9 caf\xc3\xa9"})});
}

TEST_CASE("copy text: custom delimiter and NULL string", "[copy][text]") {
  CopyOptions o = Options("copy t from stdin (delimiter '|', null 'NULL')");
  CheckAllSplits(o, kABC, "NULL|\\N|a\\|b\n\\NULL|x\ty|\n", {R({kNull, "N", "a|b"}), R({"NULL", "x\ty", ""})});
}

TEST_CASE("copy text: end marker as its own chunk (pgbench)", "[copy][text]") {
  CopyOptions o = Options("copy pgbench_accounts from stdin with (freeze on)");
  const std::vector<std::string> cols = {"aid", "bid", "abalance", "filler"};
  CopyFromParser p(o, "pgbench_accounts", cols);
  std::vector<Row> rows;
  for (const char* chunk : {"1\t1\t0\t\n", "2\t1\t0\t\n", "\\.\n", "junk that is ignored\n"}) {
    p.Feed(chunk);
    Collect(p, &rows);
  }
  CHECK(p.done());
  p.Finish();
  Collect(p, &rows);
  REQUIRE(rows.size() == 2);
  CHECK(rows[1] == R({"2", "1", "0", ""}));
  CHECK(p.line_number() == 3);
}

TEST_CASE("copy text: end marker, data before it and after it", "[copy][text]") {
  CopyOptions o = Options("copy t from stdin");
  CheckAllSplits(o, kAB, "1\t2\n\\.\n3\t4\n", {R({"1", "2"})});
  // PostgreSQL 15 ends the data at `\.` even mid-line; what precedes is a row.
  CheckAllSplits(o, kAB, "1\t2\n3\t4\\.\nrest", {R({"1", "2"}), R({"3", "4"})});
  // `\.` at the very end (no newline) ends the data too.
  CheckAllSplits(o, kAB, "1\t2\n\\.", {R({"1", "2"})});
  // `\\.` is a backslash and a dot.
  CheckAllSplits(o, {"a"}, "\\\\.\n", {R({"\\."})});
  // A last line without a newline is a row.
  CheckAllSplits(o, kAB, "1\t2\n3\t4", {R({"1", "2"}), R({"3", "4"})});
  CheckAllSplits(o, kAB, "", {});
}

TEST_CASE("copy text: CRLF and CR line endings", "[copy][text]") {
  CopyOptions o = Options("copy t from stdin");
  CheckAllSplits(o, kAB, "a\tb\r\nc\td\r\n\\.\r\n", {R({"a", "b"}), R({"c", "d"})});
  CheckAllSplits(o, kAB, "a\tb\r\nc\td", {R({"a", "b"}), R({"c", "d"})});
  CheckAllSplits(o, kAB, "a\tb\rc\td\r\\.\r", {R({"a", "b"}), R({"c", "d"})});
  CheckAllSplits(o, kAB, "a\\\r\tb\\\n\r\n", {R({"a\r", "b\n"})});
}

TEST_CASE("copy text: line-ending errors", "[copy][text][errors]") {
  CopyOptions o = Options("copy t from stdin");
  Error e = CheckErrorAllSplits(o, kAB, "a\tb\nc\td\r\n");
  CHECK(e.sqlstate == "22P04");
  CHECK(e.message == "literal carriage return found in data");
  CHECK(e.hint == "Use \"\\r\" to represent carriage return.");
  CHECK(e.context == "COPY t, line 2");

  e = CheckErrorAllSplits(o, kAB, "a\tb\r\nc\td\n");
  CHECK(e.message == "literal newline found in data");
  CHECK(e.hint == "Use \"\\n\" to represent newline.");
  CHECK(e.context == "COPY t, line 2");

  e = CheckErrorAllSplits(o, kAB, "a\tb\r\nc\td\re\tf\r\n");
  CHECK(e.message == "literal carriage return found in data");
  CHECK(e.context == "COPY t, line 2");

  e = CheckErrorAllSplits(o, kAB, "a\tb\n\\.x\n");
  CHECK(e.sqlstate == "22P04");
  CHECK(e.message == "end-of-copy marker corrupt");
  CHECK(e.context == "COPY t, line 2");

  e = CheckErrorAllSplits(o, kAB, "a\tb\r\n\\.\n");
  CHECK(e.message == "end-of-copy marker does not match previous newline style");
  e = CheckErrorAllSplits(o, kAB, "a\tb\n\\.\r\n");
  CHECK(e.message == "end-of-copy marker does not match previous newline style");
}

TEST_CASE("copy text: field count errors carry the line", "[copy][text][errors]") {
  CopyOptions o = Options("copy t from stdin");
  Error e = CheckErrorAllSplits(o, kAB, "1\t2\n3\t4\n5\t6\t7\n8\t9\n");
  CHECK(e.sqlstate == "22P04");
  CHECK(e.message == "extra data after last expected column");
  CHECK(e.context == "COPY t, line 3: \"5\t6\t7\"");

  e = CheckErrorAllSplits(o, kABC, "1\t2\t3\n4\t5\n");
  CHECK(e.sqlstate == "22P04");
  CHECK(e.message == "missing data for column \"c\"");
  CHECK(e.context == "COPY t, line 2: \"4\t5\"");

  e = CheckErrorAllSplits(o, kAB, "\n");
  CHECK(e.message == "missing data for column \"b\"");
  CHECK(e.context == "COPY t, line 1: \"\"");

  // Long lines are cut to 100 bytes in the context.
  std::string long_line(150, 'x');
  e = ErrorOfChunks(o, kAB, {long_line + "\n"});
  CHECK(e.context == "COPY t, line 1: \"" + std::string(100, 'x') + "...\"");
}

TEST_CASE("copy: zero columns accept only empty lines", "[copy][text]") {
  CopyOptions o = Options("copy t from stdin");
  std::vector<Row> rows = Parse(o, {}, "\n\n");
  CHECK(rows.size() == 2);
  Error e = ErrorOfChunks(o, {}, {"\nx\n"});
  CHECK(e.message == "extra data after last expected column");
  CHECK(e.context == "COPY t, line 2: \"x\"");
}

TEST_CASE("copy: invalid UTF-8 is 22021 with the line", "[copy][encoding]") {
  CopyOptions o = Options("copy t from stdin");
  Error e = CheckErrorAllSplits(o, {"a"}, "ok\n\xff\n");
  CHECK(e.sqlstate == "22021");
  CHECK(e.message == "invalid byte sequence for encoding \"UTF8\": 0xff");
  CHECK(e.context == "COPY t, line 2");

  e = CheckErrorAllSplits(o, {"a"}, "a\xc3(b\n");
  CHECK(e.message == "invalid byte sequence for encoding \"UTF8\": 0xc3 0x28");
  e = CheckErrorAllSplits(o, {"a"}, "\xed\xa0\x80\n");  // a surrogate
  CHECK(e.message == "invalid byte sequence for encoding \"UTF8\": 0xed 0xa0 0x80");
  e = CheckErrorAllSplits(o, {"a"}, "x\xe2\x82");  // truncated at the end of the data
  CHECK(e.message == "invalid byte sequence for encoding \"UTF8\": 0xe2 0x82");

  // Bytes made by escapes are checked too; then the line is shown.
  e = CheckErrorAllSplits(o, {"a"}, "ok\n\\xff\n");
  CHECK(e.sqlstate == "22021");
  CHECK(e.message == "invalid byte sequence for encoding \"UTF8\": 0xff");
  CHECK(e.context == "COPY t, line 2: \"\\xff\"");
  e = CheckErrorAllSplits(o, {"a"}, "a\\0b\n");
  CHECK(e.message == "invalid byte sequence for encoding \"UTF8\": 0x00");

  CopyOptions csv = Options("copy t from stdin (format csv)");
  e = CheckErrorAllSplits(csv, {"a"}, "\"x\n\xc0\x80\"\n");
  CHECK(e.message == "invalid byte sequence for encoding \"UTF8\": 0xc0 0x80");
}

TEST_CASE("copy csv: quoting, doubled quotes, NULL", "[copy][csv]") {
  CopyOptions o = Options("copy t from stdin (format csv)");
  CheckAllSplits(o, kABC, "1,\"a,b\",\"\"\n2,,\"x\"\"y\"\n", {R({"1", "a,b", ""}), R({"2", kNull, "x\"y"})});
  // Mixed quoted and unquoted parts; spaces are data.
  CheckAllSplits(o, kAB, "ab\"c,d\"e, x \n", {R({"abc,de", " x "})});
  // Backslash is ordinary in CSV.
  CheckAllSplits(o, kAB, "a\\tb,\\N\n", {R({"a\\tb", "\\N"})});
}

TEST_CASE("copy csv: embedded newlines and line numbers", "[copy][csv]") {
  CopyOptions o = Options("copy t from stdin (format csv)");
  CheckAllSplits(o, kAB, "1,\"line1\nline2\"\n2,\"a\r\nb\"\n", {R({"1", "line1\nline2"}), R({"2", "a\r\nb"})});

  Error e = CheckErrorAllSplits(o, kAB, "0,x\n1,\"a\nb\"\n2,y,z\n");
  CHECK(e.message == "extra data after last expected column");
  CHECK(e.context == "COPY t, line 4: \"2,y,z\"");

  CopyFromParser p(o, "t", kAB);
  p.Feed("0,x\n1,\"a\nb\nc\"\n");
  CopyFields f;
  REQUIRE(p.NextRow(&f));
  CHECK(p.line_number() == 1);
  REQUIRE(p.NextRow(&f));
  CHECK(p.line_number() == 4);  // the record ends on line 4
  CHECK(std::string(*f[1]) == "a\nb\nc");
}

TEST_CASE("copy csv: CRLF input", "[copy][csv]") {
  CopyOptions o = Options("copy t from stdin (format csv)");
  CheckAllSplits(o, kAB, "a,b\r\n\"c\r\n\",d\r\n\\.\r\n", {R({"a", "b"}), R({"c\r\n", "d"})});
  Error e = CheckErrorAllSplits(o, kAB, "a,b\r\nc,d\n");
  CHECK(e.message == "unquoted newline found in data");
  CHECK(e.hint == "Use quoted CSV field to represent newline.");
  e = CheckErrorAllSplits(o, kAB, "a,b\nc\r,d\n");
  CHECK(e.message == "unquoted carriage return found in data");
  CHECK(e.hint == "Use quoted CSV field to represent carriage return.");
}

TEST_CASE("copy csv: unterminated quoted field", "[copy][csv][errors]") {
  CopyOptions o = Options("copy t from stdin (format csv)");
  Error e = CheckErrorAllSplits(o, kAB, "0,x\n1,\"abc\n");
  CHECK(e.sqlstate == "22P04");
  CHECK(e.message == "unterminated CSV quoted field");
  CHECK(e.context == "COPY t, line 3: \"1,\"abc\n\"");
}

TEST_CASE("copy csv: end marker only alone on a line", "[copy][csv]") {
  CopyOptions o = Options("copy t from stdin (format csv)");
  CheckAllSplits(o, kAB, "1,2\n\\.\n3,4\n", {R({"1", "2"})});
  CheckAllSplits(o, kAB, "\\.,x\nx,\\.\n", {R({"\\.", "x"}), R({"x", "\\."})});
  CheckAllSplits(o, {"a"}, "\"\\.\"\n", {R({"\\."})});
}

TEST_CASE("copy csv: escape character other than the quote", "[copy][csv]") {
  CopyOptions o = Options("copy t from stdin (format csv, escape '\\')");
  CheckAllSplits(o, kABC, "\"a\\\"b\",\"c\\\\d\",\"e\\f\"\n", {R({"a\"b", "c\\d", "e\\f"})});
  // The escaped quote does not end the quoted part, so the comma is data.
  CheckAllSplits(o, kAB, "\"x\\\",y\",z\n", {R({"x\",y", "z"})});
}

TEST_CASE("copy csv: NULL string, FORCE_NULL, FORCE_NOT_NULL", "[copy][csv]") {
  CopyOptions o = Options("copy t from stdin (format csv, null 'NULL')");
  CheckAllSplits(o, kABC, "NULL,\"NULL\",\n", {R({kNull, "NULL", ""})});

  o = Options("copy t from stdin (format csv, force_null (b), force_not_null (a))");
  CopyColumnFlags flags = hearth::commands::ResolveCopyColumnFlags(o, kABC, kABC, "t");
  CheckAllSplits(o, kABC, ",\"\",\n", {R({"", kNull, kNull})}, flags);
}

TEST_CASE("copy: HEADER skips the first line", "[copy][header]") {
  CopyOptions o = Options("copy t from stdin (format csv, header)");
  CopyFromParser p(o, "t", kAB);
  p.Feed("x,y\n1,2\n");
  CopyFields f;
  REQUIRE(p.NextRow(&f));
  CHECK(std::string(*f[0]) == "1");
  CHECK(p.line_number() == 2);
  CheckAllSplits(Options("copy t from stdin (header true)"), kAB, "a\tb\n1\t2\n", {R({"1", "2"})});
}

TEST_CASE("copy: HEADER MATCH checks the names", "[copy][header]") {
  CopyOptions o = Options("copy t from stdin (format csv, header match)");
  CheckAllSplits(o, kAB, "a,b\n1,x\n", {R({"1", "x"})});
  Error e = CheckErrorAllSplits(o, kAB, "a,c\n");
  CHECK(e.sqlstate == "22P04");
  CHECK(e.message == "column name mismatch in header line field 2: got \"c\", expected \"b\"");
  CHECK(e.context == "COPY t, line 1: \"a,c\"");
  e = CheckErrorAllSplits(o, kAB, "a\n");
  CHECK(e.message == "wrong number of fields in header line: got 1, expected 2");
  e = CheckErrorAllSplits(o, kAB, ",b\n");
  CHECK(e.message == "column name mismatch in header line field 1: got null value (\"\"), expected \"a\"");
}

TEST_CASE("copy: column context text", "[copy]") {
  CopyOptions o = Options("copy t from stdin");
  CopyFromParser p(o, "t", kAB);
  p.Feed("1\t2\n");
  CopyFields f;
  REQUIRE(p.NextRow(&f));
  CHECK(p.ColumnContext(1, std::string_view("2")) == "COPY t, line 1, column b: \"2\"");
  CHECK(p.ColumnContext(0, std::nullopt) == "COPY t, line 1, column a: null input");
}

TEST_CASE("copy: many lines keep their numbers", "[copy]") {
  CopyOptions o = Options("copy t from stdin");
  std::string input;
  for (int i = 1; i <= 1000; i++) input += std::to_string(i) + "\tx\n";
  input += "bad\n";
  CopyFromParser p(o, "t", kAB);
  std::vector<Row> rows;
  // Feed in 7-byte pieces, as a client might.
  try {
    for (size_t k = 0; k < input.size(); k += 7) {
      p.Feed(input.substr(k, 7));
      Collect(p, &rows);
    }
    FAIL("expected an error");
  } catch (const hearth::DbError& e) {
    CHECK(e.message() == "missing data for column \"b\"");
    CHECK(e.context() == "COPY t, line 1001: \"bad\"");
  }
  REQUIRE(rows.size() == 1000);
  CHECK(rows[999] == R({"1000", "x"}));
}

TEST_CASE("copy text: long lines with escapes at every distance from a delimiter", "[copy][text]") {
  CopyOptions o = Options("copy t from stdin");
  // Fields longer than the inline scan, escapes at every distance from the
  // delimiter, and an escaped newline inside a field.
  std::string a, want_a;
  for (int i = 0; i < 300; ++i) {
    a += std::string(static_cast<size_t>(i % 23), 'x') + "\\\\";
    want_a += std::string(static_cast<size_t>(i % 23), 'x') + "\\";
  }
  const std::string b = std::string(40, 'y') + "\\\nz" + std::string(17, 'w');
  const std::string want_b = std::string(40, 'y') + "\nz" + std::string(17, 'w');
  const std::string input = a + "\t" + b + "\n" + "short\t\\N\n";
  REQUIRE(Parse(o, kAB, input) == std::vector<Row>{R({want_a, want_b}), R({"short", kNull})});
  // The same fed in two chunks at every boundary inside the escapes.
  for (size_t cut = 1; cut < input.size(); cut += 97) {
    CHECK(ParseChunks(o, kAB, {input.substr(0, cut), input.substr(cut)}) ==
          std::vector<Row>{R({want_a, want_b}), R({"short", kNull})});
  }
}
