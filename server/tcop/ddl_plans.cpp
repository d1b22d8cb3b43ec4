// tcop/ddl_plans.cpp
//
// Principal entry points: PlanDdl — CREATE TABLE, DROP TABLE/INDEX, CREATE
// INDEX, ALTER TABLE (alter_table_plan.cpp), TRUNCATE, VACUUM/ANALYZE and
// CHECKPOINT. The work happens at Run (so a prepared DDL
// statement acts when executed) through catalog/ddl.h; notices the catalog
// reports (IF [NOT] EXISTS skips) go to the client before the tag.
#include <unistd.h>

#include "access/heap/heapscan.h"
#include "access/heap/vacuumlazy.h"
#include "access/transam/snapshot.h"
#include "access/transam/transam.h"
#include "access/transam/xlog_checkpoint.h"
#include "common/error/panic.h"
#include "common/log/log.h"
#include "access/transam/xact.h"
#include "catalog/ddl.h"
#include "catalog/index_ddl.h"
#include "catalog/index_maint.h"
#include "catalog/relcache.h"
#include "catalog/sequence_ddl.h"
#include "catalog/vacuum_relation.h"
#include "catalog/view_ddl.h"
#include "common/error/sqlstate.h"
#include "planner/default_expr.h"
#include "planner/deparse.h"
#include "storage/buffer/bufmgr.h"
#include "storage/file/disk_full.h"
#include "storage/smgr/smgr.h"
#include "storage/ipc/interrupts.h"
#include "tcop/partition_eval.h"
#include "tcop/constraint_commands.h"
#include "tcop/dest.h"
#include "tcop/create_table_like.h"
#include "tcop/session.h"

namespace hearth::tcop {

namespace {

void SendNotices(Session& s, const catalog::DdlResult& r) {
  for (const auto& n : r.notices) {
    if (n.detail.empty()) {
      s.Notice(Severity::kNotice, n.sqlstate, n.message);
    } else {
      PutError(s.sock.out(), DbError(n.sqlstate, n.message, Severity::kNotice).WithDetail(n.detail));
    }
  }
}

// The tables DROP TABLE names that exist (locked as DropTables locks them).
std::vector<catalog::RelationRef> ExistingTables(const std::vector<parser::RangeVar>& names) {
  std::vector<catalog::RelationRef> out;
  for (const parser::RangeVar& rv : names) {
    if (catalog::NamespaceOid(rv.schema) == types::kInvalidOid) continue;
    catalog::RelationRef e = catalog::OpenRelation(rv.schema, rv.name, storage::LockMode::kAccessExclusive);
    if (e != nullptr && e->relkind == 'r') out.push_back(std::move(e));
  }
  return out;
}

class CreateTablePlan : public Plan {
 public:
  explicit CreateTablePlan(const parser::CreateTableStmt& stmt) : stmt_(stmt) {}
  std::string Run(Session& s, const std::vector<types::Value>&, RowConsumer&) override {
    catalog::DdlContext ctx;
    ctx.query_text = stmt_.location == 0 ? std::string_view(stmt_.text) : std::string_view();
    // The hook sees each column DEFAULT: refuse what a default cannot hold
    // before it is stored as text.
    ctx.deparse = [](const parser::Expr& e) {
      planner::CheckDefaultExpr(e);
      return planner::Deparse(e);
    };
    ctx.check_expr = CheckConstraintText;
    ctx.eval_const = [&s](const parser::Expr& e, types::Oid type, int32_t typmod) {
      return EvalConstForDdl(s, e, type, typmod);  // partition bounds
    };
    std::vector<parser::StmtPtr> expanded;
    const parser::CreateTableStmt& stmt = ExpandTableLike(stmt_, &expanded);  // create_table_like.cpp
    if (&stmt != &stmt_) ctx.query_text = {};  // positions would point into the expanded text
    SendNotices(s, catalog::CreateTableWithConstraints(stmt, ctx));
    return "CREATE TABLE";
  }

 private:
  const parser::CreateTableStmt& stmt_;
};

class DropPlan : public Plan {
 public:
  explicit DropPlan(const parser::DropStmt& stmt) : stmt_(stmt) {}
  std::string Run(Session& s, const std::vector<types::Value>&, RowConsumer&) override {
    if (stmt_.object_type == parser::ObjectType::kIndex) {
      SendNotices(s, catalog::DropIndexes(stmt_.objects, stmt_.if_exists));
      return "DROP INDEX";
    }
    const std::vector<catalog::RelationRef> tables = ExistingTables(stmt_.objects);
    catalog::DdlResult dropped = catalog::DropTablesWithIndexes(
        stmt_.objects, stmt_.if_exists, stmt_.behavior == parser::DropBehavior::kCascade);
    // Views over them: 2BP01, or dropped too with CASCADE (view_ddl.h).
    SendNotices(s, catalog::DropDependentViews(tables, stmt_.behavior));
    SendNotices(s, dropped);
    return "DROP TABLE";
  }

 private:
  const parser::DropStmt& stmt_;
};

class TruncatePlan : public Plan {
 public:
  explicit TruncatePlan(const parser::TruncateStmt& stmt) : stmt_(stmt) {}
  std::string Run(Session& s, const std::vector<types::Value>&, RowConsumer&) override {
    catalog::DdlResult r = catalog::TruncateTablesWithIndexes(stmt_.tables);
    if (stmt_.restart_identity) {
      for (const auto& t : stmt_.tables) {
        if (auto rel = catalog::LookupRelation(t.schema, t.name)) catalog::RestartOwnedSequences(rel->oid);
      }
    }
    SendNotices(s, r);
    return "TRUNCATE TABLE";
  }

