// access/transam/xlog_rmgr.h
//
// Resource-manager redo dispatch and the checkpoint record format. Each
// resource manager (heap, xact, clog, storage, ...) registers a redo function
// for its RmgrId once at process start (before recovery runs); recovery calls
// XLogRedoRecord for every record it replays. Registration is per process
// (plain function pointers; call it in the postmaster before fork, or in the
// startup process); not thread-safe.
#pragma once

#include <cstdint>

#include "access/transam/xlog_format.h"
#include "access/transam/xlog_reader.h"

namespace hearth::access {

using RmgrRedoFn = void (*)(const XLogRecordView& record);
// Optional: a short human description of a record (for a waldump tool).
using RmgrDescFn = const char* (*)(uint8_t info);

struct RmgrEntry {
  const char* name = nullptr;
  RmgrRedoFn redo = nullptr;
  RmgrDescFn desc = nullptr;
};

// Registers (or replaces) the entry for `id`. `name` must outlive the process.
void RegisterRmgr(RmgrId id, const char* name, RmgrRedoFn redo, RmgrDescFn desc = nullptr);
// The entry for `id`; its `redo` is nullptr when nothing is registered.
const RmgrEntry& GetRmgr(RmgrId id);
// Calls the record's rmgr redo function. Throws std::runtime_error naming the
// LSN when no redo function is registered for the record's rmgr (recovery
// must not silently skip records).
void XLogRedoRecord(const XLogRecordView& record);

// Payload of an kRmgrXLog / kXLogInfoCheckpoint record (fixed, little-endian).
struct CheckpointRecord {
  XLogRecPtr redo_lsn;  // WAL position when the checkpoint started: replay begins here
  uint32_t next_xid;
  uint32_t next_oid;
  int64_t time_us;    // Unix µs
  uint32_t shutdown;  // 1 for a shutdown checkpoint (nothing to replay after it)
  // Every xid below it had ended when the record was written (0: not
  // recorded); a standby forgets known-assigned xids below it.
  uint32_t oldest_running_xid;
};
static_assert(sizeof(CheckpointRecord) == 32);

// Appends a checkpoint record; returns its end LSN (*start_lsn gets its start,
// which goes into ControlFileData::checkpoint_lsn).
XLogRecPtr XLogInsertCheckpoint(const CheckpointRecord& ckpt, XLogRecPtr* start_lsn);

}  // namespace hearth::access
