// catalog/cluster_catalog.h
//
// The cluster-wide list of databases. For now a small text file under
// <datadir>/global/ (one name per line) written by `hearthd init`; read-only
// after init, so any process may read it without locking. (Roles live in
// the pg_authid catalog, role_catalog.h.)
#pragma once

#include <string>
#include <vector>

#include "catalog/catalog_defs.h"

namespace hearth::catalog {

inline constexpr char kDatabasesFile[] = "global/databases";

// Writes the initial list: one database. Returns false and sets *error when
// the file cannot be written.
bool WriteInitialClusterCatalog(const std::string& datadir, const std::string& dbname, std::string* error);

bool DatabaseExists(const std::string& datadir, const std::string& name);
std::vector<std::string> ListDatabases(const std::string& datadir);

// PostgreSQL's fixed oid of the pg_database_owner pseudo-role that owns
// schema public (the bootstrap superuser's, 10, is in catalog_defs.h).
inline constexpr unsigned kPgDatabaseOwnerOid = 6171;
// The name pg_get_userbyid(oid) shows: the role's from pg_authid,
// "pg_database_owner", else PostgreSQL's "unknown (OID=n)".
std::string RoleNameByOid(const std::string& datadir, unsigned oid);

}  // namespace hearth::catalog
