// postmaster/autovacuum_worker.cpp
//
// Principal entry point: AutovacuumWorkerMain (see autovacuum_worker.h).
#include "postmaster/autovacuum_worker.h"

#include <sys/prctl.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <vector>

#include "access/heap/vacuumlazy.h"
#include "access/transam/xact.h"
#include "catalog/database_catalog.h"
#include "storage/lmgr/proc_array.h"
#include "catalog/ddl.h"
#include "catalog/relcache.h"
#include "catalog/vacuum_relation.h"
#include "common/error/db_error.h"
#include "common/error/panic.h"
#include "common/error/sqlstate.h"
#include "common/log/log.h"
#include "config/settings.h"
#include "storage/ipc/interrupts.h"
#include "storage/lmgr/lock.h"
#include "storage/lmgr/lwlock.h"
#include "storage/stats/table_stats.h"

namespace hearth::postmaster {

namespace {

// vacuum_cost_limit's default, what autovacuum_vacuum_cost_limit = -1 means.
constexpr int kDefaultVacuumCostLimit = 200;
// PostgreSQL 15's vacuum_cost_page_hit and vacuum_cost_page_dirty.
constexpr int kCostPageHit = 1;
constexpr int kCostPageDirty = 20;

struct Thresholds {
  int64_t vac_base = 0;
  double vac_scale = 0;
  int64_t ins_base = 0;  // -1: inserts never trigger a vacuum
  double ins_scale = 0;
  int64_t anl_base = 0;
  double anl_scale = 0;
};

struct Task {
  catalog::Oid relid = 0;
  std::string name;
  bool vacuum = false;
  bool analyze = false;
};

// Cost-based delay state of this process (SetVacuumDelayPoint is per process).
double g_cost_delay_ms = 0;
int g_cost_limit = kDefaultVacuumCostLimit;
int g_cost_balance = 0;

void CostDelayPoint(bool dirtied) {
  g_cost_balance += dirtied ? kCostPageDirty : kCostPageHit;
  if (g_cost_balance < g_cost_limit) return;
  g_cost_balance = 0;
  // Interruptible: a conflicting lock request's cancel ends the nap.
  SleepWithInterrupts(static_cast<int64_t>(g_cost_delay_ms * 1000));
}

Thresholds ReadThresholds(const config::Settings& s) {
  Thresholds t;
  t.vac_base = s.GetInt("autovacuum_vacuum_threshold");
  t.vac_scale = s.GetReal("autovacuum_vacuum_scale_factor");
  t.ins_base = s.GetInt("autovacuum_vacuum_insert_threshold");
  t.ins_scale = s.GetReal("autovacuum_vacuum_insert_scale_factor");
  t.anl_base = s.GetInt("autovacuum_analyze_threshold");
  t.anl_scale = s.GetReal("autovacuum_analyze_scale_factor");
  return t;
}

// PostgreSQL's relation_needs_vacanalyze, without the wraparound rule.
Task Decide(const catalog::RelationEntry& rel, const Thresholds& t) {
  Task task{rel.oid, rel.info.schema + "." + rel.info.name};
  if (!rel.autovacuum_enabled) return task;
  const std::optional<storage::TableStatsRow> st = storage::ReadTableStats(rel.oid);
  if (!st) return task;  // no activity recorded since the server started
  double reltuples = catalog::GetRelationStats(rel.oid).reltuples;
  if (reltuples < 0) reltuples = 0;  // never counted
  task.vacuum = static_cast<double>(st->dead_tup) > static_cast<double>(t.vac_base) + t.vac_scale * reltuples ||
                (t.ins_base >= 0 &&
                 static_cast<double>(st->ins_since_vacuum) > static_cast<double>(t.ins_base) + t.ins_scale * reltuples);
  task.analyze =
      static_cast<double>(st->mod_since_analyze) > static_cast<double>(t.anl_base) + t.anl_scale * reltuples;
  return task;
}

std::vector<Task> ChooseTables(const config::Settings& s) {
  const Thresholds t = ReadThresholds(s);
  std::vector<Task> tasks;
  access::StartTransaction();
  catalog::AcceptInvalidations();
  for (const catalog::RelationRef& rel : catalog::ListMaintainedRelations()) {
    try {
      Task task = Decide(*rel, t);
      if (task.vacuum || task.analyze) tasks.push_back(std::move(task));
    } catch (const DbError& e) {
      if (e.severity() >= Severity::kFatal) throw;
      // Dropped since it was listed (42P01): nothing to do.
    }
  }
  access::CommitTransaction();
  return tasks;
}

void LogTask(const Task& task, const std::string& database, const heap::VacuumStats* st, double elapsed_s) {
  const std::string table = "\"" + database + "." + task.name + "\"";
  if (st != nullptr) {
    spdlog::info("automatic vacuum of table {}: pages: {} remain; tuples: {} removed, {} remain, {} are dead but not "
                 "yet removable; elapsed: {:.2f} s",
                 table, st->pages, st->tuples_removed, st->tuples_live, st->tuples_recently_dead, elapsed_s);
  } else {
    spdlog::info("automatic analyze of table {}: elapsed: {:.2f} s", table, elapsed_s);
  }
}

// One table in its own transaction. Returns normally when the table was
// done, skipped or cancelled; throws FATAL (shutdown) and internal errors.
void RunTask(const Task& task, const config::Settings& s, const std::string& database) {
  const auto start = std::chrono::steady_clock::now();
  heap::VacuumStats st;
  BeginStatementInterrupts(0);
  access::StartTransaction();
  try {
    const storage::LockTag tag = catalog::RelationLockTag(task.relid);
    // Busy (another VACUUM, DDL): skipped until the next round.
    if (storage::LockAcquire(tag, storage::LockMode::kShareUpdateExclusive, /*dont_wait=*/true) !=
        storage::LockAcquireResult::kGranted) {
      access::AbortTransaction();
      EndStatementInterrupts();
      return;
    }
    catalog::AcceptInvalidations();  // dropped or truncated while we chose
    catalog::RelationRef rel = catalog::LookupRelationByOid(task.relid);
    if (rel != nullptr && rel->relkind == 'r') {
      if (task.vacuum) {
        st = catalog::VacuumRelation(rel, task.analyze, /*autovacuum=*/true);
      } else {
        catalog::AnalyzeRelation(rel, /*autovacuum=*/true);
      }
    }
    access::CommitTransaction();
  } catch (const DbError& e) {
    access::AbortTransaction();
    EndStatementInterrupts();
    if (e.severity() >= Severity::kFatal) throw;
    const std::string what = std::string(task.vacuum ? "automatic vacuum" : "automatic analyze") +
                             " of table \"" + database + "." + task.name + "\"";
    if (e.sqlstate() == sqlstate::kQueryCanceled) {
      spdlog::error("canceling autovacuum task (context: {})", what);
    } else {
      spdlog::error("{} (context: {})", e.message(), what);
    }
    return;
  }
  EndStatementInterrupts();
  const auto elapsed = std::chrono::steady_clock::now() - start;
  const int64_t min_ms = s.GetInt("log_autovacuum_min_duration");
  const int64_t ms = std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count();
  if (min_ms >= 0 && ms >= min_ms) LogTask(task, database, task.vacuum ? &st : nullptr, static_cast<double>(ms) / 1000);
}

void SetUpCostDelay(const config::Settings& s) {
  g_cost_delay_ms = s.GetReal("autovacuum_vacuum_cost_delay");
  const int64_t limit = s.GetInt("autovacuum_vacuum_cost_limit");
  g_cost_limit = limit > 0 ? static_cast<int>(limit) : kDefaultVacuumCostLimit;
  // -1 would mean vacuum_cost_delay, whose default (0) is "no delay".
  if (g_cost_delay_ms > 0) heap::SetVacuumDelayPoint(CostDelayPoint);
}

}  // namespace

void AutovacuumWorkerMain(storage::ProcNumber slot, config::Settings* settings) {
  log::SetLogRole("autovacuum worker");
  prctl(PR_SET_NAME, "hearth autovac", 0, 0, 0);
  // SIGINT cancels the table at hand, SIGTERM ends the worker, SIGQUIT exits.
  InstallBackendSignalHandlers();
  storage::ClaimProcSlot(slot, storage::BackendType::kAutovacuumWorker);
  storage::SetPostmasterPidForWaits(getppid());
  int exit_code = 0;
  try {
    SetUpCostDelay(*settings);
    // One database per worker (each process reads one database's catalogs);
    // successive workers spread over the databases that take connections.
    std::vector<catalog::DatabaseFields> dbs;
    access::StartTransaction();
    try {
      for (catalog::DatabaseFields& d : catalog::ListDatabaseRows()) {
        if (d.allow_connections) dbs.push_back(std::move(d));
      }
      access::CommitTransaction();
    } catch (...) {
      access::AbortTransaction();
      throw;
    }
    if (dbs.empty()) throw DbError(sqlstate::kInvalidCatalogName, "no database to vacuum");
    const catalog::DatabaseFields& db = dbs[static_cast<size_t>(getpid()) % dbs.size()];
    if (auto* proc = storage::MyProc()) proc->database_oid.store(db.oid);
    catalog::SetMyDatabaseId(db.oid);
    const std::string database = db.name;
    for (const Task& task : ChooseTables(*settings)) {
      CheckForTermination();
      RunTask(task, *settings, database);
    }
  } catch (const DbError& e) {
    // FATAL: shutdown asked us to go (57P01); nothing is left half-done.
    spdlog::info("autovacuum worker: {}", e.message());
    exit_code = 1;
  } catch (const std::exception& e) {
    Panic(std::string("autovacuum worker failed: ") + e.what());
  }
  access::AbortTransaction();
  storage::ReleaseProcSlot();
  log::FlushLog();
  _exit(exit_code);
}

}  // namespace hearth::postmaster
