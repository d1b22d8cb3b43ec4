// catalog/system_views.cpp
//
// Principal entry points: SystemViewProvider, MakeSystemViewProvider.
#include "catalog/system_views.h"

#include "catalog/pg_catalog_views.h"
#include "catalog/catalog_defs.h"
#include "catalog/role_catalog.h"

#include "common/error/db_error.h"
#include "storage/lmgr/lock.h"
#include "common/error/sqlstate.h"
#include "access/transam/xlog.h"
#include "access/transam/xlog_checkpoint.h"
#include "access/transam/xlog_stats.h"
#include "storage/buffer/bufmgr.h"

namespace hearth::catalog {

namespace {

class RowsScan : public executor::TableScan {
 public:
  explicit RowsScan(std::vector<executor::Row> rows) : rows_(std::move(rows)) {}
  bool Next(executor::Row& row, executor::RowId* rid) override {
    if (next_ >= rows_.size()) return false;
    row = rows_[next_];
    if (rid != nullptr) *rid = next_;
    next_++;
    return true;
  }

 private:
  std::vector<executor::Row> rows_;
  size_t next_ = 0;
};

types::Value Count(uint64_t v) { return types::Value::Int8(static_cast<int64_t>(v)); }

void AddPgStatBgwriter(SystemViewProvider& p) {
  using namespace types;
  executor::TableInfo info = MakeViewInfo(kPgStatBgwriterOid, "pg_stat_bgwriter",
                                          {{"checkpoints_timed", kInt8Oid},
                                           {"checkpoints_req", kInt8Oid},
                                           {"checkpoint_write_time", kFloat8Oid},
                                           {"checkpoint_sync_time", kFloat8Oid},
                                           {"buffers_checkpoint", kInt8Oid},
                                           {"buffers_clean", kInt8Oid},
                                           {"maxwritten_clean", kInt8Oid},
                                           {"buffers_backend", kInt8Oid},
                                           {"buffers_backend_fsync", kInt8Oid},
                                           {"buffers_alloc", kInt8Oid},
                                           {"stats_reset", kTimestampTzOid}});
  p.AddView(std::move(info), [] {
    storage::BgWriterStats st = storage::GetBgWriterStats();
    access::CheckpointStats cp = access::GetCheckpointStats();
    executor::Row r = {Count(static_cast<uint64_t>(cp.timed)),
                       Count(static_cast<uint64_t>(cp.requested)),
                       types::Value::Float8(cp.write_time_ms),
                       types::Value::Float8(cp.sync_time_ms),
                       Count(st.buffers_checkpoint),
                       Count(st.buffers_clean),
                       Count(st.maxwritten_clean),
                       Count(st.buffers_backend),
                       Count(st.buffers_backend_fsync),
                       Count(st.buffers_alloc),
                       types::Value::Null(types::kTimestampTzOid)};
    return std::vector<executor::Row>{std::move(r)};
  });
}

// WAL counters, or all zeros in a process without WAL (tools, unit tests).
access::WalStats CurrentWalStats() {
  if (!access::XLogIsStarted()) return access::WalStats{};
  return access::GetWalStats();
}

// pg_stat_wal with PostgreSQL 15's columns and types (wal_bytes is numeric,
// times are milliseconds).
void AddPgStatWal(SystemViewProvider& p) {
  using namespace types;
  executor::TableInfo info = MakeViewInfo(kPgStatWalOid, "pg_stat_wal",
                                          {{"wal_records", kInt8Oid},
                                           {"wal_fpi", kInt8Oid},
                                           {"wal_bytes", kNumericOid},
                                           {"wal_buffers_full", kInt8Oid},
                                           {"wal_write", kInt8Oid},
                                           {"wal_sync", kInt8Oid},
                                           {"wal_write_time", kFloat8Oid},
                                           {"wal_sync_time", kFloat8Oid},
                                           {"stats_reset", kTimestampTzOid}});
  p.AddView(std::move(info), [] {
    access::WalStats w = CurrentWalStats();
    executor::Row r = {Count(static_cast<uint64_t>(w.wal_records)),
                       Count(static_cast<uint64_t>(w.wal_fpi)),
                       types::Value::Bytes(types::kNumericOid, std::to_string(w.wal_bytes)),
                       Count(static_cast<uint64_t>(w.wal_buffers_full)),
                       Count(static_cast<uint64_t>(w.wal_write)),
                       Count(static_cast<uint64_t>(w.wal_sync)),
                       types::Value::Float8(w.wal_write_time),
                       types::Value::Float8(w.wal_sync_time),
                       TimestampTzFromUnixMicros(w.stats_reset_us)};
    return std::vector<executor::Row>{std::move(r)};
  });
}

// hearth_stat_commit (Hearth-only): the group-commit counters behind
// XLogFlushCommit, so tests and benchmarks can see who synced for whom and
// how long commit_delay really slept (ms), against the average commit
// flush (write + sync, ms) that bounds it; and backend_wal_flush_waits, how
// often a backend had to wait for a WAL flush before writing a dirty page (a
// bulk load whose ring outran the walwriter).
void AddHearthStatCommit(SystemViewProvider& p) {
  executor::TableInfo info = MakeViewInfo(kHearthStatCommitOid, "hearth_stat_commit");
  for (const char* n : {"commit_requests", "commit_already_flushed", "flush_leader", "flush_follower_waits",
                        "commit_delays", "backend_wal_flush_waits"}) {
    info.columns.push_back(ViewColumn(n, types::kInt8Oid));
  }
  for (const char* n : {"commit_delay_time", "flush_time_avg"}) info.columns.push_back(ViewColumn(n, types::kFloat8Oid));
  info.columns.push_back(ViewColumn("stats_reset", types::kTimestampTzOid));
  p.AddView(std::move(info), [] {
    access::WalStats w = CurrentWalStats();
    executor::Row r = {Count(static_cast<uint64_t>(w.commit_requests)),
                       Count(static_cast<uint64_t>(w.commit_already_flushed)),
                       Count(static_cast<uint64_t>(w.flush_leader)),
                       Count(static_cast<uint64_t>(w.flush_follower_waits)),
                       Count(static_cast<uint64_t>(w.commit_delays)),
                       Count(storage::GetBgWriterStats().backend_wal_flush_waits),
                       types::Value::Float8(w.commit_delay_time),
                       types::Value::Float8(w.flush_time_avg),
                       TimestampTzFromUnixMicros(w.stats_reset_us)};
    return std::vector<executor::Row>{std::move(r)};
  });
}

// pg_locks: the heavyweight lock table (PostgreSQL 15's columns minus
// virtualxid/virtualtransaction/waitstart; transactionid is int8 here).
// Row locks live in tuple headers, so a row-lock waiter shows as an
// ungranted ShareLock on the holder's transactionid, as in PostgreSQL.
void AddPgLocks(SystemViewProvider& p) {
  using namespace types;
  executor::TableInfo info = MakeViewInfo(kPgLocksOid, "pg_locks",
                                          {{"locktype", kTextOid},
                                           {"database", kOidOid},
                                           {"relation", kOidOid},
                                           {"page", kInt4Oid},
                                           {"tuple", kInt2Oid},
                                           {"transactionid", kInt8Oid},
                                           {"classid", kOidOid},
                                           {"objid", kOidOid},
                                           {"pid", kInt4Oid},
                                           {"mode", kTextOid},
                                           {"granted", kBoolOid},
                                           {"fastpath", kBoolOid}});
  p.AddView(std::move(info), [] {
    std::vector<executor::Row> rows;
    for (const storage::LockInstance& l : storage::GetLockInstances()) {
      const storage::LockTag& t = l.tag;
      auto oid = [](uint32_t v) { return types::Value::Int(types::kOidOid, v); };
      auto null = [](types::Oid ty) { return types::Value::Null(ty); };
      const bool rel = t.type == storage::LockTagType::kRelation || t.type == storage::LockTagType::kTuple;
      const char* type = t.type == storage::LockTagType::kRelation      ? "relation"
                         : t.type == storage::LockTagType::kTransaction ? "transactionid"
                         : t.type == storage::LockTagType::kTuple       ? "tuple"
                                                                        : "object";
      executor::Row r = {
          types::Value::Text(type),
          rel ? oid(t.field1) : null(types::kOidOid),
          rel ? oid(t.field2) : null(types::kOidOid),
          t.type == storage::LockTagType::kTuple ? types::Value::Int4(static_cast<int32_t>(t.field3)) : null(types::kInt4Oid),
          t.type == storage::LockTagType::kTuple ? types::Value::Int(types::kInt2Oid, t.field4) : null(types::kInt2Oid),
          t.type == storage::LockTagType::kTransaction ? types::Value::Int8(t.field1) : null(types::kInt8Oid),
          t.type == storage::LockTagType::kObject ? oid(t.field1) : null(types::kOidOid),
          t.type == storage::LockTagType::kObject ? oid(t.field2) : null(types::kOidOid),
          types::Value::Int4(l.pid),
          types::Value::Text(storage::LockModeName(l.mode)),
          types::Value::Bool(l.granted),
          types::Value::Bool(false)};
      rows.push_back(std::move(r));
    }
    return rows;
  });
}

}  // namespace

namespace {
const SystemViewProvider* g_process_views = nullptr;  // the backend's provider (one per process)
}  // namespace

SystemViewProvider::SystemViewProvider(executor::TableProvider& tables) : tables_(tables) {}

void SystemViewProvider::AddView(executor::TableInfo info, std::function<std::vector<executor::Row>()> rows) {
  // PostgreSQL's catalogs (fixed oids below 10000, unlike its views) have
  // the system column tableoid, which pg_dump reads from each of them.
  constexpr types::Oid kFirstViewOid = 10000;
  if (info.oid < kFirstViewOid) {
    executor::ColumnInfo tableoid = ViewColumn("tableoid", types::kOidOid);
    tableoid.system_column = true;
    info.columns.push_back(std::move(tableoid));
    rows = [rows = std::move(rows), oid = info.oid] {
      std::vector<executor::Row> out = rows();
      for (executor::Row& r : out) r.push_back(types::Value::Int(types::kOidOid, oid));
      return out;
    };
  }
  views_.push_back(View{std::move(info), std::move(rows)});
}

void SystemViewProvider::AddQueryView(executor::TableInfo info) {
  info.view_owner = kBootstrapSuperuserOid;
  views_.push_back(View{std::move(info), [] { return std::vector<executor::Row>{}; }});
}

// Unqualified names find pg_catalog's views only (information_schema is
// not on the search path).
const SystemViewProvider::View* SystemViewProvider::Find(const std::string& schema, const std::string& name) const {
  const std::string& wanted = schema.empty() ? std::string("pg_catalog") : schema;
  for (const View& v : views_) {
    if (v.info.name == name && v.info.schema == wanted) return &v;
  }
  return nullptr;
}

const SystemViewProvider::View* SystemViewProvider::FindView(const executor::TableInfo& table) const {
  for (const View& v : views_) {
    if (v.info.oid == table.oid && v.info.name == table.name) return &v;
  }
  return nullptr;
}

std::optional<executor::TableInfo> SystemViewProvider::Lookup(const std::string& schema, const std::string& name) {
  std::optional<executor::TableInfo> found = LookupUnobserved(schema, name);
  if (found && observer_) observer_(*found);
  return found;
}

std::optional<executor::TableInfo> SystemViewProvider::LookupUnobserved(const std::string& schema,
                                                                      const std::string& name) {
  // A user table of the same name in public wins for unqualified names, as
  // pg_catalog would only win when first in search_path.
  if (schema.empty()) {
    if (auto t = tables_.Lookup(schema, name)) return t;
  }
  if (const View* v = Find(schema, name)) return v->info;
  if (auto t = tables_.Lookup(schema, name)) return t;
  // pg_catalog is searched implicitly, as in PostgreSQL (after public here).
  if (schema.empty() && name.rfind("pg_", 0) == 0) {
    if (auto t = tables_.Lookup("pg_catalog", name)) return t;
  }
  if (schema == "pg_catalog") {
    // psql's \d family and drivers' metadata queries read PostgreSQL's
    // catalogs: say clearly that they are missing rather than "does not exist".
    throw DbError(sqlstate::kFeatureNotSupported, "system catalog \"pg_catalog." + name + "\" is not supported yet");
  }
  return std::nullopt;
}

std::unique_ptr<executor::TableScan> SystemViewProvider::OpenScan(const executor::TableInfo& table, bool bulk) {
  if (const View* v = FindView(table)) return std::make_unique<RowsScan>(v->rows());
  if (table.oid == kPgAuthidOid && is_superuser_ && !is_superuser_()) {
    throw DbError(sqlstate::kInsufficientPrivilege, "permission denied for table pg_authid");
  }
  return tables_.OpenScan(table, bulk);
}

void SystemViewProvider::RejectCatalogChange(const executor::TableInfo& table) {
  if (table.oid < kFirstNormalObjectId) {
    throw DbError(sqlstate::kInsufficientPrivilege, "permission denied for table " + table.name);
  }
}

std::unique_ptr<executor::TableModifier> SystemViewProvider::OpenModifier(const executor::TableInfo& table) {
  if (FindView(table) != nullptr) {
    throw DbError(sqlstate::kFeatureNotSupported, "cannot change view \"" + table.name + "\"");
  }
  RejectCatalogChange(table);
  return tables_.OpenModifier(table);
}

std::unique_ptr<executor::TableRowLocker> SystemViewProvider::OpenRowLocker(const executor::TableInfo& table,
                                                                           executor::RowLockStrength strength,
                                                                           executor::RowLockPolicy policy) {
  if (FindView(table) != nullptr) {
    throw DbError(sqlstate::kFeatureNotSupported, "cannot lock rows in view \"" + table.name + "\"");
  }
  RejectCatalogChange(table);
  return tables_.OpenRowLocker(table, strength, policy);
}

std::unique_ptr<executor::TableBulkInserter> SystemViewProvider::OpenBulkInserter(const executor::TableInfo& table) {
  if (FindView(table) != nullptr) {
    throw DbError(sqlstate::kFeatureNotSupported, "cannot change view \"" + table.name + "\"");
  }
  RejectCatalogChange(table);
  return tables_.OpenBulkInserter(table);
}

std::unique_ptr<executor::TableBulkInserter> SystemViewProvider::OpenFrozenBulkInserter(
    const executor::TableInfo& table) {
  if (FindView(table) != nullptr) {
    throw DbError(sqlstate::kFeatureNotSupported, "cannot change view \"" + table.name + "\"");
  }
  RejectCatalogChange(table);
  return tables_.OpenFrozenBulkInserter(table);
}

const executor::TableInfo* SystemViewProvider::FindViewInfo(const std::string& name) const {
  const View* v = Find("pg_catalog", name);
  return v != nullptr ? &v->info : nullptr;
}

const executor::TableInfo* SystemViewProvider::FindViewInfo(types::Oid oid) const {
  for (const View& v : views_) {
    if (v.info.oid == oid) return &v.info;
  }
  return nullptr;
}

SystemViewProvider::~SystemViewProvider() {
  if (g_process_views == this) g_process_views = nullptr;
}

std::optional<types::Oid> SystemViewOid(const std::string& name) {
  const executor::TableInfo* v = g_process_views ? g_process_views->FindViewInfo(name) : nullptr;
  return v ? std::optional<types::Oid>(v->oid) : std::nullopt;
}

std::optional<std::string> SystemViewName(types::Oid oid) {
  const executor::TableInfo* v = g_process_views ? g_process_views->FindViewInfo(oid) : nullptr;
  return v ? std::optional<std::string>(v->name) : std::nullopt;
}

executor::ColumnInfo ViewColumn(const char* name, types::Oid type) {
  executor::ColumnInfo c;
  c.name = name;
  c.type = type;
  return c;
}

executor::TableInfo MakeViewInfo(types::Oid oid, const char* name) {
  executor::TableInfo info;
  info.oid = oid;
  info.schema = "pg_catalog";
  info.name = name;
  return info;
}

executor::TableInfo MakeViewInfo(types::Oid oid, const char* name, ViewColumns columns) {
  executor::TableInfo info = MakeViewInfo(oid, name);
  for (const auto& [col, type] : columns) info.columns.push_back(ViewColumn(col, type));
  return info;
}

// Unix microseconds -> timestamptz (microseconds since 2000-01-01 UTC).
types::Value TimestampTzFromUnixMicros(int64_t unix_us) {
  if (unix_us <= 0) return types::Value::Null(types::kTimestampTzOid);
  constexpr int64_t kUnixToPgEpochUs = 946684800LL * types::kUsecsPerSec;
  return types::Value::Int(types::kTimestampTzOid, unix_us - kUnixToPgEpochUs);
}

std::unique_ptr<SystemViewProvider> MakeSystemViewProvider(executor::TableProvider& tables) {
  auto p = std::make_unique<SystemViewProvider>(tables);
  AddPgStatBgwriter(*p);
  AddPgStatWal(*p);
  AddHearthStatCommit(*p);
  AddMonitoringViews(*p);
  AddPgLocks(*p);
  AddTableStatsViews(*p);
  internal::AddPgCatalogRelationViews(*p);
  internal::AddPgCatalogFixedViews(*p);
  internal::AddPgCatalogSystemViews(*p);
  AddRoleViews(*p);
  AddDumpCatalogViews(*p);
  AddInformationSchemaViews(*p);
  AddInformationSchemaRoutineViews(*p);
  g_process_views = p.get();
  return p;
}

}  // namespace hearth::catalog
