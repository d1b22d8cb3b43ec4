// tests/unit/access/access_test_util.h
//
// A throwaway cluster for transam tests: a temp data directory and a fresh
// shared segment with the transaction subsystem started on it. Restart()
// simulates a new server process on the same data directory (a crash unless
// Shutdown() ran first). Removes the directory on destruction.
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <memory>
#include <string>

#include "access/transam/transam.h"
#include "access/transam/xact.h"
#include "storage/ipc/shmem_layout.h"
#include "storage/lmgr/lock.h"
#include "storage/lmgr/proc_array.h"

namespace hearth::access::testing {

struct TransamCluster {
  std::string dir;
  std::unique_ptr<storage::ShmemSegment> seg;

  TransamCluster() {
    char tmpl[] = "/tmp/hearth_transam_test_XXXXXX";
    dir = mkdtemp(tmpl);
    Restart();
  }
  // New shared memory, transam started from the files; this process takes slot 0.
  void Restart() {
    AbortTransaction();
    if (storage::MyProc() != nullptr) storage::ReleaseProcSlot();
    seg.reset();
    storage::ShmemParams p;
    p.max_connections = 6;
    p.max_aux_processes = 2;
    p.nbuffers = 16;
    p.relation_size_cache = 64;
    seg = storage::CreateSharedMemory(p);
    TransamStartup(dir);
    storage::ClaimProcSlot(0, storage::BackendType::kClient);
  }
  ~TransamCluster() {
    AbortTransaction();
    storage::ReleaseProcSlot();
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
};

}  // namespace hearth::access::testing
