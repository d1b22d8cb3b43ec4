// replication/repl_result.h
//
// Small result sets of the replication protocol (IDENTIFY_SYSTEM, slot
// commands, BASE_BACKUP's start and end positions): a RowDescription of
// built-in types, text-format DataRows, CommandComplete. Appended to the
// session's send buffer.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tcop/pqcomm.h"

namespace hearth::replication {

inline constexpr int32_t kTextOid = 25;
inline constexpr int32_t kInt4Oid = 23;
inline constexpr int32_t kInt8Oid = 20;
inline constexpr int32_t kOidOid = 26;

struct ReplColumn {
  std::string name;
  int32_t type_oid = kTextOid;
  int16_t typlen = -1;
  int32_t typmod = -1;
};

void SendRowDescription(tcop::ClientSocket& sock, const std::vector<ReplColumn>& cols);
// Text values; nullopt = NULL.
void SendDataRow(tcop::ClientSocket& sock, const std::vector<std::optional<std::string>>& values);
void SendCommandComplete(tcop::ClientSocket& sock, const std::string& tag);
// CopyOutResponse ('H') / CopyBothResponse ('W'): text format, no columns.
void SendCopyStart(tcop::ClientSocket& sock, char type);
// One CopyData message: `kind` byte then `payload` (BASE_BACKUP's 'n', 'd',
// 'p', 'm' messages; the WAL stream's 'w' and 'k').
void SendCopyData(tcop::ClientSocket& sock, char kind, const void* payload, size_t len);
void SendCopyDone(tcop::ClientSocket& sock);

// Microseconds since 2000-01-01 (the replication protocol's timestamps).
int64_t PgEpochMicrosNow();

}  // namespace hearth::replication
