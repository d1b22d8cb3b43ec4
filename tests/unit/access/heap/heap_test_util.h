// tests/unit/access/heap/heap_test_util.h
//
// A throwaway cluster for heap tests: a temp data directory, a fresh shared
// segment with a small buffer pool (32 buffers by default), smgr pointed at
// the directory and the transaction subsystem started; this process takes
// proc slot 0. Helpers run a statement-sized transaction and fork
// "backends" that report back through a pipe. Removes the directory at the end.
#pragma once

#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>

#include <catch2/catch.hpp>

#include "access/heap/hio.h"
#include "access/transam/transam.h"
#include "access/transam/xact.h"
#include "storage/buffer/bufmgr.h"
#include "storage/ipc/shmem_layout.h"
#include "storage/lmgr/lock.h"
#include "storage/lmgr/proc_array.h"
#include "storage/smgr/smgr.h"

namespace hearth::heap::testing {

struct HeapCluster {
  std::string dir;
  std::unique_ptr<storage::ShmemSegment> seg;

  explicit HeapCluster(int nbuffers = 32) {
    char tmpl[] = "/tmp/hearth_heap_test_XXXXXX";
    dir = mkdtemp(tmpl);
    storage::ShmemParams p;
    p.max_connections = 8;
    p.max_aux_processes = 2;
    p.nbuffers = nbuffers;
    p.relation_size_cache = 64;
    seg = storage::CreateSharedMemory(p);
    storage::SmgrInit(dir);
    access::TransamStartup(dir);
    storage::ClaimProcSlot(0, storage::BackendType::kClient);
    ForgetAllTargetBlocks();
  }
  ~HeapCluster() {
    access::AbortTransaction();
    storage::ReleaseProcSlot();
    storage::SmgrCloseAll();
    ForgetAllTargetBlocks();
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }

  // A new relation with an empty main fork.
  storage::RelFileLocator CreateRel(uint32_t number) {
    storage::RelFileLocator rel(hearth::storage::kDefaultDatabaseId, number);
    REQUIRE(storage::SmgrCreate(rel, storage::ForkNumber::kMain).ok());
    return rel;
  }
};

// Waits for a forked child and returns its exit code (-1 if it crashed).
inline int WaitChild(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace hearth::heap::testing
