// catalog/acl.h
//
// Table privileges as PostgreSQL stores them: an ACL is a list of aclitems,
// written in PostgreSQL's text form `{grantee=privs/grantor,...}` (grantee
// empty for PUBLIC; privilege letters a INSERT, r SELECT, w UPDATE,
// d DELETE, D TRUNCATE, x REFERENCES, t TRIGGER, X EXECUTE, U USAGE,
// C CREATE, T TEMPORARY, c CONNECT, each followed by `*` when
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
  kAclExecute = 1u << 7,
  kAclUsage = 1u << 8,
  kAclCreate = 1u << 9,
  kAclTemporary = 1u << 10,
  kAclConnect = 1u << 11,
};
inline constexpr uint32_t kAclAllTable = 0x7f;
// What a sequence's owner holds by default: SELECT, UPDATE, USAGE (rwU).
inline constexpr uint32_t kAclAllSequence = kAclSelect | kAclUpdate | kAclUsage;
// The privileges a column can carry: SELECT, INSERT, UPDATE, REFERENCES.
inline constexpr uint32_t kAclAllColumn = kAclSelect | kAclInsert | kAclUpdate | kAclReferences;

struct AclItem {
  Oid grantee = 0;  // 0: PUBLIC
  Oid grantor = 0;
  uint32_t privs = 0;
  uint32_t grant_options = 0;  // subset of privs
};
using Acl = std::vector<AclItem>;

// The ACL in force: `stored` (relacl) or the owner's default (`owner_privs`).
Acl EffectiveAcl(const std::optional<std::string>& stored, Oid owner,
                 const std::function<Oid(const std::string&)>& role_oid, uint32_t owner_privs = kAclAllTable);
// PostgreSQL's text form; `role_name` of an unknown oid may return its number.
std::string FormatAcl(const Acl& acl, const std::function<std::string(Oid)>& role_name);
// Parses the text form; nullopt when malformed or naming an unknown role.
std::optional<Acl> ParseAcl(const std::string& text, const std::function<Oid(const std::string&)>& role_oid);

// The privileges of `acl` that role `role` holds directly or through PUBLIC
// or through `has_privs_of(role, grantee)`.
uint32_t AclMask(const Acl& acl, Oid role, const std::function<bool(Oid member, Oid role)>& has_privs_of);

using HasPrivsOfFn = std::function<bool(Oid member, Oid role)>;

// Adds privileges of `grantee` granted by `grantor`.
void AclGrant(Acl& acl, Oid grantee, Oid grantor, uint32_t privs, bool with_grant_option);

// The grant options `role` holds on an object owned by `owner` (the owner
// holds them all), directly, through PUBLIC or through roles it has the
// privileges of.
uint32_t AclGrantOptionMask(const Acl& acl, Oid role, Oid owner, const HasPrivsOfFn& has_privs_of);
// The grant options of items naming `role` itself (PostgreSQL's
// aclmask_direct), all of them for the owner.
uint32_t AclDirectGrantOptions(const Acl& acl, Oid role, Oid owner);
// PostgreSQL's check_circularity: 0LP01 `grant options cannot be granted
// back to your own grantor` when `grantor` holds `goptions` only through
// grants that depend on `grantee`.
void AclCheckCircularity(const Acl& acl, Oid grantee, Oid grantor, uint32_t goptions, Oid owner,
                         const HasPrivsOfFn& has_privs_of);
// Removes `privs` (or only their grant options) from the item (grantee,
// grantor); grant options the grantee thereby loses are revoked from what
// it granted on (cascade), or 2BP01 `dependent privileges exist` without
// `cascade`.
void AclRevokeFrom(Acl& acl, Oid grantee, Oid grantor, uint32_t privs, bool grant_option_only, Oid owner,
                   bool cascade, const HasPrivsOfFn& has_privs_of);

// PostgreSQL's aclnewowner: `old_owner` becomes `new_owner` as grantee and
// grantor; items that then coincide are merged (first place kept).
Acl AclNewOwner(const Acl& acl, Oid old_owner, Oid new_owner);

// "SELECT" → kAclSelect, ...; 0 for an unknown name.
uint32_t TablePrivilegeByName(const std::string& lower_name);
// kAclSelect → "SELECT" (one bit).
const char* TablePrivilegeName(uint32_t priv);

}  // namespace hearth::catalog
