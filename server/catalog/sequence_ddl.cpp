// catalog/sequence_ddl.cpp
//
// Principal entry points: CreateSequence, AlterSequence, DropSequences,
// PlanColumnSequences, CreateColumnSequences, DropOwnedSequences,
// RestartOwnedSequences.
#include "catalog/sequence_ddl.h"

#include "catalog/default_acl.h"
#include "catalog/description_catalog.h"
#include "catalog/privileges.h"

#include <charconv>
#include <limits>
#include <optional>

#include "access/heap/heapam.h"
#include "access/transam/xact.h"
#include "catalog/alter_table.h"
#include "catalog/catalog_indexes.h"
#include "catalog/catalog_shared.h"
#include "catalog/ddl_internal.h"
#include "catalog/pending_delete.h"
#include "catalog/relcache.h"
#include "catalog/sequence.h"
#include "catalog/table_stats_counts.h"
#include "common/error/db_error.h"
#include "utils/adt/type_catalog.h"

namespace hearth::catalog {

namespace {

using parser::SeqOption;
using parser::SeqOptionKind;

struct TypeRange {
  int64_t min, max;
};
TypeRange RangeOf(Oid type) {
  switch (type) {
    case types::kInt2Oid: return {-32768, 32767};
    case types::kInt4Oid: return {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()};
    default: return {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()};
  }
}

int64_t ParseInt8(const SeqOption& o) {
  int64_t v = 0;
  const std::string& s = o.value;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) {
    throw DbError("22003", "value \"" + s + "\" is out of range for type bigint");
  }
  return v;
}

Oid SequenceType(const parser::TypeName& tn) {
  const types::TypeInfo* ti = (tn.schema.empty() || tn.schema == "pg_catalog") ? types::LookupTypeByName(tn.name) : nullptr;
  if (ti == nullptr) throw DbError("42704", "type \"" + tn.name + "\" does not exist");
  if (ti->oid != types::kInt2Oid && ti->oid != types::kInt4Oid && ti->oid != types::kInt8Oid) {
    throw DbError("22023", "sequence type must be smallint, integer, or bigint");
  }
  return ti->oid;
}

// The options as given, each at most once (42601 otherwise).
struct GivenOptions {
  const SeqOption* by_kind[10] = {};
  const SeqOption* Get(SeqOptionKind k) const { return by_kind[static_cast<int>(k)]; }
};
GivenOptions Collect(const std::vector<SeqOption>& opts, std::string_view query = {}) {
  GivenOptions g;
  for (const SeqOption& o : opts) {
    const SeqOption*& slot = g.by_kind[static_cast<int>(o.kind)];
    if (slot != nullptr) {
      throw DbError("42601", "conflicting or redundant options").WithPosition(internal::DdlPosition(query, o.location));
    }
    slot = &o;
  }
  return g;
}

std::string TypeName(Oid t) { return types::FormatType(t); }

// SEQUENCE NAME belongs to an identity column's options only.
void RejectSequenceName(const GivenOptions& g, std::string_view query) {
  if (const SeqOption* o = g.Get(SeqOptionKind::kSequenceName)) {
    throw DbError("42601", "invalid sequence option SEQUENCE NAME").WithPosition(internal::DdlPosition(query, o->location));
  }
}

// PostgreSQL's init_params: applies `opts` over `p` (the defaults at
// CREATE, the current parameters at ALTER). *restart gets RESTART's value.
void ApplyOptions(const GivenOptions& g, bool is_init, SequenceParams& p, std::optional<int64_t>* restart) {
  const Oid old_type = p.type;
  const TypeRange old_range = RangeOf(old_type);
  if (const SeqOption* o = g.Get(SeqOptionKind::kAs)) p.type = SequenceType(o->type);
  const bool type_changed = p.type != old_type;
  const TypeRange r = RangeOf(p.type);
  if (const SeqOption* o = g.Get(SeqOptionKind::kIncrement)) {
    p.increment = ParseInt8(*o);
    if (p.increment == 0) throw DbError("22023", "INCREMENT must not be zero");
  }
  if (const SeqOption* o = g.Get(SeqOptionKind::kCycle)) p.cycle = !o->is_no;
  const SeqOption* maxo = g.Get(SeqOptionKind::kMaxValue);
  if (maxo != nullptr && !maxo->is_no) {
    p.max = ParseInt8(*maxo);
  } else if (is_init || maxo != nullptr || (type_changed && p.max == old_range.max)) {
    p.max = p.increment > 0 ? r.max : -1;
  }
  const SeqOption* mino = g.Get(SeqOptionKind::kMinValue);
  if (mino != nullptr && !mino->is_no) {
    p.min = ParseInt8(*mino);
  } else if (is_init || mino != nullptr || (type_changed && p.min == old_range.min)) {
    p.min = p.increment > 0 ? 1 : r.min;
  }
  if (p.max < r.min || p.max > r.max) {
    throw DbError("22023", "MAXVALUE (" + std::to_string(p.max) + ") is out of range for sequence data type " +
                               TypeName(p.type));
  }
  if (p.min < r.min || p.min > r.max) {
    throw DbError("22023", "MINVALUE (" + std::to_string(p.min) + ") is out of range for sequence data type " +
                               TypeName(p.type));
  }
  if (p.min >= p.max) {
    throw DbError("22023", "MINVALUE (" + std::to_string(p.min) + ") must be less than MAXVALUE (" +
                               std::to_string(p.max) + ")");
  }
  if (const SeqOption* o = g.Get(SeqOptionKind::kStart)) {
    p.start = ParseInt8(*o);
  } else if (is_init) {
    p.start = p.increment > 0 ? p.min : p.max;
  }
  if (p.start < p.min) {
    throw DbError("22023", "START value (" + std::to_string(p.start) + ") cannot be less than MINVALUE (" +
                               std::to_string(p.min) + ")");
  }
  if (p.start > p.max) {
    throw DbError("22023", "START value (" + std::to_string(p.start) + ") cannot be greater than MAXVALUE (" +
                               std::to_string(p.max) + ")");
  }
  if (const SeqOption* o = g.Get(SeqOptionKind::kRestart)) *restart = o->has_value ? ParseInt8(*o) : p.start;
  if (const SeqOption* o = g.Get(SeqOptionKind::kCache)) {
    p.cache = ParseInt8(*o);
    if (p.cache <= 0) {
      throw DbError("22023", "CACHE (" + std::to_string(p.cache) + ") must be greater than zero");
    }
  }
}

// The value a RESTART (or the current value) must respect.
void CheckRestartValue(const SequenceParams& p, int64_t v) {
  if (v < p.min) {
    throw DbError("22023", "RESTART value (" + std::to_string(v) + ") cannot be less than MINVALUE (" +
                               std::to_string(p.min) + ")");
  }
  if (v > p.max) {
    throw DbError("22023", "RESTART value (" + std::to_string(v) + ") cannot be greater than MAXVALUE (" +
                               std::to_string(p.max) + ")");
  }
}

// OWNED BY t.c | NONE → (owner_rel, owner_col).
void ApplyOwnedBy(const SeqOption& o, Oid seq_ns, SequenceParams& p) {
  if (o.owned_by.empty()) {
    p.owner_rel = 0;
    p.owner_col = 0;
    return;
  }
  if (o.owned_by.size() < 2) {
    throw DbError("42601", "invalid OWNED BY option").WithHint("Specify OWNED BY table.column or OWNED BY NONE.");
  }
  const std::string& col = o.owned_by.back();
  const std::string& table = o.owned_by[o.owned_by.size() - 2];
  const std::string schema = o.owned_by.size() > 2 ? o.owned_by[o.owned_by.size() - 3] : std::string();
  RelationRef t = OpenRelation(schema, table, storage::LockMode::kAccessShare);
  if (t == nullptr) throw DbError("42P01", "relation \"" + table + "\" does not exist");
  if (t->relkind != 'r') throw DbError("42809", "referenced relation \"" + table + "\" is not a table or foreign table");
  if (t->namespace_oid != seq_ns) {
    throw DbError("55000", "sequence must be in same schema as table it is linked to");
  }
  for (size_t i = 0; i < t->info.columns.size(); ++i) {
    if (t->info.columns[i].name == col) {
      p.owner_rel = t->oid;
      p.owner_col = static_cast<int>(i) + 1;
      return;
    }
  }
  throw DbError("42703", "column \"" + col + "\" of relation \"" + table + "\" does not exist");
}

// 'name' (quoted as an identifier when needed) as an SQL string literal,
// as column defaults spell it: nextval('t_id_seq'::regclass).
std::string SequenceNameLiteral(const std::string& name) {
  std::string literal = "'";
  for (char ch : QuoteIdentifier(name)) literal += ch == '\'' ? std::string("''") : std::string(1, ch);
  return literal + "'";
}

bool NameTaken(Oid ns, const std::string& name) {
  return internal::FindClassByName(ns, name).has_value() || internal::FindIndexByName(ns, name).has_value();
}

// Catalog rows + file of a new sequence named `name` (lock on the name held).
Oid CreateSequenceRelation(const std::string& name, Oid ns, SequenceParams p) {
  const Oid oid = GetNewObjectId();
  const storage::RelFileLocator rel = internal::DdlCreateRelationFile(oid);
  InitSequencePage(rel, p.start);
  const access::TransactionId xid = access::GetCurrentTransactionId();
  const access::CommandId cid = access::GetCurrentCommandId(true);
  MarkCatalogChanged(oid);
  internal::ClassFields cf;
  cf.oid = oid;
  cf.relname = name;
  cf.relnamespace = ns;
  cf.relfilenode = oid;
  cf.relnatts = 3;
  cf.relkind = 'S';
  cf.owner = OwnerForNewObject();
  cf.acl = NewRelationAcl(cf.relkind, cf.owner, ns);  // ALTER DEFAULT PRIVILEGES
  internal::CatalogInsert(kHearthClassOid, internal::MakeClassRow(cf), xid, cid);
  const std::pair<const char*, Oid> cols[] = {
      {"last_value", types::kInt8Oid}, {"log_cnt", types::kInt8Oid}, {"is_called", types::kBoolOid}};
  int attnum = 0;
  for (const auto& [colname, type] : cols) {
    internal::AttributeFields a;
    a.attrelid = oid;
    a.attname = colname;
    a.atttypid = type;
    a.attnum = ++attnum;
    a.attnotnull = true;
    internal::CatalogInsert(kHearthAttributeOid, internal::MakeAttributeRow(a), xid, cid);
  }
  p.relid = oid;
  heap::HeapInsert(SequenceCatalogRel(), SequenceCatalogTupleDesc(), MakeSequenceRow(p), xid, cid);
  PendingCounts(SequenceCatalogRel().number.value).CountInsert();
  return oid;
}

// Removes a sequence's rows (its file goes at commit).
void DeleteSequenceRelation(const RelationEntry& seq, access::TransactionId xid, access::CommandId cid) {
  auto cls = internal::FindClassByOid(seq.oid);
  if (!cls) throw DbError("XX000", "cache lookup failed for relation " + std::to_string(seq.oid));
  MarkCatalogChanged(seq.oid);
  internal::DdlDeleteCatalogTuple(ClassRel(), cls->tid, xid, cid);
  for (const internal::CatalogTuple& a : internal::FindAttributes(seq.oid)) {
    internal::DdlDeleteCatalogTuple(AttributeRel(), a.tid, xid, cid);
  }
  if (auto row = FindSequenceRow(seq.oid)) internal::DdlDeleteCatalogTuple(SequenceCatalogRel(), row->tid, xid, cid);
  RegisterPendingDelete(DatabaseRel(internal::RowOid(cls->row, kClassRelfilenode)), /*at_commit=*/true);
  ForgetSessionSequence(seq.oid);
  DeleteDescriptions(seq.oid, kPgClassClassOid);
}

void UpdateSequenceRow(const internal::CatalogTuple& row, const SequenceParams& p) {
  heap::TmFailureData fd;
  heap::ItemPointer new_tid;
  access::TmResult r = heap::HeapUpdate(SequenceCatalogRel(), row.tid, SequenceCatalogTupleDesc(), MakeSequenceRow(p),
                                        access::GetCurrentTransactionId(), access::GetCurrentCommandId(true), nullptr,
                                        /*wait=*/true, &fd, &new_tid);
  if (r != access::TmResult::kOk) throw DbError("XX000", "tuple concurrently updated");
  PendingCounts(SequenceCatalogRel().number.value).CountUpdate(/*hot=*/false);
}

// Clears a column's DEFAULT (DROP SEQUENCE ... CASCADE of its sequence).
void DropColumnDefault(Oid table, int attnum, access::TransactionId xid, access::CommandId cid) {
  MarkCatalogChanged(table);
  for (const internal::CatalogTuple& a : internal::FindAttributes(table)) {
    if (a.row[kAttAttnum].i != attnum) continue;
    heap::Row row = a.row;
    row[kAttAtthasdef] = types::Value::Bool(false);
    row[kAttAttdefault] = types::Value::Text("");
    internal::CatalogUpdate(kHearthAttributeOid, a.tid, row, xid, cid);
  }
}

// What DROP SEQUENCE must do about the column owning `seq`: nothing, drop
// its default (CASCADE), or refuse.
void HandleOwnerOnDrop(const RelationEntry& seq, parser::DropBehavior behavior, DdlResult& result,
                       access::TransactionId xid, access::CommandId cid) {
  const SequenceParams& p = *seq.sequence;
  if (p.owner_rel == 0) return;
  RelationRef t = LookupRelationByOid(p.owner_rel);
  if (t == nullptr || p.owner_col < 1 || p.owner_col > static_cast<int>(t->info.columns.size())) return;
  const executor::ColumnInfo& c = t->info.columns[static_cast<size_t>(p.owner_col - 1)];
  // Object descriptions as PostgreSQL's: relation names quoted when needed, column names as is.
  const std::string col = "column " + c.name + " of table " + QuoteIdentifier(t->info.name);
  const std::string seq_name = QuoteIdentifier(seq.info.name);
  if (p.identity != 0) {
    throw DbError("2BP01", "cannot drop sequence " + seq_name + " because " + col + " requires it")
        .WithHint("You can drop " + col + " instead.");
  }
  if (c.default_expr.find(SequenceNameLiteral(seq.info.name)) == std::string::npos) return;
  if (behavior != parser::DropBehavior::kCascade) {
    throw DbError("2BP01", "cannot drop sequence " + seq_name + " because other objects depend on it")
        .WithDetail("default value for " + col + " depends on sequence " + seq_name)
        .WithHint("Use DROP ... CASCADE to drop the dependent objects too.");
  }
  result.notices.push_back({"00000", "drop cascades to default value for " + col});
  DropColumnDefault(t->oid, p.owner_col, xid, cid);
}

std::string ChooseSequenceName(const std::string& table, const std::string& column, Oid ns,
                               const std::vector<ColumnSequencePlan>& taken) {
  const std::string base = internal::DdlTruncateName(table + "_" + column + "_seq");
  for (int n = 0;; ++n) {
    std::string name = base;
    if (n > 0) name = internal::DdlTruncateName(base.substr(0, 63 - std::to_string(n).size()) + std::to_string(n));
    bool used = NameTaken(ns, name);
    for (const ColumnSequencePlan& p : taken) used |= p.name == name;
    if (!used) return name;
  }
}

// The sequence of serial or identity column `column` (attnum, integer
// type `type`) of table `relname` in `ns`: its parameters from the identity's
// options, its name from SEQUENCE NAME or <table>_<column>_seq made unique.
ColumnSequencePlan PlanColumnSequence(const std::string& relname, const std::string& column, Oid type, int attnum,
                                      const parser::Constraint* identity, Oid ns,
                                      const std::vector<ColumnSequencePlan>& taken) {
  if (type != types::kInt2Oid && type != types::kInt4Oid && type != types::kInt8Oid) {
    throw DbError("22023", "identity column type must be smallint, integer, or bigint");
  }
  ColumnSequencePlan plan;
  plan.attnum = attnum;
  plan.params.type = type;
  std::optional<int64_t> restart;
  static const std::vector<SeqOption> kNoOptions;
  const GivenOptions g = Collect(identity != nullptr ? identity->seq_options : kNoOptions);  // points into them
  ApplyOptions(g, true, plan.params, &restart);
  plan.params.type = type;  // AS in an identity's options must not differ: the column type wins
  plan.params.identity = identity ? identity->identity : 0;
  if (const SeqOption* o = g.Get(SeqOptionKind::kSequenceName)) {
    if (o->owned_by.size() > 1 && NamespaceOid(o->owned_by[o->owned_by.size() - 2]) != ns) {
      throw DbError("0A000", "an identity sequence in another schema than its table is not supported");
    }
    plan.name = internal::DdlTruncateName(o->owned_by.back());
  } else {
    plan.name = ChooseSequenceName(relname, column, ns, taken);
  }
  return plan;
}

}  // namespace

