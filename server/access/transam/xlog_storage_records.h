// access/transam/xlog_storage_records.h
//
// WAL records of the storage resource manager (kRmgrStorage): relation file
// creation, so crash recovery recreates a file that a committed CREATE TABLE
// (or TRUNCATE's new file) made after the last checkpoint; plus the redo-time
// removal of relation files that commit/abort records promise to delete
// (installed as the xact redo drop hook by recovery).
//
// Payload of a create record (info kSmgrInfoCreate): u32 relfilenumber.
// Safe in any process after XLogStartup (inserting) / SmgrInit (redo).
#pragma once

#include <span>

#include "access/transam/xlog_format.h"
#include "access/transam/xlog_reader.h"
#include "storage/smgr/relfile.h"

namespace hearth::access {

inline constexpr uint8_t kSmgrInfoCreate = 0x10;

// Logs the creation of `rel`'s main fork (no flush: the creating
// transaction's commit record flushes it). No-op when WAL is not running.
void XLogLogRelationCreate(storage::RelFileLocator rel);

// Redo: creates the file if missing. Register with
// RegisterRmgr(kRmgrStorage, "Storage", SmgrRedo).
void SmgrRedo(const XLogRecordView& rec);

// Xact redo drop hook: invalidates the relations' buffers and unlinks all
// their forks (missing files are fine).
void RedoDropRelations(std::span<const storage::RelFileLocator> rels);

}  // namespace hearth::access
