// catalog/database_catalog.h
//
// pg_database (oid 1262): the cluster's databases, a shared heap catalog
// (one copy, under global/, read from every database). The heap relation is
// `hearth_database`; the `pg_database` view shows it with PostgreSQL 15's
// columns (pg_catalog_fixed.cpp). Databases are few and their DDL rare, so
// lookups scan; database DDL serialises on one object lock
// (LockDatabaseCatalog).
//
// Process safety: per-backend; REQUIRES a transaction in progress.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog_defs.h"
#include "catalog/catalog_rows.h"

namespace hearth::catalog {

inline constexpr Oid kHearthDatabaseOid = 1262;
inline constexpr char kHearthDatabaseName[] = "hearth_database";
inline storage::RelFileLocator DatabaseCatalogRel() { return CatalogRel(kHearthDatabaseOid); }

// Column numbers (0-based positions) of hearth_database.
enum DatabaseCol : int {
  kDatOid = 0,
  kDatName,         // name
  kDatDba,          // oid: the owner
  kDatEncoding,     // int4 (6 = UTF8)
  kDatIsTemplate,   // bool
  kDatAllowConn,    // bool
  kDatConnLimit,    // int4 (-1: no limit)
  kDatAcl,          // text: aclitem[] as PostgreSQL prints it; NULL = the default
  kDatConfig,       // text: ALTER DATABASE ... SET values, "name=value" lines; NULL = none
  kDatNatts
};
const heap::TupleDesc& DatabaseTupleDesc();

inline constexpr int32_t kUtf8Encoding = 6;

struct DatabaseFields {
  Oid oid = 0;
  std::string name;
  Oid owner = kBootstrapSuperuserOid;
  int32_t encoding = kUtf8Encoding;
  bool is_template = false;
  bool allow_connections = true;
  int32_t connection_limit = -1;
  std::optional<std::string> acl;
  std::vector<std::pair<std::string, std::string>> settings;  // ALTER DATABASE SET, in order
};
heap::Row MakeDatabaseRow(const DatabaseFields& f);
DatabaseFields ParseDatabaseRow(const heap::Row& r);

struct DatabaseTuple {
  heap::ItemPointer tid;
  DatabaseFields db;
};
std::optional<DatabaseTuple> FindDatabaseByName(const std::string& name);
std::optional<DatabaseTuple> FindDatabaseByOid(Oid oid);
std::vector<DatabaseFields> ListDatabaseRows();  // oid order

// Writes a new version of `t`'s row (then CommandCounterIncrement); 40001-ish
// XX000 if concurrently updated (DDL holds LockDatabaseCatalog).
void UpdateDatabaseRow(const DatabaseTuple& t, const DatabaseFields& f);

// ExclusiveLock serialising database DDL (to transaction end); also marks
// the catalog changed.
void LockDatabaseCatalog();

// Bootstrap: creates hearth_database's file and its rows for template1,
// template0 and the default database (`default_name`), all owned by the
// bootstrap superuser `superuser`.
void BootstrapDatabases(const std::string& default_name, const std::string& superuser);

// PUBLIC's defaults and the owner's rights when datacl is NULL:
// "=Tc/owner,owner=CTc/owner" (PostgreSQL 15).
std::string DefaultDatabaseAcl(const std::string& owner_name);

}  // namespace hearth::catalog
