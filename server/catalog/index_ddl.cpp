// catalog/index_ddl.cpp
//
// Principal entry points: CreateIndex, AlterTableAddConstraint,
// CreateConstraintIndexes, DropIndexes, DropTablesWithIndexes,
// TruncateTablesWithIndexes.
#include "catalog/index_ddl.h"

#include "catalog/inherit_ddl.h"
#include "catalog/partition_indexes.h"

#include "catalog/constraint_ddl.h"
#include "catalog/description_catalog.h"
#include "catalog/privileges.h"
#include "catalog/trigger_catalog.h"

#include <algorithm>
#include <numeric>
#include <set>
#include <stdexcept>

#include "access/heap/heapam.h"
#include "access/heap/heapscan.h"
#include "access/nbtree/nbtree.h"
#include "access/nbtree/nbtree_internal.h"
#include "access/transam/snapshot.h"
#include "access/transam/xact.h"
#include "access/transam/xlog_storage_records.h"
#include "catalog/catalog_indexes.h"
#include "catalog/catalog_rows.h"
#include "catalog/catalog_shared.h"
#include "catalog/namespace_catalog.h"
#include "catalog/temp_namespace.h"
#include "catalog/pending_delete.h"
#include "catalog/table_stats_counts.h"
#include "common/error/db_error.h"
#include "storage/smgr/smgr.h"
#include "utils/adt/compare.h"

