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
#include <initializer_list>
#include <utility>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "executor/table_access.h"

namespace hearth::catalog {

class SystemViewProvider : public executor::TableProvider {
 public:
  explicit SystemViewProvider(executor::TableProvider& tables);
  ~SystemViewProvider() override;

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
  // Foreign key checks only meet tables.
  std::unique_ptr<executor::TableScan> OpenLatestScan(const executor::TableInfo& table, const executor::IndexInfo* index,
                                                      const executor::IndexScanRequest& req) override {
    return tables_.OpenLatestScan(table, index, req);
  }
  void TakeLatestSnapshot() override { tables_.TakeLatestSnapshot(); }
  std::unique_ptr<executor::TableRowLocker> OpenLatestRowLocker(const executor::TableInfo& table) override {
    return tables_.OpenLatestRowLocker(table);
  }
  std::optional<executor::TableInfo> LookupByOid(types::Oid oid) override { return tables_.LookupByOid(oid); }
  void PruneInheritors(executor::TableInfo* table, const std::vector<executor::ColumnCondition>& conds) override {
    tables_.PruneInheritors(table, conds);
  }

  // Registers a view: its columns and a function producing its rows now.
  void AddView(executor::TableInfo info, std::function<std::vector<executor::Row>()> rows);
  // Registers a view defined by a query (info.view_query, SQL text over
  // other relations; info.schema its schema, e.g. information_schema): the
  // planner expands it in place like a user view owned by the bootstrap
  // superuser, so the query's own privilege tests decide what it shows.
  void AddQueryView(executor::TableInfo info);

