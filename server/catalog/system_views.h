// catalog/system_views.h
//
// Read-only system views computed from shared-memory counters or catalogs,
// visible to the planner like tables: pg_stat_bgwriter and pg_stat_wal
// (PostgreSQL 15's columns), pg_locks (the heavyweight lock table),
// hearth_stat_commit (group commit counters), pg_roles and pg_user. Also the
// gate to system catalogs: unqualified pg_* names find pg_catalog's
// relations (pg_authid, pg_auth_members), which SQL may read but not change. SystemViewProvider wraps the
// session's real provider: names it does not know go to the wrapped one.
// Per backend; not thread-safe.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "executor/table_access.h"

namespace hearth::catalog {

class SystemViewProvider : public executor::TableProvider {
 public:
  explicit SystemViewProvider(executor::TableProvider& tables);

  std::optional<executor::TableInfo> Lookup(const std::string& schema, const std::string& name) override;
  std::unique_ptr<executor::TableScan> OpenScan(const executor::TableInfo& table, bool bulk) override;
  // Views are read-only: 55000-style error as PostgreSQL's
  // "cannot change view" (SQLSTATE 0A000 here).
  std::unique_ptr<executor::TableModifier> OpenModifier(const executor::TableInfo& table) override;
  // Views' rows cannot be locked (0A000); tables go to the wrapped provider.
  std::unique_ptr<executor::TableRowLocker> OpenRowLocker(const executor::TableInfo& table,
                                                          executor::RowLockStrength strength,
                                                          executor::RowLockPolicy policy) override;
  std::unique_ptr<executor::TableBulkInserter> OpenBulkInserter(const executor::TableInfo& table) override;
  std::unique_ptr<executor::TableBulkInserter> OpenFrozenBulkInserter(const executor::TableInfo& table) override;
  // Views have no indexes: index scans always go to the wrapped provider.
  std::unique_ptr<executor::TableScan> OpenIndexScan(const executor::TableInfo& table, const executor::IndexInfo& index,
                                                     const executor::IndexScanRequest& req) override {
    return tables_.OpenIndexScan(table, index, req);
  }

  // Registers a view: its columns and a function producing its rows now.
  void AddView(executor::TableInfo info, std::function<std::vector<executor::Row>()> rows);

  // Answers "is the current user a superuser?" for reading pg_authid (its
  // password hashes are for superusers only, 42501 otherwise). Unset: yes.
  void SetSuperuserCheck(std::function<bool()> check) { is_superuser_ = std::move(check); }
  // Told of every relation or view Lookup finds (the planner's table
  // references, for privilege checks); null: nobody listens.
  void SetLookupObserver(std::function<void(const executor::TableInfo&)> observer) {
    observer_ = std::move(observer);
  }

 private:
  struct View {
    executor::TableInfo info;
    std::function<std::vector<executor::Row>()> rows;
  };
  const View* Find(const std::string& schema, const std::string& name) const;
  // Lookup without telling the observer.
  std::optional<executor::TableInfo> LookupUnobserved(const std::string& schema, const std::string& name);
  const View* FindByOid(types::Oid oid) const;

  // System catalogs (oid below 16384) are read-only to SQL: 42501.
  static void RejectCatalogChange(const executor::TableInfo& table);

  executor::TableProvider& tables_;
  std::vector<View> views_;
  std::function<bool()> is_superuser_;
  std::function<void(const executor::TableInfo&)> observer_;
};

// Every system view's oid, in one place so no two views share one. They
// live below FirstNormalObjectId, apart from real tables.
inline constexpr types::Oid kPgStatBgwriterOid = 12001;
inline constexpr types::Oid kPgStatWalOid = 12002;
inline constexpr types::Oid kHearthStatCommitOid = 12003;
inline constexpr types::Oid kPgStatProgressCopyOid = 12004;
inline constexpr types::Oid kPgBuffercacheOid = 12005;
inline constexpr types::Oid kPgLocksOid = 12006;

// Roles block (12300-12349): views over pg_authid (which, like
// pg_auth_members, is a real catalog with PostgreSQL's oid, 1260 / 1261).
inline constexpr types::Oid kPgRolesOid = 12300;
inline constexpr types::Oid kPgUserOid = 12301;

// The TableInfo of view `oid` named pg_catalog.`name`, without columns.
executor::TableInfo MakeViewInfo(types::Oid oid, const char* name);
// One column of a view.
executor::ColumnInfo ViewColumn(const char* name, types::Oid type);

// pg_stat_progress_copy and pg_buffercache (monitoring_views.cpp).
void AddMonitoringViews(SystemViewProvider& p);
// pg_roles and pg_user (role_views.cpp).
void AddRoleViews(SystemViewProvider& p);

// A provider over `tables` with every built-in system view registered.
std::unique_ptr<SystemViewProvider> MakeSystemViewProvider(executor::TableProvider& tables);

}  // namespace hearth::catalog
