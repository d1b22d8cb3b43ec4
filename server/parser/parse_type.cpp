// server/parser/parse_type.cpp
//
// Type names: SQL-standard spellings are mapped to PostgreSQL's internal
// names (integer → int4, double precision → float8, character varying →
// varchar, timestamp with time zone → timestamptz, ...); other names are
// kept as written.
#include <cstdlib>
#include <string_view>
#include <unordered_set>

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "parser/parser_internal.h"

namespace hearth::parser {

bool Parser::IsSqlTypeKeyword(const Token& t) const {
  if (t.type != TokenType::kIdent) return false;
  // Asked for most words of every statement: one hash lookup.
  static const std::unordered_set<std::string_view> kWords = {
      "int",     "integer", "smallint",  "bigint",  "real",  "float",    "double", "decimal",   "dec",  "numeric",
      "boolean", "char",    "character", "varchar", "nchar", "national", "bit",    "timestamp", "time", "interval"};
  return kWords.count(t.text) > 0;
}

std::vector<int32_t> Parser::ParseTypmods() {
  std::vector<int32_t> out;
  if (!AcceptOp("(")) return out;
  do {
    bool negative = AcceptOp("-");
    if (Cur().type != TokenType::kInteger) SyntaxError();
    long v = std::strtol(Cur().text.c_str(), nullptr, 10);
    if (v > INT32_MAX) v = INT32_MAX;
    out.push_back(static_cast<int32_t>(negative ? -v : v));
    Advance();
  } while (AcceptOp(","));
  ExpectOp(")");
  return out;
}

void Parser::ParseArrayBounds(TypeName& t) {
  for (;;) {
    if (IsOp("[")) {
      Advance();
      if (Cur().type == TokenType::kInteger) Advance();
      ExpectOp("]");
    } else if (IsKw("array")) {
      Advance();
      if (IsOp("[")) {
        Advance();
        if (Cur().type == TokenType::kInteger) Advance();
        ExpectOp("]");
      }
    } else {
      return;
    }
    t.is_array = true;
    ++t.array_dims;
  }
}

TypeName Parser::ParseTypeName() {
  TypeName t;
  t.location = Loc();
  const Token& tok = Cur();
  const std::string w = tok.type == TokenType::kIdent ? tok.text : std::string();
  if (w == "double" && PeekKw(1, "precision")) {
    Advance();
    Advance();
    t.name = "float8";
  } else if (w == "int" || w == "integer") {
    Advance();
    t.name = "int4";
  } else if (w == "smallint") {
    Advance();
    t.name = "int2";
  } else if (w == "bigint") {
    Advance();
    t.name = "int8";
  } else if (w == "real") {
    Advance();
    t.name = "float4";
  } else if (w == "float") {
    Advance();
    t.name = "float8";
    int loc = Loc();
    std::vector<int32_t> p = ParseTypmods();
    if (!p.empty()) {
      if (p.size() != 1) SyntaxError();
      if (p[0] < 1) {
        ErrorAt(sqlstate::kInvalidParameterValue, "precision for type float must be at least 1 bit",
                loc);
      }
      if (p[0] > 53) {
        ErrorAt(sqlstate::kInvalidParameterValue,
                "precision for type float must be less than 54 bits", loc);
      }
      if (p[0] <= 24) t.name = "float4";
    }
  } else if (w == "decimal" || w == "dec" || w == "numeric") {
    Advance();
    t.name = "numeric";
    t.typmods = ParseTypmods();
  } else if (w == "boolean") {
    Advance();
    t.name = "bool";
  } else if (w == "char" || w == "character" || w == "nchar" ||
             (w == "national" && (PeekKw(1, "char") || PeekKw(1, "character")))) {
    if (w == "national") Advance();
    Advance();
    t.name = AcceptKw("varying") ? "varchar" : "bpchar";
    t.typmods = ParseTypmods();
    // char without a length means char(1); varchar without one is unlimited.
    if (t.name == "bpchar" && t.typmods.empty()) t.typmods.push_back(1);
  } else if (w == "varchar") {
    Advance();
    t.name = "varchar";
    t.typmods = ParseTypmods();
  } else if (w == "bit") {
    Advance();
    t.name = AcceptKw("varying") ? "varbit" : "bit";
    t.typmods = ParseTypmods();
    if (t.name == "bit" && t.typmods.empty()) t.typmods.push_back(1);
  } else if (w == "timestamp" || w == "time") {
    Advance();
    t.typmods = ParseTypmods();
    bool tz = false;
    if (IsKw("with") && PeekKw(1, "time") && PeekKw(2, "zone")) {
      Advance();
      Advance();
      Advance();
      tz = true;
    } else if (IsKw("without") && PeekKw(1, "time") && PeekKw(2, "zone")) {
      Advance();
      Advance();
      Advance();
    }
    t.name = w == "timestamp" ? (tz ? "timestamptz" : "timestamp") : (tz ? "timetz" : "time");
  } else if (w == "interval") {
    Advance();
    // Field restrictions (YEAR, DAY TO SECOND, ...) are accepted and ignored.
    static const char* kFields[] = {"year", "month", "day", "hour", "minute", "second"};
    for (int round = 0; round < 2; ++round) {
      bool any = false;
      for (const char* f : kFields) {
        if (AcceptKw(f)) {
          any = true;
          break;
        }
      }
      if (!any || !AcceptKw("to")) break;
    }
    t.name = "interval";
    t.typmods = ParseTypmods();
  } else {
    if (!IsTypeFuncName(Cur())) SyntaxError();
    std::vector<std::string> parts;
    parts.push_back(Cur().text);
    Advance();
    while (IsOp(".")) {
      Advance();
      parts.push_back(ParseColLabel());
    }
    if (parts.size() > 2) {
      std::string joined;
      for (size_t i = 0; i < parts.size(); ++i) joined += (i ? "." : "") + parts[i];
      ErrorAt(sqlstate::kSyntaxError, "improper qualified name (too many dotted names): " + joined,
              t.location);
    }
    if (parts.size() == 2) t.schema = parts[0];
    t.name = parts.back();
    t.typmods = ParseTypmods();
  }
  ParseArrayBounds(t);
  return t;
}

}  // namespace hearth::parser