  // The provider the views sit in front of: views computed from Hearth's
  // own catalogs scan them through it (the statement's snapshot).
  executor::TableProvider& wrapped() { return tables_; }
  // The TableInfo of the view named `name` / with oid `oid`, or null.
  const executor::TableInfo* FindViewInfo(const std::string& name) const;
  const executor::TableInfo* FindViewInfo(types::Oid oid) const;
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
  // The view `table` names: views are matched by oid *and* name, since
  // pg_class shares PostgreSQL's oid 1259 with the real hearth_class.
  const View* FindView(const executor::TableInfo& table) const;
  // Lookup without telling the observer.
  std::optional<executor::TableInfo> LookupUnobserved(const std::string& schema, const std::string& name);

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

// Block: table statistics views (12350-12369; table_stats_views.cpp).
inline constexpr types::Oid kPgStatAllTablesOid = 12350;
inline constexpr types::Oid kPgStatSysTablesOid = 12351;
inline constexpr types::Oid kPgStatUserTablesOid = 12352;

// pg_catalog block (pg_catalog_views.h). PostgreSQL's catalogs keep
// PostgreSQL's fixed oids, as 'pg_class'::regclass and tableoid show them
// (views are matched by oid and name, so pg_class 1259 and pg_index 2610
// never meet hearth_class 1259 / hearth_index 2610, nor pg_sequence 2224
// hearth_sequence). None is a catalog index oid (2659/2662/2663/2678/2679).
inline constexpr types::Oid kPgTypeOid = 1247;
inline constexpr types::Oid kPgAttributeOid = 1249;
inline constexpr types::Oid kPgProcOid = 1255;
inline constexpr types::Oid kPgClassOid = 1259;
inline constexpr types::Oid kPgDatabaseOid = 1262;
inline constexpr types::Oid kPgTablespaceOid = 1213;
inline constexpr types::Oid kPgAmOid = 2601;
inline constexpr types::Oid kPgAttrdefOid = 2604;
inline constexpr types::Oid kPgConstraintOid = 2606;
inline constexpr types::Oid kPgDependOid = 2608;
inline constexpr types::Oid kPgDescriptionOid = 2609;
inline constexpr types::Oid kPgIndexOid = 2610;
inline constexpr types::Oid kPgInheritsOid = 2611;
inline constexpr types::Oid kPgRewriteOid = 2618;
inline constexpr types::Oid kPgTriggerOid = 2620;
inline constexpr types::Oid kPgNamespaceOid = 2615;
inline constexpr types::Oid kPgSequenceOid = 2224;
inline constexpr types::Oid kPgExtensionOid = 3079;
inline constexpr types::Oid kPgEnumOid = 3501;
inline constexpr types::Oid kPgForeignTableOid = 3118;
inline constexpr types::Oid kPgPolicyOid = 3256;
inline constexpr types::Oid kPgPartitionedTableOid = 3350;
inline constexpr types::Oid kPgStatisticExtOid = 3381;
inline constexpr types::Oid kPgCollationOid = 3456;
inline constexpr types::Oid kPgPublicationOid = 6104;
inline constexpr types::Oid kPgPublicationRelOid = 6106;
inline constexpr types::Oid kPgPublicationNamespaceOid = 6237;
// PostgreSQL's views over them (12100-12299).
inline constexpr types::Oid kPgTablesOid = 12100;
inline constexpr types::Oid kPgIndexesOid = 12101;
inline constexpr types::Oid kPgViewsOid = 12102;
inline constexpr types::Oid kPgSettingsOid = 12103;
inline constexpr types::Oid kPgStatActivityOid = 12104;
inline constexpr types::Oid kPgSequencesOid = 12105;

// The TableInfo of view `oid` named pg_catalog.`name`, without columns /
// with these (name, type) columns.
executor::TableInfo MakeViewInfo(types::Oid oid, const char* name);
using ViewColumns = std::initializer_list<std::pair<const char*, types::Oid>>;
executor::TableInfo MakeViewInfo(types::Oid oid, const char* name, ViewColumns columns);

// One column of a view.
executor::ColumnInfo ViewColumn(const char* name, types::Oid type);

// Unix microseconds as a timestamptz value; NULL for 0 ("never").
types::Value TimestampTzFromUnixMicros(int64_t unix_us);

// Roles block (12300-12349): views over pg_authid (which, like
// pg_auth_members, is a real catalog with PostgreSQL's oid, 1260 / 1261).
inline constexpr types::Oid kPgRolesOid = 12300;
inline constexpr types::Oid kPgUserOid = 12301;


// Block: replication (12650-12699; tcop/replication_views.cpp).
inline constexpr types::Oid kPgStatReplicationOid = 12650;
inline constexpr types::Oid kPgStatWalReceiverOid = 12651;

// Block: SQL cursors (12400-12409; tcop/cursor_views.cpp).
inline constexpr types::Oid kPgCursorsOid = 12400;

// Block: the catalogs pg_dump and pg_dumpall read (pg_catalog_dump.cpp).
// PostgreSQL's fixed catalog oids; rows only for pg_language's built-in
// languages, the others empty (Hearth has no such objects). Views of this
// block take 12550-12599.
inline constexpr types::Oid kPgDefaultAclOid = 826;
inline constexpr types::Oid kPgForeignServerOid = 1417;
inline constexpr types::Oid kPgUserMappingOid = 1418;
inline constexpr types::Oid kPgForeignDataWrapperOid = 2328;
inline constexpr types::Oid kPgShdescriptionOid = 2396;
inline constexpr types::Oid kPgAmopOid = 2602;
inline constexpr types::Oid kPgAmprocOid = 2603;
inline constexpr types::Oid kPgCastOid = 2605;
inline constexpr types::Oid kPgConversionOid = 2607;
inline constexpr types::Oid kPgLanguageOid = 2612;
inline constexpr types::Oid kPgLargeobjectOid = 2613;
inline constexpr types::Oid kPgOpclassOid = 2616;
inline constexpr types::Oid kPgOperatorOid = 2617;
inline constexpr types::Oid kPgOpfamilyOid = 2753;
inline constexpr types::Oid kPgDbRoleSettingOid = 2964;
inline constexpr types::Oid kPgLargeobjectMetadataOid = 2995;
inline constexpr types::Oid kPgInitPrivsOid = 3394;
inline constexpr types::Oid kPgEventTriggerOid = 3466;
inline constexpr types::Oid kPgRangeOid = 3541;
inline constexpr types::Oid kPgTransformOid = 3576;
inline constexpr types::Oid kPgShseclabelOid = 3592;
inline constexpr types::Oid kPgSeclabelOid = 3596;
inline constexpr types::Oid kPgTsDictOid = 3600;
inline constexpr types::Oid kPgTsParserOid = 3601;
inline constexpr types::Oid kPgTsConfigOid = 3602;
inline constexpr types::Oid kPgTsConfigMapOid = 3603;
inline constexpr types::Oid kPgTsTemplateOid = 3764;
inline constexpr types::Oid kPgSubscriptionOid = 6100;
inline constexpr types::Oid kPgParameterAclOid = 6243;
inline constexpr types::Oid kPgSeclabelsOid = 12550;  // view over pg_seclabel/pg_shseclabel

// Block: information_schema (9500-9599; information_schema.cpp): the
// schema's namespace oid, then one oid per view.
inline constexpr types::Oid kInformationSchemaNamespaceOid = 9500;
inline constexpr types::Oid kInformationSchemaFirstViewOid = 9501;

// Block: information_schema's views of functions (9750-9799;
// information_schema_routines.cpp).
inline constexpr types::Oid kInformationSchemaRoutinesOid = 9750;
inline constexpr types::Oid kInformationSchemaParametersOid = 9751;

// pg_stat_progress_copy and pg_buffercache (monitoring_views.cpp).
void AddMonitoringViews(SystemViewProvider& p);
// pg_roles and pg_user (role_views.cpp).
void AddRoleViews(SystemViewProvider& p);

// pg_stat_all_tables, pg_stat_sys_tables, pg_stat_user_tables (table_stats_views.cpp).
void AddTableStatsViews(SystemViewProvider& p);

// The catalogs pg_dump reads that Hearth has no objects for (pg_catalog_dump.cpp).
void AddDumpCatalogViews(SystemViewProvider& p);

// information_schema's views (information_schema.cpp).
void AddInformationSchemaViews(SystemViewProvider& p);
// information_schema.routines and .parameters (information_schema_routines.cpp).
void AddInformationSchemaRoutineViews(SystemViewProvider& p);

// The oid of system view `name` / the name of view `oid`, among the views of
// this process's provider (nullopt before one is made). For regclass I/O.
std::optional<types::Oid> SystemViewOid(const std::string& name);
std::optional<std::string> SystemViewName(types::Oid oid);

// A provider over `tables` with every built-in system view registered; the
// one SystemViewOid/SystemViewName consult.
std::unique_ptr<SystemViewProvider> MakeSystemViewProvider(executor::TableProvider& tables);

}  // namespace hearth::catalog
