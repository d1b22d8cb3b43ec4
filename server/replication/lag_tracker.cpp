// replication/lag_tracker.cpp
//
// Principal entry points: LagTracker::Sent, LagTracker::Read.
#include "replication/lag_tracker.h"

namespace hearth::replication {

void LagTracker::Sent(access::XLogRecPtr lsn, int64_t now_us) {
  if (lsn <= last_lsn_) return;
  last_lsn_ = lsn;
  const int next = (write_head_ + 1) % kSamples;
  bool full = false;
  for (int h : read_heads_) full = full || next == h;
  if (full) {
    // The slowest reader is a whole ring behind: stretch the newest sample
    // instead (its lag then reads a little short, as PostgreSQL's does).
    ring_[(write_head_ + kSamples - 1) % kSamples].lsn = lsn;
    return;
  }
  ring_[write_head_] = {lsn, now_us};
  write_head_ = next;
}

int64_t LagTracker::Read(LagKind kind, access::XLogRecPtr lsn, int64_t now_us) {
  int& head = read_heads_[static_cast<int>(kind)];
  int64_t passed_time = -1;
  while (head != write_head_ && ring_[head].lsn <= lsn) {
    passed_time = ring_[head].time_us;
    head = (head + 1) % kSamples;
  }
  if (passed_time < 0) return -1;
  return now_us > passed_time ? now_us - passed_time : 0;
}

}  // namespace hearth::replication