DdlResult CreateSequence(const parser::CreateSequenceStmt& stmt) {
  DdlResult result;
  const std::string name = internal::DdlTruncateName(stmt.name.name);
  const Oid ns = internal::DdlNamespaceForCreate(stmt.name, name, stmt.temp);
  SequenceParams p;
  std::optional<int64_t> restart;
  const std::string_view query = stmt.location == 0 ? std::string_view(stmt.text) : std::string_view();
  const GivenOptions g = Collect(stmt.options, query);
  RejectSequenceName(g, query);
  ApplyOptions(g, /*is_init=*/true, p, &restart);
  if (const SeqOption* o = g.Get(SeqOptionKind::kOwnedBy)) ApplyOwnedBy(*o, ns, p);
  internal::LockRelationName(ns, name);
  if (NameTaken(ns, name)) {
    if (stmt.if_not_exists) {
      result.notices.push_back({"42P07", "relation \"" + name + "\" already exists, skipping"});
      return result;
    }
    throw DbError("42P07", "relation \"" + name + "\" already exists");
  }
  result.oid = CreateSequenceRelation(name, ns, p);
  result.count = 1;
  access::CommandCounterIncrement();
  return result;
}

DdlResult AlterSequence(const parser::AlterSequenceStmt& stmt) {
  DdlResult result;
  const std::string name = internal::DdlTruncateName(stmt.name.name);
  RelationRef seq = OpenRelation(stmt.name.schema, name, storage::LockMode::kShareRowExclusive);
  if (seq == nullptr) {
    if (stmt.if_exists) {
      result.notices.push_back({"00000", "relation \"" + name + "\" does not exist, skipping"});
      return result;
    }
    throw DbError("42P01", "relation \"" + name + "\" does not exist");
  }
  if (seq->relkind != 'S' || !seq->sequence) throw DbError("42809", "\"" + name + "\" is not a sequence");
  CheckOwnership(*seq);
  auto row = FindSequenceRow(seq->oid);
  if (!row) throw DbError("XX000", "cache lookup failed for sequence " + std::to_string(seq->oid));
  SequenceParams p = ParseSequenceRow(row->row);
  std::optional<int64_t> restart;
  const std::string_view query = stmt.location == 0 ? std::string_view(stmt.text) : std::string_view();
  const GivenOptions g = Collect(stmt.options, query);
  RejectSequenceName(g, query);
  ApplyOptions(g, /*is_init=*/false, p, &restart);
  if (const SeqOption* o = g.Get(SeqOptionKind::kOwnedBy)) {
    if (p.identity != 0) throw DbError("0A000", "cannot change ownership of identity sequence");
    ApplyOwnedBy(*o, seq->namespace_oid, p);
  }
  CheckRestartValue(p, restart ? *restart : ReadSequenceState(*seq).last_value);
  MarkCatalogChanged(seq->oid);
  UpdateSequenceRow(*row, p);
  if (restart) ResetSequenceState(*seq, *restart, /*is_called=*/false);
  access::CommandCounterIncrement();
  result.count = 1;
  return result;
}