namespace hearth::catalog {

namespace {

using parser::ConstraintKind;

constexpr size_t kMaxNameBytes = 63;  // NAMEDATALEN - 1

void RequireTransaction() {
  if (!access::IsTransactionInProgress()) throw std::logic_error("catalog DDL outside a transaction");
}

std::string TruncateName(const std::string& s) {
  if (s.size() <= kMaxNameBytes) return s;
  size_t n = kMaxNameBytes;
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  return s.substr(0, n);
}

// Same hash as CREATE TABLE's creator lock (ddl.cpp), so table and index
// creators of one name serialise with each other.
uint32_t NameHash(Oid ns, const std::string& name) {
  uint32_t h = 2166136261u ^ ns;
  for (unsigned char c : name) h = (h ^ c) * 16777619u;
  return h;
}

bool NameTaken(Oid ns, const std::string& name) {
  return internal::FindClassByName(ns, name).has_value() || internal::FindIndexByName(ns, name).has_value();
}

// PostgreSQL's ChooseRelationName: "<table>_<cols>_<suffix>", then with
// 1, 2, ... appended until free.
std::string ChooseName(Oid ns, const std::string& table, const std::vector<std::string>& cols,
                       const std::string& suffix) {
  std::string base = table;
  for (const std::string& c : cols) base += "_" + c;
  for (int n = 0;; ++n) {
    std::string tail = "_" + suffix + (n == 0 ? "" : std::to_string(n));
    std::string name = TruncateName(base.substr(0, kMaxNameBytes - std::min(tail.size(), kMaxNameBytes)) + tail);
    storage::LockAcquire(storage::LockTag::Object(kHearthClassOid, NameHash(ns, name)), storage::LockMode::kExclusive);
    if (!NameTaken(ns, name)) return name;
  }
}

// The index file: created now, unlinked if the transaction does not commit
// (the same steps as ddl.cpp's CreateRelationFile).
storage::RelFileLocator CreateIndexFile(Oid relfilenode) {
  const storage::RelFileLocator rel = DatabaseRel(relfilenode);
  storage::Status st = storage::SmgrCreate(rel, storage::ForkNumber::kMain);
  if (!st.ok()) throw DbError("58030", "could not create relation file: " + st.message());
  access::XLogLogRelationCreate(rel);
  RegisterPendingDelete(rel, /*at_commit=*/false);
  return rel;
}

struct IndexSpec {
  std::string name;  // empty: choose one
  std::string suffix = "idx";
  std::vector<std::string> columns;
  std::vector<int> options;  // 1 = DESC, 2 = NULLS FIRST
  bool unique = false;
  bool primary = false;
  bool constraint = false;  // UNIQUE constraint (pg_constraint contype 'u')
  bool if_not_exists = false;
};

// Reads every row visible to a fresh snapshot (the transaction's own
// earlier commands included) and builds the index; checks uniqueness.
void BuildIndex(const RelationEntry& e, const nbtree::IndexDesc& desc, const std::vector<int>& cols, bool unique) {
  access::Snapshot snap;
  access::GetSnapshotData(&snap, /*replace_xmin=*/false);
  snap.curcid = access::GetCurrentCommandId(false);
  heap::HeapScanOptions opts;
  opts.allow_bulkread = true;
  opts.root_tids = true;  // entries point at HOT chain roots, as later updates' entries do
  heap::HeapScan scan(e.rel, e.desc, snap, access::GetCurrentTransactionIdIfAny(), opts);
  nbtree::BtBuilder builder(desc);
  const size_t ncols = cols.size();
  std::vector<types::Value> key(ncols);
  std::vector<types::Value> all_keys;  // unique only: ncols values per row
  heap::Row row;
  heap::ItemPointer tid;
  size_t nrows = 0;
  while (scan.Next(&row, &tid)) {
    for (size_t k = 0; k < ncols; ++k) key[k] = row[static_cast<size_t>(cols[k])];
    builder.Add(key, tid);
    if (unique) all_keys.insert(all_keys.end(), key.begin(), key.end());
    ++nrows;
  }
  if (unique && nrows > 1) {
    auto has_null = [&](size_t r) {
      for (size_t k = 0; k < ncols; ++k) {
        if (all_keys[r * ncols + k].is_null) return true;
      }
      return false;
    };
    auto cmp = [&](size_t a, size_t b) {
      for (size_t k = 0; k < ncols; ++k) {
        const types::Value& x = all_keys[a * ncols + k];
        const types::Value& y = all_keys[b * ncols + k];
        if (x.is_null || y.is_null) {
          if (x.is_null != y.is_null) return x.is_null ? 1 : -1;
          continue;
        }
        int c = types::CompareValues(x, y);
        if (c != 0) return c;
      }
      return 0;
    };
    std::vector<uint32_t> order(nrows);
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return cmp(a, b) < 0; });
    for (size_t i = 1; i < nrows; ++i) {
      if (cmp(order[i - 1], order[i]) == 0 && !has_null(order[i])) {
        std::span<const types::Value> dup(&all_keys[order[i] * ncols], ncols);
        std::string detail = nbtree::FormatKeyDetail(desc, dup);
        const std::string tail = " already exists.";
        if (detail.size() >= tail.size() && detail.compare(detail.size() - tail.size(), tail.size(), tail) == 0) {
          detail = detail.substr(0, detail.size() - tail.size()) + " is duplicated.";
        }
        throw DbError("23505", "could not create unique index \"" + desc.name + "\"").WithDetail(detail);
      }
    }
  }
  if (nrows == 0) {
    nbtree::BtCreateEmpty(desc);
  } else {
    builder.Finish(/*input_sorted=*/false);
  }
}

// Sets attnotnull on the given (0-based) columns of `e`; 23502 when a
// visible row has NULL there.
void SetNotNull(const RelationEntry& e, const std::vector<int>& cols) {
  std::vector<int> todo;
  for (int c : cols) {
    if (!e.info.columns[static_cast<size_t>(c)].not_null) todo.push_back(c);
  }
  if (todo.empty()) return;
  access::Snapshot snap;
  access::GetSnapshotData(&snap, /*replace_xmin=*/false);
  snap.curcid = access::GetCurrentCommandId(false);
  heap::HeapScanOptions opts;
  heap::HeapScan scan(e.rel, e.desc, snap, access::GetCurrentTransactionIdIfAny(), opts);
  heap::Row row;
  heap::ItemPointer tid;
  while (scan.Next(&row, &tid)) {
    for (int c : todo) {
      if (row[static_cast<size_t>(c)].is_null) {
        throw DbError("23502", "column \"" + e.info.columns[static_cast<size_t>(c)].name + "\" of relation \"" +
                                   e.info.name + "\" contains null values");
      }
    }
  }
  const access::TransactionId xid = access::GetCurrentTransactionId();
  const access::CommandId cid = access::GetCurrentCommandId(true);
  for (const internal::CatalogTuple& a : internal::FindAttributes(e.oid)) {
    const int col = static_cast<int>(a.row[kAttAttnum].i) - 1;
    if (std::find(todo.begin(), todo.end(), col) == todo.end()) continue;
    heap::Row r = a.row;
    r[kAttAttnotnull] = types::Value::Bool(true);
    MarkCatalogChanged(e.oid);
    internal::CatalogUpdate(kHearthAttributeOid, a.tid, r, xid, cid);
  }
}

