// replication/walreceiver.h
//
// The walreceiver process of a standby: connects to primary_conninfo as a
// physical replication client (libpq, so the connection string is read
// exactly as PostgreSQL reads it: pg_basebackup -R's passfile, sslmode, ...),
// checks the system identifier, streams WAL from the page holding the end of
// the WAL it already has (START_REPLICATION [SLOT primary_slot_name]),
// writes it into pg_wal's segment files, syncs, publishes the received
// position for the startup process and reports write/flush/apply positions
// back (standby status updates). A lost connection is retried with a
// doubling pause up to wal_retrieve_retry_interval.
//
// Process model: an auxiliary process of a standby (postmaster/), one at a
// time; the only writer of WAL files while the server is in recovery.
#pragma once

#include <functional>

namespace hearth::config {
class Settings;
}

namespace hearth::replication {

// Runs until `should_stop` answers true (streaming stops at promotion).
// `reload` is called between connections and while streaming (SIGHUP).
void WalReceiverMain(config::Settings& settings, const std::function<bool()>& should_stop,
                     const std::function<void()>& reload);

}  // namespace hearth::replication
