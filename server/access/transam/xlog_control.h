// access/transam/xlog_control.h
//
// The control file <datadir>/global/pg_control: where recovery starts (the
// last checkpoint and its redo point), the next xid/oid, the cluster state.
// Fixed 64-byte little-endian layout with a CRC-32C; written atomically
// (temp file + fsync + rename + directory fsync), so a crash leaves either
// the old or the new version. Callers serialise writers (the checkpointer and
// startup are the only ones); reading is safe at any time.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "access/transam/xlog_format.h"

namespace hearth::access {

enum class DbState : uint32_t { kShutdown = 1, kInProduction = 2, kInCrashRecovery = 3 };

struct ControlFileData {
  uint32_t magic = 0;    // kControlFileMagic (filled by UpdateControlFile)
  uint32_t version = 0;  // kControlFileVersion
  uint64_t system_identifier = 0;
  XLogRecPtr checkpoint_lsn = 0;  // start of the last checkpoint record
  XLogRecPtr redo_lsn = 0;        // replay starts here
  uint64_t segment_size = 0;
  int64_t time_us = 0;  // Unix µs of the last update
  uint32_t next_xid = 0;
  uint32_t next_oid = 0;
  DbState state = DbState::kShutdown;
  uint32_t crc = 0;  // CRC-32C of the bytes before it
};
static_assert(sizeof(ControlFileData) == 64);
inline constexpr uint32_t kControlFileMagic = 0x4C544348;  // "HCTL"
inline constexpr uint32_t kControlFileVersion = 1;

// Writes `data` (magic, version, time and crc are filled in) atomically:
// over the existing file in place (one 64-byte write, within a sector; no
// new space needed, so it works on a full disk), or as a new file (temp +
// rename) the first time. Throws std::runtime_error on I/O errors (a
// DbError 53100 when out of space).
void UpdateControlFile(const std::string& datadir, const ControlFileData& data);

// The stored control data; nullopt when the file does not exist. Throws
// std::runtime_error when it exists but is unreadable, short, or its magic,
// version or CRC is wrong (a damaged cluster: refuse to start).
std::optional<ControlFileData> ReadControlFile(const std::string& datadir);

}  // namespace hearth::access
