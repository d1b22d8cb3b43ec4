// postmaster/server_settings.h
//
// The postmaster's view of the settings: loading hearth.conf plus -c
// overrides into a config::Settings, and pulling out the values that shape
// the process (address, port, shared memory sizes, logging).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "access/transam/xlog.h"
#include "storage/ipc/shmem.h"

namespace hearth::config {
class Settings;
}

namespace hearth::postmaster {

struct ServerSettings {
  std::string listen_address;
  int port = 5433;
  storage::ShmemParams shmem;
  // The last N of max_connections slots only superusers may take.
  int superuser_reserved_connections = 3;
  std::string log_file;
  std::string log_min_messages;
};

// Loads defaults, <datadir>/hearth.conf, <datadir>/postgresql.auto.conf (if
// present), then `overrides`. False with *error
// (file:line and the reason) on a bad file or value.
bool LoadServerSettings(config::Settings& settings, const std::string& datadir,
                        const std::vector<std::pair<std::string, std::string>>& overrides, std::string* error);

ServerSettings ReadServerSettings(const config::Settings& settings);

// wal_sync_method as the WAL layer's enum (it does not link the config).
access::WalSyncMethod WalSyncMethodSetting(const config::Settings& settings);

// Re-reads hearth.conf (SIGHUP). Returns the postmaster-context settings whose
// new values were ignored; sets *error and changes nothing on a bad file.
std::vector<std::string> ReloadServerSettings(config::Settings& settings, const std::string& datadir,
                                              std::string* error);

}  // namespace hearth::postmaster
