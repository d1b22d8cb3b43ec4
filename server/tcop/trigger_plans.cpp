// tcop/trigger_plans.cpp
//
// Principal entry points: PlanTriggerStmt, InstallTriggerHooks.
// PostgreSQL's checks and messages: INSTEAD OF only on views (42809),
// TRUNCATE FOR EACH ROW (0A000), NEW/OLD in a statement trigger's WHEN
// (42P17), the function must return trigger (42P17), a second trigger of
// one name on a table (42710).
#include "tcop/trigger_plans.h"

#include <algorithm>
#include <cctype>

#include "access/transam/xact.h"
#include "catalog/privileges.h"
#include "catalog/proc_catalog.h"
#include "catalog/relcache.h"
#include "catalog/trigger_catalog.h"
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "executor/triggers.h"
#include "storage/lmgr/lock.h"
#include "tcop/session.h"
#include "tcop/sql_functions.h"

namespace hearth::tcop {

namespace {

using catalog::TriggerFields;
using types::Oid;

std::string FullName(const parser::RangeVar& rv) { return rv.schema.empty() ? rv.name : rv.schema + "." + rv.name; }

// The table a trigger statement names, locked against concurrent DDL, owned by the current user.
catalog::RelationRef TriggerTable(const parser::RangeVar& rv, bool allow_view) {
  catalog::RelationRef rel = catalog::OpenRelation(rv.schema, rv.name, storage::LockMode::kShareRowExclusive);
  if (!rel) throw DbError(sqlstate::kUndefinedTable, "relation \"" + FullName(rv) + "\" does not exist");
  if (rel->relkind != 'r' && !(allow_view && rel->relkind == 'v')) {
    throw DbError(sqlstate::kWrongObjectType, "\"" + rv.name + "\" is not a table or view");
  }
  catalog::CheckOwnership(*rel);
  return rel;
}

int TriggerType(const parser::CreateTriggerStmt& st) {
  int type = st.for_each_row ? catalog::kTriggerTypeRow : 0;
  if (st.timing == 'b') type |= catalog::kTriggerTypeBefore;
  if (st.timing == 'i') type |= catalog::kTriggerTypeInstead;
  if (st.on_insert) type |= catalog::kTriggerTypeInsert;
  if (st.on_delete) type |= catalog::kTriggerTypeDelete;
  if (st.on_update) type |= catalog::kTriggerTypeUpdate;
  if (st.on_truncate) type |= catalog::kTriggerTypeTruncate;
  return type;
}

bool MentionsRowVariable(const std::string& when) {
  std::string lower = when;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  for (const char* word : {"new.", "old."}) {
    for (size_t at = lower.find(word); at != std::string::npos; at = lower.find(word, at + 1)) {
      if (at == 0 || !(std::isalnum(static_cast<unsigned char>(lower[at - 1])) || lower[at - 1] == '_')) return true;
    }
  }
  return false;
}

void CheckDefinition(const parser::CreateTriggerStmt& st, const catalog::RelationEntry& rel) {
  if (st.timing == 'i' && rel.relkind == 'r') {
    throw DbError(sqlstate::kWrongObjectType, "\"" + rel.info.name + "\" is a table")
        .WithDetail("Tables cannot have INSTEAD OF triggers.");
  }
  if (rel.relkind == 'v') {
    throw DbError(sqlstate::kFeatureNotSupported, "triggers on views are not supported yet");
  }
  if (st.on_truncate && st.for_each_row) {
    throw DbError(sqlstate::kFeatureNotSupported, "TRUNCATE FOR EACH ROW triggers are not supported");
  }
  if (st.on_truncate) throw DbError(sqlstate::kFeatureNotSupported, "TRUNCATE triggers are not supported yet");
  if (st.has_transition_tables) {
    throw DbError(sqlstate::kFeatureNotSupported, "transition tables (REFERENCING) are not supported yet");
  }
  if (!st.when_text.empty() && !st.for_each_row && MentionsRowVariable(st.when_text)) {
    throw DbError("42P17", "statement trigger's WHEN condition cannot reference column values");
  }
}

Oid TriggerFunction(const parser::RangeVar& fn) {
  for (const catalog::ProcInfo& p : catalog::FindFunctionsByName(fn.name)) {
    if (!p.argtypes.empty()) continue;
    if (p.rettype != catalog::kTriggerTypeOid) {
      throw DbError("42P17", "function " + fn.name + " must return type trigger");
    }
    return p.oid;
  }
  throw DbError(sqlstate::kUndefinedFunction, "function " + fn.name + "() does not exist");
}

class CreateTriggerPlan : public Plan {
 public:
  explicit CreateTriggerPlan(const parser::CreateTriggerStmt& stmt) : stmt_(stmt) {}
  std::string Run(Session&, const std::vector<types::Value>&, RowConsumer&) override {
    catalog::RelationRef rel = TriggerTable(stmt_.table, /*allow_view=*/true);
    CheckDefinition(stmt_, *rel);
    TriggerFields f;
    f.relid = rel->oid;
    f.name = stmt_.name;
    f.func = TriggerFunction(stmt_.function);
    f.type = TriggerType(stmt_);
    f.args = stmt_.args;
    if (!stmt_.when_text.empty()) f.when = stmt_.when_text;
    for (const std::string& col : stmt_.update_columns) {
      const auto& cols = rel->info.columns;
      auto it = std::find_if(cols.begin(), cols.end(), [&](const executor::ColumnInfo& c) { return c.name == col; });
      if (it == cols.end()) {
        throw DbError(sqlstate::kUndefinedColumn,
                      "column \"" + col + "\" of relation \"" + rel->info.name + "\" does not exist");
      }
      f.attnums.push_back(static_cast<int>(it - cols.begin()) + 1);
    }
    for (const TriggerFields& old : catalog::TriggersOf(rel->oid)) {
      if (old.name != f.name) continue;
      if (!stmt_.or_replace) {
        throw DbError("42710", "trigger \"" + f.name + "\" for relation \"" + rel->info.name + "\" already exists");
      }
      f.oid = old.oid;
      catalog::ReplaceTrigger(f);
      return "CREATE TRIGGER";
    }
    catalog::InsertTrigger(f);
    return "CREATE TRIGGER";
  }

