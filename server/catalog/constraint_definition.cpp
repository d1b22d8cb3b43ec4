// catalog/constraint_definition.cpp
//
// Principal entry point: FormatConstraintDefinition (pg_get_constraintdef of
// CHECK and FOREIGN KEY constraints, as PostgreSQL 15's ruleutils prints them).
#include <string>
#include <string_view>
#include <vector>

#include "catalog/constraint_catalog.h"
#include "catalog/relcache.h"
#include "utils/adt/regclass.h"

namespace hearth::catalog {

namespace {

// True when `s` is "( ... )" with the parentheses matching each other.
bool Wrapped(std::string_view s) {
  if (s.size() < 2 || s.front() != '(' || s.back() != ')') return false;
  int depth = 0;
  bool quoted = false;
  for (size_t i = 0; i < s.size(); ++i) {
    const char ch = s[i];
    if (ch == '\'') quoted = !quoted;
    if (quoted) continue;
    if (ch == '(') ++depth;
    if (ch == ')' && --depth == 0 && i + 1 < s.size()) return false;
  }
  return true;
}

// Splits `s` at top-level occurrences of `sep` (outside parentheses and quotes).
std::vector<std::string_view> SplitTop(std::string_view s, std::string_view sep) {
  std::vector<std::string_view> parts;
  int depth = 0;
  bool quoted = false;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const char ch = s[i];
    if (ch == '\'') quoted = !quoted;
    if (quoted) continue;
    if (ch == '(') ++depth;
    if (ch == ')') --depth;
    if (depth == 0 && s.substr(i, sep.size()) == sep) {
      parts.push_back(s.substr(start, i - start));
      start = i + sep.size();
      i = start - 1;
    }
  }
  parts.push_back(s.substr(start));
  return parts;
}

bool IsCastOperandChar(char ch) {
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_' ||
         ch == '.' || ch == '"';
}

// "(0)::numeric" → "0::numeric", "(v)::text" → "v::text": pretty mode
// leaves a single name or number being cast unparenthesized.
std::string UnwrapCastOperands(std::string_view s) {
  std::string out;
  bool quoted = false;
  for (size_t i = 0; i < s.size(); ++i) {
    const char ch = s[i];
    if (ch == '\'') quoted = !quoted;
    if (!quoted && ch == '(') {
      size_t j = i + 1;
      while (j < s.size() && IsCastOperandChar(s[j])) ++j;
      if (j > i + 1 && s.substr(j, 3) == ")::") {
        out.append(s.substr(i + 1, j - i - 1));
        i = j;  // the ')' is skipped; "::" follows
        continue;
      }
    }
    out += ch;
  }
  return out;
}

// PostgreSQL's pretty form of the stored (fully parenthesized) condition:
// no outer parentheses, and none around the operands of a top-level AND /
// OR list that are plain comparisons, nor around a cast name or number.
std::string PrettyCondition(std::string_view stored) {
  const std::string unwrapped = UnwrapCastOperands(stored);
  std::string_view s = unwrapped;
  if (Wrapped(s)) s = s.substr(1, s.size() - 2);
  for (std::string_view sep : {std::string_view(" AND "), std::string_view(" OR ")}) {
    std::vector<std::string_view> parts = SplitTop(s, sep);
    if (parts.size() < 2) continue;
    std::string out;
    for (std::string_view p : parts) {
      if (!out.empty()) out += sep;
      std::string_view inner = Wrapped(p) ? p.substr(1, p.size() - 2) : p;
      const bool simple = SplitTop(inner, " AND ").size() == 1 && SplitTop(inner, " OR ").size() == 1;
      out += simple ? inner : p;
    }
    return out;
  }
  return std::string(s);
}

std::string ColumnList(Oid relid, const std::vector<int>& attnums) {
  RelationRef rel = LookupRelationByOid(relid);
  std::string out;
  for (int a : attnums) {
    if (!out.empty()) out += ", ";
    const bool known = rel != nullptr && a >= 1 && a <= static_cast<int>(rel->info.columns.size());
    out += known ? types::QuoteIdentifier(rel->info.columns[static_cast<size_t>(a - 1)].name) : "?";
  }
  return out;
}

const char* ActionText(char a) {
  switch (a) {
    case 'r': return "RESTRICT";
    case 'c': return "CASCADE";
    case 'n': return "SET NULL";
    case 'd': return "SET DEFAULT";
    default: return nullptr;
  }
}

}  // namespace

std::string FormatConstraintDefinition(const ConstraintFields& f, bool pretty) {
  std::string out;
  if (f.type == 'c') {
    out = "CHECK (" + (pretty ? PrettyCondition(f.bin) : f.bin) + ")";
  } else {
    RelationRef parent = LookupRelationByOid(f.frelid);
    std::string target = parent ? types::QuoteIdentifier(parent->info.name) : "?";
    if (parent && parent->namespace_oid != kPublicNamespace && parent->namespace_oid != kPgCatalogNamespace) {
      target = types::QuoteIdentifier(parent->info.schema) + "." + target;
    }
    out = "FOREIGN KEY (" + ColumnList(f.relid, f.key) + ") REFERENCES " + target + "(" +
          ColumnList(f.frelid, f.fkey) + ")";
    if (const char* a = ActionText(f.upd_type)) out += std::string(" ON UPDATE ") + a;
    if (const char* a = ActionText(f.del_type)) out += std::string(" ON DELETE ") + a;
  }
  if (!f.validated) out += " NOT VALID";
  return out;
}

}  // namespace hearth::catalog
