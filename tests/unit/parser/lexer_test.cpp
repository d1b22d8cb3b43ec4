// tests/unit/parser/lexer_test.cpp: tokenizer rules.
#include "parser/lexer.h"

#include "test_util.h"

namespace hearth::parser {
namespace {

std::vector<Token> Lex(std::string_view sql) { return Tokenize(sql); }

TEST_CASE("lexer: identifiers fold case, quoted identifiers do not", "[parser][lexer]") {
  auto t = Lex("SeLeCt \"MiXed\"\"Q\" abc_1$x");
  REQUIRE(t.size() == 4);
  CHECK(t[0].type == TokenType::kIdent);
  CHECK(t[0].text == "select");
  CHECK(t[1].type == TokenType::kQuotedIdent);
  CHECK(t[1].text == "MiXed\"Q");
  CHECK(t[2].text == "abc_1$x");
  CHECK(t[3].type == TokenType::kEnd);
  CHECK(t[3].offset == 25);
}

TEST_CASE("lexer: long identifiers are truncated to 63 bytes", "[parser][lexer]") {
  std::string name(70, 'a');
  auto t = Lex(name);
  CHECK(t[0].text.size() == 63);
}

TEST_CASE("lexer: string literals", "[parser][lexer]") {
  auto t = Lex("'it''s' 'a\\b'");
  CHECK(t[0].type == TokenType::kString);
  CHECK(t[0].text == "it's");
  CHECK(t[1].text == "a\\b");  // standard_conforming_strings: backslash is literal
  CHECK(t[0].offset == 0);
  CHECK(t[0].end == 7);
}

TEST_CASE("lexer: adjacent literals continue across a newline only", "[parser][lexer]") {
  auto t = Lex("'foo'\n  'bar'");
  REQUIRE(t.size() == 2);
  CHECK(t[0].text == "foobar");
  auto same_line = Lex("'foo' 'bar'");
  REQUIRE(same_line.size() == 3);
  CHECK(same_line[0].text == "foo");
  CHECK(same_line[1].text == "bar");
}

TEST_CASE("lexer: E strings decode backslash escapes", "[parser][lexer]") {
  auto t = Lex(R"(E'a\nb\t\\\'c\101\x41\u00e9' e'x''y')");
  REQUIRE(t.size() == 3);
  CHECK(t[0].text == "a\nb\t\\'cAA\xc3\xa9");
  CHECK(t[1].text == "x'y");
}

TEST_CASE("lexer: dollar quoting", "[parser][lexer]") {
  auto t = Lex("$$it's $1$$ $tag$a$$b$tag$");
  REQUIRE(t.size() == 3);
  CHECK(t[0].type == TokenType::kString);
  CHECK(t[0].text == "it's $1");
  CHECK(t[1].text == "a$$b");
}

TEST_CASE("lexer: numbers", "[parser][lexer]") {
  auto t = Lex("1 1.5 .5 1e10 1.5E-3 5.");
  CHECK(t[0].type == TokenType::kInteger);
  CHECK(t[0].text == "1");
  for (int i = 1; i <= 5; ++i) CHECK(t[i].type == TokenType::kNumeric);
  CHECK(t[1].text == "1.5");
  CHECK(t[2].text == ".5");
  CHECK(t[3].text == "1e10");
  CHECK(t[4].text == "1.5E-3");
  CHECK(t[5].text == "5.");
}

TEST_CASE("lexer: parameters", "[parser][lexer]") {
  auto t = Lex("$1 + $23");
  CHECK(t[0].type == TokenType::kParam);
  CHECK(t[0].param == 1);
  CHECK(t[2].param == 23);
}

TEST_CASE("lexer: operators", "[parser][lexer]") {
  auto t = Lex("a<=b >= <> != || :: ~~ !~ a=-1 @> ~* (x)[1].y;");
  std::vector<std::string> ops;
  for (const Token& k : t) {
    if (k.type == TokenType::kOp) ops.push_back(k.text);
  }
  std::vector<std::string> want = {"<=", ">=", "<>", "<>", "||", "::", "~~", "!~", "=", "-",
                                   "@>", "~*", "(", ")", "[", "]", ".", ";"};
  CHECK(ops == want);
}

TEST_CASE("lexer: comments, including nested block comments", "[parser][lexer]") {
  auto t = Lex("a -- comment\n/* outer /* inner */ still */ b");
  REQUIRE(t.size() == 3);
  CHECK(t[0].text == "a");
  CHECK(t[1].text == "b");
  CHECK(t[1].offset == 43);
}

TEST_CASE("lexer: an operator stops at a comment start", "[parser][lexer]") {
  auto t = Lex("a +-- c\n b");
  REQUIRE(t.size() == 4);
  CHECK(t[1].text == "+");
}

TEST_CASE("lexer: char positions count characters, not bytes", "[parser][lexer]") {
  std::string s = "'\xc3\xa9' x";  // 'é' x
  CHECK(CharPosition(s, 5) == 5);
  CHECK(CharPosition(s, 0) == 1);
}

}  // namespace
}  // namespace hearth::parser
