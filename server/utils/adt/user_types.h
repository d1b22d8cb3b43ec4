// server/utils/adt/user_types.h
//
// Types made by SQL (CREATE TYPE ... AS ENUM, CREATE DOMAIN): the per-backend
// view of pg_type's user rows that the type functions (LookupType,
// FormatType, text/binary I/O, comparison) consult for oids outside the
// built-in table. The catalog owns the rows (catalog/type_catalog_rows);
// it installs a loader that returns the snapshot valid for the current
// catalog version, re-read when that version moves or this backend's own
// transaction changed the rows.
//
// Values: an enum value keeps its label's pg_enum oid in `Value::i`
// (typlen 4, like PostgreSQL), so renaming a label rewrites no data; order
// is the label's enumsortorder. A domain never appears as a Value's type:
// coercion to a domain produces its base type after the domain's checks
// (executor/domain_checks.h), and columns of a domain store the base type.
//
// Process safety: per process; snapshots are immutable and kept alive as
// long as any caller may hold a pointer into one (see RetainSnapshot).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "utils/adt/type_catalog.h"
#include "utils/adt/value.h"

namespace hearth::types {

inline constexpr Oid kFirstUserTypeOid = 16384;  // the first oid the counter hands out

struct EnumLabel {
  Oid oid = kInvalidOid;
  double sort_order = 0;  // enumsortorder (kept as float8; pg_enum shows float4)
  std::string label;
};

// A named CHECK of a domain: its condition as SQL text over VALUE.
struct DomainCheck {
  Oid oid = kInvalidOid;
  std::string name;
  std::string expr;
};

struct UserType {
  Oid oid = kInvalidOid;
  std::string name;            // typname
  Oid namespace_oid = kInvalidOid;
  std::string namespace_name;
  Oid owner = kInvalidOid;
  char typtype = 'e';          // 'e' enum, 'd' domain
  Oid array_oid = kInvalidOid;  // typarray ("_name"); enums only
  std::vector<EnumLabel> labels;  // enums: in sort order
  // Domains.
  Oid base_type = kInvalidOid;  // may itself be a domain
  int32_t base_typmod = kNoTypmod;
  bool not_null = false;
  std::optional<std::string> default_expr;
  std::vector<DomainCheck> checks;  // name order (PostgreSQL's check order)

  TypeInfo info{};        // name points at `name`
  std::string array_name;  // "_name"
  TypeInfo array_info{};
};

struct UserTypeSet {
  std::vector<std::unique_ptr<UserType>> types;
  std::unordered_map<Oid, const UserType*> by_oid;        // type and array oids
  std::unordered_map<Oid, std::pair<const UserType*, size_t>> labels;  // label oid → (type, index)

  // Fills info/array_info and the maps; called once after `types` is filled.
  void Index();
};

// The catalog's loader: the snapshot for this moment (never null once
// installed). Without one (tools, unit tests) there are no user types.
using UserTypeLoader = std::shared_ptr<const UserTypeSet> (*)();
void SetUserTypeLoader(UserTypeLoader loader);
// The namespaces unqualified type names are looked up in (the session's
// search path), read at each lookup.
using UserTypeSearchPath = const std::vector<Oid>& (*)();
void SetUserTypeSearchPath(UserTypeSearchPath search_path);

// The current snapshot (empty without a loader).
std::shared_ptr<const UserTypeSet> CurrentUserTypes();

// Entry of a user type or of a user type's array type; nullptr otherwise.
// Cheap for built-in oids (no loader call below kFirstUserTypeOid).
const UserType* FindUserType(Oid oid);
const UserType* FindEnumType(Oid oid);    // typtype 'e' only
const UserType* FindDomainType(Oid oid);  // typtype 'd' only
inline bool MayBeUserType(Oid oid) { return oid >= kFirstUserTypeOid; }

// By name: `schema` empty searches the search path.
const UserType* FindUserTypeByName(std::string_view schema, std::string_view name);

// Built-in names first when `schema` is empty or pg_catalog, then user
// types; "name[]" gives the array type. nullptr if none.
const TypeInfo* LookupTypeByQualifiedName(std::string_view schema, std::string_view name);

// format_type's text: the name (quoted when needed), schema-qualified
// when its schema is not on the search path.
std::string FormatUserTypeName(const UserType& t);

// The non-domain type under a (possibly nested) domain, with its typmod.
Oid DomainBaseType(Oid type, int32_t* typmod = nullptr);

// Enum I/O: 22P02 `invalid input value for enum mood: "x"`.
Value EnumInput(const UserType& t, std::string_view text);
const std::string& EnumLabelText(Oid type, Oid label_oid);
double EnumSortOrder(Oid label_oid);
int CompareEnumValues(const Value& a, const Value& b);

}  // namespace hearth::types
