// catalog/alter_table.cpp
//
// Principal entry points: OpenTableForAlter, AlterColumnDefault,
// AlterColumnSetNotNull, AlterColumnDropNotNull, RenameColumn,
// AddColumnWithoutRewrite, ValidateNewColumn, FinishTableRewrite.
#include "catalog/alter_table.h"

#include <algorithm>
#include <stdexcept>

#include "access/heap/heapscan.h"
#include "access/transam/snapshot.h"
#include "access/transam/xact.h"
#include "catalog/catalog_indexes.h"
#include "catalog/catalog_shared.h"
#include "catalog/ddl_internal.h"
#include "catalog/description_catalog.h"
#include "catalog/index_ddl.h"
#include "catalog/pending_delete.h"
#include "catalog/privileges.h"
#include "catalog/sequence_catalog.h"
#include "catalog/sequence_ddl.h"
#include "common/error/db_error.h"

namespace hearth::catalog {

namespace {

constexpr int kMaxColumns = 1600;

void RequireTransaction() {
  if (!access::IsTransactionInProgress()) throw std::logic_error("catalog DDL outside a transaction");
}

std::string ColumnOf(const std::string& column, const RelationEntry& e) {
  return "column \"" + column + "\" of relation \"" + e.info.name + "\"";
}

// The attribute row of 0-based column `pos` of `e`.
internal::CatalogTuple AttributeRow(const RelationEntry& e, int pos) {
  for (internal::CatalogTuple& a : internal::FindAttributes(e.oid)) {
    if (a.row[kAttAttnum].i == pos + 1) return std::move(a);
  }
  throw DbError("XX000", "cache lookup failed for attribute " + std::to_string(pos + 1) + " of relation " +
                             std::to_string(e.oid));
}

// Writes a changed attribute row and makes the change visible.
void UpdateAttribute(const RelationEntry& e, const internal::CatalogTuple& a, const heap::Row& row) {
  MarkCatalogChanged(e.oid);
  internal::CatalogUpdate(kHearthAttributeOid, a.tid, row, access::GetCurrentTransactionId(),
                          access::GetCurrentCommandId(true));
  access::CommandCounterIncrement();
}

// Whether a row visible to a fresh snapshot (committed, or this
// transaction's) has NULL in column `pos`.
bool AnyNull(const RelationEntry& e, int pos) {
  access::Snapshot snap;
  access::GetSnapshotData(&snap, /*replace_xmin=*/false);
  snap.curcid = access::GetCurrentCommandId(false);
  heap::HeapScanOptions opts;
  opts.allow_bulkread = true;
  heap::HeapScan scan(e.rel, e.desc, snap, access::GetCurrentTransactionIdIfAny(), opts);
  heap::Row row;
  while (scan.Next(&row, nullptr)) {
    if (row[static_cast<size_t>(pos)].is_null) return true;
  }
  return false;
}

// The name is free among tables, sequences and indexes of `ns` (after
// taking the creators' name lock): else 42P07.
void RequireFreeName(Oid ns, const std::string& name) {
  internal::LockRelationName(ns, name);
  if (internal::FindClassByName(ns, name) || internal::FindIndexByName(ns, name)) {
    throw DbError("42P07", "relation \"" + name + "\" already exists");
  }
}

// nextval('<old>'::regclass) defaults of the column owning sequence `seq`
// follow its rename.
void RenameSequenceInDefault(Oid seq, const std::string& old_name, const std::string& new_name) {
  auto row = FindSequenceRow(seq);
  if (!row) return;
  const SequenceParams p = ParseSequenceRow(row->row);
  if (p.owner_rel == 0 || p.owner_col <= 0) return;
  RelationRef owner = LookupRelationByOid(p.owner_rel);
  if (owner == nullptr) return;
  internal::CatalogTuple a = AttributeRow(*owner, p.owner_col - 1);
  const std::string from = "nextval('" + old_name + "'::regclass)";
  if (a.row[kAttAttdefault].is_null || a.row[kAttAttdefault].str != from) return;
  heap::Row r = a.row;
  r[kAttAttdefault] = types::Value::Text("nextval('" + new_name + "'::regclass)");
  UpdateAttribute(*owner, a, r);
}

}  // namespace

RelationRef OpenTableForAlter(const parser::RangeVar& rv, bool if_exists, bool tables_only, DdlResult* result) {
  RequireTransaction();
  const std::string name = internal::DdlTruncateName(rv.name);
  if (NamespaceOid(rv.schema) == types::kInvalidOid) {
    if (if_exists) {
      result->notices.push_back({"00000", "schema \"" + rv.schema + "\" does not exist, skipping"});
      return nullptr;
    }
    throw DbError("3F000", "schema \"" + rv.schema + "\" does not exist");
  }
  RelationRef e = OpenRelation(rv.schema, name, storage::LockMode::kAccessExclusive);
  if (e == nullptr) {
    if (if_exists) {
      result->notices.push_back({"00000", "relation \"" + name + "\" does not exist, skipping"});
      return nullptr;
    }
    throw DbError("42P01", "relation \"" + name + "\" does not exist");
  }
  internal::DdlRejectSystemCatalog(*e);
  if (tables_only && e->relkind == 'S') throw DbError("42809", "\"" + name + "\" is not a table");
  CheckOwnership(*e);
  return e;
}

int AlterColumnPosition(const RelationEntry& e, const std::string& name) {
  for (size_t i = 0; i < e.info.columns.size(); ++i) {
    if (e.info.columns[i].name == name) return static_cast<int>(i);
  }
  throw DbError("42703", ColumnOf(name, e) + " does not exist");
}

bool HasColumn(const RelationEntry& e, const std::string& name) {
  return std::any_of(e.info.columns.begin(), e.info.columns.end(),
                     [&](const executor::ColumnInfo& c) { return c.name == name; });
}

void AlterColumnDefault(const RelationEntry& e, const std::string& column, const std::string& default_text) {
  const int pos = AlterColumnPosition(e, column);
  const executor::ColumnInfo& c = e.info.columns[static_cast<size_t>(pos)];
  if (c.identity != 0) {
    DbError err("42601", ColumnOf(column, e) + " is an identity column");
    if (default_text.empty()) err.WithHint("Use ALTER TABLE ... ALTER COLUMN ... DROP IDENTITY instead.");
    throw err;
  }
  internal::CatalogTuple a = AttributeRow(e, pos);
  heap::Row r = a.row;
  r[kAttAtthasdef] = types::Value::Bool(!default_text.empty());
  r[kAttAttdefault] = types::Value::Text(default_text);
  UpdateAttribute(e, a, r);
}

void AlterColumnSetNotNull(const RelationEntry& e, const std::string& column) {
  const int pos = AlterColumnPosition(e, column);
  if (e.info.columns[static_cast<size_t>(pos)].not_null) return;
  if (AnyNull(e, pos)) throw DbError("23502", ColumnOf(column, e) + " contains null values");
  internal::CatalogTuple a = AttributeRow(e, pos);
  heap::Row r = a.row;
  r[kAttAttnotnull] = types::Value::Bool(true);
  UpdateAttribute(e, a, r);
}

void AlterColumnDropNotNull(const RelationEntry& e, const std::string& column) {
  const int pos = AlterColumnPosition(e, column);
  const executor::ColumnInfo& c = e.info.columns[static_cast<size_t>(pos)];
  if (c.identity != 0) throw DbError("42P16", ColumnOf(column, e) + " is an identity column");
  for (const IndexEntry& ix : e.indexes) {
    if (ix.primary && std::find(ix.columns.begin(), ix.columns.end(), pos) != ix.columns.end()) {
      throw DbError("42P16", "column \"" + column + "\" is in a primary key");
    }
  }
  if (!c.not_null) return;
  internal::CatalogTuple a = AttributeRow(e, pos);
  heap::Row r = a.row;
  r[kAttAttnotnull] = types::Value::Bool(false);
  UpdateAttribute(e, a, r);
}

void RenameColumn(const RelationEntry& e, const std::string& column, const std::string& new_name) {
  int pos = -1;
  for (size_t i = 0; i < e.info.columns.size(); ++i) {
    if (e.info.columns[i].name == column) pos = static_cast<int>(i);
  }
  if (pos < 0) throw DbError("42703", "column \"" + column + "\" does not exist");
  const std::string name = internal::DdlTruncateName(new_name);
  if (HasColumn(e, name)) throw DbError("42701", ColumnOf(name, e) + " already exists");
  internal::CatalogTuple a = AttributeRow(e, pos);
  heap::Row r = a.row;
  r[kAttAttname] = types::Value::Bytes(types::kNameOid, name);
  UpdateAttribute(e, a, r);
}

DdlResult RenameRelation(parser::ObjectType kind, const parser::RangeVar& rv, bool if_exists,
                         const std::string& new_name) {
  RequireTransaction();
  DdlResult result;
  const std::string name = internal::DdlTruncateName(rv.name);
  const std::string target = internal::DdlTruncateName(new_name);
  const Oid ns = NamespaceOid(rv.schema);
  std::optional<internal::CatalogTuple> index;
  if (ns != types::kInvalidOid && LookupRelation(rv.schema, name) == nullptr) {
    index = internal::FindIndexByName(ns, name);
  }
  if (index) {
    const Oid table = internal::RowOid(index->row, kIndIndrelid);
    RelationRef owner = OpenRelationByOid(table, storage::LockMode::kAccessExclusive);
    index = internal::FindIndexByName(ns, name);  // again, under the lock
    if (index && owner != nullptr) {
      if (kind == parser::ObjectType::kSequence) throw DbError("42809", "\"" + name + "\" is not a sequence");
      if (ns == kPgCatalogNamespace) throw DbError("42501", "permission denied: \"" + name + "\" is a system catalog");
      CheckOwnership(owner->owner, "index", name);
      RequireFreeName(ns, target);
      heap::Row r = index->row;
      r[kIndName] = types::Value::Bytes(types::kNameOid, target);
      MarkCatalogChanged(table);
      internal::CatalogUpdate(kHearthIndexOid, index->tid, r, access::GetCurrentTransactionId(),
                              access::GetCurrentCommandId(true));
      access::CommandCounterIncrement();
      result.count = 1;
      return result;
    }
  }
  RelationRef e = OpenTableForAlter(rv, if_exists, /*tables_only=*/false, &result);
  if (e == nullptr) return result;
  if (kind == parser::ObjectType::kSequence && e->relkind != 'S') {
    throw DbError("42809", "\"" + name + "\" is not a sequence");
  }
  RequireFreeName(e->namespace_oid, target);
  auto cls = internal::FindClassByOid(e->oid);
  if (!cls) throw DbError("XX000", "cache lookup failed for relation " + std::to_string(e->oid));
  heap::Row r = cls->row;
  r[kClassRelname] = types::Value::Bytes(types::kNameOid, target);
  MarkCatalogChanged(e->oid);
  internal::CatalogUpdate(kHearthClassOid, cls->tid, r, access::GetCurrentTransactionId(),
                          access::GetCurrentCommandId(true));
  access::CommandCounterIncrement();
  if (e->relkind == 'S') RenameSequenceInDefault(e->oid, e->info.name, target);
  result.count = 1;
  return result;
}

internal::AttributeFields ValidateNewColumn(const RelationEntry& e, const parser::ColumnDef& def,
                                            const DdlContext& ctx) {
  internal::AttributeFields a;
  a.attname = internal::DdlTruncateName(def.name);
  if (static_cast<int>(e.info.columns.size()) + 1 > kMaxColumns) {
    throw DbError("54011", "tables can have at most 1600 columns");
  }
  const std::string& tn = def.type.name;
  if (IsSerialTypeName(def.type)) {
    throw DbError("0A000", "adding a " + tn + " column with ALTER TABLE is not supported yet");
  }
  internal::DdlResolveColumnType(def.type, a.attname, ctx.query_text, &a.atttypid, &a.atttypmod);
  bool said_null = false, said_not_null = false, said_default = false;
  for (const parser::Constraint& c : def.constraints) {
    switch (c.kind) {
      case parser::ConstraintKind::kNotNull: said_not_null = true; break;
      case parser::ConstraintKind::kNull: said_null = true; break;
      case parser::ConstraintKind::kDefault:
        if (said_default) {
          throw DbError("42601", "multiple default values specified for column \"" + a.attname + "\" of table \"" +
                                     e.info.name + "\"");
        }
        said_default = true;
        if (c.expr) a.attdefault = ctx.deparse(*c.expr);
        if (a.attdefault == "NULL") a.attdefault.clear();  // DEFAULT NULL = none
        break;
      default:
        throw DbError("0A000", "only NULL, NOT NULL and DEFAULT are supported in ALTER TABLE ADD COLUMN so far");
    }
    if (said_null && said_not_null) {
      throw DbError("42601", "conflicting NULL/NOT NULL declarations for column \"" + a.attname + "\" of table \"" +
                                 e.info.name + "\"");
    }
  }
  a.attnotnull = said_not_null;
  return a;
}

void ResolveAlterColumnType(const parser::TypeName& tn, const std::string& column, std::string_view query_text,
                            Oid* type, int32_t* typmod) {
  internal::DdlResolveColumnType(tn, column, query_text, type, typmod);
}

void AddColumnWithoutRewrite(const RelationEntry& e, internal::AttributeFields attr) {
  attr.attrelid = e.oid;
  attr.attnum = static_cast<int>(e.info.columns.size()) + 1;
  auto cls = internal::FindClassByOid(e.oid);
  if (!cls) throw DbError("XX000", "cache lookup failed for relation " + std::to_string(e.oid));
  const access::TransactionId xid = access::GetCurrentTransactionId();
  const access::CommandId cid = access::GetCurrentCommandId(true);
  heap::Row r = cls->row;
  r[kClassRelnatts] = types::Value::Int(types::kInt2Oid, attr.attnum);
  MarkCatalogChanged(e.oid);
  internal::CatalogUpdate(kHearthClassOid, cls->tid, r, xid, cid);
  internal::CatalogInsert(kHearthAttributeOid, internal::MakeAttributeRow(attr), xid, cid);
  access::CommandCounterIncrement();
}

Oid NewRewriteFile() {
  const Oid number = GetNewObjectId();
  internal::DdlCreateRelationFile(number);
  return number;
}

void FinishTableRewrite(const RelationEntry& old_entry, const std::vector<RewrittenColumn>& columns,
                        Oid new_relfilenode) {
  RequireTransaction();
  const access::TransactionId xid = access::GetCurrentTransactionId();
  const access::CommandId cid = access::GetCurrentCommandId(true);
  MarkCatalogChanged(old_entry.oid);
  // New position of each old column (-1: dropped).
  std::vector<int> new_pos(old_entry.info.columns.size(), -1);
  for (size_t i = 0; i < columns.size(); ++i) {
    if (columns[i].old_position >= 0) new_pos[static_cast<size_t>(columns[i].old_position)] = static_cast<int>(i);
  }
  for (const internal::CatalogTuple& a : internal::FindAttributes(old_entry.oid)) {
    internal::DdlDeleteCatalogTuple(AttributeRel(), a.tid, xid, cid);
  }
  for (size_t i = 0; i < columns.size(); ++i) {
    internal::AttributeFields f = columns[i].attr;
    f.attrelid = old_entry.oid;
    f.attnum = static_cast<int>(i) + 1;
    heap::Row r = internal::MakeAttributeRow(f);
    if (columns[i].acl) r[kAttAttacl] = types::Value::Text(*columns[i].acl);
    internal::CatalogInsert(kHearthAttributeOid, r, xid, cid);
  }
  auto cls = internal::FindClassByOid(old_entry.oid);
  if (!cls) throw DbError("XX000", "cache lookup failed for relation " + std::to_string(old_entry.oid));
  heap::Row cr = cls->row;
  cr[kClassRelfilenode] = types::Value::Int(types::kOidOid, new_relfilenode);
  cr[kClassRelnatts] = types::Value::Int(types::kInt2Oid, static_cast<int64_t>(columns.size()));
  internal::CatalogUpdate(kHearthClassOid, cls->tid, cr, xid, cid);
  RegisterPendingDelete(DatabaseRel(internal::RowOid(cls->row, kClassRelfilenode)), /*at_commit=*/true);
  // Index keys follow their columns; an index on a dropped column goes.
  std::vector<Oid> lost_indexes;
  for (const internal::CatalogTuple& t : internal::FindIndexes(old_entry.oid)) {
    internal::IndexFields f = internal::ParseIndexRow(t.row);
    bool lost = false;
    for (int& attnum : f.attnums) {
      const int pos = attnum >= 1 && attnum <= static_cast<int>(new_pos.size()) ? new_pos[attnum - 1] : -1;
      lost |= pos < 0;
      attnum = pos + 1;
    }
    if (lost) {
      internal::DdlDeleteCatalogTuple(IndexRel(), t.tid, xid, cid);
      RegisterPendingDelete(DatabaseRel(f.relfilenode), /*at_commit=*/true);
      lost_indexes.push_back(f.indexrelid);
      continue;
    }
    heap::Row r = t.row;
    r[kIndKey] = internal::MakeIndexRow(f)[kIndKey];
    internal::CatalogUpdate(kHearthIndexOid, t.tid, r, xid, cid);
  }
  // Owned sequences follow their column; one of a dropped column goes too.
  std::vector<parser::RangeVar> orphaned;
  for (const internal::CatalogTuple& t : FindSequencesOwnedBy(old_entry.oid)) {
    SequenceParams p = ParseSequenceRow(t.row);
    if (p.owner_col < 1 || p.owner_col > static_cast<int>(new_pos.size())) continue;
    const int pos = new_pos[static_cast<size_t>(p.owner_col - 1)];
    if (pos < 0) {
      if (RelationRef seq = LookupRelationByOid(p.relid)) {
        parser::RangeVar rv;
        rv.schema = seq->info.schema;
        rv.name = seq->info.name;
        orphaned.push_back(rv);
      }
      p.owner_rel = 0;
      p.owner_col = 0;
    } else {
      p.owner_col = pos + 1;
    }
    MarkCatalogChanged(p.relid);
    RewriteSequenceRow(t, p);
  }
  access::CommandCounterIncrement();
  for (Oid index : lost_indexes) DeleteIndexDescriptions(index);
  RemapColumnDescriptions(old_entry.oid, new_pos);
  RebuildIndexes(old_entry.oid);
  if (!orphaned.empty()) DropSequences(orphaned, /*if_exists=*/true, parser::DropBehavior::kCascade);
}

}  // namespace hearth::catalog
