// access/transam/transam.h
//
// Basic transaction-management vocabulary shared by xact, clog, snapshots and
// visibility: transaction ids (defined in storage/lmgr/proc_array.h, re-
// exported here), command ids and commit statuses, plus the start/stop
// entry points of the whole transam subsystem. Plain values: safe anywhere.
#pragma once

#include <cstdint>
#include <string>

#include "storage/lmgr/proc_array.h"

namespace hearth::access {

using storage::kBootstrapTransactionId;
using storage::kFirstNormalTransactionId;
using storage::kFrozenTransactionId;
using storage::kInvalidTransactionId;
using storage::TransactionId;
using storage::TransactionIdIsNormal;
using storage::TransactionIdIsValid;

// No wraparound: xids only grow, so plain comparison orders them.
inline constexpr bool TransactionIdPrecedes(TransactionId a, TransactionId b) { return a < b; }

// Command ids number the statements (commands) of one transaction, from 0.
using CommandId = uint32_t;
inline constexpr CommandId kFirstCommandId = 0;
inline constexpr CommandId kInvalidCommandId = UINT32_MAX;

// Commit status as stored in the clog (2 bits per xid). kInProgress is also
// what an xid that never committed reads as after a crash; callers that know
// the xid is not running treat it as aborted.
enum class XidStatus : uint8_t { kInProgress = 0, kCommitted = 1, kAborted = 2, kSubCommitted = 3 };

// Starts the transaction subsystem on the segment just created by
// CreateSharedMemory: initialises the shared xid counter and clog buffers,
// creates <datadir>/global and <datadir>/pg_xact if missing and loads the
// next xid from <datadir>/global/xid_control. Postmaster (or a single-process
// tool/test), before fork; again after a crash on the fresh segment.
// Throws std::runtime_error on I/O errors or a corrupt control file.
void TransamStartup(const std::string& datadir);

// Checkpoint: writes dirty clog pages (and fsyncs them). Any process.
void TransamCheckpoint();

// Clean shutdown, after every backend has exited: checkpoint, then records
// the exact next xid so a restart continues from it.
void TransamShutdown();

// The data directory TransamStartup was given ("" before).
const std::string& TransamDataDir();

}  // namespace hearth::access
