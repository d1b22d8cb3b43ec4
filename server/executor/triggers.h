// server/executor/triggers.h
//
// Triggers as the executor fires them. The backend installs the hooks
// (tcop/trigger_plans.cpp): the enabled triggers of a table in name order
// (PostgreSQL's firing order) and running one trigger for one row or
// statement (its WHEN condition included). TableTriggers is what one
// execution of INSERT/UPDATE/DELETE (ModifyTableNode) or COPY FROM uses:
// BEFORE STATEMENT at the start, BEFORE ROW per row (a NULL result skips
// the row, a returned row replaces it), AFTER ROW events queued and fired
// at the end of the statement, then AFTER STATEMENT.
//
// Process safety: the hooks are per process (each backend sets its own);
// a TableTriggers belongs to one running statement.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "executor/table_access.h"

namespace hearth::executor {

enum class TriggerEvent : uint8_t { kInsert, kUpdate, kDelete };

struct TriggerDesc {
  uint32_t oid = 0;
  std::string name;
  uint32_t func = 0;
  int type = 0;                     // PostgreSQL's tgtype bits (catalog/trigger_catalog.h)
  std::vector<int> update_columns;  // UPDATE OF: 0-based columns; empty = any UPDATE
  std::vector<std::string> args;
  std::string when;                 // WHEN condition as written; empty = none
};

// How one firing ended: kKeep (AFTER triggers, BEFORE triggers returning
// the row; *out holds the row to go on with), kSkip (BEFORE ROW returned
// NULL), kNotFired (WHEN was not true).
enum class TriggerOutcome : uint8_t { kKeep, kSkip, kNotFired };

struct TriggerFiring {
  const TriggerDesc* trigger = nullptr;
  const TableInfo* table = nullptr;
  TriggerEvent event = TriggerEvent::kInsert;
  bool before = false;
  bool row_level = false;
  const Row* old_row = nullptr;  // UPDATE/DELETE rows; the table's columns only
  const Row* new_row = nullptr;  // INSERT/UPDATE rows
};

struct TriggerHooks {
  std::function<std::vector<TriggerDesc>(const TableInfo& table)> list;
  std::function<TriggerOutcome(const TriggerFiring& firing, Row* out)> fire;
};

// Installs the backend's hooks (unset: tables have no triggers).
void SetTriggerHooks(TriggerHooks hooks);

class TableTriggers {
 public:
  // Loads the table's triggers for `event`. `targets` (UPDATE) marks the
  // columns the statement assigns, for UPDATE OF.
  TableTriggers(const TableInfo& table, TriggerEvent event, std::vector<bool> targets = {});
  bool any() const { return !triggers_.empty(); }
  bool has_before_row() const { return before_row_; }

  void BeforeStatement();
  // BEFORE ROW triggers on one row: false when one returned NULL (skip the
  // row). INSERT/UPDATE: *new_row may be replaced by the triggers' row.
  bool BeforeRow(const Row* old_row, Row* new_row);
  // Queues the AFTER ROW triggers' event for this row.
  void AfterRow(const Row* old_row, const Row* new_row);
  // Fires the queued AFTER ROW events (in row order), then AFTER STATEMENT.
  void Finish();

 private:
  bool Applies(const TriggerDesc& t, bool before, bool row_level) const;
  Row TableColumns(const Row& row) const;

  const TableInfo& table_;
  TriggerEvent event_;
  std::vector<bool> targets_;
  std::vector<TriggerDesc> triggers_;
  bool before_row_ = false;
  bool after_row_ = false;
  struct Pending {
    Row old_row;
    Row new_row;
    bool has_old = false;
    bool has_new = false;
  };
  std::vector<Pending> queue_;
  Row scratch_;
};

}  // namespace hearth::executor
