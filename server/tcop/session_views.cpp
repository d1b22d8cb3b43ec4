// tcop/session_views.cpp
//
// Principal entry point: AddSessionViews (pg_settings, pg_stat_activity).
#include "tcop/session_views.h"

#include <cstdio>
#include <unistd.h>

#include "access/transam/xact.h"
#include "catalog/catalog_defs.h"
#include "catalog/cluster_catalog.h"
#include "catalog/privileges.h"
#include "catalog/role_catalog.h"
#include "catalog/role_ddl.h"
#include "config/registry.h"
#include "config/value_parse.h"
#include "storage/lmgr/backend_activity.h"
#include "storage/lmgr/proc_array.h"
#include "tcop/session.h"

namespace hearth::tcop {

namespace {

using executor::Row;
using types::Value;

Value TextOrNull(std::string s) { return s.empty() ? Value::Null(types::kTextOid) : Value::Text(std::move(s)); }

const char* VarType(config::SettingType t) {
  switch (t) {
    case config::SettingType::kBool: return "bool";
    case config::SettingType::kInt: return "integer";
    case config::SettingType::kReal: return "real";
    case config::SettingType::kString: return "string";
    case config::SettingType::kEnum: return "enum";
  }
  return "string";
}

std::string FormatReal(double r) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", r);
  return buf;
}

// A value as pg_settings.setting shows it: integers in the base unit, not
// SHOW's "128MB".
std::string RawSetting(const config::SettingDef& def, const config::SettingValue& v) {
  switch (def.type) {
    case config::SettingType::kBool: return v.i != 0 ? "on" : "off";
    case config::SettingType::kInt: return std::to_string(v.i);
    case config::SettingType::kReal: return FormatReal(v.r);
    case config::SettingType::kString:
    case config::SettingType::kEnum: return v.s;
  }
  return v.s;
}

std::string EnumValues(const config::SettingDef& def) {
  std::string out = "{";
  for (const config::EnumOption& o : def.options) {
    if (o.hidden) continue;
    if (out.size() > 1) out += ",";
    out += o.name;
  }
  return out + "}";
}

Row SettingRow(const config::SettingDef& def, const config::SettingState& st) {
  const bool numeric = def.type == config::SettingType::kInt || def.type == config::SettingType::kReal;
  const bool is_int = def.type == config::SettingType::kInt;
  return {Value::Text(std::string(def.name)),
          Value::Text(RawSetting(def, st.value)),
          TextOrNull(std::string(config::UnitName(def.unit))),
          Value::Text(std::string(config::CategoryTitle(def.category))),
          Value::Text(std::string(def.description)),
          Value::Null(types::kTextOid),
          Value::Text(std::string(config::ContextName(def.context))),
          Value::Text(VarType(def.type)),
          Value::Text(std::string(st.source)),
          numeric ? Value::Text(is_int ? std::to_string(def.min_int) : FormatReal(def.min_real)) : Value::Null(types::kTextOid),
          numeric ? Value::Text(is_int ? std::to_string(def.max_int) : FormatReal(def.max_real)) : Value::Null(types::kTextOid),
          def.type == config::SettingType::kEnum ? Value::Text(EnumValues(def)) : Value::Null(types::kTextOid),
          Value::Text(RawSetting(def, config::BootValue(def))),
          Value::Text(RawSetting(def, st.reset)),
          Value::Null(types::kTextOid),
          Value::Null(types::kInt4Oid),
          Value::Bool(false)};
}

void AddPgSettings(catalog::SystemViewProvider& p, Session& session) {
  using namespace types;
  executor::TableInfo info = catalog::MakeViewInfo(
      catalog::kPgSettingsOid, "pg_settings",
      {{"name", kTextOid},       {"setting", kTextOid},   {"unit", kTextOid},     {"category", kTextOid},
       {"short_desc", kTextOid}, {"extra_desc", kTextOid}, {"context", kTextOid}, {"vartype", kTextOid},
       {"source", kTextOid},     {"min_val", kTextOid},   {"max_val", kTextOid},  {"enumvals", kTextOid},
       {"boot_val", kTextOid},   {"reset_val", kTextOid}, {"sourcefile", kTextOid}, {"sourceline", kInt4Oid},
       {"pending_restart", kBoolOid}});
  p.AddView(std::move(info), [&session] {
    std::vector<Row> out;
    auto all = config::AllSettings();
    for (size_t i = 0; i < all.size(); ++i) out.push_back(SettingRow(all[i], session.settings.StateAt(i)));
    return out;
  });
}

std::optional<std::string> RoleName(uint32_t role) {
  if (!access::IsTransactionInProgress()) return std::nullopt;
  auto t = catalog::FindRoleByOid(role);
  return t ? std::optional<std::string>(t->role.name) : std::nullopt;
}

const char* BackendTypeName(storage::BackendType t) {
  switch (t) {
    case storage::BackendType::kClient: return "client backend";
    case storage::BackendType::kWalWriter: return "walwriter";
    case storage::BackendType::kBgWriter: return "background writer";
    case storage::BackendType::kCheckpointer: return "checkpointer";
    case storage::BackendType::kStartup: return "startup";
    case storage::BackendType::kAutovacuumLauncher: return "autovacuum launcher";
    case storage::BackendType::kAutovacuumWorker: return "autovacuum worker";
    case storage::BackendType::kWalSender: return "walsender";
    case storage::BackendType::kUnused: break;
  }
  return "";
}

const char* StateName(storage::ProcState s) {
  switch (s) {
    case storage::ProcState::kIdle: return "idle";
    case storage::ProcState::kActive: return "active";
    case storage::ProcState::kIdleInTransaction: return "idle in transaction";
    case storage::ProcState::kIdleInFailedTransaction: return "idle in transaction (aborted)";
    case storage::ProcState::kStarting:
    case storage::ProcState::kFree: break;
  }
  return nullptr;
}

void AddPgStatActivity(catalog::SystemViewProvider& p, Session& session) {
  using namespace types;
  executor::TableInfo info = catalog::MakeViewInfo(
      catalog::kPgStatActivityOid, "pg_stat_activity",
      {{"datid", kOidOid},          {"datname", kNameOid},         {"pid", kInt4Oid},
       {"leader_pid", kInt4Oid},    {"usesysid", kOidOid},         {"usename", kNameOid},
       {"application_name", kTextOid}, {"client_addr", kTextOid},  {"client_hostname", kTextOid},
       {"client_port", kInt4Oid},   {"backend_start", kTimestampTzOid}, {"xact_start", kTimestampTzOid},
       {"query_start", kTimestampTzOid}, {"state_change", kTimestampTzOid}, {"wait_event_type", kTextOid},
       {"wait_event", kTextOid},    {"state", kTextOid},           {"backend_xid", kInt8Oid},
       {"backend_xmin", kInt8Oid},  {"query_id", kInt8Oid},        {"query", kTextOid},
       {"backend_type", kTextOid}});
  p.AddView(std::move(info), [&session] {
    std::vector<Row> out;
    storage::ProcArrayShared* pa = storage::ProcArray();
    const int32_t self = static_cast<int32_t>(getpid());
    for (int32_t i = 0; pa != nullptr && i < pa->nslots; ++i) {
      const storage::ProcSlot& s = pa->slots[i];
      const storage::BackendType type = s.type.load(std::memory_order_relaxed);
      const int32_t pid = s.pid.load(std::memory_order_relaxed);
      if (type == storage::BackendType::kUnused || pid == 0) continue;
      const bool client = type == storage::BackendType::kClient;
      const bool mine = pid == self;
      const char* state = client ? StateName(s.state.load(std::memory_order_relaxed)) : nullptr;
      const int64_t since = s.state_since_us.load(std::memory_order_relaxed);
      const uint32_t xid = s.xid.load(std::memory_order_relaxed);
      const uint32_t xmin = s.xmin.load(std::memory_order_relaxed);
      const uint32_t role = s.role_oid.load(std::memory_order_relaxed);
      // Another role's statement shows only to those with its privileges, as PostgreSQL.
      const bool visible = mine || !client || catalog::CurrentUserIsSuperuser() ||
                           (role != 0 && catalog::HasPrivsOfRole(catalog::GetCurrentUserId(), role));
      const std::optional<storage::ActivitySnapshot> act = storage::ReadActivity(i, pid);
      storage::WaitEvent wait = act ? act->wait : storage::WaitEvent::kNone;
      if (wait == storage::WaitEvent::kNone && s.waiting_on_lock.load(std::memory_order_relaxed)) {
        wait = storage::WaitEvent::kLockRelation;
      }
      const char* wait_type = visible ? storage::WaitEventTypeName(wait) : nullptr;
      const char* wait_name = visible ? storage::WaitEventName(wait) : nullptr;
      const std::optional<std::string> user = role != 0 && !mine ? RoleName(role) : std::nullopt;
      Value query = Value::Null(kTextOid);
      if (client && !visible) query = Value::Text("<insufficient privilege>");
      else if (client && act) query = Value::Text(act->query);
      const uint32_t datid = s.database_oid.load(std::memory_order_relaxed);
      out.push_back({datid != 0 ? Value::Int(kOidOid, datid) : Value::Null(kOidOid),
                     mine ? Value::Bytes(kNameOid, session.database) : Value::Null(kNameOid),
                     Value::Int4(pid),
                     Value::Null(kInt4Oid),
                     mine ? Value::Int(kOidOid, catalog::kBootstrapSuperuserOid)
                          : role != 0 ? Value::Int(kOidOid, role) : Value::Null(kOidOid),
                     mine ? Value::Bytes(kNameOid, session.user)
                          : user ? Value::Bytes(kNameOid, *user) : Value::Null(kNameOid),
                     mine ? Value::Text(session.settings.Show("application_name")) : Value::Null(kTextOid),
                     Value::Null(kTextOid), Value::Null(kTextOid), Value::Null(kInt4Oid),
                     Value::Null(kTimestampTzOid), Value::Null(kTimestampTzOid),
                     visible && act && act->query_start_us != 0 ? Value::Int(kTimestampTzOid, act->query_start_us)
                                                                : Value::Null(kTimestampTzOid),
                     since > 0 && state != nullptr ? Value::Int(kTimestampTzOid, since) : Value::Null(kTimestampTzOid),
                     wait_type ? Value::Text(wait_type) : Value::Null(kTextOid),
                     wait_name ? Value::Text(wait_name) : Value::Null(kTextOid),
                     state != nullptr ? Value::Text(state) : Value::Null(kTextOid),
                     xid != 0 ? Value::Int8(xid) : Value::Null(kInt8Oid),
                     xmin != 0 ? Value::Int8(xmin) : Value::Null(kInt8Oid),
                     Value::Null(kInt8Oid), query,
                     Value::Text(BackendTypeName(type))});
    }
    return out;
  });
}

}  // namespace

void AddSessionViews(catalog::SystemViewProvider& p, Session& session) {
  AddPgSettings(p, session);
  AddPgStatActivity(p, session);
  AddPgCursors(p, session);
  AddReplicationViews(p);
}

}  // namespace hearth::tcop