// Creates one index on the locked table `e`.
DdlResult DefineIndex(const RelationEntry& e, const IndexSpec& spec) {
  DdlResult result;
  // The build must see every row the transaction wrote so far.
  access::CommandCounterIncrement();
  const Oid ns = e.namespace_oid;
  if (spec.columns.empty()) throw DbError("42601", "index must have at least one column");
  if (static_cast<int>(spec.columns.size()) > nbtree::kMaxKeyColumns) {
    throw DbError("54011", "cannot use more than 32 columns in an index");
  }
  std::vector<int> cols;
  for (const std::string& name : spec.columns) {
    int found = -1;
    for (size_t i = 0; i < e.info.columns.size(); ++i) {
      if (e.info.columns[i].name == name) found = static_cast<int>(i);
    }
    if (found < 0) {
      if (spec.suffix != "idx") {  // a constraint
        throw DbError("42703", "column \"" + name + "\" named in key does not exist");
      }
      throw DbError("42703", "column \"" + name + "\" does not exist");
    }
    cols.push_back(found);
  }
  if (spec.primary) {
    for (const IndexEntry& ix : e.indexes) {
      if (ix.primary) {
        throw DbError("42P16", "multiple primary keys for table \"" + e.info.name + "\" are not allowed");
      }
    }
  }
  std::string name;
  if (spec.name.empty()) {
    name = ChooseName(ns, e.info.name, spec.primary ? std::vector<std::string>{} : spec.columns,
                      spec.primary ? "pkey" : spec.suffix);
  } else {
    name = TruncateName(spec.name);
    storage::LockAcquire(storage::LockTag::Object(kHearthClassOid, NameHash(ns, name)), storage::LockMode::kExclusive);
    if (NameTaken(ns, name)) {
      if (spec.if_not_exists) {
        result.notices.push_back({"42P07", "relation \"" + name + "\" already exists, skipping"});
        return result;
      }
      throw DbError("42P07", "relation \"" + name + "\" already exists");
    }
  }
  if (spec.primary) SetNotNull(e, cols);

  const Oid oid = GetNewObjectId();
  nbtree::IndexDesc desc;
  desc.rel = CreateIndexFile(oid);
  desc.name = name;
  for (size_t k = 0; k < cols.size(); ++k) {
    const executor::ColumnInfo& c = e.info.columns[static_cast<size_t>(cols[k])];
    nbtree::KeyColumn kc;
    kc.type = c.type;
    kc.descending = (spec.options[k] & 1) != 0;
    kc.nulls_first = (spec.options[k] & 2) != 0;
    kc.name = c.name;
    desc.cols.push_back(kc);
  }
  BuildIndex(e, desc, cols, spec.unique || spec.primary);

  internal::IndexFields f;
  f.indexrelid = oid;
  f.indrelid = e.oid;
  f.name = name;
  f.ns = ns;
  f.relfilenode = oid;
  f.unique = spec.unique || spec.primary;
  f.primary = spec.primary;
  f.constraint = spec.constraint && !spec.primary;
  for (int c : cols) f.attnums.push_back(c + 1);
  f.options = spec.options;
  MarkCatalogChanged(e.oid);
  internal::CatalogInsert(kHearthIndexOid, internal::MakeIndexRow(f), access::GetCurrentTransactionId(),
                          access::GetCurrentCommandId(true));
  InvalidateRelcacheEntries({e.oid});
  access::CommandCounterIncrement();
  result.oid = oid;
  result.count = 1;
  return result;
}

