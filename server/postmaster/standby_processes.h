// postmaster/standby_processes.h
//
// The two processes of a standby (a data directory with standby.signal):
//   startup      replays WAL continuously (access/transam/xlog_standby_replay.h)
//                until shutdown or promotion; exits 0 after promoting, so
//                the postmaster knows recovery ended;
//   walreceiver  streams WAL from primary_conninfo (replication/walreceiver.h).
// Both exit cleanly on SIGTERM/SIGUSR2, at once on SIGQUIT, when the
// postmaster dies; SIGHUP re-reads the configuration. A replay failure exits
// with status 3 (PANIC: the postmaster resets and recovery restarts from the
// last restartpoint).
#pragma once

#include <string>

#include "access/transam/xlog_format.h"
#include "storage/lmgr/proc_array.h"

namespace hearth::config {
class Settings;
}

namespace hearth::postmaster {

// Files in the data directory that steer recovery, as PostgreSQL's.
inline constexpr char kStandbySignalFile[] = "standby.signal";
inline constexpr char kPromoteSignalFile[] = "promote.signal";

[[noreturn]] void StartupProcessMain(storage::ProcNumber slot, config::Settings* settings,
                                     access::XLogRecPtr consistent_at);
[[noreturn]] void WalReceiverProcessMain(storage::ProcNumber slot, config::Settings* settings);

}  // namespace hearth::postmaster
