// access/transam/walsnd_status.h
//
// What each walsender streaming WAL reports for pg_stat_replication: who the
// client is, how far WAL was sent, and the write/flush/replay positions the
// standby reported back. Lives in transam's shared area; any process reads.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "access/transam/xlog_format.h"

namespace hearth::access {

enum class WalSndState : uint8_t { kStartup, kCatchup, kStreaming, kStopping };
const char* WalSndStateName(WalSndState s);

struct WalSndInfo {
  int32_t pid = 0;
  std::string application_name;
  std::string usename;
  std::string client_addr;  // empty: unknown
  int32_t client_port = 0;
  int64_t backend_start_us = 0;  // Unix µs
  WalSndState state = WalSndState::kStartup;
  XLogRecPtr sent = 0, write = 0, flush = 0, replay = 0;
  int64_t reply_time_us = 0;  // Unix µs of the last standby status update (0: none)
  // pg_stat_replication's *_lag in µs (replication/lag_tracker.h); -1: NULL.
  int64_t write_lag_us = -1, flush_lag_us = -1, replay_lag_us = -1;
};

// A walsender's entry while it streams (RAII: freed by the destructor, also
// on errors). Without a free entry (more than 64 streams) it reports nothing.
class WalSndStatusEntry {
 public:
  explicit WalSndStatusEntry(const WalSndInfo& who);
  ~WalSndStatusEntry();
  WalSndStatusEntry(const WalSndStatusEntry&) = delete;
  WalSndStatusEntry& operator=(const WalSndStatusEntry&) = delete;

  void SetState(WalSndState s);
  void SetSent(XLogRecPtr sent);
  void SetReply(XLogRecPtr write, XLogRecPtr flush, XLogRecPtr replay, int64_t reply_time_us);
  // Lags in µs; -1 leaves a lag as it was, `clear` makes all three NULL
  // first (the standby has replayed everything sent, twice in a row).
  void SetLags(int64_t write_us, int64_t flush_us, int64_t replay_us, bool clear);

 private:
  int slot_ = -1;
};

// Every streaming walsender, in slot order.
std::vector<WalSndInfo> GetWalSndInfos();

}  // namespace hearth::access