DdlResult DropSequences(const std::vector<parser::RangeVar>& names, bool if_exists, parser::DropBehavior behavior) {
  DdlResult result;
  std::vector<RelationRef> victims;
  for (const parser::RangeVar& rv : names) {
    const std::string name = internal::DdlTruncateName(rv.name);
    RelationRef e = NamespaceOid(rv.schema) == types::kInvalidOid
                        ? nullptr
                        : OpenRelation(rv.schema, name, storage::LockMode::kAccessExclusive);
    if (e == nullptr) {
      if (if_exists) {
        result.notices.push_back({"00000", "sequence \"" + name + "\" does not exist, skipping"});
        continue;
      }
      throw DbError("42P01", "sequence \"" + name + "\" does not exist");
    }
    internal::DdlRejectSystemCatalog(*e);
    if (e->relkind != 'S' || !e->sequence) {
      throw DbError("42809", "\"" + name + "\" is not a sequence").WithHint("Use DROP TABLE to remove a table.");
    }
    CheckOwnership(*e);
    bool dup = false;
    for (const RelationRef& v : victims) dup |= v->oid == e->oid;
    if (!dup) victims.push_back(std::move(e));
  }
  if (victims.empty()) return result;
  const access::TransactionId xid = access::GetCurrentTransactionId();
  const access::CommandId cid = access::GetCurrentCommandId(true);
  for (const RelationRef& seq : victims) {
    HandleOwnerOnDrop(*seq, behavior, result, xid, cid);
    DeleteSequenceRelation(*seq, xid, cid);
    ++result.count;
  }
  access::CommandCounterIncrement();
  return result;
}

