// catalog/comment_ddl.cpp
//
// Principal entry points: CommentOn, CommentOnFunction.
#include "catalog/comment_ddl.h"

#include "catalog/database_catalog.h"

#include "catalog/catalog_rows.h"
#include "catalog/cluster_catalog.h"
#include "catalog/constraint_catalog.h"
#include "catalog/description_catalog.h"
#include "catalog/namespace_catalog.h"
#include "catalog/privileges.h"
#include "catalog/relation_inspect.h"
#include "catalog/relcache.h"
#include "catalog/role_catalog.h"
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "storage/smgr/smgr.h"

namespace hearth::catalog {

namespace {

using parser::CommentObject;

std::string Qualified(const parser::RangeVar& rv) { return rv.schema.empty() ? rv.name : rv.schema + "." + rv.name; }

[[noreturn]] void NoRelation(const parser::RangeVar& rv) {
  throw DbError(sqlstate::kUndefinedTable, "relation \"" + Qualified(rv) + "\" does not exist");
}

// The index `rv` names: (index oid, its table), or nullopt.
std::optional<std::pair<Oid, RelationRef>> FindIndex(const parser::RangeVar& rv) {
  std::optional<Oid> oid = RelationOidByName(rv.schema, rv.name);
  if (!oid) return std::nullopt;
  std::optional<internal::CatalogTuple> row = internal::FindIndexByOid(*oid);
  if (!row) return std::nullopt;
  RelationRef table = OpenRelationByOid(internal::RowOid(row->row, kIndIndrelid), storage::LockMode::kShareUpdateExclusive);
  if (!table) return std::nullopt;
  return std::make_pair(*oid, table);
}

// The table, view or sequence `rv` names, locked against a concurrent DROP
// (PostgreSQL's ShareUpdateExclusiveLock), of the kind the statement says.
RelationRef OpenCommentedRelation(const parser::CommentStmt& stmt) {
  RelationRef rel = OpenRelation(stmt.relation.schema, stmt.relation.name, storage::LockMode::kShareUpdateExclusive);
  const char* want = nullptr;
  char relkind = 0;
  switch (stmt.object) {
    case CommentObject::kTable: want = "a table"; relkind = 'r'; break;
    case CommentObject::kView: want = "a view"; relkind = 'v'; break;
    case CommentObject::kSequence: want = "a sequence"; relkind = 'S'; break;
    default: break;  // COLUMN, CONSTRAINT: any table, view or sequence
  }
  if (!rel) {
    if (relkind != 0 && FindIndex(stmt.relation)) {
      throw DbError(sqlstate::kWrongObjectType, "\"" + stmt.relation.name + "\" is not " + want);
    }
    NoRelation(stmt.relation);
  }
  if (relkind != 0 && rel->relkind != relkind) {
    throw DbError(sqlstate::kWrongObjectType, "\"" + stmt.relation.name + "\" is not " + want);
  }
  return rel;
}

void CommentOnIndex(const parser::CommentStmt& stmt) {
  auto index = FindIndex(stmt.relation);
  if (!index) {
    if (LookupRelation(stmt.relation.schema, stmt.relation.name)) {
      throw DbError(sqlstate::kWrongObjectType, "\"" + stmt.relation.name + "\" is not an index");
    }
    NoRelation(stmt.relation);
  }
  CheckOwnership(index->second->owner, "index", stmt.relation.name);
  SetDescription(index->first, kPgClassClassOid, 0, stmt.comment);
}

// COLUMN [schema.]rel.col: 42601 for a bare or over-long name.
void CommentOnColumn(const parser::CommentStmt& given) {
  const std::vector<std::string>& parts = given.column_path;
  if (parts.size() < 2) throw DbError(sqlstate::kSyntaxError, "column name must be qualified");
  if (parts.size() > 3) {
    std::string joined;
    for (const std::string& p : parts) joined += (joined.empty() ? "" : ".") + p;
    throw DbError(sqlstate::kSyntaxError, "improper qualified name (too many dotted names): " + joined);
  }
  parser::CommentStmt stmt;
  stmt.object = CommentObject::kColumn;
  stmt.relation.name = parts[parts.size() - 2];
  if (parts.size() == 3) stmt.relation.schema = parts[0];
  const std::string& column = parts.back();
  RelationRef rel = OpenCommentedRelation(stmt);
  const auto& cols = rel->info.columns;
  int attnum = 0;
  for (size_t i = 0; i < cols.size(); ++i) {
    if (cols[i].name == column && !cols[i].system_column) attnum = static_cast<int>(i) + 1;
  }
  if (attnum == 0) {
    throw DbError(sqlstate::kUndefinedColumn,
                  "column \"" + column + "\" of relation \"" + stmt.relation.name + "\" does not exist");
  }
  CheckOwnership(rel->owner, "relation", rel->info.name);  // PostgreSQL's wording for columns
  SetDescription(rel->oid, kPgClassClassOid, attnum, given.comment);
}

// A constraint's oid: a CHECK or FOREIGN KEY row, or (PRIMARY KEY, UNIQUE)
// the index that is the constraint.
void CommentOnConstraint(const parser::CommentStmt& stmt) {
  RelationRef rel = OpenCommentedRelation(stmt);
  Oid oid = 0;
  if (auto con = FindConstraintByName(rel->oid, stmt.name)) {
    oid = internal::RowOid(con->row, kConOid);
  } else {
    for (const IndexEntry& ix : rel->indexes) {
      if (ix.desc.name == stmt.name && ix.unique) oid = ix.oid;
    }
  }
  if (oid == 0) {
    throw DbError(sqlstate::kUndefinedObject,
                  "constraint \"" + stmt.name + "\" for table \"" + stmt.relation.name + "\" does not exist");
  }
  CheckOwnership(*rel);
  SetDescription(oid, kPgConstraintClassOid, 0, stmt.comment);
}

void CommentOnSchema(const parser::CommentStmt& stmt) {
  const Oid ns = NamespaceOidUnchecked(stmt.name);  // ownership, not USAGE, decides
  if (ns == types::kInvalidOid) {
    throw DbError(sqlstate::kInvalidSchemaName, "schema \"" + stmt.name + "\" does not exist");
  }
  CheckOwnership(SchemaOwner(ns), "schema", stmt.name);
  SetDescription(ns, kPgNamespaceClassOid, 0, stmt.comment);
}

// PostgreSQL 15: a superuser's comment needs a superuser; any other
// role's needs CREATEROLE.
void CommentOnRole(const parser::CommentStmt& stmt) {
  auto role = FindRoleByName(stmt.name);
  if (!role) throw DbError(sqlstate::kUndefinedObject, "role \"" + stmt.name + "\" does not exist");
  if (!CurrentUserIsSuperuser()) {
    if (role->role.superuser) throw DbError(sqlstate::kInsufficientPrivilege, "must be superuser");
    auto me = FindRoleByOid(GetCurrentUserId());
    if (!me || !me->role.createrole) {
      throw DbError(sqlstate::kInsufficientPrivilege, "must have CREATEROLE privilege");
    }
  }
  SetDescription(role->role.oid, kPgAuthidClassOid, 0, stmt.comment);
}

void CommentOnDatabase(const parser::CommentStmt& stmt) {
  const std::optional<DatabaseTuple> db = FindDatabaseByName(stmt.name);
  if (!db) throw DbError("3D000", "database \"" + stmt.name + "\" does not exist");
  CheckOwnership(db->db.owner, "database", stmt.name);
  SetDescription(db->db.oid, kPgDatabaseClassOid, 0, stmt.comment);
}

}  // namespace

void CommentOn(const parser::CommentStmt& stmt) {
  if (!DescriptionCatalogsExist()) {
    throw DbError(sqlstate::kFeatureNotSupported, "this data directory predates comments (run hearthd init again)");
  }
  switch (stmt.object) {
    case CommentObject::kIndex: return CommentOnIndex(stmt);
    case CommentObject::kColumn: return CommentOnColumn(stmt);
    case CommentObject::kConstraint: return CommentOnConstraint(stmt);
    case CommentObject::kSchema: return CommentOnSchema(stmt);
    case CommentObject::kRole: return CommentOnRole(stmt);
    case CommentObject::kDatabase: return CommentOnDatabase(stmt);
    case CommentObject::kFunction:
    case CommentObject::kProcedure:
      throw DbError("XX000", "COMMENT ON FUNCTION needs the resolved function");
    default: {
      RelationRef rel = OpenCommentedRelation(stmt);
      CheckOwnership(*rel);
      SetDescription(rel->oid, kPgClassClassOid, 0, stmt.comment);
    }
  }
}

void CommentOnFunction(const ProcInfo& fn, const std::optional<std::string>& comment) {
  if (!DescriptionCatalogsExist()) {
    throw DbError(sqlstate::kFeatureNotSupported, "this data directory predates comments (run hearthd init again)");
  }
  CheckOwnership(fn.owner, fn.kind == 'p' ? "procedure" : "function", fn.name);
  SetDescription(fn.oid, kPgProcClassOid, 0, comment);
}

}  // namespace hearth::catalog
