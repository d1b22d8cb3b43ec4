// catalog/monitoring_views.cpp
//
// Principal entry point: AddMonitoringViews — views that look at live
// server state rather than counters:
//   pg_stat_progress_copy: one row per backend running COPY, from the
//     per-backend progress slots (storage/lmgr/backend_progress.h);
//   pg_buffercache: one row per shared buffer, PostgreSQL's extension view,
//     read in one pass over the buffer descriptors, each under its header
//     lock (a consistent tag/flags/usage per buffer, not across buffers).
#include "catalog/catalog_defs.h"
#include "catalog/system_views.h"
#include "storage/buffer/bufmgr.h"
#include "storage/lmgr/backend_progress.h"

namespace hearth::catalog {

namespace {

constexpr types::Oid kDefaultTablespaceOid = 1663;  // pg_default

const char* CopyCommandName(int64_t v) {
  switch (v) {
    case storage::copy_progress::kCommandFrom: return "COPY FROM";
    case storage::copy_progress::kCommandTo: return "COPY TO";
    default: return nullptr;
  }
}

const char* CopyTypeName(int64_t v) {
  static const char* const kTypes[] = {nullptr, "FILE", "PROGRAM", "PIPE", "CALLBACK"};
  return v >= 1 && v <= 4 ? kTypes[v] : nullptr;
}

types::Value TextOrNull(const char* s) {
  return s != nullptr ? types::Value::Text(s) : types::Value::Null(types::kTextOid);
}

std::vector<executor::Row> ProgressCopyRows() {
  namespace cp = storage::copy_progress;
  using types::Value;
  std::vector<executor::Row> rows;
  for (const storage::ProgressSnapshot& p : storage::ReadProgress(storage::ProgressCommand::kCopy)) {
    rows.push_back({Value::Int4(p.pid), Value::Int(types::kOidOid, p.database_oid),
                    Value::Bytes(types::kNameOid, p.database_name), Value::Int(types::kOidOid, p.relid),
                    TextOrNull(CopyCommandName(p.params[cp::kCommand])), TextOrNull(CopyTypeName(p.params[cp::kType])),
                    Value::Int8(p.params[cp::kBytesProcessed]), Value::Int8(p.params[cp::kBytesTotal]),
                    Value::Int8(p.params[cp::kTuplesProcessed]), Value::Int8(p.params[cp::kTuplesExcluded])});
  }
  return rows;
}

void AddPgStatProgressCopy(SystemViewProvider& p) {
  using namespace types;
  p.AddView(MakeViewInfo(kPgStatProgressCopyOid, "pg_stat_progress_copy",
                     {{"pid", kInt4Oid},
                      {"datid", kOidOid},
                      {"datname", kNameOid},
                      {"relid", kOidOid},
                      {"command", kTextOid},
                      {"type", kTextOid},
                      {"bytes_processed", kInt8Oid},
                      {"bytes_total", kInt8Oid},
                      {"tuples_processed", kInt8Oid},
                      {"tuples_excluded", kInt8Oid}}),
            ProgressCopyRows);
}

std::vector<executor::Row> BuffercacheRows() {
  using types::Value;
  const int n = storage::NBuffers();
  std::vector<executor::Row> rows;
  rows.reserve(static_cast<size_t>(n));
  for (storage::BufferId id = 0; id < n; id++) {
    storage::BufferInfo b = storage::GetBufferInfo(id);
    executor::Row r(9);
    r[0] = Value::Int4(id + 1);  // bufferid is 1-based, as PostgreSQL's
    if (b.tag_valid && b.valid) {
      const storage::RelFileLocator loc = storage::RelFileLocator::FromKey(b.tag.rel);
      r[1] = Value::Int(types::kOidOid, loc.number.value);
      r[2] = Value::Int(types::kOidOid, kDefaultTablespaceOid);
      r[3] = Value::Int(types::kOidOid, loc.db);
      r[4] = Value::Int(types::kInt2Oid, b.tag.fork);
      r[5] = Value::Int8(b.tag.block);
      r[6] = Value::Bool(b.dirty);
      r[7] = Value::Int(types::kInt2Oid, b.usage_count);
      r[8] = Value::Int4(static_cast<int32_t>(b.refcount));
    } else {
      // An unused buffer: everything but its id is NULL.
      const types::Oid kinds[] = {types::kOidOid, types::kOidOid, types::kOidOid, types::kInt2Oid,
                                  types::kInt8Oid, types::kBoolOid, types::kInt2Oid, types::kInt4Oid};
      for (int c = 1; c < 9; c++) r[static_cast<size_t>(c)] = Value::Null(kinds[c - 1]);
    }
    rows.push_back(std::move(r));
  }
  return rows;
}

void AddPgBuffercache(SystemViewProvider& p) {
  using namespace types;
  p.AddView(MakeViewInfo(kPgBuffercacheOid, "pg_buffercache",
                     {{"bufferid", kInt4Oid},
                      {"relfilenode", kOidOid},
                      {"reltablespace", kOidOid},
                      {"reldatabase", kOidOid},
                      {"relforknumber", kInt2Oid},
                      {"relblocknumber", kInt8Oid},
                      {"isdirty", kBoolOid},
                      {"usagecount", kInt2Oid},
                      {"pinning_backends", kInt4Oid}}),
            BuffercacheRows);
}

}  // namespace

void AddMonitoringViews(SystemViewProvider& p) {
  AddPgStatProgressCopy(p);
  AddPgBuffercache(p);
}

}  // namespace hearth::catalog
