// access/transam/xlog_replay.h
//
// The replay loop of crash recovery: reads WAL from the redo point to the end
// of valid WAL and hands each record to its resource manager's redo function
// (xlog_rmgr.h). Runs in the startup process (or the postmaster before
// fork), after XLogStartup — which has already found the end of WAL and
// positioned inserts there, so pages redone here carry LSNs that are already
// durable and the buffer pool's WAL-before-data hook never has to wait.
// Redo functions must be idempotent (compare the page LSN with the record's).
#pragma once

#include <cstdint>
#include <string>

#include "access/transam/xlog_format.h"

namespace hearth::access {

struct ReplayResult {
  XLogRecPtr start = 0;        // where replay began
  XLogRecPtr last_record = 0;  // start of the last record replayed
  XLogRecPtr end_of_wal = 0;   // where valid WAL ended
  int64_t records = 0;
  std::string end_reason;
};

// Replays every record from `redo_lsn` (a record start). Throws
// std::runtime_error when a record has no redo function or a redo function
// fails (the message names the LSN); recovery must then stop (FATAL).
// REQUIRES: XLogStartup ran; every rmgr that may appear is registered.
ReplayResult XLogReplay(XLogRecPtr redo_lsn);

}  // namespace hearth::access
