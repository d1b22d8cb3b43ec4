// tcop/alter_table_plan.cpp
//
// Principal entry point: PlanAlterTable. ALTER TABLE [IF EXISTS] t action,
// action, ... (each action in order, under one AccessExclusiveLock), and
// ALTER INDEX / SEQUENCE ... RENAME TO.
//
// Actions that only change the catalog (SET/DROP DEFAULT, SET/DROP NOT
// NULL, RENAME, ADD COLUMN without default or NOT NULL) go to
// catalog/alter_table.h. Actions that change stored rows — ADD COLUMN with
// a default or NOT NULL, DROP COLUMN, ALTER COLUMN TYPE — rewrite the table
// into a new file with
//     INSERT INTO pg_rewrite_target.t (new columns) SELECT exprs FROM t
// planned and run against a catalog::TableRewriteProvider (assignment
// casts, typmod checks and per-row defaults as any INSERT ... SELECT), then
// catalog::FinishTableRewrite swaps the file and rebuilds the indexes.
// Everything is transactional: ROLLBACK brings back the old catalog rows,
// and the old file, which is unlinked only at commit.
#include <algorithm>
#include <functional>
#include <string>

#include "catalog/alter_table.h"
#include "catalog/index_ddl.h"
#include "catalog/inherit_ddl.h"
#include "catalog/partition_ddl.h"
#include "catalog/sequence_ddl.h"
#include "catalog/table_rewrite.h"
#include "common/error/sqlstate.h"
#include "executor/executor.h"
#include "parser/parser.h"
#include "planner/default_expr.h"
#include "planner/deparse.h"
#include "planner/planner.h"
#include "storage/ipc/interrupts.h"
#include "tcop/plan.h"
#include "tcop/constraint_commands.h"
#include "tcop/partition_eval.h"
#include "tcop/session.h"
#include "tcop/trigger_plans.h"
#include "utils/adt/type_catalog.h"

