// server/utils/adt/regclass.cpp
//
// Principal entry points: RegclassIn, AppendRegclass, SetRelationNameHooks.
#include "utils/adt/regclass.h"

#include <cctype>
#include <vector>

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "utils/adt/int_adt.h"

namespace hearth::types {

namespace {

RelationNameHooks g_hooks;

constexpr char kInvalidName[] = "42602";

bool IsSpace(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

[[noreturn]] void InvalidNameSyntax() { throw DbError(kInvalidName, "invalid name syntax"); }

}  // namespace

// PostgreSQL's SplitIdentifierString on '.': quoted parts keep their case
// ("" is a quote), unquoted parts are lower-cased; blanks around parts are
// allowed. Empty parts are a syntax error.
std::vector<std::string> SplitQualifiedName(std::string_view s) {
  std::vector<std::string> parts;
  size_t i = 0;
  for (;;) {
    while (i < s.size() && IsSpace(s[i])) i++;
    std::string part;
    if (i < s.size() && s[i] == '"') {
      for (i++;; i++) {
        if (i >= s.size()) InvalidNameSyntax();
        if (s[i] == '"') {
          if (i + 1 < s.size() && s[i + 1] == '"') {
            part.push_back('"');
            i++;
            continue;
          }
          i++;
          break;
        }
        part.push_back(s[i]);
      }
    } else {
      while (i < s.size() && s[i] != '.' && !IsSpace(s[i])) {
        part.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(s[i]))));
        i++;
      }
    }
    if (part.empty()) InvalidNameSyntax();
    if (part.size() > 63) part.resize(63);
    parts.push_back(std::move(part));
    while (i < s.size() && IsSpace(s[i])) i++;
    if (i == s.size()) return parts;
    if (s[i] != '.') InvalidNameSyntax();
    i++;
  }
}

bool AllDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

void SetRelationNameHooks(const RelationNameHooks& hooks) { g_hooks = hooks; }

const RelationNameHooks& CurrentRelationNameHooks() { return g_hooks; }

Oid RegclassIn(std::string_view text) {
  if (text == "-") return kInvalidOid;
  if (AllDigits(text)) return static_cast<Oid>(ParseInteger(text, kOidOid));
  std::vector<std::string> parts = SplitQualifiedName(text);
  if (parts.size() > 2) {
    throw DbError(sqlstate::kSyntaxError, "improper relation name (too many dotted names): " + std::string(text));
  }
  std::string schema = parts.size() == 2 ? parts[0] : std::string();
  const std::string& name = parts.back();
  std::optional<Oid> oid;
  if (g_hooks.lookup != nullptr) oid = g_hooks.lookup(schema, name);
  if (!oid) {
    std::string shown = schema.empty() ? name : schema + "." + name;
    throw DbError(sqlstate::kUndefinedTable, "relation \"" + shown + "\" does not exist");
  }
  return *oid;
}

std::string QuoteIdentifier(std::string_view name) {
  bool plain = !name.empty() && (std::islower(static_cast<unsigned char>(name[0])) || name[0] == '_');
  for (char c : name) {
    if (!(std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_')) {
      plain = false;
    }
  }
  if (plain) return std::string(name);
  std::string q = "\"";
  for (char c : name) {
    if (c == '"') q.push_back('"');
    q.push_back(c);
  }
  q.push_back('"');
  return q;
}

void AppendRegclass(Oid oid, std::string* out) {
  if (oid == kInvalidOid) {
    out->push_back('-');
    return;
  }
  std::optional<RelationNameHooks::Name> n;
  if (g_hooks.name_of != nullptr) n = g_hooks.name_of(oid);
  if (!n) {
    out->append(std::to_string(oid));
    return;
  }
  if (!n->on_search_path) out->append(QuoteIdentifier(n->schema)).push_back('.');
  out->append(QuoteIdentifier(n->name));
}

}  // namespace hearth::types