 private:
  const parser::CreateTriggerStmt& stmt_;
};

class DropTriggerPlan : public Plan {
 public:
  explicit DropTriggerPlan(const parser::DropTriggerStmt& stmt) : stmt_(stmt) {}
  std::string Run(Session& s, const std::vector<types::Value>&, RowConsumer&) override {
    catalog::RelationRef rel = catalog::LookupRelation(stmt_.table.schema, stmt_.table.name);
    if (!rel && stmt_.if_exists) {
      s.Notice(Severity::kNotice, "00000",
               "relation \"" + FullName(stmt_.table) + "\" does not exist, skipping");
      return "DROP TRIGGER";
    }
    rel = TriggerTable(stmt_.table, /*allow_view=*/true);
    for (const TriggerFields& f : catalog::TriggersOf(rel->oid)) {
      if (f.name != stmt_.name) continue;
      catalog::DeleteTrigger(f.oid);
      return "DROP TRIGGER";
    }
    if (!stmt_.if_exists) {
      throw DbError(sqlstate::kUndefinedObject,
                    "trigger \"" + stmt_.name + "\" for table \"" + rel->info.name + "\" does not exist");
    }
    s.Notice(Severity::kNotice, "00000",
             "trigger \"" + stmt_.name + "\" for relation \"" + rel->info.name + "\" does not exist, skipping");
    return "DROP TRIGGER";
  }

 private:
  const parser::DropTriggerStmt& stmt_;
};

const char* EventName(executor::TriggerEvent e) {
  switch (e) {
    case executor::TriggerEvent::kInsert: return "INSERT";
    case executor::TriggerEvent::kUpdate: return "UPDATE";
    case executor::TriggerEvent::kDelete: return "DELETE";
  }
  return "";
}

executor::TriggerOutcome Fire(Session& s, const executor::TriggerFiring& f, executor::Row* out) {
  const executor::TriggerDesc& t = *f.trigger;
  plpgsql::TriggerCall call;
  call.name = t.name;
  call.when = f.before ? "BEFORE" : "AFTER";
  call.level = f.row_level ? "ROW" : "STATEMENT";
  call.op = EventName(f.event);
  call.args = t.args;
  call.table = f.table;
  call.new_row = f.new_row;
  call.old_row = f.old_row;
  // AFTER triggers see what the statement did.
  if (!f.before) access::CommandCounterIncrement();
  if (!t.when.empty() && !plpgsql::EvalTriggerCondition(s, call, t.when)) return executor::TriggerOutcome::kNotFired;
  plpgsql::TriggerResult r = CallTriggerFunction(s, t.func, call);
  if (!f.before || !f.row_level) return executor::TriggerOutcome::kKeep;
  if (r.is_null) return executor::TriggerOutcome::kSkip;
  if (r.row.size() != f.table->columns.size()) {
    throw DbError(sqlstate::kDatatypeMismatch,
                  "returned row structure does not match the structure of the triggering table");
  }
  *out = std::move(r.row);
  return executor::TriggerOutcome::kKeep;
}

}  // namespace

std::unique_ptr<Plan> PlanTriggerStmt(const parser::Statement& stmt) {
  switch (stmt.kind) {
    case parser::StmtKind::kCreateTrigger:
      return std::make_unique<CreateTriggerPlan>(stmt.As<parser::CreateTriggerStmt>());
    case parser::StmtKind::kDropTrigger:
      return std::make_unique<DropTriggerPlan>(stmt.As<parser::DropTriggerStmt>());
    default:
      return nullptr;
  }
}

void SetTriggersEnabled(const catalog::RelationEntry& table, const std::string& name, bool enable) {
  bool found = false;
  for (TriggerFields f : catalog::TriggersOf(table.oid)) {
    if (!name.empty() && f.name != name) continue;
    found = true;
    const char state = enable ? 'O' : 'D';
    if (f.enabled == state) continue;
    f.enabled = state;
    catalog::ReplaceTrigger(f);
  }
  if (!found && !name.empty()) {
    throw DbError(sqlstate::kUndefinedObject,
                  "trigger \"" + name + "\" for table \"" + table.info.name + "\" does not exist");
  }
}

void InstallTriggerHooks(Session& s) {
  executor::TriggerHooks hooks;
  hooks.list = [](const executor::TableInfo& table) {
    std::vector<executor::TriggerDesc> out;
    if (!access::IsTransactionInProgress() || !catalog::TriggerCatalogExists()) return out;
    for (const TriggerFields& f : catalog::TriggersOf(table.oid)) {
      if (f.enabled == 'D') continue;
      executor::TriggerDesc d;
      d.oid = f.oid;
      d.name = f.name;
      d.func = f.func;
      d.type = f.type;
      for (int a : f.attnums) d.update_columns.push_back(a - 1);
      d.args = f.args;
      d.when = f.when.value_or("");
      out.push_back(std::move(d));
    }
    return out;
  };
  hooks.fire = [&s](const executor::TriggerFiring& f, executor::Row* out) { return Fire(s, f, out); };
  executor::SetTriggerHooks(std::move(hooks));
}

}  // namespace hearth::tcop