 private:
  const parser::TruncateStmt& stmt_;
};

// VACUUM removes row versions no snapshot can see and makes their space
// reusable; ANALYZE (and VACUUM, which counts as it goes) records page and
// row counts in hearth_class for the planner.
class VacuumPlan : public Plan {
 public:
  explicit VacuumPlan(const parser::VacuumStmt& stmt) : stmt_(stmt) {
    for (const auto& o : stmt.options) {
      if (o.name == "analyze") analyze_ = o.value.empty() || o.value == "true" || o.value == "on";
      if (o.name == "full") full_ = o.value.empty() || o.value == "true" || o.value == "on";
    }
    if (!stmt.is_vacuum) analyze_ = true;
  }

  std::string Run(Session& s, const std::vector<types::Value>&, RowConsumer&) override {
    const char* what = stmt_.is_vacuum ? "VACUUM" : "ANALYZE";
    if (stmt_.is_vacuum && s.block != BlockState::kIdle) {
      throw DbError(sqlstate::kActiveSqlTransaction, "VACUUM cannot run inside a transaction block");
    }
    std::vector<catalog::RelationRef> rels;
    if (stmt_.relations.empty()) {
      // Each under ShareUpdateExclusiveLock like a named one (a concurrent
      // VACUUM of the same relation waits; one dropped meanwhile is skipped).
      for (const auto& listed : catalog::ListMaintainedRelations()) {
        if (auto rel = catalog::OpenRelationByOid(listed->oid, storage::LockMode::kShareUpdateExclusive)) {
          rels.push_back(rel);
        }
      }
    } else {
      for (const auto& r : stmt_.relations) {
        auto rel = catalog::OpenRelation(r.table.schema, r.table.name, storage::LockMode::kShareUpdateExclusive);
        if (!rel) throw DbError(sqlstate::kUndefinedTable, "relation \"" + r.table.name + "\" does not exist");
        rels.push_back(rel);
      }
    }
    for (const auto& rel : rels) {
      CheckForInterrupts();
      if (rel->relkind != 'r') {  // only named ones get here (ListUserTables lists tables)
        s.Notice(Severity::kWarning, sqlstate::kWarning,
                 "skipping \"" + rel->info.name + "\" --- cannot " + (stmt_.is_vacuum ? "vacuum" : "analyze") +
                     " non-tables or special system tables");
        continue;
      }
      if (stmt_.is_vacuum) {
        catalog::VacuumRelation(rel, analyze_, /*autovacuum=*/false);
      } else {
        catalog::AnalyzeRelation(rel, /*autovacuum=*/false);
      }
    }
    (void)full_;  // VACUUM FULL does the same work as VACUUM for now.
    return what;
  }

 private:
  const parser::VacuumStmt& stmt_;
  bool analyze_ = false;
  bool full_ = false;
};

class CreateIndexPlan : public Plan {
 public:
  explicit CreateIndexPlan(const parser::CreateIndexStmt& stmt) : stmt_(stmt) {}
  std::string Run(Session& s, const std::vector<types::Value>&, RowConsumer&) override {
    catalog::DdlContext ctx;
    ctx.query_text = stmt_.location == 0 ? std::string_view(stmt_.text) : std::string_view();
    SendNotices(s, catalog::CreateIndex(stmt_, ctx));
    return "CREATE INDEX";
  }

 private:
  const parser::CreateIndexStmt& stmt_;
};

class CheckpointPlan : public Plan {
 public:
  std::string Run(Session& s, const std::vector<types::Value>&, RowConsumer&) override {
    try {
      access::RequestCheckpoint(s.settings.GetBool("log_checkpoints"));
    } catch (const std::exception& e) {
      // Out of space loses nothing (the buffers stay dirty, the old
      // checkpoint stays valid): ERROR 53100. A failed write or fsync may have
      // lost data the kernel reported as written: PANIC, and recover from WAL.
      if (storage::IsDiskFullError(e)) throw;
      Panic(std::string("checkpoint failed: ") + e.what());
    }
    return "CHECKPOINT";
  }
};

}  // namespace

std::unique_ptr<Plan> PlanDdl(Session& s, const parser::Statement& stmt) {
  using K = parser::StmtKind;
  switch (stmt.kind) {
    case K::kCreateTable:
      return std::make_unique<CreateTablePlan>(stmt.As<parser::CreateTableStmt>());
    case K::kCreateTableAs:
      return PlanCreateTableAs(s, stmt.As<parser::CreateTableAsStmt>());
    case K::kDrop: {
      const auto& d = stmt.As<parser::DropStmt>();
      if (d.object_type != parser::ObjectType::kTable && d.object_type != parser::ObjectType::kIndex) break;
      return std::make_unique<DropPlan>(d);
    }
    case K::kCreateIndex:
      return std::make_unique<CreateIndexPlan>(stmt.As<parser::CreateIndexStmt>());
    case K::kAlterTable:
      return PlanAlterTable(s, stmt.As<parser::AlterTableStmt>());
    case K::kTruncate:
      return std::make_unique<TruncatePlan>(stmt.As<parser::TruncateStmt>());
    case K::kVacuum:
      return std::make_unique<VacuumPlan>(stmt.As<parser::VacuumStmt>());
    case K::kCheckpoint:
      return std::make_unique<CheckpointPlan>();
    default:
      break;
  }
  return nullptr;
}

}  // namespace hearth::tcop
