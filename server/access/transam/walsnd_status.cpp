// access/transam/walsnd_status.cpp
//
// Principal entry points: WalSndStatusEntry, GetWalSndInfos.
#include "access/transam/walsnd_status.h"

#include <algorithm>
#include <cstring>

#include "access/transam/syncrep.h"
#include "access/transam/transam_shared.h"

namespace hearth::access {

namespace {

using transam_internal::kWalSndStatusSlots;
using transam_internal::WalSndStatusSlot;

WalSndStatusSlot* Slots() { return transam_internal::Shared()->walsnds; }

void CopyText(char (&dst)[64], const std::string& src) {
  const size_t n = std::min(src.size(), sizeof(dst) - 1);
  std::memcpy(dst, src.data(), n);
  dst[n] = '\0';
}

}  // namespace

const char* WalSndStateName(WalSndState s) {
  switch (s) {
    case WalSndState::kStartup: return "startup";
    case WalSndState::kCatchup: return "catchup";
    case WalSndState::kStreaming: return "streaming";
    case WalSndState::kStopping: return "stopping";
  }
  return "startup";
}

WalSndStatusEntry::WalSndStatusEntry(const WalSndInfo& who) {
  WalSndStatusSlot* slots = Slots();
  for (int i = 0; i < kWalSndStatusSlots; i++) {
    int32_t expected = 0;
    if (!slots[i].pid.compare_exchange_strong(expected, who.pid)) continue;
    WalSndStatusSlot& s = slots[i];
    CopyText(s.application_name, who.application_name);
    CopyText(s.usename, who.usename);
    CopyText(s.client_addr, who.client_addr);
    s.client_port = who.client_port;
    s.backend_start_us = who.backend_start_us;
    s.state.store(static_cast<uint8_t>(who.state), std::memory_order_relaxed);
    s.sent.store(who.sent, std::memory_order_relaxed);
    s.write.store(0, std::memory_order_relaxed);
    s.flush.store(0, std::memory_order_relaxed);
    s.replay.store(0, std::memory_order_relaxed);
    s.reply_time_us.store(0, std::memory_order_relaxed);
    for (auto* lag : {&s.write_lag_us, &s.flush_lag_us, &s.replay_lag_us}) lag->store(-1, std::memory_order_relaxed);
    s.ready.store(true, std::memory_order_release);
    slot_ = i;
    return;
  }
}

WalSndStatusEntry::~WalSndStatusEntry() {
  if (slot_ < 0) return;
  WalSndStatusSlot& s = Slots()[slot_];
  s.ready.store(false, std::memory_order_release);
  s.pid.store(0, std::memory_order_release);
}

void WalSndStatusEntry::SetState(WalSndState st) {
  if (slot_ >= 0) Slots()[slot_].state.store(static_cast<uint8_t>(st), std::memory_order_relaxed);
}

void WalSndStatusEntry::SetSent(XLogRecPtr sent) {
  if (slot_ >= 0) Slots()[slot_].sent.store(sent, std::memory_order_relaxed);
}

void WalSndStatusEntry::SetReply(XLogRecPtr write, XLogRecPtr flush, XLogRecPtr replay, int64_t reply_time_us) {
  if (slot_ < 0) return;
  WalSndStatusSlot& s = Slots()[slot_];
  s.write.store(write, std::memory_order_relaxed);
  s.flush.store(flush, std::memory_order_relaxed);
  s.replay.store(replay, std::memory_order_relaxed);
  s.reply_time_us.store(reply_time_us, std::memory_order_relaxed);
  // Committers waiting for synchronous standbys re-check the positions.
  SyncRepWakeWaiters();
}

void WalSndStatusEntry::SetLags(int64_t write_us, int64_t flush_us, int64_t replay_us, bool clear) {
  if (slot_ < 0) return;
  WalSndStatusSlot& s = Slots()[slot_];
  const std::pair<std::atomic<int64_t>*, int64_t> lags[] = {
      {&s.write_lag_us, write_us}, {&s.flush_lag_us, flush_us}, {&s.replay_lag_us, replay_us}};
  for (const auto& [lag, value] : lags) {
    if (value >= 0 || clear) lag->store(value, std::memory_order_relaxed);
  }
}

std::vector<WalSndInfo> GetWalSndInfos() {
  std::vector<WalSndInfo> out;
  WalSndStatusSlot* slots = Slots();
  for (int i = 0; i < kWalSndStatusSlots; i++) {
    const WalSndStatusSlot& s = slots[i];
    if (!s.ready.load(std::memory_order_acquire)) continue;
    WalSndInfo w;
    w.pid = s.pid.load(std::memory_order_relaxed);
    if (w.pid == 0) continue;
    w.application_name = s.application_name;
    w.usename = s.usename;
    w.client_addr = s.client_addr;
    w.client_port = s.client_port;
    w.backend_start_us = s.backend_start_us;
    w.state = static_cast<WalSndState>(s.state.load(std::memory_order_relaxed));
    w.sent = s.sent.load(std::memory_order_relaxed);
    w.write = s.write.load(std::memory_order_relaxed);
    w.flush = s.flush.load(std::memory_order_relaxed);
    w.replay = s.replay.load(std::memory_order_relaxed);
    w.reply_time_us = s.reply_time_us.load(std::memory_order_relaxed);
    w.write_lag_us = s.write_lag_us.load(std::memory_order_relaxed);
    w.flush_lag_us = s.flush_lag_us.load(std::memory_order_relaxed);
    w.replay_lag_us = s.replay_lag_us.load(std::memory_order_relaxed);
    out.push_back(std::move(w));
  }
  return out;
}

}  // namespace hearth::access
