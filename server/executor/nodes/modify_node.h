// server/executor/nodes/modify_node.h
//
// ModifyTableNode: INSERT, UPDATE or DELETE on one table, with RETURNING.
// Input rows (from the child):
//   INSERT: a full table row, already coerced to the column types/typmods;
//   UPDATE, DELETE: a table row followed by its RowId (int8), straight from
//     a scan, then (UPDATE ... FROM, DELETE ... USING) the columns of the
//     other FROM items; this node evaluates the WHERE clause and (UPDATE)
//     the new row itself on that whole row, so that under Read Committed it
//     can re-check a concurrently updated row's newest version
//     (TableModifier::FetchLatestVersion, the other columns kept) with the
//     same expressions.
// Open performs the whole modification (as PostgreSQL does, even when the
// client reads only part of RETURNING), checks NOT NULL (23502 with
// PostgreSQL's message and "Failing row contains (...)" detail) and CHECK
// constraints (23514), runs foreign key checks and actions at the end
// (foreign_keys.h), and
// buffers RETURNING rows, which Next then yields. processed() is the row
// count for the command tag. Immutable plan, one execution at a time.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "executor/check_constraints.h"
#include "executor/exec_node.h"
#include "executor/foreign_keys.h"
#include "executor/triggers.h"

namespace hearth::executor {

enum class ModifyKind : uint8_t { kInsert, kUpdate, kDelete };

// INSERT ... ON CONFLICT (run by modify_on_conflict.cpp through the
// TableModifier speculative-insertion methods). Plan-time fields only.
struct OnConflictPlan {
  bool do_update = false;                  // DO UPDATE, else DO NOTHING
  std::vector<types::Oid> arbiters;        // unique index oids; empty: a plain insert
  std::vector<std::string> arbiter_names;  // EXPLAIN's "Conflict Arbiter Indexes"
  // DO UPDATE: one expression per table column and the WHERE clause, bound
  // on [existing row..., proposed row (EXCLUDED)...].
  std::vector<PlanExpr> set_row;
  PlanExpr where;
  OnConflictPlan Clone() const;
};

// True when the update changes a column of some unique index (PostgreSQL's
// "key" columns): the update then needs FOR UPDATE strength, else only FOR
// NO KEY UPDATE, which FOR KEY SHARE holders do not block.
bool ChangesKey(const TableInfo& table, const Row& old_row, const Row& new_row);

class ModifyTableNode : public ExecNode {
 public:
  ExecNodePtr Clone() const override;
  // `where` (UPDATE/DELETE, may be null) and `new_row` (UPDATE: one
  // expression per table column) are bound against the old table row.
  // `returning` is bound against the table row (new row for INSERT/UPDATE,
  // old row for DELETE); `columns` describe it (empty: no RETURNING).
  ModifyTableNode(ModifyKind kind, TableInfo table, ExecNodePtr child, PlanExpr where,
                  std::vector<PlanExpr> new_row, std::vector<PlanExpr> returning,
                  std::vector<OutputColumn> columns);
  void Open(ExecContext& ctx) override;
  bool Next(Row& row) override;
  void Close() override;
  void Explain(std::vector<std::string>* lines, int indent, bool as_child,
               const std::vector<std::string>* extra) const override;

  uint64_t processed() const { return processed_; }
  // INSERT ... SELECT: load the rows through the table's bulk-insert path
  // (TableProvider::OpenBulkInserter) instead of row by row.
  void UseBulkInsert() { bulk_insert_ = kind_ == ModifyKind::kInsert && !on_conflict_; }
  // INSERT ... ON CONFLICT: arbitrate every row through `oc` (row by row).
  void SetOnConflict(OnConflictPlan oc) {
    on_conflict_ = std::make_unique<OnConflictPlan>(std::move(oc));
    bulk_insert_ = false;
  }
  ModifyKind kind() const { return kind_; }

 protected:
  std::string ExplainName() const override;

 private:
  void AddReturning(const Row& table_row, EvalContext& eval);
  // UPDATE/DELETE of one scanned row, with the Read Committed retry loop.
  void ModifyOne(TableModifier& mod, Row& old_row, RowId rid, EvalContext& eval, ForeignKeyChecker& fks);
  void BulkInsert(ExecContext& ctx);
  // INSERT ... ON CONFLICT of one proposed row (modify_on_conflict.cpp).
  void InsertOnConflict(TableModifier& mod, const Row& proposed, EvalContext& eval, ForeignKeyChecker& fks);
  // DO UPDATE of the locked conflicting row `existing_`: false when its
  // WHERE clause rejects it.
  bool UpdateConflicting(TableModifier& mod, RowId rid, const Row& proposed, EvalContext& eval, ForeignKeyChecker& fks);
  void ExplainOnConflict(std::vector<std::string>* lines, const std::string& pad) const;

  ModifyKind kind_;
  TableInfo table_;
  ExecNodePtr child_;
  CheckConstraints checks_;  // INSERT/UPDATE: the table's CHECK constraints, bound at plan time
  PlanExpr where_;
  std::vector<PlanExpr> new_row_;
  std::vector<PlanExpr> returning_;
  std::vector<Row> out_;
  Row scratch_;
  Row returned_;  // UPDATE RETURNING: new row + RowId + FROM columns
  Row latest_;    // newest version of a concurrently updated row
  size_t pos_ = 0;
  uint64_t processed_ = 0;
  bool bulk_insert_ = false;
  // UPDATE: the columns the statement assigns (UPDATE OF triggers).
  std::vector<bool> UpdateTargets() const;
  std::unique_ptr<OnConflictPlan> on_conflict_;  // plan-time; null without ON CONFLICT
  std::unique_ptr<TableTriggers> triggers_;      // run-time: this execution's triggers
  Row existing_;                                 // ON CONFLICT: [conflicting row, proposed row]
};

}  // namespace hearth::executor