bool IsSerialTypeName(const parser::TypeName& tn) {
  if (!tn.schema.empty() || tn.is_array) return false;
  for (const char* name : {"serial", "bigserial", "smallserial", "serial2", "serial4", "serial8"}) {
    if (tn.name == name) return true;
  }
  return false;
}

std::vector<ColumnSequencePlan> PlanColumnSequences(const parser::CreateTableStmt& stmt, const std::string& relname,
                                                    Oid ns, std::vector<internal::AttributeFields>& attrs,
                                                    std::string_view query_text) {
  std::vector<ColumnSequencePlan> plans;
  for (size_t i = 0; i < stmt.columns.size() && i < attrs.size(); ++i) {
    const parser::ColumnDef& col = stmt.columns[i];
    internal::AttributeFields& a = attrs[i];
    const bool serial = IsSerialTypeName(col.type);
    const parser::Constraint* identity = nullptr;
    const parser::Constraint* has_default = nullptr;
    for (const parser::Constraint& c : col.constraints) {
      if (c.kind == parser::ConstraintKind::kIdentity) {
        if (identity != nullptr) {
          throw DbError("42601", "multiple identity specifications for column \"" + a.attname + "\" of table \"" +
                                     relname + "\"");
        }
        identity = &c;
      }
      if (c.kind == parser::ConstraintKind::kDefault) has_default = &c;
    }
    if (!serial && identity == nullptr) continue;
    if (identity != nullptr && (has_default != nullptr || serial)) {
      const int at = has_default != nullptr ? has_default->location : identity->location;
      throw DbError("42601", std::string(serial ? "multiple default values" : "both default and identity") +
                                 " specified for column \"" + a.attname + "\" of table \"" + relname + "\"")
          .WithPosition(internal::DdlPosition(query_text, at));
    }
    if (serial && has_default) {
      throw DbError("42601", "multiple default values specified for column \"" + a.attname + "\" of table \"" +
                                 relname + "\"");
    }
    ColumnSequencePlan plan = PlanColumnSequence(relname, a.attname, a.atttypid, a.attnum, identity, ns, plans);
    a.attdefault = "nextval(" + SequenceNameLiteral(plan.name) + "::regclass)";
    a.attnotnull = true;
    plans.push_back(std::move(plan));
  }
  return plans;
}

