// catalog/ddl.cpp
//
// Principal entry points: CreateTable, DropTables, TruncateTables.
#include "catalog/ddl.h"

#include <algorithm>
#include <charconv>
#include <set>

#include "access/heap/heapam.h"
#include "access/transam/xact.h"
#include "access/transam/xlog_storage_records.h"
#include "catalog/catalog_indexes.h"
#include "catalog/default_acl.h"
#include "catalog/catalog_rows.h"
#include "catalog/catalog_shared.h"
#include "catalog/constraint_catalog.h"
#include "catalog/inherit_catalog.h"
#include "catalog/inherit_ddl.h"
#include "catalog/partition_ddl.h"
#include "catalog/description_catalog.h"
#include "catalog/pending_delete.h"
#include "catalog/privileges.h"
#include "catalog/relcache.h"
#include "catalog/sequence_ddl.h"
#include "catalog/namespace_catalog.h"
#include "catalog/temp_namespace.h"
#include "catalog/table_stats_counts.h"
#include "common/error/db_error.h"
#include "storage/smgr/smgr.h"
#include "utils/adt/type_catalog.h"
#include "utils/adt/user_types.h"

namespace hearth::catalog {

namespace {

using parser::ConstraintKind;

constexpr size_t kMaxNameBytes = 63;  // NAMEDATALEN - 1
constexpr int kMaxColumns = 1600;

void RequireTransaction() {
  if (!access::IsTransactionInProgress()) throw std::logic_error("catalog DDL outside a transaction");
}

// PostgreSQL truncates over-long identifiers (at a character boundary).
std::string TruncateName(const std::string& s) {
  if (s.size() <= kMaxNameBytes) return s;
  size_t n = kMaxNameBytes;
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  return s.substr(0, n);
}

// 1-based character position of byte offset `location` in the query (0: none).
int Position(std::string_view text, int location) {
  if (location < 0 || text.empty() || static_cast<size_t>(location) > text.size()) return 0;
  int chars = 0;
  for (int i = 0; i < location; ++i) {
    if ((static_cast<unsigned char>(text[static_cast<size_t>(i)]) & 0xC0) != 0x80) ++chars;
  }
  return chars + 1;
}

std::string QuoteLiteral(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += '\'';
    out += c;
  }
  return out + "'";
}

// Fallback deparser: literal constants only.
std::string DeparseConstOnly(const parser::Expr& e) {
  if (e.kind != parser::ExprKind::kConst) {
    throw DbError("0A000", "this DEFAULT expression is not supported yet");
  }
  const auto& c = e.As<parser::ConstExpr>();
  switch (c.const_kind) {
    case parser::ConstKind::kInteger:
    case parser::ConstKind::kNumeric: return c.value;
    case parser::ConstKind::kString: return QuoteLiteral(c.value);
    case parser::ConstKind::kBool: return c.bool_value ? "true" : "false";
    case parser::ConstKind::kNull: return "NULL";
  }
  return "NULL";
}

Oid ResolveNamespaceForCreate(const parser::RangeVar& rv, const std::string& relname) {
  Oid ns = types::kInvalidOid;
  try {
    ns = rv.schema.empty() ? CreationNamespace() : NamespaceOid(rv.schema);
  } catch (DbError& e) {
    if (rv.location >= 0) e.WithPosition(rv.location + 1);
    throw;
  }
  if (ns == kPgCatalogNamespace) {
    throw DbError("42501", "permission denied to create \"pg_catalog." + relname + "\"")
        .WithDetail("System catalog modifications are currently disallowed.");
  }
  if (ns == types::kInvalidOid) {
    DbError e("3F000", "schema \"" + rv.schema + "\" does not exist");
    if (rv.location >= 0) e.WithPosition(rv.location + 1);
    throw e;
  }
  CheckSchemaCreate(ns);
  if (IsTempNamespace(ns)) {
    if (ns != MyTempNamespaceOid()) {
      throw DbError("0A000", "cannot create relations in temporary schemas of other sessions");
    }
    return ClaimTempNamespace();
  }
  return ns;
}

// CREATE TEMP ...: this session's temporary namespace (42P16 with a
// schema that is not temporary, as PostgreSQL).
Oid TempNamespaceForCreate(const parser::RangeVar& rv) {
  if (!rv.schema.empty() && !IsTempNamespace(NamespaceOid(rv.schema))) {
    DbError e("42P16", "cannot create temporary relation in non-temporary schema");
    if (rv.location >= 0) e.WithPosition(rv.location + 1);
    throw e;
  }
  parser::RangeVar temp = rv;
  temp.schema = "pg_temp";
  return ResolveNamespaceForCreate(temp, rv.name);
}

int ParseFillfactor(const parser::GenericOption& opt) {
  int v = 0;
  const std::string& s = opt.value;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (!opt.has_value || ec != std::errc() || p != s.data() + s.size()) {
    throw DbError("22023", "invalid value for integer option \"fillfactor\": " + s);
  }
  if (v < 10 || v > 100) {
    throw DbError("22023", "value " + s + " out of bounds for option \"fillfactor\"")
        .WithDetail("Valid values are between \"10\" and \"100\".");
  }
  return v;
}

// The type of a column definition: 42704 unknown type (with position),
// 42P16 pseudo-types.
void ResolveColumnType(const parser::TypeName& tn, const std::string& column, std::string_view query_text,
                       Oid* type, int32_t* typmod) {
  const types::TypeInfo* ti = types::LookupTypeByQualifiedName(tn.schema, tn.name);
  if (ti != nullptr && tn.is_array) ti = types::LookupType(types::ArrayTypeOf(ti->oid));  // int[], int[3]
  if (ti == nullptr) {
    std::string shown = (tn.schema.empty() ? tn.name : tn.schema + "." + tn.name) + (tn.is_array ? "[]" : "");
    throw DbError("42704", "type \"" + shown + "\" does not exist").WithPosition(Position(query_text, tn.location));
  }
  if (ti->category == types::TypeCategory::kPseudo || ti->storage == types::Storage::kNone) {
    throw DbError("42P16", "column \"" + column + "\" has pseudo-type " + ti->name);
  }
  *type = ti->oid;
  *typmod = tn.typmods.empty() ? types::kNoTypmod
                               : types::TypmodFromModifiers(ti->oid, tn.typmods.data(), static_cast<int>(tn.typmods.size()));
}

uint32_t NameHash(Oid ns, const std::string& name) {
  uint32_t h = 2166136261u ^ ns;
  for (unsigned char c : name) h = (h ^ c) * 16777619u;
  return h;
}

void DeleteCatalogTuple(storage::RelFileLocator rel, heap::ItemPointer tid, access::TransactionId xid,
                        access::CommandId cid) {
  heap::TmFailureData fd;
  access::TmResult r = heap::HeapDelete(rel, tid, xid, cid, nullptr, /*wait=*/true, &fd);
  if (r != access::TmResult::kOk) throw DbError("XX000", "tuple concurrently updated");
  PendingCounts(rel.number.value).CountDelete();  // catalogs: relfilenode = oid
}

void RejectSystemCatalog(const RelationEntry& e) {
  if (e.namespace_oid == kPgCatalogNamespace) {
    throw DbError("42501", "permission denied: \"" + e.info.name + "\" is a system catalog");
  }
}

storage::RelFileLocator CreateRelationFile(Oid relfilenode) {
  const storage::RelFileLocator rel = DatabaseRel(relfilenode);
  storage::Status st = storage::SmgrCreate(rel, storage::ForkNumber::kMain);
  if (!st.ok()) throw DbError("58030", "could not create relation file: " + st.message());
  // Recovery recreates the file if the transaction commits and we crash
  // before the next checkpoint.
  access::XLogLogRelationCreate(rel);
  // Gone again if the transaction does not commit.
  RegisterPendingDelete(rel, /*at_commit=*/false);
  return rel;
}

}  // namespace