RelationRef OpenTableForIndex(const parser::RangeVar& rv, storage::LockMode mode) {
  if (NamespaceOid(rv.schema) == types::kInvalidOid) {
    throw DbError("3F000", "schema \"" + rv.schema + "\" does not exist");
  }
  const std::string name = TruncateName(rv.name);
  RelationRef e = OpenRelation(rv.schema, name, mode);
  if (e == nullptr) throw DbError("42P01", "relation \"" + name + "\" does not exist");
  if (e->namespace_oid == kPgCatalogNamespace) {
    throw DbError("42501", "permission denied: \"" + e->info.name + "\" is a system catalog");
  }
  if (e->relkind == 'S' || e->relkind == 'v') {
    throw DbError("42809", "cannot create index on relation \"" + e->info.name + "\"")
        .WithDetail(e->relkind == 'S' ? "This operation is not supported for sequences."
                                      : "This operation is not supported for views.");
  }
  return e;
}

IndexSpec ConstraintSpec(const parser::Constraint& c, const std::vector<std::string>& columns) {
  IndexSpec spec;
  spec.name = c.name;
  spec.columns = columns;
  spec.options.assign(columns.size(), 0);
  spec.primary = c.kind == ConstraintKind::kPrimaryKey;
  spec.unique = true;
  spec.constraint = true;
  spec.suffix = spec.primary ? "pkey" : "key";
  return spec;
}

void Append(DdlResult* into, DdlResult from) {
  for (DdlNotice& n : from.notices) into->notices.push_back(std::move(n));
  into->count += from.count;
}

// Deletes the index rows of `table_oid` and schedules their files for unlink at commit.
int DropIndexRowsOf(Oid table_oid) {
  int n = 0;
  const access::TransactionId xid = access::GetCurrentTransactionId();
  const access::CommandId cid = access::GetCurrentCommandId(true);
  for (const internal::CatalogTuple& t : internal::FindIndexes(table_oid)) {
    heap::TmFailureData fd;
    if (heap::HeapDelete(IndexRel(), t.tid, xid, cid, nullptr, true, &fd) != access::TmResult::kOk) {
      throw DbError("XX000", "tuple concurrently updated");
    }
    PendingCounts(kHearthIndexOid).CountDelete();
    RegisterPendingDelete(DatabaseRel(internal::RowOid(t.row, kIndRelfilenode)), /*at_commit=*/true);
    ++n;
    DeleteIndexDescriptions(internal::RowOid(t.row, kIndIndexrelid));
  }
  return n;
}

}  // namespace

DdlResult CreateIndex(const parser::CreateIndexStmt& stmt, const DdlContext& /*ctx*/) {
  RequireTransaction();
  if (stmt.concurrently) throw DbError("0A000", "CREATE INDEX CONCURRENTLY is not supported yet");
  if (!stmt.method.empty() && stmt.method != "btree") {
    throw DbError("0A000", "access method \"" + stmt.method + "\" is not supported");
  }
  if (stmt.where) throw DbError("0A000", "partial indexes are not supported yet");
  if (!stmt.include.empty()) throw DbError("0A000", "INCLUDE columns are not supported yet");
  IndexSpec spec;
  spec.name = stmt.name;
  spec.unique = stmt.unique;
  spec.if_not_exists = stmt.if_not_exists;
  for (const parser::IndexElem& el : stmt.elems) {
    if (el.expr || el.column.empty()) throw DbError("0A000", "expression indexes are not supported yet");
    spec.columns.push_back(el.column);
    const bool desc = el.dir == parser::SortDir::kDesc;
    const bool nulls_first = el.nulls == parser::NullsOrder::kDefault ? desc : el.nulls == parser::NullsOrder::kFirst;
    spec.options.push_back((desc ? 1 : 0) | (nulls_first ? 2 : 0));
  }
  RelationRef e = OpenTableForIndex(stmt.table, storage::LockMode::kShare);
  CheckOwnership(*e);
  return DefineIndex(*e, spec);
}

