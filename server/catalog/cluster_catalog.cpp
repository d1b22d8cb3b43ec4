// catalog/cluster_catalog.cpp
//
// Principal entry point: RoleNameByOid.
#include "catalog/cluster_catalog.h"

#include "catalog/role_catalog.h"

namespace hearth::catalog {

std::string RoleNameByOid(const std::string&, unsigned oid) {
  if (oid == kPgDatabaseOwnerOid) return "pg_database_owner";
  if (auto role = FindRoleByOid(oid)) return role->role.name;
  return "unknown (OID=" + std::to_string(oid) + ")";
}

}  // namespace hearth::catalog
