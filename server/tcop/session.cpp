// tcop/session.cpp
//
// Principal entry points: Session::StartStatement, Session::EndTransaction,
// Session::AbortAfterError. The session drives the transaction machinery
// (access/transam/xact.h) the way PostgreSQL's xact.c block states do:
//   - the first statement outside a block starts an implicit transaction,
//     which ends (commits) at the end of the Query message or at Sync;
//   - BEGIN turns the running transaction into a block;
//   - an error aborts the transaction at once (locks are released), and a
//     block then stays "failed" until COMMIT/ROLLBACK ends it; with
//     savepoints only the innermost level is rolled back and ROLLBACK TO
//     resumes the block (savepoints.h).
#include <unistd.h>

#include <chrono>
#include <utility>

#include "access/nbtree/nbtree.h"
#include "access/transam/pending_sync.h"
#include "access/transam/syncrep.h"
#include "access/transam/xact.h"
#include "catalog/catalog_rows.h"
#include "catalog/catalog_shared.h"
#include "catalog/database_privileges.h"
#include "catalog/pending_delete.h"
#include "catalog/heap_table_provider.h"
#include "catalog/object_definitions.h"
#include "catalog/privileges.h"
#include "catalog/relcache.h"
#include "catalog/role_catalog.h"
#include "catalog/sequence.h"
#include "common/error/panic.h"
#include "common/log/log.h"
#include "config/enums.h"
#include "config/registry.h"
#include "storage/ipc/interrupts.h"
#include "storage/lmgr/backend_activity.h"
#include "tcop/admin_callbacks.h"
#include "tcop/plan.h"
#include "tcop/privilege_checks.h"
#include "tcop/savepoints.h"
#include "tcop/session.h"
#include "tcop/sql_functions.h"
#include "tcop/trigger_plans.h"
#include "utils/adt/datetime_session.h"

#include "catalog/namespace_catalog.h"

