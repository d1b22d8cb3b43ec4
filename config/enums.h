// config/enums.h
//
// C++ enums for the enum-typed settings. Their numeric values are the
// EnumOption::value entries in the registry, so Settings::GetEnum() results can
// be cast straight to these types. Plain constants: safe everywhere.
#pragma once

namespace hearth::config {

// synchronous_commit. Ordered like PostgreSQL: higher = waits for more.
enum class SynchronousCommit { kOff = 0, kLocal = 1, kRemoteWrite = 2, kOn = 3, kRemoteApply = 4 };

// wal_sync_method.
enum class WalSyncMethod { kFsync = 0, kFdatasync = 1, kOpenDatasync = 2 };

// wal_level. Ordered: minimal < replica < logical.
enum class WalLevel { kMinimal = 0, kReplica = 1, kLogical = 2 };

// client_min_messages / log_min_messages. Ordered by severity so a message is
// emitted when its level >= the setting. Note: for log_min_messages "log"
// ranks between error and fatal (as in PostgreSQL); kLogServer models that.
enum class MessageLevel {
  kDebug5 = 10,
  kDebug4 = 11,
  kDebug3 = 12,
  kDebug2 = 13,
  kDebug1 = 14,
  kLog = 15,  // client_min_messages ordering (below notice)
  kInfo = 17,
  kNotice = 18,
  kWarning = 19,
  kError = 21,
  kLogServer = 22,  // "log" in log_min_messages (above error)
  kFatal = 23,
  kPanic = 24,
};

// log_statement.
enum class LogStatement { kNone = 0, kDdl = 1, kMod = 2, kAll = 3 };

// default_transaction_isolation / transaction_isolation.
enum class IsolationLevel {
  kReadUncommitted = 0,
  kReadCommitted = 1,
  kRepeatableRead = 2,
  kSerializable = 3,
};

// IntervalStyle.
enum class IntervalStyle { kPostgres = 0, kPostgresVerbose = 1, kSqlStandard = 2, kIso8601 = 3 };

// bytea_output.
enum class ByteaOutput { kEscape = 0, kHex = 1 };

}  // namespace hearth::config
