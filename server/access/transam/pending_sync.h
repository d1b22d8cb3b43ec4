// access/transam/pending_sync.h
//
// wal_level = minimal's WAL bypass (PostgreSQL's "pending syncs"). A relation
// file the current transaction created (CREATE TABLE, TRUNCATE's new file,
// CREATE INDEX) is named by no committed catalog row until that transaction
// commits, and is removed if it aborts; so under minimal its changes are not
// WAL-logged at all (RelfileSkipsWal: heap records and page images are
// skipped) and the file is made durable at commit instead, before the
// commit record is written:
//   - smaller than wal_skip_threshold: every initialised page of its main
//     fork is logged as a page image (one WAL flush with the commit record
//     is cheaper than syncing a small file);
//   - otherwise: its dirty buffers are written and every fork fsynced.
// A crash before the commit leaves only an orphan file no catalog names (no
// table); after it, all rows are on disk. Under replica and logical nothing
// is skipped.
//
// Process safety: per-process state. The wal_level flag is set by the
// postmaster before it forks; the set of created files is per transaction
// (cleared at commit and abort through an xact callback).
#pragma once

#include <cstdint>

#include "storage/smgr/relfile.h"

namespace hearth::access {

// wal_level = minimal for this process (and its children after fork).
void SetWalLevelMinimal(bool minimal);
bool WalLevelMinimal();
// wal_skip_threshold for the commits of this process, in kilobytes.
void SetWalSkipThresholdKb(int64_t kb);

// The current transaction created `rel`'s file. Recorded whatever the
// wal_level (COPY FREEZE asks RelfileCreatedInXact); only under minimal
// does it also skip WAL and sync at commit. Cleared at transaction end.
// REQUIRES: a transaction in progress.
void NoteRelfileCreated(storage::RelFileLocator rel);

// True when the current transaction created `rel`'s file (CREATE TABLE,
// TRUNCATE's new file): no other transaction can see its contents before
// commit, and an abort drops it.
bool RelfileCreatedInXact(storage::RelFileLocator rel);

// True when changes to `rel` must not be WAL-logged now: minimal, and the
// current transaction created the file. Cheap (false at once otherwise).
bool RelfileSkipsWal(storage::RelFileLocator rel);

// Files made durable at commit by this process since it started: synced
// with fsync, or logged whole as page images (tests, monitoring).
struct PendingSyncCounts {
  uint64_t synced = 0;
  uint64_t logged_whole = 0;
};
PendingSyncCounts GetPendingSyncCounts();

}  // namespace hearth::access
