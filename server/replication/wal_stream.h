// replication/wal_stream.h
//
// START_REPLICATION [SLOT s] [PHYSICAL] X/Y [TIMELINE 1]: streams the WAL
// from X/Y in CopyBoth mode, as PostgreSQL's walsender: XLogData ('w': start
// LSN, end of flushed WAL, send time, bytes) for everything flushed, primary
// keepalives ('k') when idle for half of wal_sender_timeout, and the
// client's standby status updates ('r': the flushed position advances the
// slot) and hot-standby feedback ('h': ignored). The client ends the stream
// with CopyDone; a client silent for wal_sender_timeout is dropped.
//
// Bytes are read from the segment files in pg_wal, never beyond the flushed
// position. While streaming, the walsender holds the WAL it has not sent
// yet (xlog_keep.h), with or without a slot.
#pragma once

#include "replication/repl_command.h"
#include "tcop/session.h"

namespace hearth::replication {

void StreamWal(tcop::Session& session, const ReplCommand& cmd);

}  // namespace hearth::replication
