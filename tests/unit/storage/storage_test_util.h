// tests/unit/storage/storage_test_util.h
//
// A throwaway cluster for storage tests: a temp data directory under /tmp and
// a fresh shared segment (buffer pool, smgr caches, proc array) with the given
// number of buffers. Removes the directory on destruction.
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <memory>
#include <string>

#include "storage/buffer/bufmgr.h"
#include "storage/ipc/shmem_layout.h"
#include "storage/smgr/smgr.h"

namespace hearth::storage::testing {

struct TestCluster {
  std::string dir;
  std::unique_ptr<ShmemSegment> seg;

  explicit TestCluster(int nbuffers, BlockNumber segment_blocks = 0) {
    char tmpl[] = "/tmp/hearth_storage_test_XXXXXX";
    dir = mkdtemp(tmpl);
    ShmemParams p;
    p.max_connections = 4;
    p.max_aux_processes = 2;
    p.nbuffers = nbuffers;
    p.relation_size_cache = 256;
    seg = CreateSharedMemory(p);
    SmgrSetSegmentBlocksForTest(segment_blocks);
    SmgrInit(dir);
    SetXLogFlushHook(nullptr);
    SetXLogNeedsFlushHook(nullptr);
  }
  ~TestCluster() {
    SmgrCloseAll();
    SmgrSetSegmentBlocksForTest(0);
    SetXLogFlushHook(nullptr);
    SetXLogNeedsFlushHook(nullptr);
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
};

}  // namespace hearth::storage::testing