DdlResult CreateTable(const parser::CreateTableStmt& stmt, const DdlContext& ctx) {
  RequireTransaction();
  DdlResult result;
  const std::string relname = TruncateName(stmt.table.name);
  const Oid ns = stmt.temp ? TempNamespaceForCreate(stmt.table) : ResolveNamespaceForCreate(stmt.table, relname);
  if (!stmt.on_commit.empty() && !IsTempNamespace(ns)) {
    throw DbError("42P16", "ON COMMIT can only be used on temporary tables");
  }
  if (stmt.on_commit == "delete rows" || stmt.on_commit == "drop") {
    throw DbError("0A000", "ON COMMIT " + std::string(stmt.on_commit == "drop" ? "DROP" : "DELETE ROWS") +
                               " is not supported yet");
  }

  // Validate everything before touching storage.
  const int ncols = static_cast<int>(stmt.columns.size());
  if (ncols > kMaxColumns) throw DbError("54011", "tables can have at most 1600 columns");
  std::vector<internal::AttributeFields> attrs;
  attrs.reserve(stmt.columns.size());
  const auto& deparse = ctx.deparse ? ctx.deparse : std::function<std::string(const parser::Expr&)>(DeparseConstOnly);
  bool has_pk = false;
  auto note_pk = [&]() {
    if (has_pk) throw DbError("42P16", "multiple primary keys for table \"" + relname + "\" are not allowed");
    has_pk = true;
  };
  for (int i = 0; i < ncols; ++i) {
    const parser::ColumnDef& col = stmt.columns[static_cast<size_t>(i)];
    internal::AttributeFields a;
    a.attname = TruncateName(col.name);
    for (const auto& prev : attrs) {
      if (prev.attname == a.attname) throw DbError("42701", "column \"" + a.attname + "\" specified more than once");
    }
    ResolveColumnType(col.type, a.attname, ctx.query_text, &a.atttypid, &a.atttypmod);
    a.attnum = i + 1;
    a.attrelid = 0;  // set below
    bool said_null = false, said_not_null = false, said_default = false;
    for (const parser::Constraint& c : col.constraints) {
      switch (c.kind) {
        case ConstraintKind::kNotNull: said_not_null = true; break;
        case ConstraintKind::kNull: said_null = true; break;
        case ConstraintKind::kDefault:
          if (said_default) {
            throw DbError("42601", "multiple default values specified for column \"" + a.attname + "\" of table \"" +
                                       relname + "\"");
          }
          said_default = true;
          if (c.expr) {
            a.attdefault = deparse(*c.expr);
            // An explicit DEFAULT NULL is the same as no default.
            if (a.attdefault == "NULL") a.attdefault.clear();
          }
          break;
        case ConstraintKind::kPrimaryKey: note_pk(); said_not_null = true; break;
        case ConstraintKind::kUnique: break;  // accepted; enforced by the index issue
        case ConstraintKind::kCheck: break;       // constraint_ddl.cpp
        case ConstraintKind::kForeignKey: break;  // constraint_ddl.cpp
        case ConstraintKind::kIdentity: said_not_null = true; break;  // PlanColumnSequences
      }
      if (said_null && said_not_null) {
        throw DbError("42601", "conflicting NULL/NOT NULL declarations for column \"" + a.attname + "\" of table \"" +
                                   relname + "\"");
      }
    }
    a.attnotnull = said_not_null;
    attrs.push_back(std::move(a));
  }
  std::vector<ColumnSequencePlan> sequences = PlanColumnSequences(stmt, relname, ns, attrs, ctx.query_text);
  // PARTITION OF: the bound, checked against the parent's partitions
  // (partition_ddl.cpp); INHERITS / PARTITION OF: the parents' columns
  // first, local ones merged in (inherit_ddl.cpp); PARTITION BY: the key.
  const std::string partbound = PartitionBoundForCreate(stmt, relname, ctx);
  const std::vector<Oid> parents = MergeInheritedColumns(stmt, &attrs, &sequences, &result.notices);
  const std::string partkey = PartitionKeyForCreate(stmt, attrs, ctx);
  for (const parser::Constraint& c : stmt.constraints) {
    switch (c.kind) {
      case ConstraintKind::kPrimaryKey:
      case ConstraintKind::kUnique:
        if (c.kind == ConstraintKind::kPrimaryKey) note_pk();
        for (const std::string& name : c.columns) {
          auto it = std::find_if(attrs.begin(), attrs.end(), [&](const auto& a) { return a.attname == name; });
          if (it == attrs.end()) throw DbError("42703", "column \"" + name + "\" named in key does not exist");
          if (c.kind == ConstraintKind::kPrimaryKey) it->attnotnull = true;
        }
        break;
      default: break;  // CHECK, FOREIGN KEY: constraint_ddl.cpp
    }
  }
  int fillfactor = 100;
  std::string reloptions;
  for (const parser::GenericOption& opt : stmt.with_options) {
    if (opt.name == "fillfactor") {
      fillfactor = ParseFillfactor(opt);
    } else if (opt.name == "autovacuum_enabled" || opt.name == "toast.autovacuum_enabled") {
      // WITH (autovacuum_enabled) alone means true, as PostgreSQL.
      const std::string value = opt.has_value ? opt.value : "true";
      if (!internal::ParseBoolOption(value)) {
        throw DbError("22023", "invalid value for boolean option \"" + opt.name.substr(opt.name.find('.') + 1) +
                                   "\": " + value);
      }
      // There is no TOAST table: only the table's own setting is kept.
      if (opt.name == "autovacuum_enabled") reloptions = "autovacuum_enabled=" + value;
    } else {
      throw DbError("22023", "unrecognized parameter \"" + opt.name + "\"");
    }
  }

  // Serialise creators of the same name, then check with a fresh snapshot.
  storage::LockAcquire(storage::LockTag::Object(kHearthClassOid, NameHash(ns, relname)), storage::LockMode::kExclusive);
  if (internal::FindClassByName(ns, relname)) {
    if (stmt.if_not_exists) {
      result.notices.push_back({"42P07", "relation \"" + relname + "\" already exists, skipping"});
      return result;
    }
    throw DbError("42P07", "relation \"" + relname + "\" already exists");
  }

  const Oid oid = GetNewObjectId();
  CreateRelationFile(oid);
  const access::TransactionId xid = access::GetCurrentTransactionId();
  const access::CommandId cid = access::GetCurrentCommandId(true);
  internal::ClassFields cf;
  cf.oid = oid;
  cf.relname = relname;
  cf.relnamespace = ns;
  cf.relfilenode = oid;
  cf.relnatts = static_cast<int>(attrs.size());
  cf.inherits = FormatOidList(parents);
  cf.partkey = partkey;
  cf.partbound = partbound;
  cf.fillfactor = fillfactor;
  cf.reloptions = reloptions;
  cf.owner = OwnerForNewObject();
  cf.acl = NewRelationAcl(cf.relkind, cf.owner, ns);  // ALTER DEFAULT PRIVILEGES
  MarkCatalogChanged(oid);
  internal::CatalogInsert(kHearthClassOid, internal::MakeClassRow(cf), xid, cid);
  for (internal::AttributeFields& a : attrs) {
    a.attrelid = oid;
    internal::CatalogInsert(kHearthAttributeOid, internal::MakeAttributeRow(a), xid, cid);
  }
  CreateColumnSequences(sequences, oid, ns);
  access::CommandCounterIncrement();
  if (!parents.empty()) WriteInheritance(oid, parents, /*child_row=*/false);
  result.oid = oid;
  result.count = 1;
  return result;
}

