// catalog/table_stats_views.cpp
//
// Principal entry point: AddTableStatsViews — pg_stat_all_tables and its
// two halves, pg_stat_sys_tables (pg_catalog) and pg_stat_user_tables,
// with PostgreSQL 15's columns in its order. One row per table the catalog
// lists (catalogs first, then user tables by name), joined with the shared
// statistics (storage/stats/table_stats.h); a table without an entry shows
// zeros, as PostgreSQL's pg_stat_get_* functions do. idx_scan and
// idx_tup_fetch are NULL for a table without indexes (PostgreSQL sums over
// the table's indexes).
#include "catalog/ddl.h"
#include "catalog/relcache.h"
#include "catalog/system_views.h"
#include "storage/stats/table_stats.h"

namespace hearth::catalog {

namespace {

enum class Which { kAll, kSys, kUser };

executor::TableInfo TableStatsViewInfo(types::Oid oid, const char* name) {
  using namespace types;
  return MakeViewInfo(oid, name,
                      {{"relid", kOidOid},
                       {"schemaname", kNameOid},
                       {"relname", kNameOid},
                       {"seq_scan", kInt8Oid},
                       {"seq_tup_read", kInt8Oid},
                       {"idx_scan", kInt8Oid},
                       {"idx_tup_fetch", kInt8Oid},
                       {"n_tup_ins", kInt8Oid},
                       {"n_tup_upd", kInt8Oid},
                       {"n_tup_del", kInt8Oid},
                       {"n_tup_hot_upd", kInt8Oid},
                       {"n_live_tup", kInt8Oid},
                       {"n_dead_tup", kInt8Oid},
                       {"n_mod_since_analyze", kInt8Oid},
                       {"n_ins_since_vacuum", kInt8Oid},
                       {"last_vacuum", kTimestampTzOid},
                       {"last_autovacuum", kTimestampTzOid},
                       {"last_analyze", kTimestampTzOid},
                       {"last_autoanalyze", kTimestampTzOid},
                       {"vacuum_count", kInt8Oid},
                       {"autovacuum_count", kInt8Oid},
                       {"analyze_count", kInt8Oid},
                       {"autoanalyze_count", kInt8Oid}});
}

executor::Row TableStatsRow(const RelationEntry& rel) {
  const storage::TableStatsRow s = storage::ReadTableStats(rel.oid).value_or(storage::TableStatsRow{});
  auto i8 = [](int64_t v) { return types::Value::Int8(v); };
  const bool has_index = !rel.indexes.empty();
  return {types::Value::Int(types::kOidOid, rel.oid),
          types::Value::Bytes(types::kNameOid, rel.info.schema),
          types::Value::Bytes(types::kNameOid, rel.info.name),
          i8(s.activity.seq_scan),
          i8(s.activity.seq_tup_read),
          has_index ? i8(s.activity.idx_scan) : types::Value::Null(types::kInt8Oid),
          has_index ? i8(s.activity.idx_tup_fetch) : types::Value::Null(types::kInt8Oid),
          i8(s.activity.tup_ins),
          i8(s.activity.tup_upd),
          i8(s.activity.tup_del),
          i8(s.activity.tup_hot_upd),
          i8(s.live_tup),
          i8(s.dead_tup),
          i8(s.mod_since_analyze),
          i8(s.ins_since_vacuum),
          TimestampTzFromUnixMicros(s.last_vacuum_us),
          TimestampTzFromUnixMicros(s.last_autovacuum_us),
          TimestampTzFromUnixMicros(s.last_analyze_us),
          TimestampTzFromUnixMicros(s.last_autoanalyze_us),
          i8(s.vacuum_count),
          i8(s.autovacuum_count),
          i8(s.analyze_count),
          i8(s.autoanalyze_count)};
}

std::vector<executor::Row> TableStatsRows(Which which) {
  std::vector<executor::Row> rows;
  for (const RelationRef& rel : ListMaintainedRelations()) {
    const bool sys = rel->namespace_oid == kPgCatalogNamespace;
    if ((which == Which::kSys && !sys) || (which == Which::kUser && sys)) continue;
    rows.push_back(TableStatsRow(*rel));
  }
  return rows;
}

}  // namespace

void AddTableStatsViews(SystemViewProvider& p) {
  p.AddView(TableStatsViewInfo(kPgStatAllTablesOid, "pg_stat_all_tables"), [] { return TableStatsRows(Which::kAll); });
  p.AddView(TableStatsViewInfo(kPgStatSysTablesOid, "pg_stat_sys_tables"), [] { return TableStatsRows(Which::kSys); });
  p.AddView(TableStatsViewInfo(kPgStatUserTablesOid, "pg_stat_user_tables"),
            [] { return TableStatsRows(Which::kUser); });
}

}  // namespace hearth::catalog
