// tests/unit/access/xlog_test_util.h
//
// A throwaway WAL cluster for xlog tests: a temp data directory, a fresh
// shared segment (small, with a wal area) and XLogStartup on it, with a small
// segment size so tests cross segment boundaries quickly. Restart() simulates
// a new server on the same directory (a crash unless Shutdown() ran first).
// Single-threaded test code; children forked by a test inherit everything.
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "access/transam/xlog.h"
#include "storage/ipc/shmem_layout.h"
#include "storage/lmgr/proc_array.h"

namespace hearth::access::testing {

struct WalCluster {
  std::string dir;
  std::unique_ptr<storage::ShmemSegment> seg;
  storage::ShmemParams params;
  XLogOptions opts;
  XLogStartupInfo info;

  explicit WalCluster(int wal_buffers = 16, uint64_t segment_size = 64 * 1024, bool fsync = false) {
    char tmpl[] = "/tmp/hearth_xlog_test_XXXXXX";
    dir = mkdtemp(tmpl);
    params.max_connections = 12;
    params.max_aux_processes = 2;
    params.nbuffers = 16;
    params.relation_size_cache = 64;
    params.wal_buffers = wal_buffers;
    opts.datadir = dir;
    opts.segment_size = segment_size;
    opts.fsync = fsync;
    Restart();
  }
  // New shared memory, WAL started from the files; this process takes slot 0.
  void Restart() {
    if (storage::MyProc() != nullptr) storage::ReleaseProcSlot();
    seg.reset();
    seg = storage::CreateSharedMemory(params);
    info = XLogStartup(*seg, params, opts);
    storage::ClaimProcSlot(0, storage::BackendType::kClient);
  }
  std::string WalDir() const { return dir + "/pg_wal"; }
  ~WalCluster() {
    storage::ReleaseProcSlot();
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
};

// Inserts one record whose payload is `payload`.
inline XLogRecPtr InsertBytes(const std::vector<uint8_t>& payload, RmgrId rmgr = kRmgrTest, uint8_t info = 0,
                              uint32_t xid = 0, XLogRecPtr* start = nullptr) {
  const XLogPart part{payload.data(), payload.size()};
  return XLogInsert(rmgr, info, xid, std::span<const XLogPart>(&part, 1), start);
}

inline std::vector<uint8_t> RandomPayload(std::mt19937& rng, size_t len) {
  std::vector<uint8_t> v(len);
  for (auto& b : v) b = static_cast<uint8_t>(rng());
  return v;
}

}  // namespace hearth::access::testing
