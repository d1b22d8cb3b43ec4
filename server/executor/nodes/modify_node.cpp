// server/executor/nodes/modify_node.cpp
//
// Principal entry points: ModifyTableNode::Open (does the work), Next.
#include "executor/nodes/modify_node.h"

#include <algorithm>

#include "executor/row_checks.h"

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "utils/adt/compare.h"
#include "utils/adt/text_io.h"

namespace hearth::executor {

ModifyTableNode::ModifyTableNode(ModifyKind kind, TableInfo table, ExecNodePtr child, PlanExpr where,
                                 std::vector<PlanExpr> new_row, std::vector<PlanExpr> returning,
                                 std::vector<OutputColumn> columns)
    : kind_(kind),
      table_(std::move(table)),
      child_(std::move(child)),
      where_(std::move(where)),
      new_row_(std::move(new_row)),
      returning_(std::move(returning)) {
  columns_ = std::move(columns);
  if (kind_ != ModifyKind::kDelete) checks_ = CheckConstraints(table_);
}

void ModifyTableNode::AddReturning(const Row& table_row, EvalContext& eval) {
  if (returning_.empty()) return;
  eval.row = table_row.data();
  eval.nrow = table_row.size();
  Row r(returning_.size());
  for (size_t i = 0; i < returning_.size(); ++i) r[i] = Eval(*returning_[i].expr, eval);
  out_.push_back(std::move(r));
}

bool ChangesKey(const TableInfo& table, const Row& old_row, const Row& new_row) {
  for (const IndexInfo& ix : table.indexes) {
    if (!ix.unique) continue;
    for (int c : ix.columns) {
      const types::Value& a = old_row[static_cast<size_t>(c)];
      const types::Value& b = new_row[static_cast<size_t>(c)];
      if (a.is_null != b.is_null || (!a.is_null && types::CompareValues(a, b) != 0)) return true;
    }
  }
  return false;
}

void ModifyTableNode::ModifyOne(TableModifier& mod, Row& old_row, RowId rid, EvalContext& eval,
                                ForeignKeyChecker& fks) {
  size_t ncols = table_.columns.size();
  for (;;) {
    eval.row = old_row.data();
    eval.nrow = old_row.size();
    if (where_.expr && !EvalPredicate(*where_.expr, eval)) return;
    ModifyResult r;
    if (kind_ == ModifyKind::kUpdate) {
      scratch_.resize(ncols);
      for (size_t c = 0; c < ncols; ++c) scratch_[c] = Eval(*new_row_[c].expr, eval);
      if (!triggers_->BeforeRow(&old_row, &scratch_)) return;
      CheckNotNull(table_, scratch_);
      checks_.Check(table_, scratch_, eval);
      r = mod.Update(rid, scratch_, nullptr, ChangesKey(table_, old_row, scratch_));
    } else {
      if (!triggers_->BeforeRow(&old_row, nullptr)) return;
      r = mod.Delete(rid);
    }
    switch (r) {
      case ModifyResult::kOk:
        ++processed_;
        triggers_->AfterRow(&old_row, kind_ == ModifyKind::kUpdate ? &scratch_ : nullptr);
        if (fks.active()) {
          fks.NoteOldRow(old_row, kind_ == ModifyKind::kUpdate ? &scratch_ : nullptr);
          if (kind_ == ModifyKind::kUpdate) fks.NoteNewRow(scratch_, &old_row);
        }
        if (kind_ == ModifyKind::kUpdate && !returning_.empty()) {
          // RETURNING sees the new row (and the other FROM items' columns).
          returned_ = old_row;
          std::copy(scratch_.begin(), scratch_.end(), returned_.begin());
          AddReturning(returned_, eval);
        } else {
          AddReturning(old_row, eval);
        }
        return;
      case ModifyResult::kSelfModified:
      case ModifyResult::kNotFound:
      case ModifyResult::kConcurrentlyDeleted:
        return;  // changed by this statement / gone: skip, like PostgreSQL
      case ModifyResult::kConcurrentlyUpdated:
        // Read Committed: re-check the newest version (with the same values
        // of the other FROM items) and try again.
        if (!mod.FetchLatestVersion(rid, &latest_, &rid)) return;
        std::copy(latest_.begin(), latest_.begin() + static_cast<std::ptrdiff_t>(ncols), old_row.begin());
        old_row[ncols] = types::Value::Int8(static_cast<int64_t>(rid));
        break;
    }
  }
}

void ModifyTableNode::Open(ExecContext& ctx) {
  Close();
  processed_ = 0;
  if (ctx.tables == nullptr) throw DbError(sqlstate::kInternalError, "no table provider");
  const TriggerEvent event = kind_ == ModifyKind::kInsert   ? TriggerEvent::kInsert
                             : kind_ == ModifyKind::kUpdate ? TriggerEvent::kUpdate
                                                            : TriggerEvent::kDelete;
  triggers_ = std::make_unique<TableTriggers>(table_, event, UpdateTargets());
  triggers_->BeforeStatement();
  if (bulk_insert_) {
    BulkInsert(ctx);
    return;
  }
  std::unique_ptr<TableModifier> mod = ctx.tables->OpenModifier(table_);
  EvalContext eval = ctx.MakeEval();
  ForeignKeyChecker fks(table_);
  size_t ncols = table_.columns.size();
  child_->Open(ctx);
  Row in;
  while (child_->Next(in)) {
    ctx.CheckInterrupts();
    if (kind_ == ModifyKind::kInsert && !triggers_->BeforeRow(nullptr, &in)) continue;
    if (kind_ == ModifyKind::kInsert && on_conflict_) {
      CheckNotNull(table_, in);
      checks_.Check(table_, in, eval);
      InsertOnConflict(*mod, in, eval, fks);
      continue;
    }
    if (kind_ == ModifyKind::kInsert) {
      CheckNotNull(table_, in);
      checks_.Check(table_, in, eval);
      mod->Insert(in);
      triggers_->AfterRow(nullptr, &in);
      if (fks.active()) fks.NoteNewRow(in, nullptr);
      ++processed_;
      AddReturning(in, eval);
      continue;
    }
    // [table row, RowId, other FROM items' columns (UPDATE ... FROM)]:
    // expressions read the whole row.
    auto rid = static_cast<RowId>(in[ncols].i);
    ModifyOne(*mod, in, rid, eval, fks);
  }
  child_->Close();
  fks.Finish(ctx);
  triggers_->Finish();
}

std::vector<bool> ModifyTableNode::UpdateTargets() const {
  std::vector<bool> targets;
  if (kind_ != ModifyKind::kUpdate) return targets;
  for (size_t c = 0; c < new_row_.size(); ++c) {
    const BoundExpr* e = new_row_[c].expr.get();
    // An unassigned column is planned as a copy of itself.
    targets.push_back(e == nullptr || e->kind != BoundKind::kColumn || e->index != static_cast<int>(c));
  }
  return targets;
}

void ModifyTableNode::BulkInsert(ExecContext& ctx) {
  std::unique_ptr<TableBulkInserter> loader = ctx.tables->OpenBulkInserter(table_);
  EvalContext eval = ctx.MakeEval();
  ForeignKeyChecker fks(table_);
  child_->Open(ctx);
  Row in;
  while (child_->Next(in)) {
    ctx.CheckInterrupts();
    if (!triggers_->BeforeRow(nullptr, &in)) continue;
    CheckNotNull(table_, in);
    checks_.Check(table_, in, eval);
    loader->Insert(in, processed_);
    triggers_->AfterRow(nullptr, &in);
    if (fks.active()) fks.NoteNewRow(in, nullptr);
    ++processed_;
    AddReturning(in, eval);
  }
  loader->Finish();
  child_->Close();
  fks.Finish(ctx);
  triggers_->Finish();
}

bool ModifyTableNode::Next(Row& row) {
  if (pos_ >= out_.size()) return false;
  row = std::move(out_[pos_++]);
  return true;
}

void ModifyTableNode::Close() {
  child_->Close();
  out_.clear();
  pos_ = 0;
}

void ModifyTableNode::Explain(std::vector<std::string>* lines, int indent, bool as_child,
                              const std::vector<std::string>* extra) const {
  lines->push_back(std::string(static_cast<size_t>(indent), ' ') + (as_child ? "->  " : "") + ExplainName());
  int body = indent + (as_child ? 4 : 0);
  if (extra) AppendExplainDetails(lines, std::string(static_cast<size_t>(body + 2), ' '), *extra);
  if (on_conflict_) ExplainOnConflict(lines, std::string(static_cast<size_t>(body + 2), ' '));
  // The WHERE clause is evaluated here but reads like the scan's filter.
  std::vector<std::string> filter;
  if (where_.expr) filter.push_back("Filter: " + where_.text);
  child_->Explain(lines, body + 2, true, filter.empty() ? nullptr : &filter);
}

std::string ModifyTableNode::ExplainName() const {
  switch (kind_) {
    case ModifyKind::kInsert: return "Insert on " + table_.name;
    case ModifyKind::kUpdate: return "Update on " + table_.name;
    case ModifyKind::kDelete: return "Delete on " + table_.name;
  }
  return "";
}

ExecNodePtr ModifyTableNode::Clone() const {
  auto n = std::make_unique<ModifyTableNode>(kind_, table_, CloneNode(child_), ClonePlanExpr(where_),
                                             ClonePlanExprs(new_row_), ClonePlanExprs(returning_), columns_);
  n->bulk_insert_ = bulk_insert_;
  if (on_conflict_) n->on_conflict_ = std::make_unique<OnConflictPlan>(on_conflict_->Clone());
  return n;
}

}  // namespace hearth::executor