namespace hearth::tcop {

namespace {

// 946684800 = seconds from 1970-01-01 to 2000-01-01 (PostgreSQL's epoch).
constexpr int64_t kUnixToPgEpochUs = 946684800LL * 1000000;

int64_t NowPgEpochUs() {
  auto now = std::chrono::system_clock::now().time_since_epoch();
  return std::chrono::duration_cast<std::chrono::microseconds>(now).count() - kUnixToPgEpochUs;
}

void InstallSequenceCallbacks(types::SessionCallbacks& cb) {
  cb.sequences.nextval = catalog::SequenceNextval;
  cb.sequences.currval = catalog::SequenceCurrval;
  cb.sequences.setval = catalog::SequenceSetval;
  cb.sequences.lastval = catalog::SequenceLastval;
  cb.sequences.serial_sequence = catalog::SerialSequenceName;
}

}  // namespace

void Session::InstallCallbacks() {
  callbacks.database_name = [this] { return database; };
  catalog::SetSearchPathSource([this]() -> const std::string& { return settings.hot().search_path; });
  types::SetTransactionClock([this] { return transaction_start_us; });
  settings.SetHotListener([](const config::SessionHot& hot) {
    types::SetSessionTimeZone(hot.timezone);
    types::SetSessionDateStyle(hot.datestyle);
  });
  callbacks.current_schema = [] { return catalog::CurrentSchemaName().value_or(std::string()); };
  callbacks.current_user = [this] { return CurrentUserName(); };
  callbacks.session_user = [this] { return SessionUserName(); };
  callbacks.get_setting = [this](std::string_view name) -> std::optional<std::string> {
    if (config::FindSetting(name) == nullptr) return std::nullopt;
    return settings.Show(name);
  };
  callbacks.set_setting = [this](std::string_view name, std::string_view value, bool is_local) {
    if (value.data() == nullptr) settings.SetDefault(name, is_local);
    else settings.SetValueText(name, value, is_local);
    return settings.Show(name);
  };
  callbacks.backend_pid = [this] { return backend_pid; };
  callbacks.transaction_timestamp = [this] { return transaction_start_us; };
  callbacks.statement_timestamp = [this] { return statement_start_us; };
  callbacks.sleep = [](int64_t usec) {
    storage::WaitEventScope waiting(storage::WaitEvent::kPgSleep);
    SleepWithInterrupts(usec);
  };
  // hearth_index_check: ShareLock on the table (writers wait, as BtVerify
  // requires), then verify the index's pages.
  callbacks.index_check = [](std::string_view arg) -> std::optional<std::string> {
    auto [schema, name] = catalog::SplitQualifiedName(std::string(arg));
    const auto ns = catalog::NamespaceOid(schema);
    if (ns == 0) return std::nullopt;
    std::optional<catalog::internal::CatalogTuple> row = catalog::internal::FindIndexByName(ns, name);
    if (!row) return std::nullopt;
    const auto index_oid = catalog::internal::RowOid(row->row, catalog::kIndIndexrelid);
    catalog::RelationRef table = catalog::OpenRelationByOid(catalog::internal::RowOid(row->row, catalog::kIndIndrelid),
                                                            storage::LockMode::kShare);
    if (!table) return std::nullopt;
    for (const catalog::IndexEntry& ix : table->indexes)
      if (ix.oid == index_oid) return nbtree::BtVerify(ix.desc);
    return std::nullopt;
  };
  callbacks.has_table_privilege = [this](const std::optional<std::string>& role, const std::string& table,
                                         const std::string& privileges) {
    const std::string name = role ? *role : CurrentUserName();
    auto t = catalog::FindRoleByName(name);
    if (!t) throw DbError(sqlstate::kUndefinedObject, "role \"" + name + "\" does not exist");
    return catalog::HasTablePrivilege(t->role.oid, table, privileges);
  };
  callbacks.has_privilege = [this](const std::string& kind, const std::optional<std::string>& role,
                                   const std::vector<std::string>& args) {
    const std::string name = role ? *role : CurrentUserName();
    auto t = catalog::FindRoleByName(name);
    if (!t) throw DbError(sqlstate::kUndefinedObject, "role \"" + name + "\" does not exist");
    if (kind == "sequence") return catalog::HasSequencePrivilege(t->role.oid, args.at(0), args.at(1));
    if (kind == "database") return catalog::HasDatabasePrivilege(t->role.oid, args.at(0), args.at(1));
    if (kind == "schema") return catalog::HasSchemaPrivilege(t->role.oid, args.at(0), args.at(1));
    return catalog::HasColumnPrivilege(t->role.oid, args.at(0), args.at(1), args.at(2));
  };
  InstallAdminCallbacks(callbacks);
  InstallBackendSignalCallback(*this, callbacks);
  InstallSequenceCallbacks(callbacks);
  catalog::InstallCatalogCallbacks(callbacks, datadir);
  InstallSqlFunctionCallbacks(*this);
  InstallTriggerHooks(*this);
  InstallViewDefinitionCallback(*this);
  func_context.session = &callbacks;
}

std::string Session::SessionUserName() const {
  const std::string& name = settings.hot().session_authorization;
  return name.empty() ? user : name;
}

std::string Session::CurrentUserName() const {
  const std::string& role = settings.hot().role;
  return role == "none" ? SessionUserName() : role;
}

void Session::ReportChangedSettings() {
  for (const auto& [name, value] : settings.TakeReportChanges()) PutParameterStatus(sock.out(), name, value);
}

void Session::EnsureTransaction() {
  // A failed block has no transaction: it waits for COMMIT/ROLLBACK.
  if (block == BlockState::kFailed || access::IsTransactionInProgress()) return;
  access::StartTransaction();
  // default_transaction_isolation (SERIALIZABLE is refused when set).
  if (settings.hot().default_transaction_isolation == config::IsolationLevel::kRepeatableRead) {
    access::SetTransactionIsolation(access::IsolationLevel::kRepeatableRead);
  }
  ShowIsolation();
  int64_t unix_us = access::GetCurrentTransactionStartTimestamp();
  transaction_start_us = unix_us != 0 ? unix_us - kUnixToPgEpochUs : NowPgEpochUs();
}

void Session::ShowIsolation() {
  // SHOW transaction_isolation reports the running transaction's level.
  settings.SetInternal("transaction_isolation", access::IsolationLevelName(access::CurrentIsolationLevel()));
}

void Session::StartStatement(bool reads_tables) {
  statement_start_us = NowPgEpochUs();
  EnsureTransaction();
  // Catalog invalidations from other sessions and the statement snapshot.
  if (reads_tables && provider != nullptr && block != BlockState::kFailed) provider->StartStatement();
  if (access::IsTransactionInProgress()) SetActingRole(*this);
}

void Session::EndStatement() {
  if (access::IsTransactionInProgress()) access::CommandCounterIncrement();
}

void Session::DropPortals() {
  for (auto& [name, portal] : portals) {
    if (portal.get() == executing_portal) finished_portal = std::move(portal);
  }
  portals.clear();
}

namespace {

// What a commit waits for from the synchronous standbys at each
// synchronous_commit level (only consulted for remote_write and above).
access::SyncWaitMode StandbyWaitMode(config::SynchronousCommit level) {
  switch (level) {
    case config::SynchronousCommit::kRemoteWrite: return access::SyncWaitMode::kWrite;
    case config::SynchronousCommit::kRemoteApply: return access::SyncWaitMode::kApply;
    default: return access::SyncWaitMode::kFlush;
  }
}

}  // namespace

void Session::EndTransaction(bool commit) {
  DropPortals();
  block = BlockState::kIdle;
  savepoints.clear();
  if (commit && access::IsTransactionInProgress()) {
    const config::SessionHot& hot = settings.hot();
    if (access::WalLevelMinimal()) access::SetWalSkipThresholdKb(settings.GetInt("wal_skip_threshold"));
    access::SetCommitDelaySettings(static_cast<int>(hot.commit_delay_us), static_cast<int>(hot.commit_siblings),
                                   hot.synchronous_commit != config::SynchronousCommit::kOff);
    access::SetCommitStandbyWait(hot.synchronous_commit >= config::SynchronousCommit::kRemoteWrite,
                                 StandbyWaitMode(hot.synchronous_commit));
    try {
      if (!sql_cursors.empty()) {
        HoldCursorsForCommit(*this);
        CloseTransactionCursors(*this);
      }
      access::CommitTransaction();
    } catch (const DbError&) {
      // A pre-commit check failed: nothing was committed.
      CloseTransactionCursors(*this);
      access::AbortTransaction();
      settings.AtTransactionEnd(false);
      throw;
    } catch (const std::exception& e) {
      // The commit record could not be made durable: its outcome is unknown
      // to us, so PANIC and let recovery decide from WAL.
      Panic(std::string("could not commit: ") + e.what());
    } catch (...) {
      CloseTransactionCursors(*this);
      access::AbortTransaction();
      settings.AtTransactionEnd(false);
      throw;
    }
    // A wait for synchronous standbys ended by a cancel or termination:
    // committed locally, and the client is told so.
    if (auto warning = access::TakeSyncRepWarning()) {
      Notice(Severity::kWarning, warning->sqlstate, warning->message, warning->detail);
    }
  } else {
    if (!sql_cursors.empty()) CloseTransactionCursors(*this);
    access::AbortTransaction();
  }
  settings.AtTransactionEnd(commit);
}

namespace {

bool SameResultColumns(const std::vector<ColumnDesc>* a, const std::vector<ColumnDesc>* b) {
  if (a == nullptr || b == nullptr) return a == b;
  if (a->size() != b->size()) return false;
  for (size_t i = 0; i < a->size(); ++i) {
    const ColumnDesc& x = (*a)[i];
    const ColumnDesc& y = (*b)[i];
    if (x.name != y.name || x.type_oid != y.type_oid || x.typmod != y.typmod) return false;
  }
  return true;
}

}  // namespace

void Session::RevalidatePrepared(PreparedStatement& ps) {
  const uint64_t version = catalog::PlanCacheVersion();
  if (ps.plan_lent) {
    // Its plan went to the portal that ran it; bound again, plan it again.
    ps.plan = PlanStatement(*this, *ps.stmt, ps.declared_types);
    ps.plan_lent = false;
    ps.catalog_version = version;
    return;
  }
  if (ps.plan == nullptr || ps.catalog_version == version) return;
  for (const auto& [name, portal] : portals) {
    if (portal->source == &ps) return;  // its plan is in use
  }
  std::unique_ptr<Plan> plan = PlanStatement(*this, *ps.stmt, ps.declared_types);
  // The client may hold the old row description: as PostgreSQL, refuse
  // (and keep refusing) rather than send rows of another shape.
  if (!SameResultColumns(ps.plan->Columns(), plan->Columns())) {
    throw DbError(sqlstate::kFeatureNotSupported, "cached plan must not change result type");
  }
  ps.plan = std::move(plan);
  ps.catalog_version = version;
}

void Session::AbortAfterError() {
  // With savepoints only the innermost level is undone; ROLLBACK TO resumes.
  if (block != BlockState::kIdle && AbortInnermostSavepoint(*this)) return;
  if (!sql_cursors.empty()) CloseTransactionCursors(*this);
  access::AbortTransaction();
  if (block == BlockState::kInBlock || block == BlockState::kFailed) {
    // The block stays open (failed) until COMMIT/ROLLBACK; portals die now.
    block = BlockState::kFailed;
    DropPortals();
  } else {
    EndTransaction(false);
  }
}

}  // namespace hearth::tcop