void CreateColumnSequences(const std::vector<ColumnSequencePlan>& plans, Oid table_oid, Oid ns) {
  for (const ColumnSequencePlan& plan : plans) {
    SequenceParams p = plan.params;
    p.owner_rel = table_oid;
    p.owner_col = plan.attnum;
    internal::LockRelationName(ns, plan.name);
    // Another session may have taken the name since it was chosen.
    if (NameTaken(ns, plan.name)) throw DbError("42P07", "relation \"" + plan.name + "\" already exists");
    CreateSequenceRelation(plan.name, ns, p);
  }
}

void DropOwnedSequences(Oid table_oid, access::TransactionId xid, access::CommandId cid) {
  for (const internal::CatalogTuple& row : FindSequencesOwnedBy(table_oid)) {
    RelationRef seq = OpenRelationByOid(internal::RowOid(row.row, kSeqRelid), storage::LockMode::kAccessExclusive);
    if (seq != nullptr) DeleteSequenceRelation(*seq, xid, cid);
  }
}

void RestartOwnedSequences(Oid table_oid) {
  for (const internal::CatalogTuple& row : FindSequencesOwnedBy(table_oid)) {
    const SequenceParams p = ParseSequenceRow(row.row);
    RelationRef seq = OpenRelationByOid(p.relid, storage::LockMode::kExclusive);
    if (seq != nullptr) ResetSequenceState(*seq, p.start, /*is_called=*/false);
  }
}

