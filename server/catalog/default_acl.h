// catalog/default_acl.h
//
// Default privileges (ALTER DEFAULT PRIVILEGES): hearth_default_acl (826,
// PostgreSQL's pg_default_acl, one per database) with the columns
// `oid oid, defaclrole oid, defaclnamespace oid, defaclobjtype text,
// defaclacl text` (objtype 'r' tables and views, 'S' sequences, 'f'
// functions, 'T' types, 'n' schemas; namespace 0 = every schema; the ACL
// in aclitem text form naming roles, rewritten when one is renamed).
// pg_default_acl is a view over it with PostgreSQL 15's columns.
//
// As PostgreSQL: an entry without a schema replaces the built-in default
// of its kind (and is removed when it equals it again); an entry for a
// schema adds to it (removed when empty). A new table, view, sequence,
// function or schema owned by role R in schema N gets the merge of R's
// entry without a schema (or the built-in default) and R's entry for N;
// when that is the built-in default the object keeps a NULL ACL.
//
// Reads go through a per-backend cache of every row (rebuilt when the
// catalog version moves or this transaction changed a row).
//
// Process safety: per-backend; REQUIRES a transaction in progress.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog_defs.h"
#include "parser/ast.h"

namespace hearth::catalog {

inline constexpr Oid kHearthDefaultAclOid = 826;
inline constexpr char kHearthDefaultAclName[] = "hearth_default_acl";

enum DefaultAclCol : int { kDefaclOid = 0, kDefaclRole, kDefaclNamespace, kDefaclObjtype, kDefaclAcl, kDefaclNatts };

const heap::TupleDesc& DefaultAclTupleDesc();

// False for a data directory made before default privileges existed
// (ALTER DEFAULT PRIVILEGES is then 0A000 and nothing is applied).
bool DefaultAclCatalogExists();

struct DefaultAclEntry {
  Oid oid = 0;
  Oid role = 0;
  Oid ns = 0;
  char objtype = 'r';
  std::string acl;  // aclitem text form
};
// Every entry of this database (per-backend cache).
const std::vector<DefaultAclEntry>& DefaultAcls();

// ALTER DEFAULT PRIVILEGES, as the acting role.
void AlterDefaultPrivileges(const parser::AlterDefaultPrivilegesStmt& stmt);

// The ACL text a new object of `objtype` owned by `owner` in schema `ns`
// (0 for a schema) starts with; nullopt for the built-in default (NULL).
std::optional<std::string> NewObjectAcl(char objtype, Oid owner, Oid ns);
// The same for a relation of `relkind` ('r', 'p', 'v', 'S', ...).
std::optional<std::string> NewRelationAcl(char relkind, Oid owner, Oid ns);

// Role `oid` was renamed: entries naming it in their ACL are rewritten.
void RenameRoleInDefaultAcls(Oid oid, const std::string& old_name, const std::string& new_name);
// DROP ROLE's 2BP01 lines for `role`: "owner of default privileges on new
// relations belonging to role r [in schema s]" and "privileges for ...".
std::vector<std::string> DefaultAclDependencies(Oid role);
// DROP OWNED: removes the entries of `role` and its items in others'.
void DropDefaultAclsOf(Oid role);

}  // namespace hearth::catalog