DdlResult DropTables(const std::vector<parser::RangeVar>& names, bool if_exists) {
  RequireTransaction();
  DdlResult result;
  std::vector<RelationRef> victims;
  std::set<Oid> seen;
  for (const parser::RangeVar& rv : names) {
    if (NamespaceOid(rv.schema) == types::kInvalidOid) {
      if (if_exists) {
        result.notices.push_back({"00000", "schema \"" + rv.schema + "\" does not exist, skipping"});
        continue;
      }
      throw DbError("3F000", "schema \"" + rv.schema + "\" does not exist");
    }
    const std::string name = TruncateName(rv.name);
    RelationRef e = OpenRelation(rv.schema, name, storage::LockMode::kAccessExclusive);
    if (e == nullptr) {
      if (if_exists) {
        result.notices.push_back({"00000", "table \"" + name + "\" does not exist, skipping"});
        continue;
      }
      throw DbError("42P01", "table \"" + name + "\" does not exist");
    }
    RejectSystemCatalog(*e);
    if (e->relkind == 'S') {
      throw DbError("42809", "\"" + name + "\" is not a table").WithHint("Use DROP SEQUENCE to remove a sequence.");
    }
    if (e->relkind == 'v') {
      throw DbError("42809", "\"" + name + "\" is not a table").WithHint("Use DROP VIEW to remove a view.");
    }
    CheckOwnership(*e);
    if (seen.insert(e->oid).second) victims.push_back(std::move(e));
  }
  if (victims.empty()) return result;

  const access::TransactionId xid = access::GetCurrentTransactionId();
  const access::CommandId cid = access::GetCurrentCommandId(true);
  std::vector<Oid> victim_oids;
  for (const RelationRef& e : victims) {
    victim_oids.push_back(e->oid);
    CountTableDropped(e->oid);
  }
  MarkCatalogChanged(victim_oids);
  for (const RelationRef& e : victims) {
    auto cls = internal::FindClassByOid(e->oid);
    if (!cls) throw DbError("XX000", "cache lookup failed for relation " + std::to_string(e->oid));
    const storage::RelFileLocator rel = DatabaseRel(internal::RowOid(cls->row, kClassRelfilenode));
    DeleteCatalogTuple(ClassRel(), cls->tid, xid, cid);
    for (const internal::CatalogTuple& a : internal::FindAttributes(e->oid)) {
      DeleteCatalogTuple(AttributeRel(), a.tid, xid, cid);
    }
    DropOwnedSequences(e->oid, xid, cid);
    RegisterPendingDelete(rel, /*at_commit=*/true);
    ++result.count;
  }
  access::CommandCounterIncrement();
  for (const RelationRef& e : victims) DeleteDescriptions(e->oid, kPgClassClassOid);
  return result;
}

