// server/executor/foreign_keys.h
//
// FOREIGN KEY enforcement (MATCH SIMPLE) for one statement's changes to one
// table, as PostgreSQL's referential-integrity triggers: the writer notes
// each row as it changes it, and Finish, at the end of the statement, runs
// the queued work, so rows the statement inserts later still count
// (a self-referencing multi-row INSERT):
//   - referencing side (INSERT, UPDATE changing the key, COPY): the
//     referenced row must exist; it is found through the referenced unique
//     index and locked FOR KEY SHARE, so a concurrent DELETE (or key
//     UPDATE) of it waits for this transaction, and one that committed
//     first makes the check fail (23503 `insert or update on table "c"
//     violates foreign key constraint "f"`, `Key (a)=(1) is not present in
//     table "p".`).
//   - referenced side (DELETE, UPDATE changing the key): the ON DELETE / ON
//     UPDATE action — NO ACTION (unless another row now has the key) and
//     RESTRICT fail with 23503 `update or delete on table "p" violates
//     foreign key constraint "f" on table "c"`; CASCADE deletes or updates
//     the referencing rows, SET NULL / SET DEFAULT update them; those changes
//     are checked the same way in turn (recursively).
// Lookups read with TableProvider::OpenLatestScan: rows other transactions
// committed after the statement began count, as in PostgreSQL's checks.
#pragma once

#include <vector>

#include "executor/exec_context.h"
#include "executor/table_access.h"

namespace hearth::executor {

class ForeignKeyChecker {
 public:
  // `table` must outlive the checker.
  explicit ForeignKeyChecker(const TableInfo& table);
  // True when the table references or is referenced by another.
  bool active() const { return !referencing_.empty() || !referenced_.empty(); }
  // A row written into the table (`old_row` null for INSERT / COPY).
  void NoteNewRow(const Row& row, const Row* old_row);
  // A row deleted (`new_row` null) or replaced by `new_row`.
  void NoteOldRow(const Row& old_row, const Row* new_row);
  // End of statement: referenced-side actions, then referencing checks.
  void Finish(ExecContext& ctx);

  // ALTER TABLE ... ADD FOREIGN KEY: every row of the referencing table must
  // find its referenced row (23503 as for an INSERT).
  static void ValidateExistingRows(ExecContext& ctx, const TableInfo& table, const ForeignKeyInfo& fk);

 private:
  // Keys of the referencing side to look up (flat: fk->columns.size() each).
  struct ReferencingQueue {
    const ForeignKeyInfo* fk;
    std::vector<types::Value> keys;
  };
  // Old (and for UPDATE new) keys of the referenced side.
  struct ReferencedQueue {
    const ForeignKeyInfo* fk;
    std::vector<types::Value> old_keys;
    std::vector<types::Value> new_keys;
    bool deleted = true;
  };

  void CheckReferencing(ExecContext& ctx, const ReferencingQueue& q);
  void ApplyReferencedAction(ExecContext& ctx, const ReferencedQueue& q);

  const TableInfo* table_;
  std::vector<ReferencingQueue> referencing_;  // foreign keys of this table
  std::vector<ReferencedQueue> referenced_;    // foreign keys referencing it
};

}  // namespace hearth::executor
