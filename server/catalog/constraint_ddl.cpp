// catalog/constraint_ddl.cpp
//
// Principal entry points: CreateTableCheckAndForeignKeys,
// AlterTableAddCheckOrForeignKey, AlterTableDropConstraint,
// DropConstraintsWithTables.
#include "catalog/constraint_ddl.h"

#include <algorithm>
#include <set>

#include "access/heap/heapam.h"
#include "access/transam/xact.h"
#include "catalog/catalog_shared.h"
#include "catalog/constraint_catalog.h"
#include "catalog/ddl_internal.h"
#include "catalog/description_catalog.h"
#include "catalog/pending_delete.h"
#include "catalog/privileges.h"
#include "catalog/table_stats_counts.h"
#include "catalog/temp_namespace.h"
#include "common/error/db_error.h"
#include "utils/adt/type_catalog.h"

namespace hearth::catalog {

namespace {

using parser::ConstraintKind;

constexpr size_t kMaxNameBytes = 63;

// PostgreSQL's makeObjectName: name1_name2_label within 63 bytes (the
// longer of the first two is cut first).
std::string MakeObjectName(std::string name1, std::string name2, const std::string& label) {
  auto overflow = [&] {
    return name1.size() + (name2.empty() ? 0 : name2.size() + 1) + label.size() + 1 > kMaxNameBytes;
  };
  while (overflow()) {
    std::string& longer = name1.size() >= name2.size() ? name1 : name2;
    longer.pop_back();
  }
  std::string out = name1;
  if (!name2.empty()) out += "_" + name2;
  return out + "_" + label;
}

bool ConstraintNameTaken(Oid ns, const std::string& name, const std::vector<std::string>& chosen) {
  if (std::find(chosen.begin(), chosen.end(), name) != chosen.end()) return true;
  if (internal::FindIndexByName(ns, name)) return true;  // PRIMARY KEY / UNIQUE constraints
  if (!ConstraintCatalogExists()) return false;
  return !internal::ScanCatalogWhere(
              ConstraintCatalogRel(), ConstraintCatalogTupleDesc(),
              [&](const heap::Row& r) { return internal::RowOid(r, kConNamespace) == ns && r[kConName].str == name; },
              true)
              .empty();
}

// PostgreSQL's ChooseConstraintName.
std::string ChooseConstraintName(const std::string& relname, const std::string& addition, const std::string& label,
                                 Oid ns, const std::vector<std::string>& chosen) {
  for (int pass = 0;; ++pass) {
    const std::string name = MakeObjectName(relname, addition, pass == 0 ? label : label + std::to_string(pass));
    if (!ConstraintNameTaken(ns, name, chosen)) return name;
  }
}

void RequireFreeName(const RelationEntry& table, const std::string& name, const std::vector<std::string>& chosen,
                     char type) {
  if (std::find(chosen.begin(), chosen.end(), name) != chosen.end()) {
    // Two of one CREATE TABLE (PostgreSQL's wording names the kind).
    throw DbError("42710", std::string(type == 'c' ? "check constraint" : "constraint") + " \"" + name +
                               "\" already exists");
  }
  bool taken = static_cast<bool>(FindConstraintByName(table.oid, name));
  for (const executor::IndexInfo& ix : table.info.indexes) taken |= ix.name == name;
  if (taken) {
    throw DbError("42710", "constraint \"" + name + "\" for relation \"" + table.info.name + "\" already exists");
  }
}

void InsertConstraintRow(const ConstraintFields& f) {
  heap::HeapInsert(ConstraintCatalogRel(), ConstraintCatalogTupleDesc(), MakeConstraintRow(f),
                   access::GetCurrentTransactionId(), access::GetCurrentCommandId(true));
  PendingCounts(kHearthConstraintOid).CountInsert();
}

char ActionLetter(parser::FkAction a) {
  switch (a) {
    case parser::FkAction::kNoAction: return 'a';
    case parser::FkAction::kRestrict: return 'r';
    case parser::FkAction::kCascade: return 'c';
    case parser::FkAction::kSetNull: return 'n';
    case parser::FkAction::kSetDefault: return 'd';
  }
  return 'a';
}

int ColumnIndex(const executor::TableInfo& t, const std::string& name) {
  for (size_t i = 0; i < t.columns.size(); ++i) {
    if (t.columns[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

std::vector<int> KeyColumns(const executor::TableInfo& t, const std::vector<std::string>& names) {
  std::vector<int> out;
  for (const std::string& n : names) {
    const int i = ColumnIndex(t, internal::DdlTruncateName(n));
    if (i < 0) throw DbError("42703", "column \"" + n + "\" referenced in foreign key constraint does not exist");
    out.push_back(i);
  }
  return out;
}

std::vector<int> OneBased(const std::vector<int>& cols) {
  std::vector<int> out;
  for (int c : cols) out.push_back(c + 1);
  return out;
}

// The referenced table's unique index on exactly `ref_cols` (any order);
// with no columns given, its primary key (then `*ref_cols` is set).
const executor::IndexInfo& ReferencedIndex(const executor::TableInfo& parent, std::vector<int>* ref_cols) {
  if (ref_cols->empty()) {
    for (const executor::IndexInfo& ix : parent.indexes) {
      if (!ix.primary) continue;
      *ref_cols = ix.columns;
      return ix;
    }
    throw DbError("42830", "there is no primary key for referenced table \"" + parent.name + "\"");
  }
  const std::set<int> want(ref_cols->begin(), ref_cols->end());
  for (const executor::IndexInfo& ix : parent.indexes) {
    if (ix.unique && ix.columns.size() == ref_cols->size() && std::set<int>(ix.columns.begin(), ix.columns.end()) == want) {
      return ix;
    }
  }
  throw DbError("42830", "there is no unique constraint matching given keys for referenced table \"" + parent.name +
                             "\"");
}

// Key columns must compare with each other (PostgreSQL: an equality
// operator between the types): the same type, or numbers with numbers,
// strings with strings, dates and times with each other.
void CheckKeyTypes(const std::string& name, const executor::TableInfo& child, const std::vector<int>& cols,
                   const executor::TableInfo& parent, const std::vector<int>& ref_cols) {
  for (size_t i = 0; i < cols.size(); ++i) {
    const executor::ColumnInfo& a = child.columns[static_cast<size_t>(cols[i])];
    const executor::ColumnInfo& b = parent.columns[static_cast<size_t>(ref_cols[i])];
    if (a.type == b.type) continue;
    const types::TypeCategory ca = types::CategoryOf(a.type);
    if (ca == types::CategoryOf(b.type) && (ca == types::TypeCategory::kNumeric || ca == types::TypeCategory::kString ||
                                           ca == types::TypeCategory::kDateTime)) {
      continue;
    }
    throw DbError("42804", "foreign key constraint \"" + name + "\" cannot be implemented")
        .WithDetail("Key columns \"" + a.name + "\" and \"" + b.name + "\" are of incompatible types: " +
                    types::FormatType(a.type) + " and " + types::FormatType(b.type) + ".");
  }
}

// The referenced table of `c` (locked ShareRowExclusive), or `self` when
// it names the constrained table itself.
RelationRef OpenReferencedTable(const parser::Constraint& c, const RelationRef& self) {
  const std::string name = internal::DdlTruncateName(c.ref_table.name);
  if (name == self->info.name && (c.ref_table.schema.empty() || NamespaceOid(c.ref_table.schema) == self->namespace_oid)) {
    return self;
  }
  if (NamespaceOid(c.ref_table.schema) == types::kInvalidOid) {
    throw DbError("3F000", "schema \"" + c.ref_table.schema + "\" does not exist");
  }
  RelationRef parent = OpenRelation(c.ref_table.schema, name, storage::LockMode::kShareRowExclusive);
  if (parent == nullptr) throw DbError("42P01", "relation \"" + name + "\" does not exist");
  if (parent->relkind != 'r' || parent->namespace_oid == kPgCatalogNamespace) {
    throw DbError("42809", "referenced relation \"" + name + "\" is not a table");
  }
  if (!IsTempNamespace(self->namespace_oid) && IsTempNamespace(parent->namespace_oid)) {
    throw DbError("42830", "constraints on permanent tables may reference only permanent tables");
  }
  return parent;
}

// A FOREIGN KEY constraint of `self` over `local` columns: the row.
ConstraintFields DefineForeignKey(const RelationRef& self, const parser::Constraint& c,
                                  const std::vector<std::string>& local, std::vector<std::string>* chosen) {
  if (c.deferrable || c.initially_deferred) {
    throw DbError("0A000", "DEFERRABLE foreign key constraints are not supported yet");
  }
  const std::vector<int> cols = KeyColumns(self->info, local);
  RelationRef parent = OpenReferencedTable(c, self);
  std::vector<int> ref_cols = KeyColumns(parent->info, c.ref_columns);
  const executor::IndexInfo& index = ReferencedIndex(parent->info, &ref_cols);
  if (ref_cols.size() != cols.size()) {
    throw DbError("42830", "number of referencing and referenced columns for foreign key disagree");
  }
  ConstraintFields f;
  f.type = 'f';
  f.ns = self->namespace_oid;
  if (c.name.empty()) {
    std::string addition;
    for (int col : cols) addition += (addition.empty() ? "" : "_") + self->info.columns[static_cast<size_t>(col)].name;
    f.name = ChooseConstraintName(self->info.name, addition, "fkey", f.ns, *chosen);
  } else {
    f.name = internal::DdlTruncateName(c.name);
    RequireFreeName(*self, f.name, *chosen, 'f');
  }
  CheckKeyTypes(f.name, self->info, cols, parent->info, ref_cols);
  f.oid = GetNewObjectId();
  f.relid = self->oid;
  f.frelid = parent->oid;
  f.indid = index.oid;
  f.key = OneBased(cols);
  f.fkey = OneBased(ref_cols);
  f.upd_type = ActionLetter(c.on_update);
  f.del_type = ActionLetter(c.on_delete);
  chosen->push_back(f.name);
  return f;
}

// A CHECK constraint of `self`: the row.
ConstraintFields DefineCheck(const RelationRef& self, const parser::Constraint& c, const DdlContext& ctx,
                             std::vector<std::string>* chosen) {
  if (!ctx.check_expr) throw DbError("0A000", "CHECK constraints are not supported here");
  if (c.deferrable || c.initially_deferred) throw DbError("0A000", "CHECK constraints cannot be marked DEFERRABLE");
  std::vector<int> columns;
  ConstraintFields f;
  f.type = 'c';
  f.ns = self->namespace_oid;
  f.bin = ctx.check_expr(*c.expr, self->info, &columns);
  if (c.name.empty()) {
    const std::string addition = columns.size() == 1 ? self->info.columns[static_cast<size_t>(columns[0])].name : "";
    f.name = ChooseConstraintName(self->info.name, addition, "check", f.ns, *chosen);
  } else {
    f.name = internal::DdlTruncateName(c.name);
    RequireFreeName(*self, f.name, *chosen, 'c');
  }
  f.oid = GetNewObjectId();
  f.relid = self->oid;
  std::sort(columns.begin(), columns.end());
  f.key = OneBased(columns);  // PostgreSQL's conkey of a CHECK: the columns it reads
  chosen->push_back(f.name);
  return f;
}

void FinishChange(std::vector<Oid> relids) {
  MarkCatalogChanged(relids);
  InvalidateRelcacheEntries(relids);
  access::CommandCounterIncrement();
}

RelationRef OpenConstrainedTable(const parser::RangeVar& rv, storage::LockMode mode) {
  if (NamespaceOid(rv.schema) == types::kInvalidOid) throw DbError("3F000", "schema \"" + rv.schema + "\" does not exist");
  const std::string name = internal::DdlTruncateName(rv.name);
  RelationRef e = OpenRelation(rv.schema, name, mode);
  if (e == nullptr) throw DbError("42P01", "relation \"" + name + "\" does not exist");
  internal::DdlRejectSystemCatalog(*e);
  if (e->relkind != 'r') throw DbError("42809", "\"" + name + "\" is not a table");
  CheckOwnership(*e);
  return e;
}

}  // namespace

DdlResult CreateTableCheckAndForeignKeys(Oid table_oid, const parser::CreateTableStmt& stmt, const DdlContext& ctx) {
  DdlResult result;
  result.oid = table_oid;
  std::vector<std::pair<const parser::Constraint*, std::vector<std::string>>> checks, fkeys;
  for (const parser::ColumnDef& col : stmt.columns) {
    for (const parser::Constraint& c : col.constraints) {
      if (c.kind == ConstraintKind::kCheck) checks.push_back({&c, {}});
      if (c.kind == ConstraintKind::kForeignKey) fkeys.push_back({&c, {col.name}});
    }
  }
  for (const parser::Constraint& c : stmt.constraints) {
    if (c.kind == ConstraintKind::kCheck) checks.push_back({&c, {}});
    if (c.kind == ConstraintKind::kForeignKey) fkeys.push_back({&c, c.columns});
  }
  if (checks.empty() && fkeys.empty()) return result;
  if (!ConstraintCatalogExists()) throw DbError("0A000", "this data directory has no constraint catalog");
  InvalidateRelcacheEntries({table_oid});
  RelationRef self = OpenRelationByOid(table_oid, storage::LockMode::kAccessExclusive);
  if (self == nullptr) throw DbError("XX000", "cache lookup failed for relation " + std::to_string(table_oid));
  std::vector<std::string> chosen;
  std::vector<Oid> changed{table_oid};
  for (const auto& check : checks) InsertConstraintRow(DefineCheck(self, *check.first, ctx, &chosen));
  for (const auto& [c, cols] : fkeys) {
    ConstraintFields f = DefineForeignKey(self, *c, cols, &chosen);
    changed.push_back(f.frelid);
    InsertConstraintRow(f);
  }
  FinishChange(changed);
  return result;
}

AddedConstraint AlterTableAddCheckOrForeignKey(const parser::RangeVar& table, const parser::Constraint& c,
                                              const DdlContext& ctx) {
  if (!ConstraintCatalogExists()) throw DbError("0A000", "this data directory has no constraint catalog");
  RelationRef self = OpenConstrainedTable(table, storage::LockMode::kAccessExclusive);
  std::vector<std::string> chosen;
  ConstraintFields f =
      c.kind == ConstraintKind::kCheck ? DefineCheck(self, c, ctx, &chosen) : DefineForeignKey(self, c, c.columns, &chosen);
  f.validated = !c.not_valid;
  InsertConstraintRow(f);
  std::vector<Oid> changed{self->oid};
  if (f.frelid != 0 && f.frelid != self->oid) changed.push_back(f.frelid);
  FinishChange(changed);
  return AddedConstraint{self->oid, f.name, f.type, !c.not_valid};
}

DdlResult AlterTableDropConstraint(const parser::RangeVar& table, const std::string& name, bool if_exists) {
  DdlResult result;
  RelationRef self = OpenConstrainedTable(table, storage::LockMode::kAccessExclusive);
  const std::string conname = internal::DdlTruncateName(name);
  std::optional<internal::CatalogTuple> row = FindConstraintByName(self->oid, conname);
  if (!row) {
    for (const executor::IndexInfo& ix : self->info.indexes) {
      if (ix.name == conname) throw DbError("0A000", "dropping PRIMARY KEY or UNIQUE constraints is not supported yet");
    }
    const std::string msg = "constraint \"" + conname + "\" of relation \"" + self->info.name + "\" does not exist";
    if (!if_exists) throw DbError("42704", msg);
    result.notices.push_back({"00000", msg + ", skipping"});
    return result;
  }
  const ConstraintFields f = ParseConstraintRow(row->row);
  std::vector<Oid> changed{self->oid};
  if (f.frelid != 0 && f.frelid != self->oid) {
    OpenRelationByOid(f.frelid, storage::LockMode::kShareRowExclusive);
    changed.push_back(f.frelid);
  }
  internal::DdlDeleteCatalogTuple(ConstraintCatalogRel(), row->tid, access::GetCurrentTransactionId(),
                                  access::GetCurrentCommandId(true));
  PendingCounts(kHearthConstraintOid).CountDelete();
  ++result.count;
  FinishChange(changed);
  DeleteDescriptions(f.oid, kPgConstraintClassOid);
  return result;
}

void DropConstraintsWithTables(const std::vector<Oid>& oids, bool cascade, DdlResult* result) {
  if (oids.empty() || !ConstraintCatalogExists()) return;
  const std::set<Oid> dropping(oids.begin(), oids.end());
  std::set<Oid> seen;
  std::vector<Oid> changed;
  std::vector<Oid> dropped;
  bool any = false;
  for (Oid oid : oids) {
    for (const internal::CatalogTuple& t : FindConstraintsOf(oid, /*referencing=*/true)) {
      const ConstraintFields f = ParseConstraintRow(t.row);
      if (!seen.insert(f.oid).second) continue;
      if (!dropping.contains(f.relid)) {
        // Another table's foreign key references a dropped table.
        RelationRef other = LookupRelationByOid(f.relid);
        RelationRef parent = LookupRelationByOid(f.frelid);
        const std::string other_name = other ? other->info.name : "?";
        const std::string parent_name = parent ? parent->info.name : "?";
        if (!cascade) {
          throw DbError("2BP01", "cannot drop table " + parent_name + " because other objects depend on it")
              .WithDetail("constraint " + f.name + " on table " + other_name + " depends on table " + parent_name)
              .WithHint("Use DROP ... CASCADE to drop the dependent objects too.");
        }
        OpenRelationByOid(f.relid, storage::LockMode::kAccessExclusive);
        result->notices.push_back({"00000", "drop cascades to constraint " + f.name + " on table " + other_name});
        changed.push_back(f.relid);
      }
      // The referenced table's entry lists the foreign key too.
      if (f.frelid != 0 && !dropping.contains(f.frelid)) {
        OpenRelationByOid(f.frelid, storage::LockMode::kShareRowExclusive);
        changed.push_back(f.frelid);
      }
      internal::DdlDeleteCatalogTuple(ConstraintCatalogRel(), t.tid, access::GetCurrentTransactionId(),
                                      access::GetCurrentCommandId(true));
      PendingCounts(kHearthConstraintOid).CountDelete();
      any = true;
      dropped.push_back(f.oid);
    }
  }
  if (any) {
    changed.insert(changed.end(), oids.begin(), oids.end());
    FinishChange(changed);
    for (Oid con : dropped) DeleteDescriptions(con, kPgConstraintClassOid);
  }
}

void CheckTruncateReferences(const std::vector<parser::RangeVar>& names) {
  std::vector<RelationRef> rels;
  std::set<Oid> truncated;
  for (const parser::RangeVar& rv : names) {
    if (NamespaceOid(rv.schema) == types::kInvalidOid) continue;  // TruncateTables reports it
    RelationRef e = LookupRelation(rv.schema, internal::DdlTruncateName(rv.name));
    if (e == nullptr) continue;
    rels.push_back(e);
    truncated.insert(e->oid);
  }
  for (const RelationRef& e : rels) {
    for (const executor::ForeignKeyInfo& fk : e->info.referenced_by) {
      if (truncated.contains(fk.table)) continue;
      throw DbError("0A000", "cannot truncate a table referenced in a foreign key constraint")
          .WithDetail("Table \"" + fk.table_name + "\" references \"" + e->info.name + "\".")
          .WithHint("Truncate table \"" + fk.table_name + "\" at the same time, or use TRUNCATE ... CASCADE.");
    }
  }
}

}  // namespace hearth::catalog