DdlResult AlterTableAddConstraint(const parser::RangeVar& table, const parser::Constraint& c) {
  RequireTransaction();
  if (c.kind != ConstraintKind::kPrimaryKey && c.kind != ConstraintKind::kUnique) {
    throw DbError("0A000", "this kind of constraint is not supported yet");
  }
  RelationRef e = OpenTableForIndex(table, storage::LockMode::kAccessExclusive);
  CheckOwnership(*e);
  return DefineIndex(*e, ConstraintSpec(c, c.columns));
}

DdlResult AlterTableAddPrimaryKey(const parser::RangeVar& table, const std::vector<std::string>& cols) {
  parser::Constraint c;
  c.kind = ConstraintKind::kPrimaryKey;
  c.columns = cols;
  return AlterTableAddConstraint(table, c);
}

DdlResult CreateConstraintIndexes(Oid table_oid, const parser::CreateTableStmt& stmt) {
  RequireTransaction();
  DdlResult result;
  result.oid = table_oid;
  // Primary key first (as PostgreSQL), then UNIQUE in order written.
  std::vector<IndexSpec> specs;
  for (int pass = 0; pass < 2; ++pass) {
    const ConstraintKind want = pass == 0 ? ConstraintKind::kPrimaryKey : ConstraintKind::kUnique;
    for (const parser::ColumnDef& col : stmt.columns) {
      for (const parser::Constraint& c : col.constraints) {
        if (c.kind == want) specs.push_back(ConstraintSpec(c, {TruncateName(col.name)}));
      }
    }
    for (const parser::Constraint& c : stmt.constraints) {
      if (c.kind == want) specs.push_back(ConstraintSpec(c, c.columns));
    }
  }
  if (specs.empty()) return result;
  for (const IndexSpec& spec : specs) {
    InvalidateRelcacheEntries({table_oid});
    RelationRef e = OpenRelationByOid(table_oid, storage::LockMode::kAccessExclusive);
    if (e == nullptr) throw DbError("XX000", "cache lookup failed for relation " + std::to_string(table_oid));
    Append(&result, DefineIndex(*e, spec));
  }
  return result;
}

DdlResult CreateTableWithConstraints(const parser::CreateTableStmt& stmt, const DdlContext& ctx) {
  RequireTransaction();
  // CreateTable checks hearth_class only; indexes share the namespace.
  const Oid ns = stmt.temp ? MyTempNamespaceOid() : NamespaceOid(stmt.table.schema);
  const std::string relname = TruncateName(stmt.table.name);
  if (ns != types::kInvalidOid && internal::FindIndexByName(ns, relname)) {
    if (stmt.if_not_exists) {
      DdlResult skipped;
      skipped.notices.push_back({"42P07", "relation \"" + relname + "\" already exists, skipping"});
      return skipped;
    }
    throw DbError("42P07", "relation \"" + relname + "\" already exists");
  }
  CheckPartitionedUniqueKeys(stmt, relname);  // partition_indexes.cpp
  DdlResult r = CreateTable(stmt, ctx);
  if (r.oid == 0) return r;
  DdlResult ix = CreateConstraintIndexes(r.oid, stmt);
  for (DdlNotice& n : ix.notices) r.notices.push_back(std::move(n));
  if (stmt.partition_of) CreatePartitionIndexes(r.oid);
  CreateTableCheckAndForeignKeys(r.oid, stmt, ctx);
  return r;
}

