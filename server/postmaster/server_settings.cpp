// postmaster/server_settings.cpp
//
// Principal entry points: LoadServerSettings, ReadServerSettings,
// ReloadServerSettings.
#include "postmaster/server_settings.h"

#include "common/error/db_error.h"
#include "config/enums.h"
#include "config/conf_file.h"
#include "config/settings.h"

namespace hearth::postmaster {

using config::ConfigFiles;

bool LoadServerSettings(config::Settings& settings, const std::string& datadir,
                        const std::vector<std::pair<std::string, std::string>>& overrides, std::string* error) {
  try {
    // Command-line values win over the file whatever the order.
    for (const auto& [name, value] : overrides) settings.ApplyCommandLine(name, value);
    for (const std::string& file : ConfigFiles(datadir)) settings.ApplyFile(file);
    settings.SetInternal("data_directory", datadir);
  } catch (const DbError& e) {
    *error = e.message();
    if (!e.hint().empty()) *error += " (" + e.hint() + ")";
    return false;
  }
  return true;
}

ServerSettings ReadServerSettings(const config::Settings& settings) {
  ServerSettings ss;
  ss.listen_address = settings.GetString("listen_addresses");
  ss.port = static_cast<int>(settings.GetInt("port"));
  // Client backends and walsenders share one pool of proc slots; each child
  // counts itself against its own limit after its startup packet
  // (storage::CountSession), as PostgreSQL's walsenders do not use up
  // max_connections.
  ss.shmem.max_connections =
      static_cast<int>(settings.GetInt("max_connections") + settings.GetInt("max_wal_senders"));
  ss.superuser_reserved_connections = static_cast<int>(settings.GetInt("superuser_reserved_connections"));
  ss.shmem.nbuffers = static_cast<int>(settings.GetInt("shared_buffers"));
  ss.shmem.wal_buffers = static_cast<int>(settings.GetInt("wal_buffers"));
  ss.shmem.relation_size_cache = static_cast<int>(settings.GetInt("relation_size_cache"));
  // walwriter, bgwriter, checkpointer, autovacuum launcher, one spare, a
  // standby's startup process and walreceiver, and the autovacuum workers.
  ss.shmem.max_aux_processes = 7 + static_cast<int>(settings.GetInt("autovacuum_max_workers"));
  ss.shmem.max_locks_per_transaction = static_cast<int>(settings.GetInt("max_locks_per_transaction"));
  ss.log_file = settings.GetString("log_file");
  ss.log_min_messages = settings.GetString("log_min_messages");
  return ss;
}

access::WalSyncMethod WalSyncMethodSetting(const config::Settings& settings) {
  switch (static_cast<config::WalSyncMethod>(settings.GetEnum("wal_sync_method"))) {
    case config::WalSyncMethod::kFsync: return access::WalSyncMethod::kFsync;
    case config::WalSyncMethod::kOpenDatasync: return access::WalSyncMethod::kOpenDatasync;
    case config::WalSyncMethod::kFdatasync: break;
  }
  return access::WalSyncMethod::kFdatasync;
}

std::vector<std::string> ReloadServerSettings(config::Settings& settings, const std::string& datadir,
                                              std::string* error) {
  try {
    return settings.ReloadConfText(config::ReadServerConfText(datadir), datadir + "/hearth.conf")
        .ignored_restart_required;
  } catch (const DbError& e) {
    *error = e.message();
    return {};
  }
}

}  // namespace hearth::postmaster