void RewriteSequenceRow(const internal::CatalogTuple& row, const SequenceParams& p) { UpdateSequenceRow(row, p); }

}  // namespace hearth::catalog

namespace hearth::catalog {

void AddIdentityToColumn(const RelationEntry& e, const std::string& column, const parser::Constraint& identity) {
  const int pos = AlterColumnPosition(e, column);
  const executor::ColumnInfo& c = e.info.columns[static_cast<size_t>(pos)];
  const std::string what = "column \"" + column + "\" of relation \"" + e.info.name + "\"";
  if (c.type != types::kInt2Oid && c.type != types::kInt4Oid && c.type != types::kInt8Oid) {
    throw DbError("22023", "identity column type must be smallint, integer, or bigint");  // checked first, as PostgreSQL
  }
  if (!c.not_null) throw DbError("55000", what + " must be declared NOT NULL before identity can be added");
  if (c.identity != 0) throw DbError("55000", what + " is already an identity column");
  if (c.has_default()) throw DbError("55000", what + " already has a default value");
  ColumnSequencePlan plan = PlanColumnSequence(e.info.name, column, c.type, pos + 1, &identity, e.namespace_oid, {});
  // The default first: AlterColumnDefault refuses an identity column.
  AlterColumnDefault(e, column, "nextval(" + SequenceNameLiteral(plan.name) + "::regclass)");
  CreateColumnSequences({plan}, e.oid, e.namespace_oid);
  MarkCatalogChanged(e.oid);
  access::CommandCounterIncrement();
}

}  // namespace hearth::catalog
