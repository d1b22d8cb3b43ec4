// access/transam/xlog_storage_records.h
//
// WAL records of the storage resource manager (kRmgrStorage): relation file
// creation, so crash recovery recreates a file that a committed CREATE TABLE
// (or TRUNCATE's new file) made after the last checkpoint; plus the redo-time
// removal of relation files that commit/abort records promise to delete
// (installed as the xact redo drop hook by recovery).
//
// Payload of a create record (info kSmgrInfoCreate): the RelFileLocator.
// A database-create record (kSmgrInfoCreateDatabase): u32 template oid,
// u32 new database oid — CREATE DATABASE copies its template's directory
// file by file, and a standby (or point-in-time recovery) must make the same
// copy before it replays anything written into the new database.
// Safe in any process after XLogStartup (inserting) / SmgrInit (redo).
#pragma once

#include <span>

#include "access/transam/xlog_format.h"
#include "access/transam/xlog_reader.h"
#include "storage/smgr/relfile.h"

namespace hearth::access {

inline constexpr uint8_t kSmgrInfoCreate = 0x10;
inline constexpr uint8_t kSmgrInfoCreateDatabase = 0x20;
inline constexpr uint8_t kSmgrInfoDropDatabase = 0x30;

// Logs the creation of `rel`'s main fork (no flush: the creating
// transaction's commit record flushes it). No-op when WAL is not running.
void XLogLogRelationCreate(storage::RelFileLocator rel);

// Logs CREATE DATABASE's copy of `template_db` into `new_db` and flushes
// it. The caller then checkpoints, so that crash recovery never replays the
// copy (the template may have changed since); only a standby or an archive
// recovery does, in WAL order. No-op when WAL is not running.
void XLogLogDatabaseCreate(uint32_t template_db, uint32_t new_db);

// Logs, after DROP DATABASE committed and removed `db`'s directory, that
// the directory is gone, so a standby removes its copy too (payload: u32
// oid). A crash before this record leaves only an empty directory: the
// commit record already lists every file. No-op when WAL is not running.
void XLogLogDatabaseDrop(uint32_t db);

// Redo: creates the file if missing; copies or removes a database directory. Register with
// RegisterRmgr(kRmgrStorage, "Storage", SmgrRedo).
void SmgrRedo(const XLogRecordView& rec);

// Xact redo drop hook: invalidates the relations' buffers and unlinks all
// their forks (missing files are fine).
void RedoDropRelations(std::span<const storage::RelFileLocator> rels);

}  // namespace hearth::access