namespace hearth::tcop {

namespace {

using Cmd = parser::AlterTableCmd;
using K = parser::AlterTableCmdKind;

std::string QuoteIdent(const std::string& name) {
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

void SendNotices(Session& s, const catalog::DdlResult& r) {
  for (const auto& n : r.notices) s.Notice(Severity::kNotice, n.sqlstate, n.message);
}

// A column's new values: its attribute and the SELECT expression giving
// them (empty for a new column, which gets its DEFAULT).
struct RewriteColumn {
  catalog::RewrittenColumn column;
  std::string expr;
};

// The current columns of `e`, each copied from itself.
std::vector<RewriteColumn> KeepColumns(const catalog::RelationEntry& e) {
  std::vector<RewriteColumn> out;
  for (size_t i = 0; i < e.info.columns.size(); ++i) {
    const executor::ColumnInfo& c = e.info.columns[i];
    RewriteColumn r;
    r.column.attr.attname = c.name;
    r.column.attr.atttypid = c.type;
    r.column.attr.atttypmod = c.typmod;
    r.column.attr.attnotnull = c.not_null;
    r.column.attr.attdefault = c.default_expr;
    r.column.old_position = static_cast<int>(i);
    if (i < e.column_acls.size()) r.column.acl = e.column_acls[i];
    r.expr = QuoteIdent(c.name);
    out.push_back(std::move(r));
  }
  return out;
}

// Rewrites table `e` into a new file with `columns`. A 42804 (no
// assignment cast) while planning goes to `on_mismatch`, which throws
// the action's own message.
void RewriteTable(Session& s, const catalog::RelationRef& e, const std::vector<RewriteColumn>& columns,
                  const std::function<void(const DbError&)>& on_mismatch) {
  std::vector<executor::ColumnInfo> infos;
  std::vector<catalog::RewrittenColumn> attrs;
  std::string names, exprs;
  for (const RewriteColumn& c : columns) {
    executor::ColumnInfo ci;
    ci.name = c.column.attr.attname;
    ci.type = c.column.attr.atttypid;
    ci.typmod = c.column.attr.atttypmod;
    ci.not_null = c.column.attr.attnotnull;
    ci.default_expr = c.column.attr.attdefault;
    infos.push_back(std::move(ci));
    attrs.push_back(c.column);
    if (c.expr.empty()) continue;  // a new column: INSERT fills in its DEFAULT
    names += (names.empty() ? "" : ", ") + QuoteIdent(c.column.attr.attname);
    exprs += (exprs.empty() ? "" : ", ") + c.expr;
  }
  const types::Oid file = catalog::NewRewriteFile();
  catalog::TableRewriteProvider provider(*s.tables, e, std::move(infos), file);
  const std::string source = QuoteIdent(e->info.schema) + "." + QuoteIdent(e->info.name);
  // No column to copy (all dropped, or only new ones): `SELECT FROM t`
  // still yields one row per row.
  const std::string sql = "INSERT INTO " + std::string(catalog::kRewriteTargetSchema) + "." +
                          QuoteIdent(e->info.name) + (names.empty() ? "" : " (" + names + ")") + " SELECT " + exprs +
                          " FROM ONLY " + source;
  auto parsed = parser::ParseStatements(sql);
  executor::PlannedStatement plan;
  try {
    plan = planner::PlanStatement(*parsed.at(0), provider);
  } catch (const DbError& err) {
    if (err.sqlstate() == sqlstate::kDatatypeMismatch) on_mismatch(err);
    throw;
  }
  executor::ExecContext ctx = MakeExecContext(s, {});
  ctx.tables = &provider;
  {
    executor::Execution exec(plan, ctx);
    executor::Row row;
    while (exec.Next(row)) CheckForInterrupts();
  }
  catalog::FinishTableRewrite(*e, attrs, file);
}

std::string DeparseDefault(const parser::Expr& e) {
  planner::CheckDefaultExpr(e);
  return planner::Deparse(e);
}

// 42804 when a DEFAULT's value cannot be assigned to the column; a string
// literal must be valid input of the column's type (22P02 & co now, as
// PostgreSQL folds the coerced constant when storing it).
void CheckDefaultType(Session& s, const parser::Expr& expr, const std::string& text, const std::string& column,
                      types::Oid type, int32_t typmod) {
  if (expr.kind == parser::ExprKind::kConst &&
      expr.As<parser::ConstExpr>().const_kind == parser::ConstKind::kString) {
    auto cast = parser::ParseStatements("SELECT CAST(" + text + " AS " + types::FormatType(type, typmod) + ")");
    try {
      executor::PlannedStatement plan = planner::PlanStatement(*cast.at(0), *s.tables);
      executor::Execution exec(plan, MakeExecContext(s, {}));
      executor::Row row;
      while (exec.Next(row)) {
      }
    } catch (DbError& err) {
      throw std::move(err.WithPosition(0));  // a position in our SELECT means nothing to the client
    }
    return;
  }
  auto parsed = parser::ParseStatements("SELECT " + text);
  executor::PlannedStatement plan = planner::PlanStatement(*parsed.at(0), *s.tables);
  const types::Oid have = plan.columns.at(0).type;
  if (have != types::kUnknownOid && have != type && !types::CanCoerce(have, type, types::CoercionContext::kAssignment)) {
    throw DbError(sqlstate::kDatatypeMismatch, "column \"" + column + "\" is of type " + types::FormatType(type) +
                                                   " but default expression is of type " + types::FormatType(have))
        .WithHint("You will need to rewrite or cast the expression.");
  }
}

// PostgreSQL runs the actions of one ALTER TABLE in passes, whatever
// their order in the command: drops first, then type changes, added
// columns, constraints, column attributes, and the rest.
int Pass(const Cmd& cmd) {
  switch (cmd.kind) {
    case K::kDropColumn:
    case K::kDropConstraint:
    case K::kDropNotNull:
    case K::kDropDefault: return 0;
    case K::kAlterColumnType: return 1;
    case K::kAddColumn: return 4;
    case K::kAddConstraint: return 5;
    case K::kSetNotNull: return 6;
    case K::kSetDefault: return 9;
    default: return 10;
  }
}

class AlterTableRunner {
 public:
  AlterTableRunner(Session& s, const parser::AlterTableStmt& stmt) : s_(s), stmt_(stmt) {
    ctx_.query_text = stmt.location == 0 ? std::string_view(stmt.text) : std::string_view();
    ctx_.deparse = DeparseDefault;
    ctx_.eval_const = [&s](const parser::Expr& e, types::Oid type, int32_t typmod) {
      return EvalConstForDdl(s, e, type, typmod);  // ATTACH PARTITION's bound
    };
  }

  void Run() {
    e_ = catalog::OpenTableForAlter(stmt_.table, stmt_.if_exists, /*tables_only=*/false, &result_);
    if (e_ == nullptr) return Flush();
    std::vector<const Cmd*> order;
    for (const Cmd& cmd : stmt_.cmds) order.push_back(&cmd);
    std::stable_sort(order.begin(), order.end(), [](const Cmd* a, const Cmd* b) { return Pass(*a) < Pass(*b); });
    for (const Cmd* cmd : order) {
      CheckForInterrupts();
      Apply(*cmd);
      Flush();
      // The relcache entry was dropped by the change: read it again.
      const types::Oid oid = e_->oid;
      e_ = catalog::OpenRelationByOid(oid, storage::LockMode::kAccessExclusive);
      if (e_ == nullptr) throw DbError(sqlstate::kInternalError, "cache lookup failed for relation " + std::to_string(oid));
    }
  }

 private:
  void Flush() {
    SendNotices(s_, result_);
    result_.notices.clear();
  }

  // PostgreSQL's 42809 for an action on a sequence.
  void RejectSequence(const Cmd& cmd) const {
    if (e_->relkind != 'S') return;
    std::string action;
    switch (cmd.kind) {
      case K::kAddColumn: action = "ADD COLUMN"; break;
      case K::kDropColumn: action = "DROP COLUMN"; break;
      case K::kAlterColumnType: action = "ALTER COLUMN ... SET DATA TYPE"; break;
      case K::kSetDefault: action = "ALTER COLUMN ... SET DEFAULT"; break;
      case K::kDropDefault: action = "ALTER COLUMN ... DROP DEFAULT"; break;
      case K::kSetNotNull: action = "ALTER COLUMN ... SET NOT NULL"; break;
      case K::kDropNotNull: action = "ALTER COLUMN ... DROP NOT NULL"; break;
      case K::kAddIdentity: action = "ALTER COLUMN ... ADD IDENTITY"; break;
      case K::kAddConstraint: action = "ADD CONSTRAINT"; break;
      case K::kRenameColumn:
        throw DbError(sqlstate::kWrongObjectType, "cannot rename columns of relation \"" + e_->info.name + "\"")
            .WithDetail("This operation is not supported for sequences.");
      default: return;
    }
    throw DbError(sqlstate::kWrongObjectType,
                  "ALTER action " + action + " cannot be performed on relation \"" + e_->info.name + "\"")
        .WithDetail("This operation is not supported for sequences.");
  }

  void Apply(const Cmd& cmd) {
    RejectSequence(cmd);
    if (IsConstraintCommand(cmd)) {  // CHECK / FOREIGN KEY / DROP CONSTRAINT: constraint_commands.cpp
      RunConstraintCommand(s_, stmt_.table, cmd);
      return;
    }
    switch (cmd.kind) {
      case K::kAddColumn: return AddColumn(cmd);
      case K::kDropColumn: return DropColumn(cmd);
      case K::kAlterColumnType: return AlterType(cmd);
      case K::kSetDefault: {
        const int pos = catalog::AlterColumnPosition(*e_, cmd.name);
        std::string text = DeparseDefault(*cmd.expr);
        if (text == "NULL") text.clear();  // as no default, as PostgreSQL
        const executor::ColumnInfo& col = e_->info.columns[static_cast<size_t>(pos)];
        if (!text.empty()) CheckDefaultType(s_, *cmd.expr, text, cmd.name, col.type, col.typmod);
        return catalog::AlterColumnDefault(*e_, cmd.name, text);
      }
      case K::kDropDefault: return catalog::AlterColumnDefault(*e_, cmd.name, "");
      case K::kSetNotNull: return catalog::AlterColumnSetNotNull(*e_, cmd.name);
      case K::kDropNotNull: return catalog::AlterColumnDropNotNull(*e_, cmd.name);
      case K::kRenameColumn: return catalog::RenameColumn(*e_, cmd.name, cmd.new_name);
      case K::kRenameTable: {
        parser::RangeVar rv;
        rv.schema = e_->info.schema;
        rv.name = e_->info.name;
        catalog::RenameRelation(parser::ObjectType::kTable, rv, false, cmd.new_name);
        return;
      }
      case K::kAddConstraint:
        if (cmd.constraint) SendNotices(s_, catalog::AlterTableAddConstraint(stmt_.table, *cmd.constraint));
        return;
      case K::kDropConstraint:
        throw DbError(sqlstate::kFeatureNotSupported, "ALTER TABLE ... DROP CONSTRAINT is not supported yet");
      case K::kRenameConstraint:
        throw DbError(sqlstate::kFeatureNotSupported, "ALTER TABLE ... RENAME CONSTRAINT is not supported yet");
      case K::kSetOptions:
        throw DbError(sqlstate::kFeatureNotSupported, "ALTER TABLE ... SET (...) is not supported yet");
      case K::kEnableTrigger:
      case K::kDisableTrigger:
        return SetTriggersEnabled(*e_, cmd.name, cmd.kind == K::kEnableTrigger);
      case K::kInherit:
      case K::kNoInherit:
        return catalog::AlterTableInherit(*e_, cmd.parent, cmd.kind == K::kInherit);  // inherit_ddl.cpp
      case K::kAttachPartition: return catalog::AttachPartition(*e_, cmd.parent, *cmd.bound, ctx_);  // partition_ddl.cpp
      case K::kDetachPartition: return catalog::DetachPartition(*e_, cmd.parent);
      case K::kAddIdentity: return catalog::AddIdentityToColumn(*e_, cmd.name, *cmd.constraint);  // sequence_ddl.cpp
    }
  }

  std::string ColumnOfTable(const std::string& column) const {
    return "column \"" + column + "\" of relation \"" + e_->info.name + "\"";
  }

  void AddColumn(const Cmd& cmd) {
    catalog::internal::AttributeFields attr = catalog::ValidateNewColumn(*e_, *cmd.column, ctx_);
    if (catalog::HasColumn(*e_, attr.attname)) {
      if (cmd.if_not_exists) {
        result_.notices.push_back({"42701", ColumnOfTable(attr.attname) + " already exists, skipping"});
        return;
      }
      throw DbError("42701", ColumnOfTable(attr.attname) + " already exists");
    }
    if (attr.attdefault.empty() && !attr.attnotnull) return catalog::AddColumnWithoutRewrite(*e_, attr);
    std::vector<RewriteColumn> cols = KeepColumns(*e_);
    RewriteColumn added;  // no expression: filled in by its DEFAULT
    added.column.attr = attr;
    cols.push_back(std::move(added));
    RewriteTable(s_, e_, cols, [&](const DbError& err) {
      // INSERT's `column "c" is of type x but expression is of type y`: the default's.
      std::string msg = err.message();
      const std::string from = "but expression";
      if (auto at = msg.find(from); at != std::string::npos) msg.replace(at, from.size(), "but default expression");
      throw DbError(sqlstate::kDatatypeMismatch, msg).WithHint("You will need to rewrite or cast the expression.");
    });
  }

  void DropColumn(const Cmd& cmd) {
    if (!catalog::HasColumn(*e_, cmd.name)) {
      if (cmd.if_exists) {
        result_.notices.push_back({"00000", ColumnOfTable(cmd.name) + " does not exist, skipping"});
        return;
      }
      throw DbError("42703", ColumnOfTable(cmd.name) + " does not exist");
    }
    std::vector<RewriteColumn> cols = KeepColumns(*e_);
    std::erase_if(cols, [&](const RewriteColumn& c) { return c.column.attr.attname == cmd.name; });
    RewriteTable(s_, e_, cols, [](const DbError&) {});
  }

  void AlterType(const Cmd& cmd) {
    const int pos = catalog::AlterColumnPosition(*e_, cmd.name);
    std::vector<RewriteColumn> cols = KeepColumns(*e_);
    RewriteColumn& c = cols[static_cast<size_t>(pos)];
    // No error position here, as PostgreSQL.
    catalog::ResolveAlterColumnType(cmd.type, cmd.name, {}, &c.column.attr.atttypid,
                                    &c.column.attr.atttypmod);
    const std::string type_text = types::FormatType(c.column.attr.atttypid, c.column.attr.atttypmod);
    if (cmd.expr) c.expr = "(" + planner::Deparse(*cmd.expr) + ")";
    RewriteTable(s_, e_, cols, [&](const DbError&) {
      if (cmd.expr) {
        throw DbError(sqlstate::kDatatypeMismatch,
                      "result of USING clause for column \"" + cmd.name + "\" cannot be cast automatically to type " +
                          type_text)
            .WithHint("You might need to add an explicit cast.");
      }
      throw DbError(sqlstate::kDatatypeMismatch,
                    "column \"" + cmd.name + "\" cannot be cast automatically to type " + type_text)
          .WithHint("You might need to specify \"USING " + cmd.name + "::" + type_text + "\".");
    });
  }

  Session& s_;
  const parser::AlterTableStmt& stmt_;
  catalog::DdlContext ctx_;
  catalog::DdlResult result_;
  catalog::RelationRef e_;
};

class AlterTablePlan : public Plan {
 public:
  explicit AlterTablePlan(const parser::AlterTableStmt& stmt) : stmt_(stmt) {}

  std::string Run(Session& s, const std::vector<types::Value>&, RowConsumer&) override {
    if (stmt_.object_type != parser::ObjectType::kTable) {
      const Cmd& cmd = stmt_.cmds.at(0);
      SendNotices(s, catalog::RenameRelation(stmt_.object_type, stmt_.table, stmt_.if_exists, cmd.new_name));
      return stmt_.object_type == parser::ObjectType::kIndex ? "ALTER INDEX" : "ALTER SEQUENCE";
    }
    if (stmt_.cmds.size() == 1 && stmt_.cmds[0].kind == K::kRenameTable) {
      SendNotices(s, catalog::RenameRelation(parser::ObjectType::kTable, stmt_.table, stmt_.if_exists,
                                             stmt_.cmds[0].new_name));
      return "ALTER TABLE";
    }
    AlterTableRunner(s, stmt_).Run();
    return "ALTER TABLE";
  }

 private:
  const parser::AlterTableStmt& stmt_;
};

}  // namespace

std::unique_ptr<Plan> PlanAlterTable(Session&, const parser::AlterTableStmt& stmt) {
  return std::make_unique<AlterTablePlan>(stmt);
}

}  // namespace hearth::tcop