DdlResult TruncateTables(const std::vector<parser::RangeVar>& names) {
  RequireTransaction();
  DdlResult result;
  std::vector<RelationRef> targets;
  std::set<Oid> seen;
  for (const parser::RangeVar& rv : names) {
    const std::string name = TruncateName(rv.name);
    if (NamespaceOid(rv.schema) == types::kInvalidOid) {
      throw DbError("3F000", "schema \"" + rv.schema + "\" does not exist");
    }
    RelationRef e = OpenRelation(rv.schema, name, storage::LockMode::kAccessExclusive);
    if (e == nullptr) throw DbError("42P01", "relation \"" + name + "\" does not exist");
    RejectSystemCatalog(*e);
    if (e->relkind == 'S' || e->relkind == 'v') throw DbError("42809", "\"" + name + "\" is not a table");
    CheckTablePrivileges(*e, kAclTruncate);
    if (seen.insert(e->oid).second) targets.push_back(std::move(e));
  }
  if (targets.empty()) return result;

  const access::TransactionId xid = access::GetCurrentTransactionId();
  const access::CommandId cid = access::GetCurrentCommandId(true);
  std::vector<Oid> target_oids;
  for (const RelationRef& e : targets) {
    target_oids.push_back(e->oid);
    CountTableTruncated(e->oid);
  }
  MarkCatalogChanged(target_oids);
  for (const RelationRef& e : targets) {
    auto cls = internal::FindClassByOid(e->oid);
    if (!cls) throw DbError("XX000", "cache lookup failed for relation " + std::to_string(e->oid));
    const storage::RelFileLocator old_rel = DatabaseRel(internal::RowOid(cls->row, kClassRelfilenode));
    const Oid new_number = GetNewObjectId();
    CreateRelationFile(new_number);
    heap::Row row = cls->row;
    row[kClassRelfilenode] = types::Value::Int(types::kOidOid, new_number);
    row[kClassRelpages] = types::Value::Int4(0);
    row[kClassReltuples] = types::Value::Float(types::kFloat4Oid, 0.0);
    internal::CatalogUpdate(kHearthClassOid, cls->tid, row, xid, cid);
    RegisterPendingDelete(old_rel, /*at_commit=*/true);
    ++result.count;
  }
  access::CommandCounterIncrement();
  return result;
}

