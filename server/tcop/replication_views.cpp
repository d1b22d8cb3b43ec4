// tcop/replication_views.cpp
//
// Principal entry point: AddReplicationViews. pg_stat_replication (one row
// per walsender streaming WAL, with the positions its standby reported) and
// pg_stat_wal_receiver (a standby's walreceiver), PostgreSQL 15's columns.
#include "access/transam/syncrep.h"
#include "access/transam/walsnd_status.h"
#include "access/transam/xlog_standby.h"
#include "catalog/catalog_defs.h"
#include "tcop/session_views.h"
#include "utils/adt/interval.h"

namespace hearth::tcop {

namespace {

using executor::Row;
using types::Value;

Value Lsn(uint64_t lsn) { return lsn == 0 ? Value::Null(types::kPgLsnOid) : Value::Int(types::kPgLsnOid, static_cast<int64_t>(lsn)); }
// A lag in µs as an interval (NULL for -1: nothing measured).
Value Lag(int64_t us) {
  if (us < 0) return Value::Null(types::kIntervalOid);
  types::Interval iv;
  iv.time = us;
  return Value::Bytes(types::kIntervalOid, types::EncodeInterval(iv));
}

Value TextOrNull(const std::string& s) { return s.empty() ? Value::Null(types::kTextOid) : Value::Text(s); }

void AddPgStatReplication(catalog::SystemViewProvider& p) {
  using namespace types;
  executor::TableInfo info = catalog::MakeViewInfo(
      catalog::kPgStatReplicationOid, "pg_stat_replication",
      {{"pid", kInt4Oid},           {"usesysid", kOidOid},         {"usename", kNameOid},
       {"application_name", kTextOid}, {"client_addr", kTextOid},  {"client_hostname", kTextOid},
       {"client_port", kInt4Oid},   {"backend_start", kTimestampTzOid}, {"backend_xmin", kInt8Oid},
       {"state", kTextOid},         {"sent_lsn", kPgLsnOid},       {"write_lsn", kPgLsnOid},
       {"flush_lsn", kPgLsnOid},    {"replay_lsn", kPgLsnOid},     {"write_lag", kIntervalOid},
       {"flush_lag", kIntervalOid}, {"replay_lag", kIntervalOid},  {"sync_priority", kInt4Oid},
       {"sync_state", kTextOid},    {"reply_time", kTimestampTzOid}});
  p.AddView(std::move(info), [] {
    std::vector<Row> out;
    const std::vector<access::WalSndInfo> senders = access::GetWalSndInfos();
    const std::vector<access::SyncState> sync = access::ComputeSyncStates(senders);
    for (size_t i = 0; i < senders.size(); i++) {
      const access::WalSndInfo& w = senders[i];
      out.push_back({Value::Int4(w.pid), Value::Int(kOidOid, catalog::kBootstrapSuperuserOid),
                     Value::Bytes(kNameOid, w.usename), Value::Text(w.application_name), TextOrNull(w.client_addr),
                     Value::Null(kTextOid), w.client_port != 0 ? Value::Int4(w.client_port) : Value::Int4(-1),
                     catalog::TimestampTzFromUnixMicros(w.backend_start_us), Value::Null(kInt8Oid),
                     Value::Text(access::WalSndStateName(w.state)), Lsn(w.sent), Lsn(w.write), Lsn(w.flush),
                     Lsn(w.replay), Lag(w.write_lag_us), Lag(w.flush_lag_us), Lag(w.replay_lag_us),
                     Value::Int4(sync[i].priority), Value::Text(sync[i].state),
                     catalog::TimestampTzFromUnixMicros(w.reply_time_us)});
    }
    return out;
  });
}

void AddPgStatWalReceiver(catalog::SystemViewProvider& p) {
  using namespace types;
  executor::TableInfo info = catalog::MakeViewInfo(
      catalog::kPgStatWalReceiverOid, "pg_stat_wal_receiver",
      {{"pid", kInt4Oid},           {"status", kTextOid},          {"receive_start_lsn", kPgLsnOid},
       {"receive_start_tli", kInt4Oid}, {"written_lsn", kPgLsnOid}, {"flushed_lsn", kPgLsnOid},
       {"received_tli", kInt4Oid},  {"last_msg_send_time", kTimestampTzOid},
       {"last_msg_receipt_time", kTimestampTzOid}, {"latest_end_lsn", kPgLsnOid},
       {"latest_end_time", kTimestampTzOid}, {"slot_name", kTextOid}, {"sender_host", kTextOid},
       {"sender_port", kInt4Oid},   {"conninfo", kTextOid}});
  p.AddView(std::move(info), [] {
    std::vector<Row> out;
    if (!access::RecoveryInProgress() || !access::WalReceiverStreaming()) return out;
    const int32_t pid = access::WalReceiverPid();
    const uint64_t received = access::StandbyReceivedUpTo();
    out.push_back({pid != 0 ? Value::Int4(pid) : Value::Null(kInt4Oid), Value::Text("streaming"),
                   Value::Null(kPgLsnOid), Value::Int4(1), Lsn(received), Lsn(received), Value::Int4(1),
                   Value::Null(kTimestampTzOid), Value::Null(kTimestampTzOid), Lsn(received),
                   Value::Null(kTimestampTzOid), Value::Null(kTextOid), Value::Null(kTextOid),
                   Value::Null(kInt4Oid), Value::Null(kTextOid)});
    return out;
  });
}

}  // namespace

void AddReplicationViews(catalog::SystemViewProvider& p) {
  AddPgStatReplication(p);
  AddPgStatWalReceiver(p);
}

}  // namespace hearth::tcop
