// replication/basebackup.h
//
// BASE_BACKUP: a consistent-after-recovery copy of a running server, in
// PostgreSQL 15's archive stream format (pg_basebackup 15 reads it).
//   1. a checkpoint (always immediate: CHECKPOINT 'spread' is accepted and
//      runs the same way); its redo point is the backup start, held so no
//      segment after it is recycled until the backup ends;
//   2. result set (recptr, tli) of the start, then the tablespace list (only
//      the data directory: spcoid and spclocation NULL, size in kB with
//      PROGRESS);
//   3. CopyOutResponse; CopyData messages each starting with a type byte:
//      'n' new archive ("base.tar"), 'd' archive bytes (ustar members:
//      backup_label first, then backup_files.h's list, pg_control last,
//      with WAL: the segments from start to end as pg_wal/ members, then the
//      two zero blocks), 'p' progress (bytes so far), 'm' manifest start and
//      'd' manifest bytes; CopyDone;
//   4. result set (recptr, tli) of the end: a WAL position flushed after the
//      last file was read, so replaying to it makes the copy consistent.
// The copy's backup_label names the start checkpoint; recovery replays from
// there (access/transam/xlog_backup_label.h).
#pragma once

#include <vector>

#include "replication/repl_command.h"
#include "tcop/session.h"

namespace hearth::replication {

void SendBaseBackup(tcop::Session& session, const std::vector<ReplOption>& options);

}  // namespace hearth::replication
