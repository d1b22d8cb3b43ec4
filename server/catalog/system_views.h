// catalog/system_views.h
//
// Read-only system views computed from shared-memory counters, visible to
// the planner like tables: pg_stat_bgwriter and pg_stat_wal (PostgreSQL 15's
// columns), pg_locks (the heavyweight lock table) and hearth_stat_commit
// (group commit counters). SystemViewProvider wraps the
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

 private:
  struct View {
    executor::TableInfo info;
    std::function<std::vector<executor::Row>()> rows;
  };
  const View* Find(const std::string& schema, const std::string& name) const;
  const View* FindByOid(types::Oid oid) const;

  executor::TableProvider& tables_;
  std::vector<View> views_;
};

// Every system view's oid, in one place so no two views share one. They
// live below FirstNormalObjectId, apart from real tables.
inline constexpr types::Oid kPgStatBgwriterOid = 12001;
inline constexpr types::Oid kPgStatWalOid = 12002;
inline constexpr types::Oid kHearthStatCommitOid = 12003;
inline constexpr types::Oid kPgStatProgressCopyOid = 12004;
inline constexpr types::Oid kPgBuffercacheOid = 12005;
inline constexpr types::Oid kPgLocksOid = 12006;

// Block: table statistics views (12350-12369; table_stats_views.cpp).
inline constexpr types::Oid kPgStatAllTablesOid = 12350;
inline constexpr types::Oid kPgStatSysTablesOid = 12351;
inline constexpr types::Oid kPgStatUserTablesOid = 12352;

// The TableInfo of view `oid` named pg_catalog.`name`, without columns.
executor::TableInfo MakeViewInfo(types::Oid oid, const char* name);
// ... with these (name, type) columns.
executor::TableInfo MakeViewInfo(types::Oid oid, const char* name,
                                 std::initializer_list<std::pair<const char*, types::Oid>> columns);

// Unix microseconds as a timestamptz value; NULL for 0 ("never").
types::Value TimestampTzFromUnixMicros(int64_t unix_us);

// pg_stat_progress_copy and pg_buffercache (monitoring_views.cpp).
void AddMonitoringViews(SystemViewProvider& p);

// pg_stat_all_tables, pg_stat_sys_tables, pg_stat_user_tables (table_stats_views.cpp).
void AddTableStatsViews(SystemViewProvider& p);

// A provider over `tables` with every built-in system view registered.
std::unique_ptr<SystemViewProvider> MakeSystemViewProvider(executor::TableProvider& tables);

}  // namespace hearth::catalog
