// catalog/cluster_catalog.h
//
// The cluster-wide catalog of databases and roles. For now it is two small
// text files under <datadir>/global/ (one name per line) written by
// `hearthd init`; later they move into heap catalogs. Read-only after init,
// so any process may read them without locking. A role line may carry
// attributes after a tab: "name\tnosuperuser" is a role without superuser
// rights; a bare name (the role `hearthd init` creates) is a superuser.
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
// False for an unknown role or one marked nosuperuser.
bool RoleIsSuperuser(const std::string& datadir, const std::string& name);
std::vector<std::string> ListDatabases(const std::string& datadir);

}  // namespace hearth::catalog
