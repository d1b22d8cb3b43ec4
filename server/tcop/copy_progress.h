// tcop/copy_progress.h
//
// Publishes a running COPY's totals in this backend's progress slot, where
// pg_stat_progress_copy reads them. Lives as long as the COPY: the row
// disappears when it is destroyed, whether the COPY ended or failed.
#pragma once

#include "commands/copy_protocol.h"
#include "storage/lmgr/backend_progress.h"

namespace hearth::tcop {

class Session;

class CopyProgressReport : public commands::CopyProgress {
 public:
  // relid 0 for COPY (query) TO. `type`: storage::copy_progress::kType*
  // (STDIN/STDOUT are PIPE); `bytes_total`: a file's size for COPY FROM.
  CopyProgressReport(const Session& s, uint32_t relid, bool is_from, int64_t type, int64_t bytes_total);
  // Plain stores into shared memory; no lock.
  void Report(uint64_t bytes_processed, uint64_t tuples_processed) override;

 private:
  storage::ProgressReport report_;
};

}  // namespace hearth::tcop
