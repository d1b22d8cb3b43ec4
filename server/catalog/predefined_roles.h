// catalog/predefined_roles.h
//
// PostgreSQL's predefined roles that Hearth gives a meaning to, with
// PostgreSQL 15's fixed oids. `hearthd init` writes them into pg_authid
// (no login, not superuser); members, or roles with their privileges
// through INHERIT, get what the role allows. They cannot be dropped
// (2BP01), renamed or altered (42939), as in PostgreSQL.
//   pg_read_server_files       COPY ... FROM 'file'
//   pg_write_server_files      COPY ... TO 'file'
//   pg_execute_server_program  COPY ... FROM/TO PROGRAM 'cmd'
#pragma once

#include <array>

#include "catalog/catalog_defs.h"

namespace hearth::catalog {

inline constexpr Oid kPgReadServerFilesOid = 4569;
inline constexpr Oid kPgWriteServerFilesOid = 4570;
inline constexpr Oid kPgExecuteServerProgramOid = 4571;

struct PredefinedRole {
  Oid oid;
  const char* name;
};
inline constexpr std::array<PredefinedRole, 3> kPredefinedRoles = {{
    {kPgReadServerFilesOid, "pg_read_server_files"},
    {kPgWriteServerFilesOid, "pg_write_server_files"},
    {kPgExecuteServerProgramOid, "pg_execute_server_program"},
}};

inline bool IsPredefinedRole(Oid oid) {
  for (const PredefinedRole& r : kPredefinedRoles) {
    if (r.oid == oid) return true;
  }
  return false;
}

}  // namespace hearth::catalog
