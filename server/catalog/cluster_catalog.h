// catalog/cluster_catalog.h
//
// Cluster-wide names: the pg_database_owner pseudo-role and role names by
// oid for pg_get_userbyid. (Databases live in the shared pg_database
// catalog, database_catalog.h; roles in pg_authid, role_catalog.h.)
#pragma once

#include <string>

#include "catalog/catalog_defs.h"

namespace hearth::catalog {

// PostgreSQL's fixed oid of the pg_database_owner pseudo-role that owns
// schema public (the bootstrap superuser's, 10, is in catalog_defs.h).
inline constexpr unsigned kPgDatabaseOwnerOid = 6171;
// The name pg_get_userbyid(oid) shows: the role's from pg_authid,
// "pg_database_owner", else PostgreSQL's "unknown (OID=n)".
std::string RoleNameByOid(const std::string& datadir, unsigned oid);

}  // namespace hearth::catalog
