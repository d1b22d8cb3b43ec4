// catalog/acl.h
//
// Table privileges as PostgreSQL stores them: an ACL is a list of aclitems,
// written in PostgreSQL's text form `{grantee=privs/grantor,...}` (grantee
// empty for PUBLIC; privilege letters a INSERT, r SELECT, w UPDATE,
// d DELETE, D TRUNCATE, x REFERENCES, t TRIGGER, each followed by `*` when
// held WITH GRANT OPTION). A relation without an ACL (relacl NULL) has the
// default: everything for its owner, nothing for anyone else. Pure
// functions; role names are resolved by the caller's callbacks.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog_defs.h"

namespace hearth::catalog {

// Privilege bits (PostgreSQL's ACL_* order).
enum AclPriv : uint32_t {
  kAclInsert = 1u << 0,
  kAclSelect = 1u << 1,
  kAclUpdate = 1u << 2,
  kAclDelete = 1u << 3,
  kAclTruncate = 1u << 4,
  kAclReferences = 1u << 5,
  kAclTrigger = 1u << 6,
};
inline constexpr uint32_t kAclAllTable = 0x7f;

struct AclItem {
  Oid grantee = 0;  // 0: PUBLIC
  Oid grantor = 0;
  uint32_t privs = 0;
  uint32_t grant_options = 0;  // subset of privs
};
using Acl = std::vector<AclItem>;

// The ACL in force: `stored` (relacl) or the owner's default.
Acl EffectiveAcl(const std::optional<std::string>& stored, Oid owner,
                 const std::function<Oid(const std::string&)>& role_oid);
// PostgreSQL's text form; `role_name` of an unknown oid may return its number.
std::string FormatAcl(const Acl& acl, const std::function<std::string(Oid)>& role_name);
// Parses the text form; nullopt when malformed or naming an unknown role.
std::optional<Acl> ParseAcl(const std::string& text, const std::function<Oid(const std::string&)>& role_oid);

// The privileges of `acl` that role `role` holds directly or through PUBLIC
// or through `has_privs_of(role, grantee)`.
uint32_t AclMask(const Acl& acl, Oid role, const std::function<bool(Oid member, Oid role)>& has_privs_of);

// Adds / removes privileges of `grantee` granted by `grantor`.
void AclGrant(Acl& acl, Oid grantee, Oid grantor, uint32_t privs, bool with_grant_option);
void AclRevoke(Acl& acl, Oid grantee, uint32_t privs, bool grant_option_only);

// "SELECT" → kAclSelect, ...; 0 for an unknown name.
uint32_t TablePrivilegeByName(const std::string& lower_name);
// kAclSelect → "SELECT" (one bit).
const char* TablePrivilegeName(uint32_t priv);

}  // namespace hearth::catalog
