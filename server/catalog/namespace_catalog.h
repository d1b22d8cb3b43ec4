// catalog/namespace_catalog.h
//
// Schemas: the hearth_namespace catalog (one row per schema created with
// CREATE SCHEMA; public, pg_catalog and the temporary namespaces are fixed
// and have no row), a per-backend cache of it, and the search path
// (PostgreSQL's rules: the session's temporary namespace, then pg_catalog
// unless the path names them, then the path's schemas that exist, "$user"
// meaning the current user's name).
//
// The cache is read on every unqualified relation lookup, so it is a hash
// map refreshed only when the catalog version moves or this backend
// changed a schema (schema DDL, and abort of a transaction that did).
//
// Process safety: per-backend; lookups that miss the cache need a
// transaction in progress.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog_defs.h"
#include "catalog/catalog_rows.h"

namespace hearth::catalog {

inline constexpr Oid kHearthNamespaceOid = 9100;
inline constexpr char kHearthNamespaceName[] = "hearth_namespace";
inline storage::RelFileLocator NamespaceCatalogRel() { return CatalogRel(kHearthNamespaceOid); }

// nspacl: aclitem[] text, NULL = the owner's default (rows written before
// the column existed read as NULL).
enum NamespaceCol : int { kNspOid = 0, kNspName, kNspOwner, kNspAcl, kNspNatts };
const heap::TupleDesc& NamespaceTupleDesc();

struct SchemaFields {
  Oid oid = 0;
  std::string name;
  Oid owner = 0;
  std::optional<std::string> acl;  // NULL: {owner=UC/owner}
};
heap::Row MakeSchemaRow(const SchemaFields& f);

struct SchemaTuple {
  heap::ItemPointer tid;
  SchemaFields schema;
};
// Reads the catalog itself (catalog snapshot), not the cache.
std::optional<SchemaTuple> FindSchemaRow(const std::string& name);

// Cached: user schemas by name / oid (nullopt / "" when none).
std::optional<Oid> UserSchemaOid(const std::string& name);
std::string UserSchemaName(Oid oid);
// Owner of any namespace (the bootstrap superuser for the fixed ones).
Oid SchemaOwner(Oid ns);
// NamespaceOid (catalog_defs.h) without its check that the current user has
// USAGE on a user schema (42501 `permission denied for schema s`).
Oid NamespaceOidUnchecked(const std::string& schema);
// Privileges on user schemas (schema_privileges.cpp): USAGE / CREATE held
// by `role`; the checks throw 42501 `permission denied for schema s`.
// Fixed namespaces (public, pg_catalog, temporary ones) are not checked.
bool SchemaUsable(Oid ns, Oid role);
void CheckSchemaUsage(Oid ns);
void CheckSchemaCreate(Oid ns);
// Cached row of a user schema (nullptr for the fixed ones and unknown oids).
const SchemaFields* UserSchema(Oid ns);
// Every schema created with CREATE SCHEMA, by name.
std::vector<SchemaFields> ListUserSchemas();
// Forget the cache (this backend changed hearth_namespace, or aborted).
void InvalidateSchemaCache();

// The text of the session's search_path setting; installed by the session.
void SetSearchPathSource(std::function<const std::string&()> source);
// Namespaces an unqualified relation name is looked up in, in order.
const std::vector<Oid>& SearchPathNamespaces();
// Where CREATE puts an unqualified name: the first schema of the path that
// exists (3F000 "no schema has been selected to create in" when none).
Oid CreationNamespace();
// The first schema of the path that exists (current_schema()), or nullopt.
std::optional<Oid> CurrentSchemaOid();
std::optional<std::string> CurrentSchemaName();

}  // namespace hearth::catalog
