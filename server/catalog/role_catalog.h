// catalog/role_catalog.h
//
// pg_authid (oid 1260) and pg_auth_members (oid 1261): the roles and role
// memberships, as heap catalogs in pg_catalog with PostgreSQL 15's columns
// (so `SELECT ... FROM pg_authid` reads the catalog itself). Transactional
// and WAL-logged like every catalog row. Role names are few and role DDL
// rare, so lookups scan (no catalog index); role DDL serialises on one
// object lock (LockRoleCatalog).
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

inline constexpr Oid kPgAuthidOid = 1260;
inline constexpr Oid kPgAuthMembersOid = 1261;
inline constexpr char kPgAuthidName[] = "pg_authid";
inline constexpr char kPgAuthMembersName[] = "pg_auth_members";
inline storage::RelFileLocator AuthidRel() { return CatalogRel(kPgAuthidOid); }
inline storage::RelFileLocator AuthMembersRel() { return CatalogRel(kPgAuthMembersOid); }

// Column numbers (0-based positions) of pg_authid.
enum AuthidCol : int {
  kAuthOid = 0,
  kAuthRolname,         // name
  kAuthRolsuper,        // bool
  kAuthRolinherit,      // bool
  kAuthRolcreaterole,   // bool
  kAuthRolcreatedb,     // bool
  kAuthRolcanlogin,     // bool
  kAuthRolreplication,  // bool
  kAuthRolbypassrls,    // bool
  kAuthRolconnlimit,    // int4 (-1: no limit)
  kAuthRolpassword,     // text: SCRAM verifier or md5 hash; NULL: none
  kAuthRolvaliduntil,   // timestamptz; NULL: forever
  kAuthNatts
};

// Column numbers of pg_auth_members.
enum AuthMembersCol : int { kMemRoleid = 0, kMemMember, kMemGrantor, kMemAdminOption, kMemNatts };

const heap::TupleDesc& AuthidTupleDesc();
const heap::TupleDesc& AuthMembersTupleDesc();

// One pg_authid row.
struct RoleFields {
  Oid oid = 0;
  std::string name;
  bool superuser = false;
  bool inherit = true;
  bool createrole = false;
  bool createdb = false;
  bool canlogin = false;
  bool replication = false;
  bool bypassrls = false;
  int32_t connlimit = -1;
  std::optional<std::string> password;
  std::optional<int64_t> valid_until;  // µs since 2000-01-01 UTC
};
heap::Row MakeRoleRow(const RoleFields& f);
RoleFields ParseRoleRow(const heap::Row& r);

struct RoleTuple {
  heap::ItemPointer tid;
  RoleFields role;
};
std::optional<RoleTuple> FindRoleByName(const std::string& name);
std::optional<RoleTuple> FindRoleByOid(Oid oid);
std::vector<RoleFields> ListRoles();

struct MembershipRow {
  heap::ItemPointer tid;
  Oid roleid = 0;
  Oid member = 0;
  Oid grantor = 0;
  bool admin_option = false;
};
// Every membership row (physical order).
std::vector<MembershipRow> ListMemberships();
heap::Row MakeMembershipRow(Oid roleid, Oid member, Oid grantor, bool admin_option);

// ExclusiveLock serialising role DDL (to transaction end); also marks the
// role catalog changed (invalidation at commit).
void LockRoleCatalog();

// Bootstrap: the pg_authid row of the initial superuser (oid 10).
RoleFields BootstrapSuperuser(const std::string& name);

}  // namespace hearth::catalog
