// catalog/owner_ddl.cpp
//
// Principal entry points: AlterRelationOwner, ChangeRelationOwner.
#include "catalog/owner_ddl.h"

#include "access/transam/xact.h"
#include "catalog/catalog_indexes.h"
#include "catalog/catalog_rows.h"
#include "catalog/catalog_shared.h"
#include "catalog/ddl_internal.h"
#include "catalog/pending_delete.h"
#include "catalog/privileges.h"
#include "catalog/privileges_internal.h"
#include "catalog/role_catalog.h"
#include "catalog/role_ddl.h"
#include "catalog/sequence_catalog.h"
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"

namespace hearth::catalog {

namespace {

const char* KindWord(parser::ObjectType t) {
  switch (t) {
    case parser::ObjectType::kSequence: return "a sequence";
    case parser::ObjectType::kIndex: return "an index";
    case parser::ObjectType::kView: return "a view";
    default: return "a table";
  }
}

void RejectWrongKind(parser::ObjectType wanted, char relkind, const std::string& name) {
  const bool ok = (wanted == parser::ObjectType::kTable) ||
                  (wanted == parser::ObjectType::kSequence && relkind == 'S') ||
                  (wanted == parser::ObjectType::kView && relkind == 'v');
  if (!ok) throw DbError("42809", "\"" + name + "\" is not " + KindWord(wanted));
}

// ALTER INDEX / ALTER TABLE naming an index: the owner is the table's.
DdlResult AlterIndexOwner(const parser::AlterOwnerStmt& stmt, const internal::CatalogTuple& index,
                          const std::string& name, Oid session_user) {
  DdlResult result;
  RelationRef table =
      OpenRelationByOid(internal::RowOid(index.row, kIndIndrelid), storage::LockMode::kAccessExclusive);
  if (table == nullptr) throw DbError(sqlstate::kUndefinedTable, "relation \"" + name + "\" does not exist");
  CheckOwnership(table->owner, "index", name);
  if (internal::RowOid(index.row, kIndNamespace) == kPgCatalogNamespace) {
    throw DbError("42501", "permission denied: \"" + name + "\" is a system catalog");
  }
  if (stmt.object_type == parser::ObjectType::kSequence || stmt.object_type == parser::ObjectType::kView) {
    throw DbError("42809", "\"" + name + "\" is not " + KindWord(stmt.object_type));
  }
  if (RoleSpecOid(stmt.new_owner, session_user) != table->owner) {
    result.notices.push_back({"01000", "cannot change owner of index \"" + name + "\"",
                              "Change the ownership of the index's table, instead."});
  }
  return result;
}

void CheckMayGiveTo(Oid new_owner) {
  if (CurrentUserIsSuperuser() || IsMemberOfRole(GetCurrentUserId(), new_owner)) return;
  throw DbError(sqlstate::kInsufficientPrivilege, "must be member of role \"" + AclRoleName(new_owner) + "\"");
}

}  // namespace

Oid RoleSpecOid(const std::string& spec, Oid session_user) {
  if (spec == "current_user" || spec == "current_role") return OwnerForNewObject();
  if (spec == "session_user") return session_user != 0 ? session_user : OwnerForNewObject();
  const Oid oid = spec == "public" ? 0 : AclRoleOid(spec);
  if (oid == 0) throw DbError(sqlstate::kUndefinedObject, "role \"" + spec + "\" does not exist");
  return oid;
}

void ChangeRelationOwner(Oid relid, Oid new_owner) {
  auto cls = internal::FindClassByOid(relid);
  if (!cls) throw DbError("XX000", "cache lookup failed for relation " + std::to_string(relid));
  const Oid old_owner = internal::RowOid(cls->row, kClassRelowner);
  if (old_owner == new_owner) return;
  heap::Row row = cls->row;
  row[kClassRelowner] = types::Value::Int(types::kOidOid, new_owner);
  if (!row[kClassRelacl].is_null) {
    if (auto acl = ParseAcl(row[kClassRelacl].str, AclRoleOid)) {
      row[kClassRelacl] = types::Value::Text(FormatAcl(AclNewOwner(*acl, old_owner, new_owner), AclRoleName));
    }
  }
  MarkCatalogChanged(relid);
  internal::CatalogUpdate(kHearthClassOid, cls->tid, row, access::GetCurrentTransactionId(),
                          access::GetCurrentCommandId(true));
  access::CommandCounterIncrement();
  internal::RewriteColumnAcls(relid, AclRoleOid, AclRoleName, [&](Acl& acl) {
    acl = AclNewOwner(acl, old_owner, new_owner);
    return true;
  });
  const std::string relkind = cls->row[kClassRelkind].str;
  if (relkind == "S") return;
  for (const internal::CatalogTuple& seq : FindSequencesOwnedBy(relid)) {
    ChangeRelationOwner(internal::RowOid(seq.row, kSeqRelid), new_owner);
  }
}

DdlResult AlterRelationOwner(const parser::AlterOwnerStmt& stmt, Oid session_user) {
  DdlResult result;
  const std::string name = internal::DdlTruncateName(stmt.object.name);
  const Oid ns = NamespaceOid(stmt.object.schema);
  RelationRef e = nullptr;
  if (ns != types::kInvalidOid && stmt.object_type != parser::ObjectType::kIndex) {
    e = OpenRelation(stmt.object.schema, name, storage::LockMode::kAccessExclusive);
  }
  if (e == nullptr) {
    if (auto index = ns == types::kInvalidOid ? std::nullopt : internal::FindIndexByName(ns, name)) {
      return AlterIndexOwner(stmt, *index, name, session_user);
    }
    if (stmt.object_type == parser::ObjectType::kIndex && LookupRelation(stmt.object.schema, name) != nullptr) {
      e = OpenRelation(stmt.object.schema, name, storage::LockMode::kAccessExclusive);
    }
  }
  if (e == nullptr) {
    if (stmt.if_exists) {
      result.notices.push_back({"00000", "relation \"" + name + "\" does not exist, skipping"});
      return result;
    }
    throw DbError(sqlstate::kUndefinedTable, "relation \"" + name + "\" does not exist");
  }
  CheckOwnership(*e);
  internal::DdlRejectSystemCatalog(*e);
  RejectWrongKind(stmt.object_type, e->relkind, name);
  const Oid new_owner = RoleSpecOid(stmt.new_owner, session_user);
  if (new_owner == e->owner) return result;
  if (e->relkind == 'S' && e->sequence && e->sequence->owner_rel != 0) {
    RelationRef table = LookupRelationByOid(e->sequence->owner_rel);
    throw DbError(sqlstate::kFeatureNotSupported, "cannot change owner of sequence \"" + name + "\"")
        .WithDetail("Sequence \"" + name + "\" is linked to table \"" + (table ? table->info.name : "?") + "\".");
  }
  CheckMayGiveTo(new_owner);
  ChangeRelationOwner(e->oid, new_owner);
  result.count = 1;
  return result;
}

}  // namespace hearth::catalog