void UpdateRelationStats(Oid relid, int32_t relpages, double reltuples) {
  RequireTransaction();
  auto cls = internal::FindClassByOid(relid);
  if (!cls) throw DbError("42P01", "relation with OID " + std::to_string(relid) + " does not exist");
  heap::Row row = cls->row;
  row[kClassRelpages] = types::Value::Int4(relpages);
  row[kClassReltuples] = types::Value::Float(types::kFloat4Oid, reltuples);
  internal::CatalogUpdate(kHearthClassOid, cls->tid, row, access::GetCurrentTransactionId(),
                          access::GetCurrentCommandId(true));
  access::CommandCounterIncrement();
}

RelationStats GetRelationStats(Oid relid) {
  RequireTransaction();
  auto cls = internal::FindClassByOid(relid);
  if (!cls) throw DbError("42P01", "relation with OID " + std::to_string(relid) + " does not exist");
  RelationStats st;
  st.relpages = static_cast<int32_t>(cls->row[kClassRelpages].i);
  st.reltuples = cls->row[kClassReltuples].f;
  return st;
}

std::vector<RelationRef> ListUserTables() {
  RequireTransaction();
  std::vector<RelationRef> out;
  for (const internal::CatalogTuple& t : internal::FindClassesInNamespace(kPublicNamespace)) {
    RelationRef e = LookupRelationByOid(internal::RowOid(t.row, kClassOid));
    if (e != nullptr && e->relkind == 'r') out.push_back(std::move(e));
  }
  std::sort(out.begin(), out.end(), [](const RelationRef& a, const RelationRef& b) { return a->info.name < b->info.name; });
  return out;
}