DdlResult DropIndexes(const std::vector<parser::RangeVar>& names, bool if_exists) {
  RequireTransaction();
  DdlResult result;
  std::set<Oid> seen;
  std::vector<Oid> tables;
  for (const parser::RangeVar& rv : names) {
    const std::string name = TruncateName(rv.name);
    std::optional<internal::CatalogTuple> row;
    Oid ns = NamespaceOid(rv.schema);
    if (rv.schema.empty()) {
      // The search path (the session's temporary namespace first).
      for (Oid p : SearchPathNamespaces()) {
        row = internal::FindIndexByName(p, name);
        if (row) {
          ns = p;
          break;
        }
      }
    }
    if (!row && !rv.schema.empty() && ns != types::kInvalidOid) row = internal::FindIndexByName(ns, name);
    if (row) {
      // Lock the table, then look again: the index may be gone meanwhile.
      OpenRelationByOid(internal::RowOid(row->row, kIndIndrelid), storage::LockMode::kAccessExclusive);
      row = internal::FindIndexByName(ns, name);
    }
    if (!row) {
      // A table of that name: PostgreSQL's 42809 with a hint, even with IF EXISTS.
      if (LookupRelation(rv.schema, name) != nullptr) {
        throw DbError("42809", "\"" + name + "\" is not an index").WithHint("Use DROP TABLE to remove a table.");
      }
      if (if_exists) {
        result.notices.push_back({"00000", "index \"" + name + "\" does not exist, skipping"});
        continue;
      }
      throw DbError("42704", "index \"" + name + "\" does not exist");
    }
    if (!seen.insert(internal::RowOid(row->row, kIndIndexrelid)).second) continue;
    if (RelationRef table = LookupRelationByOid(internal::RowOid(row->row, kIndIndrelid))) {
      CheckOwnership(table->owner, "index", name);
    }
    if (internal::RowOid(row->row, kIndNamespace) == kPgCatalogNamespace) {
      throw DbError("42501", "permission denied: \"" + name + "\" is a system catalog");
    }
    if (row->row[kIndIsprimary].b || internal::IndexIsConstraint(row->row)) {
      RelationRef table = LookupRelationByOid(internal::RowOid(row->row, kIndIndrelid));
      const std::string tname = table ? table->info.name : "?";
      throw DbError("2BP01", "cannot drop index " + name + " because constraint " + name + " on table " + tname +
                                 " requires it")
          .WithHint("You can drop constraint " + name + " on table " + tname + " instead.");
    }
    const Oid table_oid = internal::RowOid(row->row, kIndIndrelid);
    MarkCatalogChanged(table_oid);
    tables.push_back(table_oid);
    heap::TmFailureData fd;
    if (heap::HeapDelete(IndexRel(), row->tid, access::GetCurrentTransactionId(), access::GetCurrentCommandId(true),
                         nullptr, true, &fd) != access::TmResult::kOk) {
      throw DbError("XX000", "tuple concurrently updated");
    }
    PendingCounts(kHearthIndexOid).CountDelete();
    RegisterPendingDelete(DatabaseRel(internal::RowOid(row->row, kIndRelfilenode)), /*at_commit=*/true);
    ++result.count;
    DeleteIndexDescriptions(internal::RowOid(row->row, kIndIndexrelid));
  }
  if (result.count > 0) {
    InvalidateRelcacheEntries(tables);
    access::CommandCounterIncrement();
  }
  return result;
}

DdlResult DropTablesWithIndexes(const std::vector<parser::RangeVar>& named, bool if_exists, bool cascade) {
  RequireTransaction();
  // Children of inheritance parents: 2BP01, or dropped too with CASCADE.
  std::vector<DdlNotice> inherit_notices;
  std::vector<parser::RangeVar> names = named;
  for (parser::RangeVar& rv : InheritedDropVictims(named, cascade, &inherit_notices)) names.push_back(std::move(rv));
  // Resolve first (DropTables takes the same locks; it reports missing names).
  std::vector<Oid> oids;
  for (const parser::RangeVar& rv : names) {
    if (NamespaceOid(rv.schema) == types::kInvalidOid) continue;
    RelationRef e = OpenRelation(rv.schema, TruncateName(rv.name), storage::LockMode::kAccessExclusive);
    if (e != nullptr && e->namespace_oid != kPgCatalogNamespace) oids.push_back(e->oid);
    if (e != nullptr && !e->parents.empty()) MarkCatalogChanged(e->parents);  // a parent loses a child
  }
  DdlResult constraints;
  DropConstraintsWithTables(oids, cascade, &constraints);
  for (Oid oid : oids) DeleteTriggersOf(oid);  // a table's triggers go with it
  DdlResult r = DropTables(names, if_exists);
  for (DdlNotice& n : constraints.notices) r.notices.insert(r.notices.begin(), std::move(n));
  r.notices.insert(r.notices.begin(), inherit_notices.begin(), inherit_notices.end());
  int dropped = 0;
  if (!oids.empty()) MarkCatalogChanged(oids);
  for (Oid oid : oids) dropped += DropIndexRowsOf(oid);
  if (dropped > 0) {
    InvalidateRelcacheEntries(oids);
    access::CommandCounterIncrement();
  }
  return r;
}

