// catalog/schema_ddl.cpp
//
// Principal entry points: CreateSchema, DropSchemas, AlterSchema.
#include "catalog/schema_ddl.h"

#include "access/heap/heapam.h"
#include "access/transam/xact.h"
#include "catalog/catalog_shared.h"
#include "catalog/default_acl.h"
#include "catalog/ddl_internal.h"
#include "catalog/description_catalog.h"
#include "catalog/index_ddl.h"
#include "catalog/namespace_catalog.h"
#include "catalog/owner_ddl.h"
#include "catalog/pending_delete.h"
#include "catalog/privileges.h"
#include "catalog/role_catalog.h"
#include "catalog/role_ddl.h"
#include "catalog/sequence_ddl.h"
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "catalog/database_privileges.h"
#include "storage/lmgr/lock.h"

namespace hearth::catalog {

// Schema DDL serialises on one object lock, and every change moves the
// catalog version so other sessions reload their schema cache.
void LockSchemaCatalog() {
  storage::LockAcquire(storage::LockTag::Object(kHearthNamespaceOid, 0), storage::LockMode::kExclusive);
  MarkCatalogChanged(kHearthNamespaceOid);
}

void UpdateSchemaRow(const SchemaTuple& t, const SchemaFields& f) {
  heap::TmFailureData fd;
  heap::ItemPointer new_tid;
  if (heap::HeapUpdate(NamespaceCatalogRel(), t.tid, NamespaceTupleDesc(), MakeSchemaRow(f),
                       access::GetCurrentTransactionId(), access::GetCurrentCommandId(true), nullptr, true, &fd,
                       &new_tid) != access::TmResult::kOk) {
    throw DbError("XX000", "tuple concurrently updated");
  }
  access::CommandCounterIncrement();
  InvalidateSchemaCache();
}

namespace {

// CREATE on the current database (CREATE SCHEMA, ALTER SCHEMA RENAME).
bool CurrentUserHasDatabaseCreate() {
  if (CurrentUserIsSuperuser()) return true;
  auto db = FindDatabaseByOid(MyDatabaseId());
  return db && DatabasePrivileges(db->db, GetCurrentUserId(), kAclCreate) != 0;
}

void CheckSchemaName(const std::string& name) {
  if (name.rfind("pg_", 0) == 0) {
    throw DbError("42939", "unacceptable schema name \"" + name + "\"")
        .WithDetail("The prefix \"pg_\" is reserved for system schemas.");
  }
}

bool IsFixedSchema(const std::string& name) { return name == "public" || name == "pg_catalog"; }

[[noreturn]] void NotOwner(const std::string& name) {
  throw DbError(sqlstate::kInsufficientPrivilege, "must be owner of schema " + name);
}

void CheckOwner(const SchemaFields& f) {
  if (!CurrentUserIsSuperuser() && !HasPrivsOfRole(GetCurrentUserId(), f.owner)) NotOwner(f.name);
}


std::string RelkindWord(const std::string& relkind) {
  if (relkind == "S") return "sequence";
  if (relkind == "v") return "view";
  return "table";
}

// Drops what the schema holds (tables with their indexes and owned
// sequences, then the sequences left); describes them for the notices.
std::vector<std::string> DropContents(Oid ns, const std::string& schema, bool cascade) {
  std::vector<parser::RangeVar> tables, sequences;
  std::vector<std::string> described;
  for (const internal::CatalogTuple& t : internal::FindClassesInNamespace(ns)) {
    const std::string kind = t.row[kClassRelkind].str;
    if (kind != "r" && kind != "S") continue;
    parser::RangeVar rv;
    rv.schema = schema;
    rv.name = t.row[kClassRelname].str;
    (kind == "r" ? tables : sequences).push_back(rv);
    described.push_back(RelkindWord(kind) + " " + schema + "." + rv.name);
  }
  if (described.empty() || !cascade) return described;
  if (!tables.empty()) DropTablesWithIndexes(tables, /*if_exists=*/true);
  if (!sequences.empty()) DropSequences(sequences, /*if_exists=*/true, parser::DropBehavior::kCascade);
  return described;
}

}  // namespace

DdlResult CreateSchema(const parser::CreateSchemaStmt& stmt, Oid session_user, const std::string& database) {
  DdlResult result;
  Oid owner = GetCurrentUserId();
  if (!stmt.authorization.empty()) owner = RoleSpecOid(stmt.authorization, session_user);
  std::string name = stmt.name;
  if (name.empty()) {
    auto role = FindRoleByOid(owner);
    name = role ? role->role.name : stmt.authorization;
  }
  name = internal::DdlTruncateName(name);
  if (!CurrentUserHasDatabaseCreate()) {
    throw DbError(sqlstate::kInsufficientPrivilege, "permission denied for database " + database);
  }
  LockSchemaCatalog();
  if (IsFixedSchema(name) || FindSchemaRow(name)) {
    if (stmt.if_not_exists) {
      result.notices.emplace_back("42P06", "schema \"" + name + "\" already exists, skipping");
      return result;
    }
    throw DbError("42P06", "schema \"" + name + "\" already exists");
  }
  CheckSchemaName(name);
  SchemaFields f;
  f.oid = GetNewObjectId();
  f.name = name;
  f.owner = owner;
  f.acl = NewObjectAcl('n', owner, 0);  // ALTER DEFAULT PRIVILEGES ... ON SCHEMAS
  heap::HeapInsert(NamespaceCatalogRel(), NamespaceTupleDesc(), MakeSchemaRow(f), access::GetCurrentTransactionId(),
                   access::GetCurrentCommandId(true));
  access::CommandCounterIncrement();
  InvalidateSchemaCache();
  result.oid = f.oid;
  result.count = 1;
  return result;
}

DdlResult DropSchemas(const parser::DropStmt& stmt) {
  DdlResult result;
  LockSchemaCatalog();
  const bool cascade = stmt.behavior == parser::DropBehavior::kCascade;
  for (const parser::RangeVar& rv : stmt.objects) {
    if (IsFixedSchema(rv.name)) {
      throw DbError("2BP01", "cannot drop schema " + rv.name + " because it is required by the database system");
    }
    std::optional<SchemaTuple> t = FindSchemaRow(rv.name);
    if (!t) {
      if (stmt.if_exists) {
        result.notices.emplace_back("00000", "schema \"" + rv.name + "\" does not exist, skipping");
        continue;
      }
      throw DbError(sqlstate::kInvalidSchemaName, "schema \"" + rv.name + "\" does not exist");
    }
    CheckOwner(t->schema);
    std::vector<std::string> contents = DropContents(t->schema.oid, rv.name, cascade);
    if (!contents.empty() && !cascade) {
      std::string detail;
      for (const std::string& c : contents) detail += (detail.empty() ? "" : "\n") + c + " depends on schema " + rv.name;
      throw DbError("2BP01", "cannot drop schema " + rv.name + " because other objects depend on it")
          .WithDetail(detail)
          .WithHint("Use DROP ... CASCADE to drop the dependent objects too.");
    }
    if (contents.size() == 1) {
      result.notices.emplace_back("00000", "drop cascades to " + contents[0]);
    } else if (contents.size() > 1) {
      std::string detail;
      for (const std::string& c : contents) detail += (detail.empty() ? "" : "\n") + std::string("drop cascades to ") + c;
      result.notices.emplace_back("00000", "drop cascades to " + std::to_string(contents.size()) + " other objects",
                                  std::string(), detail);
    }
    internal::DdlDeleteCatalogTuple(NamespaceCatalogRel(), t->tid, access::GetCurrentTransactionId(),
                                    access::GetCurrentCommandId(true));
    access::CommandCounterIncrement();
    InvalidateSchemaCache();
    DeleteDescriptions(t->schema.oid, kPgNamespaceClassOid);
    ++result.count;
  }
  return result;
}

DdlResult AlterSchema(const parser::AlterSchemaStmt& stmt, Oid session_user, const std::string& database) {
  DdlResult result;
  LockSchemaCatalog();
  if (IsFixedSchema(stmt.name)) {
    throw DbError(sqlstate::kFeatureNotSupported, "cannot alter schema " + stmt.name + " (it is fixed)");
  }
  std::optional<SchemaTuple> t = FindSchemaRow(stmt.name);
  if (!t) throw DbError(sqlstate::kInvalidSchemaName, "schema \"" + stmt.name + "\" does not exist");
  SchemaFields f = t->schema;
  if (!stmt.new_name.empty()) {
    CheckOwner(f);
    if (!CurrentUserHasDatabaseCreate()) {
      throw DbError(sqlstate::kInsufficientPrivilege, "permission denied for database " + database);
    }
    const std::string name = internal::DdlTruncateName(stmt.new_name);
    if (IsFixedSchema(name) || FindSchemaRow(name)) throw DbError("42P06", "schema \"" + name + "\" already exists");
    CheckSchemaName(name);
    f.name = name;
  } else {
    const Oid owner = RoleSpecOid(stmt.new_owner, session_user);
    if (owner == f.owner) return result;
    CheckOwner(f);
    if (!CurrentUserIsSuperuser() && !IsMemberOfRole(GetCurrentUserId(), owner)) {
      auto role = FindRoleByOid(owner);
      throw DbError(sqlstate::kInsufficientPrivilege,
                    "must be member of role \"" + (role ? role->role.name : std::to_string(owner)) + "\"");
    }
    f.owner = owner;
  }
  UpdateSchemaRow(*t, f);
  result.count = 1;
  return result;
}

}  // namespace hearth::catalog
