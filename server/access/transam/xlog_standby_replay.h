// access/transam/xlog_standby_replay.h
//
// The startup process's loop in standby mode: replays WAL from the recovery
// start point (pg_control's redo point or a base backup's label) and then
// every record the walreceiver makes durable, for as long as the server is a
// standby; maintains the known-assigned xids (xlog_standby.h) and the
// restartpoint candidate; on promotion replays what was received, makes the
// end of it the insert position and leaves recovery.
//
// Process model: one startup process, forked by the postmaster after it
// entered standby mode (EnterStandbyMode) and registered every rmgr. The
// rmgrs' redo functions lock the buffers they change, so backends read
// concurrently (hot standby).
#pragma once

#include <cstdint>
#include <functional>

#include "access/transam/xlog_format.h"

namespace hearth::access {

struct StandbyReplayHooks {
  // Asked between records and while waiting: true = leave (shutdown).
  std::function<bool()> should_stop;
  // True when promotion was asked for (pg_promote, promote.signal).
  std::function<bool()> promote_requested;
  // Waits until the walreceiver no longer writes WAL (promotion).
  std::function<void()> wait_receiver_stopped;
  // A transaction that changed the system catalogs committed: cached
  // catalog data of every backend is stale.
  std::function<void()> catalog_changed;
  // Promotion: the highest OID limit the old primary logged (0: none).
  std::function<void(uint32_t)> advance_oid_counter;
  // Promotion, just before writes are allowed: a restart from here on must
  // not come back as a standby (the signal files go).
  std::function<void()> leaving_standby_mode;
};

enum class StandbyReplayEnd { kShutdown, kPromoted };

// Runs until shutdown or promotion. `consistent_at`: end of the WAL that was
// in pg_wal at start; reads are allowed once replay passed it (and the
// first checkpoint record gave the running xids). Throws std::runtime_error
// when a record cannot be replayed.
StandbyReplayEnd StandbyReplayMain(XLogRecPtr consistent_at, const StandbyReplayHooks& hooks);

}  // namespace hearth::access