DdlResult TruncateTablesWithIndexes(const std::vector<parser::RangeVar>& named) {
  RequireTransaction();
  // TRUNCATE t without ONLY: its inheritance children (partitions) too.
  std::vector<parser::RangeVar> names = named;
  for (parser::RangeVar& rv : InheritedTruncateTargets(named)) names.push_back(std::move(rv));
  CheckTruncateReferences(names);
  DdlResult r = TruncateTables(names);
  const access::TransactionId xid = access::GetCurrentTransactionId();
  std::set<Oid> seen;
  std::vector<Oid> touched;
  bool changed = false;
  for (const parser::RangeVar& rv : names) {
    RelationRef e = OpenRelation(rv.schema, TruncateName(rv.name), storage::LockMode::kAccessExclusive);
    if (e == nullptr || !seen.insert(e->oid).second) continue;
    for (const internal::CatalogTuple& t : internal::FindIndexes(e->oid)) {
      const Oid new_number = GetNewObjectId();
      nbtree::IndexDesc desc;
      desc.rel = CreateIndexFile(new_number);
      desc.name = t.row[kIndName].str;
      for (const IndexEntry& ix : e->indexes) {
        if (ix.oid == internal::RowOid(t.row, kIndIndexrelid)) desc.cols = ix.desc.cols;
      }
      nbtree::BtCreateEmpty(desc);
      heap::Row row = t.row;
      row[kIndRelfilenode] = types::Value::Int(types::kOidOid, new_number);
      MarkCatalogChanged(e->oid);
      touched.push_back(e->oid);
      internal::CatalogUpdate(kHearthIndexOid, t.tid, row, xid, access::GetCurrentCommandId(true));
      RegisterPendingDelete(DatabaseRel(internal::RowOid(t.row, kIndRelfilenode)), /*at_commit=*/true);
      changed = true;
    }
  }
  if (changed) {
    InvalidateRelcacheEntries(touched);
    access::CommandCounterIncrement();
  }
  return r;
}

}  // namespace hearth::catalog

namespace hearth::catalog {

void RebuildIndexes(Oid table_oid) {
  RequireTransaction();
  InvalidateRelcacheEntries({table_oid});
  RelationRef e = LookupRelationByOid(table_oid);
  if (e == nullptr) throw DbError("XX000", "cache lookup failed for relation " + std::to_string(table_oid));
  const access::TransactionId xid = access::GetCurrentTransactionId();
  bool changed = false;
  for (const internal::CatalogTuple& t : internal::FindIndexes(table_oid)) {
    const Oid index_oid = internal::RowOid(t.row, kIndIndexrelid);
    auto ix = std::find_if(e->indexes.begin(), e->indexes.end(), [&](const IndexEntry& i) { return i.oid == index_oid; });
    if (ix == e->indexes.end()) continue;
    const Oid new_number = GetNewObjectId();
    nbtree::IndexDesc desc = ix->desc;
    desc.rel = CreateIndexFile(new_number);
    BuildIndex(*e, desc, ix->columns, ix->unique);
    heap::Row row = t.row;
    row[kIndRelfilenode] = types::Value::Int(types::kOidOid, new_number);
    MarkCatalogChanged(table_oid);
    internal::CatalogUpdate(kHearthIndexOid, t.tid, row, xid, access::GetCurrentCommandId(true));
    RegisterPendingDelete(DatabaseRel(internal::RowOid(t.row, kIndRelfilenode)), /*at_commit=*/true);
    changed = true;
  }
  if (changed) {
    InvalidateRelcacheEntries({table_oid});
    access::CommandCounterIncrement();
  }
}

}  // namespace hearth::catalog
