// server/utils/adt/regtypes.cpp
//
// Principal entry points: RegtypeIn/AppendRegtype, RegprocIn/AppendRegproc,
// RegnamespaceIn/AppendRegnamespace (see regclass.h).
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "utils/adt/int_adt.h"
#include "utils/adt/regclass.h"
#include "utils/adt/type_catalog.h"
#include "utils/adt/user_types.h"

namespace hearth::types {

namespace {

constexpr char kUndefinedObject[] = "42704";
constexpr char kUndefinedFunction[] = "42883";
constexpr char kInvalidSchemaName[] = "3F000";

void AppendOidOrDash(Oid oid, std::string* out) {
  if (oid == kInvalidOid) out->push_back('-');
  else out->append(std::to_string(oid));
}

}  // namespace

Oid RegtypeIn(std::string_view text) {
  if (text == "-") return kInvalidOid;
  if (AllDigits(text)) return static_cast<Oid>(ParseInteger(text, kOidOid));
  // The SQL spellings ("character varying", "double precision") first, then
  // a possibly qualified, possibly quoted pg_type name.
  if (const TypeInfo* t = LookupTypeByName(text)) return t->oid;
  std::vector<std::string> parts = SplitQualifiedName(text);
  if (parts.size() <= 2 && (parts.size() == 1 || parts[0] == "pg_catalog")) {
    if (const TypeInfo* t = LookupTypeByName(parts.back())) return t->oid;
  }
  // Types made by SQL: "public.mood", "mood[]".
  if (parts.size() == 2) {
    if (const TypeInfo* t = LookupTypeByQualifiedName(parts[0], parts[1])) return t->oid;
  }
  throw DbError(kUndefinedObject, "type \"" + std::string(text) + "\" does not exist");
}

void AppendRegtype(Oid oid, std::string* out) {
  if (oid == kInvalidOid || LookupType(oid) == nullptr) return AppendOidOrDash(oid, out);
  out->append(FormatType(oid));
}

Oid RegprocIn(std::string_view text) {
  if (text == "-") return kInvalidOid;
  if (AllDigits(text)) return static_cast<Oid>(ParseInteger(text, kOidOid));
  const RelationNameHooks& h = CurrentRelationNameHooks();
  if (h.function_oids != nullptr) {
    std::vector<std::string> parts = SplitQualifiedName(text);
    const bool user_schema = parts.size() == 1 || (parts.size() == 2 && parts[0] == "public");
    std::vector<Oid> oids = user_schema ? h.function_oids(parts.back()) : std::vector<Oid>{};
    if (oids.size() > 1) {
      throw DbError(sqlstate::kAmbiguousFunction, "more than one function named \"" + std::string(text) + "\"");
    }
    if (oids.size() == 1) return oids[0];
  }
  throw DbError(kUndefinedFunction, "function \"" + std::string(text) + "\" does not exist");
}

void AppendRegproc(Oid oid, std::string* out) {
  const RelationNameHooks& h = CurrentRelationNameHooks();
  std::optional<std::string> name = h.function_name != nullptr && oid != 0 ? h.function_name(oid) : std::nullopt;
  if (name) out->append(QuoteIdentifier(*name));
  else AppendOidOrDash(oid, out);
}

Oid RegnamespaceIn(std::string_view text) {
  if (AllDigits(text)) return static_cast<Oid>(ParseInteger(text, kOidOid));
  std::vector<std::string> parts = SplitQualifiedName(text);
  if (parts.size() != 1) throw DbError(sqlstate::kSyntaxError, "invalid name syntax");
  const RelationNameHooks& h = CurrentRelationNameHooks();
  std::optional<Oid> oid = h.namespace_oid != nullptr ? h.namespace_oid(parts[0]) : std::nullopt;
  if (!oid) throw DbError(kInvalidSchemaName, "schema \"" + parts[0] + "\" does not exist");
  return *oid;
}

void AppendRegnamespace(Oid oid, std::string* out) {
  const RelationNameHooks& h = CurrentRelationNameHooks();
  std::optional<std::string> name = h.namespace_name != nullptr ? h.namespace_name(oid) : std::nullopt;
  if (name) out->append(QuoteIdentifier(*name));
  else out->append(std::to_string(oid));
}

}  // namespace hearth::types
