// access/transam/xlog_backup_label.h
//
// backup_label: the file a base backup puts into the copy (replication/
// basebackup.*). Its presence tells startup that the data files are a fuzzy
// copy taken while the server ran, so replay must start at the backup-start
// checkpoint's redo point (written in the label), not at the later
// checkpoint the copied global/pg_control may name. The format is
// PostgreSQL's text lines; recovery reads "START WAL LOCATION" and
// "CHECKPOINT LOCATION". After a successful recovery the file is renamed to
// backup_label.old, as PostgreSQL does.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "access/transam/xlog_format.h"

namespace hearth::access {

inline constexpr const char* kBackupLabelFile = "backup_label";

struct BackupLabel {
  XLogRecPtr start_lsn = 0;       // redo point of the backup-start checkpoint
  XLogRecPtr checkpoint_lsn = 0;  // start of that checkpoint's record
  std::string label;
};

// "X/Y" as PostgreSQL prints an LSN.
std::string FormatLsn(XLogRecPtr lsn);
// Parses "X/Y"; false when `text` is not one.
bool ParseLsn(const std::string& text, XLogRecPtr* lsn);

// The label's text for a backup started at `start_lsn` (checkpoint record at
// `checkpoint_lsn`), PostgreSQL's lines.
std::string FormatBackupLabel(const BackupLabel& label, uint64_t segment_size, int64_t start_time_unix);

// <datadir>/backup_label, or nullopt when there is none. Throws
// std::runtime_error when it exists but is unreadable or malformed.
std::optional<BackupLabel> ReadBackupLabel(const std::string& datadir);

// Where replay (and the end-of-WAL scan) starts: the backup label's start
// point if there is a label, else pg_control's redo point, else the first
// record (LSN 24).
XLogRecPtr RecoveryStartLsn(const std::string& datadir);

// Throws std::runtime_error ("could not locate required checkpoint record")
// when WAL from the label's start through its checkpoint record is not all
// there (`last_record`: start of the last valid record found): without it
// the copy's files are a fuzzy mixture of moments.
void CheckBackupWalPresent(const BackupLabel& label, XLogRecPtr last_record);

// After recovery from a backup: renames backup_label to backup_label.old
// (durably), so a later restart uses pg_control. No-op without a label.
void RetireBackupLabel(const std::string& datadir);

}  // namespace hearth::access
