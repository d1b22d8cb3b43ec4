// server/utils/adt/builtins_dump.cpp
//
// The system information functions pg_dump calls besides those of
// builtins_catalog.cpp: acldefault (an object kind's built-in privileges,
// in aclitem[] text form like the relacl columns), current_schemas, and
// the definitions of objects Hearth has none of (pg_get_triggerdef: NULL,
// as PostgreSQL answers for an oid that is no trigger).
#include <algorithm>
#include <cctype>
#include <string>

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "utils/adt/array.h"
#include "utils/adt/builtins.h"
#include "utils/adt/regclass.h"

namespace hearth::types::internal {
namespace {

constexpr Oid kNameArray = 1003;  // name[]

// A role name as an aclitem prints it: double-quoted unless every
// character is alphanumeric or '_' (PostgreSQL's putid).
std::string AclRoleName(const std::string& name) {
  bool plain = !name.empty();
  for (unsigned char ch : name) {
    if (!std::isalnum(ch) && ch != '_') plain = false;
  }
  if (plain) return name;
  std::string out = "\"";
  for (char ch : name) {
    if (ch == '"') out.push_back('"');
    out.push_back(ch);
  }
  return out + "\"";
}

// acldefault(objtype, owner): PostgreSQL 15's defaults — the owner holds
// every privilege of the kind, PUBLIC also some for databases (Tc),
// functions (X), languages and types (U); columns have none.
Value AclDefault(const Value* a, int, FuncCallContext& c) {
  const char kind = a[0].str.empty() ? '\0' : a[0].str[0];
  const char* owner_rights = nullptr;
  const char* public_rights = nullptr;
  switch (kind) {
    case 'c': return Value::Text("{}");
    case 'r': owner_rights = "arwdDxt"; break;
    case 's': owner_rights = "rwU"; break;
    case 'd': owner_rights = "CTc"; public_rights = "Tc"; break;
    case 'f': owner_rights = "X"; public_rights = "X"; break;
    case 'l': owner_rights = "U"; public_rights = "U"; break;
    case 'L': owner_rights = "rw"; break;
    case 'n': owner_rights = "UC"; break;
    case 'p': owner_rights = "sA"; break;
    case 't': owner_rights = "C"; break;
    case 'F': owner_rights = "U"; break;
    case 'S': owner_rights = "U"; break;
    case 'T': owner_rights = "U"; public_rights = "U"; break;
    default:
      throw DbError(sqlstate::kInternalError, std::string("unrecognized objtype abbreviation: ") + kind);
  }
  const auto owner_oid = static_cast<uint32_t>(a[1].i);
  const std::string owner = AclRoleName(c.session != nullptr && c.session->catalog.role_name
                                            ? c.session->catalog.role_name(owner_oid)
                                            : std::to_string(owner_oid));
  std::string out = "{";
  if (public_rights != nullptr) out += std::string("=") + public_rights + "/" + owner + ",";
  out += owner + "=" + owner_rights + "/" + owner + "}";
  return Value::Text(out);
}

// current_schemas(include_implicit): the schemas of search_path that
// exist (public, pg_catalog), pg_catalog first when implicit ones count
// and it is not listed.
Value CurrentSchemas(const Value* a, int, FuncCallContext& c) {
  const std::vector<std::string> listed = SearchPathSchemas(c);
  std::vector<Value> out;
  const bool has_catalog = std::find(listed.begin(), listed.end(), "pg_catalog") != listed.end();
  if (a[0].b && !has_catalog) out.push_back(Value::Bytes(kNameOid, "pg_catalog"));
  for (const std::string& s : listed) out.push_back(Value::Bytes(kNameOid, s));
  return MakeArray1D(kNameOid, std::move(out));
}

// name[i] (bind_array.cpp): the byte at 0-based i of PostgreSQL's
// char[64], '' past the end, NULL outside the array's bounds.
Value NameSubscript(const Value* a, int, FuncCallContext&) {
  constexpr int64_t kNameLength = 64;
  const int64_t i = a[1].i;
  if (i < 0 || i >= kNameLength) return Value::Null(kTextOid);
  const std::string& s = a[0].str;
  return Value::Text(static_cast<size_t>(i) < s.size() ? s.substr(static_cast<size_t>(i), 1) : "");
}

}  // namespace

std::vector<std::string> SearchPathSchemas(FuncCallContext& c) {
  std::optional<std::string> path;
  if (c.session != nullptr && c.session->get_setting) path = c.session->get_setting("search_path");
  std::vector<std::string> listed;
  std::string item;
  auto flush = [&] {
    const size_t b = item.find_first_not_of(" \t");
    const size_t e = item.find_last_not_of(" \t");
    std::string name = b == std::string::npos ? "" : item.substr(b, e - b + 1);
    if (name.size() >= 2 && name.front() == '"' && name.back() == '"') name = name.substr(1, name.size() - 2);
    if (name == "public" || name == "pg_catalog") listed.push_back(name);
    item.clear();
  };
  for (char ch : path.value_or("\"$user\", public")) {
    if (ch == ',') {
      flush();
    } else {
      item.push_back(ch);
    }
  }
  flush();
  return listed;
}

std::string RegclassLiteralsAsPrinted(const std::string& expr, bool qualify) {
  static const std::string kCast = "'::regclass";
  const RelationNameHooks& hooks = CurrentRelationNameHooks();
  if (hooks.name_of == nullptr) return expr;
  std::string out;
  size_t done = 0;
  for (size_t cast = expr.find(kCast); cast != std::string::npos; cast = expr.find(kCast, cast + 1)) {
    const size_t open = expr.rfind('\'', cast - 1);
    if (open == std::string::npos || open < done) continue;
    const std::string literal = expr.substr(open + 1, cast - open - 1);
    if (literal.find('\'') != std::string::npos) continue;  // names with quotes: left as written
    std::optional<RelationNameHooks::Name> name;
    try {
      name = hooks.name_of(RegclassIn(literal));
    } catch (const DbError&) {
      // Stored defaults name their relation as it was written, resolved
      // then through the default search path: an unqualified name that the
      // current path no longer finds is public's.
      try {
        if (literal.find('.') != std::string::npos) continue;
        name = hooks.name_of(RegclassIn("public." + literal));
      } catch (const DbError&) {
        continue;  // no such relation (any more): as written
      }
    }
    if (!name) continue;
    const bool qualified = qualify || !name->on_search_path;
    out += expr.substr(done, open + 1 - done) + (qualified ? QuoteIdentifier(name->schema) + "." : "") +
           QuoteIdentifier(name->name);
    done = cast;
  }
  return out + expr.substr(done);
}

void AddDumpBuiltins(std::vector<FuncSignature>* t) {
  constexpr FuncKind kFn = FuncKind::kFunction;
  t->push_back(Row("acldefault", kFn, {kTextOid, kOidOid}, kTextOid, AclDefault, true, false, /*is_volatile=*/true));
  t->push_back(Row("current_schemas", kFn, {kBoolOid}, kNameArray, CurrentSchemas, true, false, true));
  // Not callable from SQL (the name cannot be typed): name subscripts.
  t->push_back(Row("\x01name_subscript", kFn, {kNameOid, kInt4Oid}, kTextOid, NameSubscript));
}

}  // namespace hearth::types::internal