std::vector<RelationRef> ListMaintainedRelations() {
  std::vector<RelationRef> out;
  for (Oid oid : {kHearthClassOid, kHearthAttributeOid, kHearthIndexOid, kHearthConstraintOid}) {
    if (RelationRef e = LookupRelationByOid(oid)) out.push_back(std::move(e));
  }
  for (RelationRef& e : ListUserTables()) out.push_back(std::move(e));
  return out;
}

}  // namespace hearth::catalog

namespace hearth::catalog::internal {

std::string DdlTruncateName(const std::string& s) { return TruncateName(s); }
Oid DdlNamespaceForCreate(const parser::RangeVar& rv, const std::string& relname, bool temp) {
  return temp ? TempNamespaceForCreate(rv) : ResolveNamespaceForCreate(rv, relname);
}
void LockRelationName(Oid ns, const std::string& relname) {
  storage::LockAcquire(storage::LockTag::Object(kHearthClassOid, NameHash(ns, relname)), storage::LockMode::kExclusive);
}
storage::RelFileLocator DdlCreateRelationFile(Oid relfilenode) { return CreateRelationFile(relfilenode); }
void DdlDeleteCatalogTuple(storage::RelFileLocator rel, heap::ItemPointer tid, access::TransactionId xid,
                           access::CommandId cid) {
  DeleteCatalogTuple(rel, tid, xid, cid);
}
void DdlRejectSystemCatalog(const RelationEntry& e) { RejectSystemCatalog(e); }
int DdlPosition(std::string_view query, int location) { return Position(query, location); }
void DdlResolveColumnType(const parser::TypeName& tn, const std::string& column, std::string_view query_text,
                          Oid* type, int32_t* typmod) {
  ResolveColumnType(tn, column, query_text, type, typmod);
}

}  // namespace hearth::catalog::internal
