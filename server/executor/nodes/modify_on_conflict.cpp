// server/executor/nodes/modify_on_conflict.cpp
//
// Principal entry point: ModifyTableNode::InsertOnConflict — INSERT ... ON
// CONFLICT of one proposed row: look for a conflicting row in the arbiter
// indexes, insert speculatively when there is none, else skip (DO NOTHING)
// or lock the row and update it (DO UPDATE). Each pass of the loop either
// finishes the row or follows a concurrent transaction's progress (the
// storage side waited for it), so two sessions upserting one key never see
// a duplicate-key error and never lose an update (table_access.h,
// catalog/speculative_insert.h).
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "executor/nodes/modify_node.h"
#include "executor/row_checks.h"

namespace hearth::executor {

OnConflictPlan OnConflictPlan::Clone() const {
  OnConflictPlan c;
  c.do_update = do_update;
  c.arbiters = arbiters;
  c.arbiter_names = arbiter_names;
  c.set_row = ClonePlanExprs(set_row);
  c.where = ClonePlanExpr(where);
  return c;
}

void ModifyTableNode::InsertOnConflict(TableModifier& mod, const Row& proposed, EvalContext& eval,
                                       ForeignKeyChecker& fks) {
  const OnConflictPlan& oc = *on_conflict_;
  if (oc.arbiters.empty()) {  // DO NOTHING on a table without unique indexes
    mod.Insert(proposed);
    triggers_->AfterRow(nullptr, &proposed);
    if (fks.active()) fks.NoteNewRow(proposed, nullptr);
    ++processed_;
    AddReturning(proposed, eval);
    return;
  }
  for (;;) {
    RowId rid = kInvalidRowId;
    if (!mod.FindConflict(proposed, oc.arbiters, &rid)) {
      if (!mod.InsertSpeculative(proposed, oc.arbiters, &rid)) continue;  // lost a race: look again
      triggers_->AfterRow(nullptr, &proposed);
      if (fks.active()) fks.NoteNewRow(proposed, nullptr);
      ++processed_;
      AddReturning(proposed, eval);
      return;
    }
    if (!oc.do_update) {
      mod.CheckConflictVisible(rid);
      return;
    }
    switch (mod.LockConflicting(rid, &latest_)) {
      case TableModifier::ConflictLock::kRetry: continue;
      case TableModifier::ConflictLock::kSelfModified:
        throw DbError(sqlstate::kCardinalityViolation, "ON CONFLICT DO UPDATE command cannot affect row a second time")
            .WithHint("Ensure that no rows proposed for insertion within the same command have duplicate constrained "
                      "values.");
      case TableModifier::ConflictLock::kLocked:
        if (UpdateConflicting(mod, rid, proposed, eval, fks)) ++processed_;
        return;
    }
  }
}

bool ModifyTableNode::UpdateConflicting(TableModifier& mod, RowId rid, const Row& proposed, EvalContext& eval,
                                        ForeignKeyChecker& fks) {
  const OnConflictPlan& oc = *on_conflict_;
  const size_t ncols = table_.columns.size();
  existing_.resize(2 * ncols);
  std::copy(latest_.begin(), latest_.begin() + static_cast<std::ptrdiff_t>(ncols), existing_.begin());
  std::copy(proposed.begin(), proposed.begin() + static_cast<std::ptrdiff_t>(ncols),
            existing_.begin() + static_cast<std::ptrdiff_t>(ncols));
  eval.row = existing_.data();
  eval.nrow = existing_.size();
  // A row the WHERE clause rejects stays locked, unchanged (as PostgreSQL).
  if (oc.where.expr && !EvalPredicate(*oc.where.expr, eval)) return false;
  scratch_.resize(ncols);
  for (size_t c = 0; c < ncols; ++c) scratch_[c] = Eval(*oc.set_row[c].expr, eval);
  CheckNotNull(table_, scratch_);
  checks_.Check(table_, scratch_, eval);
  // We hold the row lock: nobody else can have changed the version.
  if (mod.Update(rid, scratch_, nullptr, ChangesKey(table_, latest_, scratch_)) != ModifyResult::kOk) {
    throw DbError(sqlstate::kInternalError, "could not update a locked conflicting row");
  }
  if (fks.active()) {
    fks.NoteOldRow(latest_, &scratch_);
    fks.NoteNewRow(scratch_, &latest_);
  }
  AddReturning(scratch_, eval);
  return true;
}

void ModifyTableNode::ExplainOnConflict(std::vector<std::string>* lines, const std::string& pad) const {
  const OnConflictPlan& oc = *on_conflict_;
  lines->push_back(pad + "Conflict Resolution: " + (oc.do_update ? "UPDATE" : "NOTHING"));
  if (!oc.arbiter_names.empty()) {
    std::string names;
    for (const std::string& n : oc.arbiter_names) names += (names.empty() ? "" : ", ") + n;
    lines->push_back(pad + "Conflict Arbiter Indexes: " + names);
  }
  if (oc.where.expr) lines->push_back(pad + "Conflict Filter: " + oc.where.text);
}

}  // namespace hearth::executor
