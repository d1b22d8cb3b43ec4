// catalog/cluster_catalog.h
//
// The cluster-wide catalog of databases and roles. For now it is two small
// text files under <datadir>/global/ (one name per line) written by
// `hearthd init`; the storage issue moves them into heap catalogs. Read-only
// after init, so any process may read them without locking.
#pragma once

#include <string>
#include <vector>

namespace hearth::catalog {

inline constexpr char kDatabasesFile[] = "global/databases";
inline constexpr char kRolesFile[] = "global/roles";

// Writes the initial catalog: one database and one superuser role.
// Returns false and sets *error when a file cannot be written.
bool WriteInitialClusterCatalog(const std::string& datadir, const std::string& dbname,
                                const std::string& rolename, std::string* error);

bool DatabaseExists(const std::string& datadir, const std::string& name);
bool RoleExists(const std::string& datadir, const std::string& name);
std::vector<std::string> ListDatabases(const std::string& datadir);
// Role names in file order; the first is the bootstrap superuser (oid 10,
// kBootstrapSuperuserOid).
std::vector<std::string> ListRoles(const std::string& datadir);

// PostgreSQL's fixed role oids: the bootstrap superuser and the
// pg_database_owner pseudo-role that owns schema public.
inline constexpr unsigned kBootstrapSuperuserOid = 10;
inline constexpr unsigned kPgDatabaseOwnerOid = 6171;
// The name pg_get_userbyid(oid) shows: the bootstrap superuser's from
// global/roles, "pg_database_owner", else PostgreSQL's "unknown (OID=n)".
std::string RoleNameByOid(const std::string& datadir, unsigned oid);

}  // namespace hearth::catalog
