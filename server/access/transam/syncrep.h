// access/transam/syncrep.h
//
// Synchronous replication, as PostgreSQL's synchronous_standby_names and
// synchronous_commit = remote_write | on | remote_apply define it: a commit
// whose record is flushed locally waits, still shown as running to other
// sessions, until enough of the named standbys have reported that they
// wrote, flushed or applied WAL past it.
//
// The parsed synchronous_standby_names lives in shared memory, published by
// the postmaster at startup, after a crash reset and at every reload, so
// committers and walsenders read one copy and a reload that empties it
// releases the waiters at once. Walsenders wake the waiters when a standby
// reports new positions (WalSndStatusEntry::SetReply).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "access/transam/walsnd_status.h"
#include "access/transam/xlog_format.h"

namespace hearth::access {

struct SyncStandbyConfig {
  enum class Method : uint8_t { kNone, kPriority, kQuorum };  // none, FIRST n, ANY n
  Method method = Method::kNone;
  int num_sync = 0;
  std::vector<std::string> names;  // '*' matches every standby
};

// Parses PostgreSQL's synchronous_standby_names: `s1, s2` (FIRST 1),
// `n (s1, s2)` and `FIRST n (...)` (priority), `ANY n (...)` (quorum); names
// are identifiers or double-quoted. "" means none. False and *error for bad
// input (and num_sync larger than the list, as PostgreSQL).
bool ParseSyncStandbyNames(std::string_view text, SyncStandbyConfig* out, std::string* error);

// Postmaster: publish the configuration for every process (after shared
// memory exists). Wakes waiting committers so a change applies at once.
void PublishSyncStandbyConfig(const SyncStandbyConfig& config);
SyncStandbyConfig CurrentSyncStandbyConfig();
bool SyncReplicationConfigured();

// What a committer waits for (synchronous_commit's remote levels).
enum class SyncWaitMode : uint8_t { kWrite, kFlush, kApply };

// Waits until the configured standbys passed `lsn` (returns at once when
// none are configured). A cancel (SIGINT) or termination request ends the
// wait with PostgreSQL's WARNING: the transaction is committed locally
// either way; termination then ends the session. Never throws for a cancel.
void SyncRepWaitForLsn(XLogRecPtr lsn, SyncWaitMode mode);

// Why the last wait ended early, for the session to send as a WARNING
// (message, detail); empty when it did not.
struct SyncRepWarning {
  std::string sqlstate;
  std::string message;
  std::string detail;
};
std::optional<SyncRepWarning> TakeSyncRepWarning();

// Walsender: a standby reported new positions; wake waiters if any.
void SyncRepWakeWaiters();

// pg_stat_replication's sync_priority and sync_state for `senders` (in the
// order given): "sync", "potential", "quorum" or "async".
struct SyncState {
  int priority = 0;
  std::string state = "async";
};
std::vector<SyncState> ComputeSyncStates(const std::vector<WalSndInfo>& senders);

}  // namespace hearth::access
