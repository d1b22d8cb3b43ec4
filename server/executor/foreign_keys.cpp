// server/executor/foreign_keys.cpp
//
// Principal entry points: ForeignKeyChecker::NoteNewRow, NoteOldRow, Finish,
// ValidateExistingRows.
#include "executor/foreign_keys.h"

#include <algorithm>
#include <utility>

#include "common/error/db_error.h"
#include "executor/check_constraints.h"
#include "executor/expr/binder.h"
#include "executor/expr/eval.h"
#include "executor/row_checks.h"
#include "parser/parser.h"
#include "utils/adt/compare.h"
#include "utils/adt/text_io.h"

namespace hearth::executor {

namespace {

constexpr char kViolation[] = "23503";

bool AnyNull(const Row& row, const std::vector<int>& cols) {
  return std::any_of(cols.begin(), cols.end(), [&](int c) { return row[static_cast<size_t>(c)].is_null; });
}

bool SameValue(const types::Value& a, const types::Value& b) {
  return a.is_null == b.is_null && (a.is_null || types::CompareValues(a, b) == 0);
}

bool KeyChanged(const Row& a, const Row& b, const std::vector<int>& cols) {
  return std::any_of(cols.begin(), cols.end(), [&](int c) {
    return !SameValue(a[static_cast<size_t>(c)], b[static_cast<size_t>(c)]);
  });
}

void AppendKey(const Row& row, const std::vector<int>& cols, std::vector<types::Value>* out) {
  for (int c : cols) out->push_back(row[static_cast<size_t>(c)]);
}

// `row`'s columns `cols` equal key[0..cols.size()).
bool KeyMatches(const Row& row, const std::vector<int>& cols, const types::Value* key) {
  for (size_t i = 0; i < cols.size(); ++i) {
    const types::Value& v = row[static_cast<size_t>(cols[i])];
    if (v.is_null || key[i].is_null || types::CompareValues(v, key[i]) != 0) return false;
  }
  return true;
}

// `Key (a, b)=(1, 2)`.
std::string KeyText(const TableInfo& table, const std::vector<int>& cols, const types::Value* key) {
  std::string names, values;
  for (size_t i = 0; i < cols.size(); ++i) {
    if (i > 0) {
      names += ", ";
      values += ", ";
    }
    names += table.columns[static_cast<size_t>(cols[i])].name;
    if (key[i].is_null) {
      values += "null";
    } else {
      types::AppendOutput(key[i], &values);
    }
  }
  return "Key (" + names + ")=(" + values + ")";
}

TableInfo TableByOid(ExecContext& ctx, types::Oid oid, const std::string& name) {
  std::optional<TableInfo> t = ctx.tables->LookupByOid(oid);
  if (!t) throw DbError("42P01", "relation \"" + name + "\" does not exist");
  return std::move(*t);
}

// The other table of `fk` must still have the key columns (never index a
// row out of range).
void RequireColumns(const TableInfo& table, const std::vector<int>& cols, const ForeignKeyInfo& fk) {
  for (int c : cols) {
    if (c < 0 || c >= static_cast<int>(table.columns.size())) {
      throw DbError("XX000", "foreign key constraint \"" + fk.name + "\" refers to a missing column of \"" +
                                 table.name + "\"");
    }
  }
}

// The index of `table` with oid `oid`, else one whose first column is among
// `cols` (so lookups by key need no full scan), else null.
const IndexInfo* IndexFor(const TableInfo& table, types::Oid oid, const std::vector<int>& cols) {
  for (const IndexInfo& ix : table.indexes) {
    if (ix.oid == oid) return &ix;
  }
  for (const IndexInfo& ix : table.indexes) {
    if (!ix.columns.empty() && std::find(cols.begin(), cols.end(), ix.columns[0]) != cols.end()) return &ix;
  }
  return nullptr;
}

// Rows of `table` whose `cols` equal `key`, through `index` when there is one.
std::unique_ptr<TableScan> OpenKeyScan(ExecContext& ctx, const TableInfo& table, const IndexInfo* index,
                                       const std::vector<int>& cols, const types::Value* key) {
  IndexScanRequest req;
  if (index != nullptr) {
    const auto at = std::find(cols.begin(), cols.end(), index->columns[0]);
    // The index takes only values of its column's own type (no cast is
    // made here): other key types read the table instead.
    if (at == cols.end() || key[at - cols.begin()].type != table.columns[static_cast<size_t>(index->columns[0])].type) {
      index = nullptr;
    } else {
      req.bounds.push_back(IndexBound{IndexScanOp::kEq, key[at - cols.begin()]});
    }
  }
  return ctx.tables->OpenLatestScan(table, index, req);
}

// True when a row of `table` has `cols` = `key`; with `locker`, that row is
// locked FOR KEY SHARE first (a row deleted meanwhile does not count).
bool KeyExists(ExecContext& ctx, const TableInfo& table, const IndexInfo* index, const std::vector<int>& cols,
               const types::Value* key, TableRowLocker* locker) {
  std::unique_ptr<TableScan> scan = OpenKeyScan(ctx, table, index, cols, key);
  Row row, latest;
  RowId rid = kInvalidRowId, latest_rid = kInvalidRowId;
  while (scan->Next(row, &rid)) {
    if (!KeyMatches(row, cols, key)) continue;
    if (locker == nullptr) return true;
    switch (locker->Lock(rid, &latest, &latest_rid)) {
      case LockRowResult::kLocked: return true;
      case LockRowResult::kUpdated:
        if (KeyMatches(latest, cols, key)) return true;
        break;
      case LockRowResult::kSkipped:
      case LockRowResult::kGone: break;
    }
  }
  return false;
}

[[noreturn]] void ThrowNotPresent(const TableInfo& table, const ForeignKeyInfo& fk, const types::Value* key) {
  throw DbError(kViolation, "insert or update on table \"" + table.name + "\" violates foreign key constraint \"" +
                                fk.name + "\"")
      .WithDetail(KeyText(table, fk.columns, key) + " is not present in table \"" + fk.ref_name + "\".");
}

// The values a SET DEFAULT action assigns to fk.columns of `child`.
std::vector<types::Value> DefaultKey(ExecContext& ctx, const TableInfo& child, const ForeignKeyInfo& fk) {
  std::vector<types::Value> out;
  EvalContext eval = ctx.MakeEval();
  for (int c : fk.columns) {
    const ColumnInfo& col = child.columns[static_cast<size_t>(c)];
    if (!col.has_default()) {
      out.push_back(types::Value::Null(col.type));
      continue;
    }
    std::vector<parser::StmtPtr> parsed = parser::ParseStatements("SELECT " + col.default_expr);
    BindContext bind;
    BoundExprPtr e = Coerce(BindExpr(*parsed.at(0)->As<parser::SelectStmt>().targets.at(0).expr, bind), col.type,
                            col.typmod, types::CoercionContext::kAssignment, bind);
    out.push_back(Eval(*e, eval));
  }
  return out;
}

// Applies a CASCADE / SET NULL / SET DEFAULT action to the referencing rows
// `matches` of `child`: deletes them (`new_key` null) or sets their key
// columns to `new_key`; then checks those changes in turn.
void ModifyReferencingRows(ExecContext& ctx, const TableInfo& child, const ForeignKeyInfo& fk,
                           std::vector<std::pair<RowId, Row>>& matches, const types::Value* new_key) {
  std::unique_ptr<TableModifier> mod = ctx.tables->OpenModifier(child);
  ForeignKeyChecker cascaded(child);
  CheckConstraints checks;
  if (new_key != nullptr) checks = CheckConstraints(child);
  bool key_update = false;
  for (const IndexInfo& ix : child.indexes) {
    for (int c : ix.columns) {
      key_update |= ix.unique && std::find(fk.columns.begin(), fk.columns.end(), c) != fk.columns.end();
    }
  }
  EvalContext eval = ctx.MakeEval();
  Row new_row;
  for (auto& [rid, row] : matches) {
    ctx.CheckInterrupts();
    for (;;) {
      ModifyResult r;
      if (new_key == nullptr) {
        r = mod->Delete(rid);
      } else {
        new_row = row;
        for (size_t i = 0; i < fk.columns.size(); ++i) new_row[static_cast<size_t>(fk.columns[i])] = new_key[i];
        CheckNotNull(child, new_row);
        checks.Check(child, new_row, eval);
        r = mod->Update(rid, new_row, nullptr, key_update);
      }
      if (r == ModifyResult::kOk) {
        cascaded.NoteOldRow(row, new_key == nullptr ? nullptr : &new_row);
        if (new_key != nullptr) cascaded.NoteNewRow(new_row, &row);
      }
      // Read Committed: a concurrently updated row is acted on in its
      // newest version if that still references the key.
      if (r != ModifyResult::kConcurrentlyUpdated) break;
      Row latest;
      RowId latest_rid = kInvalidRowId;
      std::vector<types::Value> key;
      AppendKey(row, fk.columns, &key);
      if (!mod->FetchLatestVersion(rid, &latest, &latest_rid) || !KeyMatches(latest, fk.columns, key.data())) break;
      rid = latest_rid;
      row.assign(latest.begin(), latest.begin() + static_cast<std::ptrdiff_t>(child.columns.size()));
    }
  }
  cascaded.Finish(ctx);
}

}  // namespace

ForeignKeyChecker::ForeignKeyChecker(const TableInfo& table) : table_(&table) {
  for (const ForeignKeyInfo& fk : table.foreign_keys) referencing_.push_back(ReferencingQueue{&fk, {}});
  for (const ForeignKeyInfo& fk : table.referenced_by) referenced_.push_back(ReferencedQueue{&fk, {}, {}, true});
}

void ForeignKeyChecker::NoteNewRow(const Row& row, const Row* old_row) {
  for (ReferencingQueue& q : referencing_) {
    // MATCH SIMPLE: a key with a NULL references nothing.
    if (AnyNull(row, q.fk->columns)) continue;
    if (old_row != nullptr && !KeyChanged(row, *old_row, q.fk->columns)) continue;
    AppendKey(row, q.fk->columns, &q.keys);
  }
}

void ForeignKeyChecker::NoteOldRow(const Row& old_row, const Row* new_row) {
  for (ReferencedQueue& q : referenced_) {
    if (AnyNull(old_row, q.fk->ref_columns)) continue;
    if (new_row != nullptr && !KeyChanged(old_row, *new_row, q.fk->ref_columns)) continue;
    AppendKey(old_row, q.fk->ref_columns, &q.old_keys);
    if (new_row != nullptr) {
      q.deleted = false;
      AppendKey(*new_row, q.fk->ref_columns, &q.new_keys);
    }
  }
}

void ForeignKeyChecker::Finish(ExecContext& ctx) {
  if (!active()) return;
  ctx.tables->TakeLatestSnapshot();
  // In creation order, as PostgreSQL fires its RI triggers.
  for (ReferencedQueue& q : referenced_) {
    if (!q.old_keys.empty()) ApplyReferencedAction(ctx, q);
    q.old_keys.clear();
    q.new_keys.clear();
  }
  for (ReferencingQueue& q : referencing_) {
    if (!q.keys.empty()) CheckReferencing(ctx, q);
    q.keys.clear();
  }
}

void ForeignKeyChecker::CheckReferencing(ExecContext& ctx, const ReferencingQueue& q) {
  const ForeignKeyInfo& fk = *q.fk;
  const TableInfo parent = fk.ref_table == table_->oid ? *table_ : TableByOid(ctx, fk.ref_table, fk.ref_name);
  RequireColumns(parent, fk.ref_columns, fk);
  const IndexInfo* index = IndexFor(parent, fk.ref_index, fk.ref_columns);
  std::unique_ptr<TableRowLocker> locker = ctx.tables->OpenLatestRowLocker(parent);
  const size_t n = fk.columns.size();
  for (size_t at = 0; at < q.keys.size(); at += n) {
    ctx.CheckInterrupts();
    if (!KeyExists(ctx, parent, index, fk.ref_columns, &q.keys[at], locker.get())) {
      ThrowNotPresent(*table_, fk, &q.keys[at]);
    }
  }
}

void ForeignKeyChecker::ApplyReferencedAction(ExecContext& ctx, const ReferencedQueue& q) {
  const ForeignKeyInfo& fk = *q.fk;
  const char action = q.deleted ? fk.on_delete : fk.on_update;
  const TableInfo child = fk.table == table_->oid ? *table_ : TableByOid(ctx, fk.table, fk.table_name);
  RequireColumns(child, fk.columns, fk);
  const IndexInfo* own_index = IndexFor(*table_, fk.ref_index, fk.ref_columns);
  const IndexInfo* child_index = IndexFor(child, types::kInvalidOid, fk.columns);
  const size_t n = fk.ref_columns.size();
  std::vector<types::Value> defaults;
  if (action == 'd') defaults = DefaultKey(ctx, child, fk);
  std::vector<types::Value> nulls;
  for (int c : fk.columns) nulls.push_back(types::Value::Null(child.columns[static_cast<size_t>(c)].type));
  std::vector<std::pair<RowId, Row>> matches;
  for (size_t at = 0; at < q.old_keys.size(); at += n) {
    ctx.CheckInterrupts();
    const types::Value* key = &q.old_keys[at];
    // NO ACTION: fine if the key is back (another row took it meanwhile).
    if (action == 'a' && KeyExists(ctx, *table_, own_index, fk.ref_columns, key, nullptr)) continue;
    matches.clear();
    std::unique_ptr<TableScan> scan = OpenKeyScan(ctx, child, child_index, fk.columns, key);
    Row row;
    RowId rid = kInvalidRowId;
    while (scan->Next(row, &rid)) {
      if (KeyMatches(row, fk.columns, key)) matches.emplace_back(rid, row);
    }
    scan.reset();
    if (matches.empty()) continue;
    // SET DEFAULT to the very key that went: the rows would still
    // reference it (PostgreSQL reports it as for NO ACTION).
    const bool default_is_key = action == 'd' && KeyMatches(matches[0].second, fk.columns, defaults.data()) &&
                                KeyMatches(matches[0].second, fk.columns, key);
    switch (default_is_key ? 'a' : action) {
      case 'c': ModifyReferencingRows(ctx, child, fk, matches, q.deleted ? nullptr : &q.new_keys[at]); break;
      case 'n': ModifyReferencingRows(ctx, child, fk, matches, nulls.data()); break;
      case 'd': ModifyReferencingRows(ctx, child, fk, matches, defaults.data()); break;
      default:
        throw DbError(kViolation, "update or delete on table \"" + table_->name +
                                      "\" violates foreign key constraint \"" + fk.name + "\" on table \"" +
                                      child.name + "\"")
            .WithDetail(KeyText(*table_, fk.ref_columns, key) + " is still referenced from table \"" + child.name +
                        "\".");
    }
  }
}

void ForeignKeyChecker::ValidateExistingRows(ExecContext& ctx, const TableInfo& table, const ForeignKeyInfo& fk) {
  ForeignKeyChecker checker(table);
  ReferencingQueue q{&fk, {}};
  ctx.tables->TakeLatestSnapshot();
  std::unique_ptr<TableScan> scan = ctx.tables->OpenLatestScan(table, nullptr, IndexScanRequest{});
  Row row;
  while (scan->Next(row, nullptr)) {
    ctx.CheckInterrupts();
    if (!AnyNull(row, fk.columns)) AppendKey(row, fk.columns, &q.keys);
  }
  scan.reset();
  checker.CheckReferencing(ctx, q);
}

}  // namespace hearth::executor
