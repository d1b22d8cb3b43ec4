// catalog/partition_ddl.cpp
//
// Principal entry points: PartitionKeyForCreate, PartitionBoundForCreate,
// AttachPartition, DetachPartition.
#include "catalog/partition_ddl.h"

#include <algorithm>

#include "access/heap/heapscan.h"
#include "access/transam/snapshot.h"
#include "access/transam/xact.h"
#include "catalog/catalog_indexes.h"
#include "catalog/ddl_internal.h"
#include "catalog/inherit_catalog.h"
#include "catalog/partition_bound.h"
#include "catalog/partition_indexes.h"
#include "catalog/pending_delete.h"
#include "catalog/privileges.h"
#include "common/error/db_error.h"
#include "utils/adt/compare.h"

namespace hearth::catalog {

namespace {

[[noreturn]] void ThrowAt(DbError e, const DdlContext& ctx, int location) {
  if (location >= 0 && e.position() == 0) e.WithPosition(internal::DdlPosition(ctx.query_text, location));
  throw std::move(e);
}

bool IsInfinity(const parser::Expr& e, const char* word) {
  if (e.kind != parser::ExprKind::kColumnRef) return false;
  const auto& ref = static_cast<const parser::ColumnRefExpr&>(e);
  return ref.fields.size() == 1 && ref.fields[0] == word;
}

types::Value EvalBoundValue(const parser::Expr& e, const PartitionKey& key, size_t i, const DdlContext& ctx) {
  if (!ctx.eval_const) throw DbError("0A000", "partition bounds are not supported here");
  try {
    return ctx.eval_const(e, key.types[i], key.typmods[i]);
  } catch (DbError& err) {
    err.WithPosition(0);  // a position in the evaluating SELECT means nothing here
    ThrowAt(std::move(err), ctx, e.location);
  }
}

std::vector<RangeDatum> RangeDatumsOf(const std::vector<parser::ExprPtr>& exprs, const PartitionKey& key,
                                      const char* which, const DdlContext& ctx, int location) {
  if (exprs.size() != key.columns.size()) {
    ThrowAt(DbError("42P16", std::string(which) + " must specify exactly one value per partitioning column"), ctx,
            location);
  }
  std::vector<RangeDatum> out;
  for (size_t i = 0; i < exprs.size(); ++i) {
    RangeDatum d;
    if (IsInfinity(*exprs[i], "minvalue")) {
      d.kind = -1;
    } else if (IsInfinity(*exprs[i], "maxvalue")) {
      d.kind = 1;
    } else {
      d.value = EvalBoundValue(*exprs[i], key, i, ctx);
      if (d.value.is_null) {
        ThrowAt(DbError("42P16", "cannot specify NULL in range bound"), ctx, exprs[i]->location);
      }
    }
    out.push_back(std::move(d));
  }
  return out;
}

// The spec's values as a bound of `key`, checked against the parent's
// other partitions (`members`) for the new partition `name`.
PartitionBound BuildBound(const parser::PartitionBoundSpec& spec, const PartitionKey& key, const std::string& name,
                          const std::vector<PartitionMember>& members, const DdlContext& ctx) {
  PartitionBound b;
  b.strategy = spec.strategy;
  if (spec.strategy != 'd') {
    if (key.strategy == 'l' && spec.strategy != 'l') {
      ThrowAt(DbError("42P16", "invalid bound specification for a list partition"), ctx, spec.location);
    }
    if (key.strategy == 'r' && spec.strategy != 'r') {
      ThrowAt(DbError("42P16", "invalid bound specification for a range partition"), ctx, spec.location);
    }
    if (key.strategy == 'h' && spec.strategy != 'h') {
      ThrowAt(DbError("42P16", "invalid bound specification for a hash partition"), ctx, spec.location);
    }
  }
  if (spec.strategy == 'l') {
    for (const parser::ExprPtr& e : spec.in_values) {
      types::Value v = EvalBoundValue(*e, key, 0, ctx);
      bool dup = false;  // a value listed twice is kept once, as PostgreSQL
      for (const types::Value& x : b.list) {
        if (x.is_null == v.is_null && (x.is_null || types::CompareValues(x, v) == 0)) dup = true;
      }
      if (!dup) b.list.push_back(std::move(v));
    }
  } else if (spec.strategy == 'r') {
    b.lower = RangeDatumsOf(spec.from, key, "FROM", ctx, -1);
    b.upper = RangeDatumsOf(spec.to, key, "TO", ctx, -1);
  } else if (spec.strategy == 'h') {
    b.modulus = spec.modulus;
    b.remainder = spec.remainder;
  }
  b.text = FormatPartitionBound(b);
  int value_index = -1;
  try {
    CheckPartitionOverlap(key, b, name, members, &value_index);
  } catch (DbError& err) {
    int loc = spec.location;
    if (spec.strategy == 'l' && value_index >= 0) loc = spec.in_values[static_cast<size_t>(value_index)]->location;
    if (spec.strategy == 'r' && !spec.from.empty()) loc = spec.from[0]->location;
    ThrowAt(std::move(err), ctx, loc);
  }
  return b;
}

std::vector<PartitionMember> MembersOf(const RelationEntry& parent, Oid except) {
  std::vector<PartitionMember> out;
  for (Oid c : parent.children) {
    if (c == except) continue;
    RelationRef e = LookupRelationByOid(c);
    if (e != nullptr && e->partition_bound != nullptr) out.push_back({e->info.name, e->partition_bound});
  }
  return out;
}

RelationRef OpenPartitioned(const parser::RangeVar& rv) {
  const std::string name = internal::DdlTruncateName(rv.name);
  RelationRef p = OpenRelation(rv.schema, name, storage::LockMode::kAccessExclusive);
  if (p == nullptr) {
    throw DbError("42P01", "relation \"" + (rv.schema.empty() ? "" : rv.schema + ".") + name + "\" does not exist");
  }
  if (p->partition_key == nullptr) throw DbError("42809", "\"" + name + "\" is not partitioned");
  return p;
}

void WriteClassText(Oid rel, int column, const std::string& text) {
  auto cls = internal::FindClassByOid(rel);
  if (!cls) throw DbError("XX000", "cache lookup failed for relation " + std::to_string(rel));
  heap::Row row = cls->row;
  row.resize(kClassNatts, types::Value::Null(types::kTextOid));
  row[static_cast<size_t>(column)] = text.empty() ? types::Value::Null(types::kTextOid) : types::Value::Text(text);
  MarkCatalogChanged(rel);
  internal::CatalogUpdate(kHearthClassOid, cls->tid, row, access::GetCurrentTransactionId(),
                          access::GetCurrentCommandId(true));
  access::CommandCounterIncrement();
}

// ATTACH: every existing row of `part` must fall in `bound` (23514).
void ValidatePartitionRows(const RelationEntry& part, const PartitionKey& key, const PartitionBound& bound) {
  if (bound.strategy == 'd' || bound.strategy == 'h') return;
  std::vector<int> cols;
  for (const std::string& n : key.names) {
    int pos = -1;
    for (size_t k = 0; k < part.info.columns.size(); ++k) {
      if (part.info.columns[k].name == n) pos = static_cast<int>(k);
    }
    cols.push_back(pos);
  }
  access::Snapshot snap;
  access::GetSnapshotData(&snap, /*replace_xmin=*/false);
  snap.curcid = access::GetCurrentCommandId(false);
  heap::HeapScanOptions opts;
  heap::HeapScan scan(part.rel, part.desc, snap, access::GetCurrentTransactionIdIfAny(), opts);
  heap::Row row;
  heap::ItemPointer tid;
  executor::Row keyvals(cols.size());
  while (scan.Next(&row, &tid)) {
    for (size_t i = 0; i < cols.size(); ++i) keyvals[i] = cols[i] < 0 ? types::Value::Null(key.types[i]) : row[static_cast<size_t>(cols[i])];
    if (!KeyInBound(key, bound, keyvals)) {
      throw DbError("23514", "partition constraint of relation \"" + part.info.name + "\" is violated by some row");
    }
  }
}

// ATTACH: the partition's columns are exactly the parent's (names, types).
void CheckSameColumns(const RelationEntry& parent, const RelationEntry& part) {
  for (const executor::ColumnInfo& c : part.info.columns) {
    auto pc = std::find_if(parent.info.columns.begin(), parent.info.columns.end(),
                           [&](const executor::ColumnInfo& p) { return p.name == c.name; });
    if (pc == parent.info.columns.end()) {
      throw DbError("42804", "table \"" + part.info.name + "\" contains column \"" + c.name +
                                 "\" not found in parent \"" + parent.info.name + "\"")
          .WithDetail("The new partition may contain only the columns present in parent.");
    }
  }
  for (const executor::ColumnInfo& p : parent.info.columns) {
    auto cc = std::find_if(part.info.columns.begin(), part.info.columns.end(),
                           [&](const executor::ColumnInfo& c) { return c.name == p.name; });
    if (cc == part.info.columns.end()) throw DbError("42804", "child table is missing column \"" + p.name + "\"");
    if (cc->type != p.type || cc->typmod != p.typmod) {
      throw DbError("42804", "child table \"" + part.info.name + "\" has different type for column \"" + p.name + "\"");
    }
    if (p.not_null && !cc->not_null) {
      throw DbError("42804", "column \"" + p.name + "\" in child table must be marked NOT NULL");
    }
  }
}

}  // namespace

std::string PartitionKeyForCreate(const parser::CreateTableStmt& stmt,
                                  const std::vector<internal::AttributeFields>& attrs, const DdlContext& ctx) {
  if (!stmt.partition_by) return "";
  const parser::PartitionSpec& spec = *stmt.partition_by;
  PartitionKey key;
  key.strategy = spec.strategy == "list" ? 'l' : spec.strategy == "hash" ? 'h' : 'r';
  if (key.strategy == 'h') ThrowAt(DbError("0A000", "hash partitioning is not supported yet"), ctx, spec.location);
  if (key.strategy == 'l' && spec.keys.size() > 1) {
    throw DbError("42P16", "cannot use \"list\" partition strategy with more than one column");
  }
  for (const parser::IndexElem& k : spec.keys) {
    if (k.expr) ThrowAt(DbError("0A000", "partition key expressions are not supported yet"), ctx, k.location);
    auto it = std::find_if(attrs.begin(), attrs.end(), [&](const auto& a) { return a.attname == k.column; });
    if (it == attrs.end()) {
      ThrowAt(DbError("42703", "column \"" + k.column + "\" named in partition key does not exist"), ctx, k.location);
    }
    key.columns.push_back(static_cast<int>(it - attrs.begin()));
  }
  return PartitionKeyText(key);
}

std::string PartitionBoundForCreate(const parser::CreateTableStmt& stmt, const std::string& relname,
                                    const DdlContext& ctx) {
  if (!stmt.partition_of || stmt.inherits.empty()) return "";
  RelationRef parent = OpenPartitioned(stmt.inherits[0]);
  return BuildBound(*stmt.partition_of, *parent->partition_key, relname, MembersOf(*parent, 0), ctx).text;
}

void AttachPartition(const RelationEntry& parent, const parser::RangeVar& part_rv,
                     const parser::PartitionBoundSpec& spec, const DdlContext& ctx) {
  if (parent.partition_key == nullptr) {
    throw DbError("42809", "table \"" + parent.info.name + "\" is not partitioned");
  }
  const std::string name = internal::DdlTruncateName(part_rv.name);
  RelationRef part = OpenRelation(part_rv.schema, name, storage::LockMode::kAccessExclusive);
  if (part == nullptr) throw DbError("42P01", "relation \"" + name + "\" does not exist");
  if (part->relkind != 'r') throw DbError("42809", "\"" + name + "\" is not a table");
  CheckOwnership(*part);
  if (part->partition_bound != nullptr) throw DbError("42P17", "\"" + name + "\" is already a partition");
  if (!part->parents.empty()) throw DbError("42809", "cannot attach inheritance child as partition");
  if (!part->children.empty() && part->partition_key == nullptr) {
    throw DbError("42809", "cannot attach inheritance parent as partition");
  }
  if (part->oid == parent.oid) throw DbError("42P17", "circular inheritance not allowed");
  CheckSameColumns(parent, *part);
  const PartitionBound bound = BuildBound(spec, *parent.partition_key, name, MembersOf(parent, 0), ctx);
  ValidatePartitionRows(*part, *parent.partition_key, bound);
  WriteInheritance(part->oid, {parent.oid}, /*child_row=*/true);
  WriteClassText(part->oid, kClassRelpartbound, bound.text);
  CreatePartitionIndexes(part->oid);  // partition_indexes.cpp
}

void DetachPartition(const RelationEntry& parent, const parser::RangeVar& part_rv) {
  const std::string name = internal::DdlTruncateName(part_rv.name);
  RelationRef part = OpenRelation(part_rv.schema, name, storage::LockMode::kAccessExclusive);
  if (part == nullptr) throw DbError("42P01", "relation \"" + name + "\" does not exist");
  if (part->partition_bound == nullptr || part->parents.empty() || part->parents[0] != parent.oid) {
    throw DbError("42P01", "relation \"" + name + "\" is not a partition of relation \"" + parent.info.name + "\"");
  }
  MarkCatalogChanged(parent.oid);
  WriteInheritance(part->oid, {}, /*child_row=*/true);
  WriteClassText(part->oid, kClassRelpartbound, "");
}

}  // namespace hearth::catalog
