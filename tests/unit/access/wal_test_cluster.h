// tests/unit/access/wal_test_cluster.h
//
// WalTestCluster: a one-process "server" with WAL for redo tests — a temp
// data directory, a small shared segment, smgr, WAL (fsync off, 1 MiB
// segments), transam and the heap rmgr, then recovery. Crash() throws the
// shared segment away without writing any data page back and starts again,
// so only what reached the WAL files survives. Single process; not for
// concurrent use.
#pragma once

#include <stdlib.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <memory>
#include <string>

#include "access/heap/heap_wal.h"
#include "access/nbtree/nbtree.h"
#include "access/heap/hio.h"
#include "access/transam/clog.h"
#include "access/transam/transam.h"
#include "access/transam/xact.h"
#include "access/transam/xlog.h"
#include "access/transam/xlog_recovery.h"
#include "access/transam/xlog_storage_records.h"
#include "storage/buffer/bufmgr.h"
#include "storage/ipc/shmem_layout.h"
#include "storage/lmgr/proc_array.h"
#include "storage/smgr/smgr.h"

namespace hearth::testing {

struct WalTestCluster {
  std::string dir;
  std::unique_ptr<storage::ShmemSegment> seg;
  storage::ShmemParams params;
  access::RecoveryResult last;  // what the latest Start() replayed

  // `max_connections` sizes the proc array; 32 buffers keep eviction busy.
  explicit WalTestCluster(int max_connections = 6) {
    char tmpl[] = "/tmp/hearth_wal_test_XXXXXX";
    dir = mkdtemp(tmpl);
    params.max_connections = max_connections;
    params.max_aux_processes = 2;
    params.nbuffers = 32;
    params.relation_size_cache = 64;
    params.wal_buffers = 16;
    Start();
  }
  WalTestCluster(const WalTestCluster&) = delete;
  WalTestCluster& operator=(const WalTestCluster&) = delete;

  // (Re)starts on the data directory: fresh shared memory, then recovery.
  void Start() {
    if (storage::MyProc() != nullptr) storage::ReleaseProcSlot();
    access::XLogDetach();
    seg.reset();
    seg = storage::CreateSharedMemory(params);
    storage::SmgrInit(dir);
    access::XLogOptions o;
    o.datadir = dir;
    o.segment_size = 1024 * 1024;
    o.fsync = false;
    access::XLogStartup(*seg, params, o);
    access::TransamStartup(dir);
    storage::SetXLogFlushHook(access::XLogFlush);
    storage::SetXLogNeedsFlushHook(access::XLogNeedsFlush);
    access::SetClogWalFlushHook(access::XLogFlush);
    heap::RegisterHeapRmgr();
    nbtree::RegisterBtreeRmgr();
    last = access::StartupXLogRecovery();
    storage::ClaimProcSlot(0, storage::BackendType::kClient);
    heap::ForgetAllTargetBlocks();
  }

  // Nothing written back: only what reached the WAL files survives.
  void Crash() { Start(); }

  ~WalTestCluster() {
    access::AbortTransaction();
    storage::ReleaseProcSlot();
    access::XLogDetach();
    storage::SetXLogFlushHook(nullptr);
    storage::SetXLogNeedsFlushHook(nullptr);
    access::SetClogWalFlushHook(nullptr);
    storage::SmgrCloseAll();
    heap::ForgetAllTargetBlocks();
    seg.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }

  // Creates relation file `number` and WAL-logs the creation.
  storage::RelFileLocator CreateRel(uint32_t number) {
    storage::RelFileLocator rel(hearth::storage::kDefaultDatabaseId, number);
    REQUIRE(storage::SmgrCreate(rel, storage::ForkNumber::kMain).ok());
    access::XLogLogRelationCreate(rel);
    return rel;
  }
};

}  // namespace hearth::testing
