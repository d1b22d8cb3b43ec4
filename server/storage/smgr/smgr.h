// storage/smgr/smgr.h
//
// The storage manager: relation forks as files of 8 KiB blocks under
// <datadir>/base/, split into segments of SmgrSegmentBlocks() blocks
// (1 GiB): base/<relfilenode>[_fsm|_vm][.<segno>] (segment 0 has no suffix).
//
// Process model: SmgrInit(datadir) once per process (children may also rely
// on the values inherited through fork). Each process keeps a small private
// LRU cache of open file descriptors, so a block access is one pread/pwrite.
// Relation sizes (in blocks) are cached in SHARED memory, exact at all times:
// extend/truncate/unlink update the entry, so SmgrNblocks never lseeks on the
// hot path (only the first time a relation fork is seen after startup).
// Dirty segments are handed to the checkpointer through a shared fsync
// request queue; when it is full (or absent) the writer fsyncs itself.
//
// Concurrency contract: callers serialise extension and truncation of one
// relation fork (the buffer manager's relation extension lock; DDL's
// relation lock). Reads and writes of distinct blocks may run concurrently
// from any process. Functions return Status and never throw.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "storage/ipc/shmem.h"
#include "storage/page/block.h"
#include "storage/smgr/relfile.h"
#include "storage/status.h"

namespace hearth::storage {

// ---- Shared state (registered in shmem_layout.cpp) -------------------------

size_t SmgrShmemSize(const ShmemParams& p);
// Lays out the relation-size cache and the fsync request queue and points this
// process's globals at them. Without it, smgr still works: sizes come from
// lseek every time and sync requests are fsynced at once.
void SmgrShmemInit(ShmemSegment& seg, const ShmemParams& p);

// ---- Per-process setup --------------------------------------------------------

// Sets the data directory (creating <datadir>/base if needed) and closes every
// cached descriptor. Call in each process before any other smgr function.
void SmgrInit(std::string datadir);
const std::string& SmgrDataDir();
// Closes every cached file descriptor of this process.
void SmgrCloseAll();

// Blocks per segment file: 131072 (1 GiB) unless changed by the test hook.
BlockNumber SmgrSegmentBlocks();
// Test hook: smaller segments so tests cross segment boundaries cheaply.
// REQUIRES: no relation files exist yet (or all were made with the same value).
void SmgrSetSegmentBlocksForTest(BlockNumber blocks);

// Absolute path of one segment file.
std::string SmgrSegmentPath(RelFileLocator rel, ForkNumber fork, uint32_t segno);

// ---- Relation forks -------------------------------------------------------------

// Creates an empty fork. Fails if it exists unless `ok_if_exists` (redo).
Status SmgrCreate(RelFileLocator rel, ForkNumber fork, bool ok_if_exists = false);
bool SmgrExists(RelFileLocator rel, ForkNumber fork);

// Number of blocks in the fork; 0 if it does not exist. Served from the shared
// cache; the first call for a fork lseeks its segments and fills the cache.
BlockNumber SmgrNblocks(RelFileLocator rel, ForkNumber fork);
// The cached size only, without any I/O (nullopt when not cached).
std::optional<BlockNumber> SmgrCachedNblocks(RelFileLocator rel, ForkNumber fork);

// Writes `page` (or zeros when nullptr) as block `block`, creating the segment
// file if needed, and raises the cached size to block + 1.
// REQUIRES: block >= SmgrNblocks (normally ==); the caller holds the
// relation's extension lock. skip_fsync: do not queue an fsync request (the
// caller will SmgrImmedSync, e.g. a relation created in this transaction).
Status SmgrExtend(RelFileLocator rel, ForkNumber fork, BlockNumber block, const char* page, bool skip_fsync = false);

// Appends `count` zero blocks starting at `first` (== SmgrNblocks) with one
// write per segment touched, and raises the cached size to first + count.
// Bulk loads reserve many blocks at once this way. Same REQUIRES as SmgrExtend.
Status SmgrExtendZeros(RelFileLocator rel, ForkNumber fork, BlockNumber first, BlockNumber count);

// Reads block `block` into buf (kBlockSize bytes). Fails with Corruption on a
// short read (block beyond the end of the file), IoError on a syscall error.
Status SmgrRead(RelFileLocator rel, ForkNumber fork, BlockNumber block, char* buf);
// Overwrites an existing block and queues an fsync request for its segment
// (unless skip_fsync). REQUIRES: block < SmgrNblocks.
Status SmgrWrite(RelFileLocator rel, ForkNumber fork, BlockNumber block, const char* buf, bool skip_fsync = false);

// Cuts the fork to `nblocks` blocks. Later segment files are truncated to
// zero length, not unlinked, because other processes may hold them open.
// REQUIRES: buffers of the removed blocks were dropped first
// (DropRelationBuffersFrom); no concurrent extension.
Status SmgrTruncate(RelFileLocator rel, ForkNumber fork, BlockNumber nblocks);

// Removes every segment file of the fork (missing files are fine) and forgets
// its cached size. REQUIRES: its buffers were dropped (DropRelationsBuffers).
Status SmgrUnlink(RelFileLocator rel, ForkNumber fork);
// SmgrUnlink for all forks, then announces the relfilenode to every process
// (SmgrCloseDroppedFiles). Each segment is truncated to zero length before
// it is unlinked, so its space returns even while other processes still
// hold a descriptor.
Status SmgrUnlinkAllForks(RelFileLocator rel);
// Dropping relations as a batch: forgets their queued fsync requests (one
// pass over the queue) and SmgrUnlinkAllForks each. REQUIRES: their buffers
// were dropped (DropRelationsBuffers).
Status SmgrUnlinkRelations(std::span<const RelFileLocator> rels);
// Closes this process's cached descriptors of files unlinked by any process
// since the last call. One atomic load when nothing was dropped. Backends
// call it at statement start, auxiliary processes once per loop.
void SmgrCloseDroppedFiles();

// fsyncs every segment of the fork now.
// CREATE DATABASE / bootstrap: copies every file of database directory
// `src_db` into a new directory for `dst_db` (base/<dst_db>/, which must not
// exist), then fsyncs the files and the directories. The caller flushed the
// source's dirty buffers first and keeps anyone from changing it meanwhile.
Status SmgrCopyDatabaseDirectory(uint32_t src_db, uint32_t dst_db);
// DROP DATABASE at commit (and its redo): removes base/<db>/ and every file
// in it (missing: fine), announcing nothing (no one uses the database any
// more); also forgets the size-cache entries of its files.
Status SmgrRemoveDatabaseDirectory(uint32_t db);
// True when base/<db>/ exists.
bool SmgrDatabaseDirectoryExists(uint32_t db);

Status SmgrImmedSync(RelFileLocator rel, ForkNumber fork);

// ---- fsync requests (checkpointer side) --------------------------------------------

// Queues "segment `segno` of the fork is dirty" for the next checkpoint, or
// fsyncs it now when the shared queue is full even after de-duplication.
Status SmgrRegisterSync(RelFileLocator rel, ForkNumber fork, uint32_t segno);
// What SmgrSyncPending did, for log_checkpoints' "sync files=N, longest=...,
// average=..." (segments that no longer exist are not counted).
struct SmgrSyncStats {
  int files = 0;
  int64_t longest_ns = 0;
  int64_t total_ns = 0;
};
// Takes every queued request and fsyncs each distinct segment once. Segments
// that no longer exist are skipped (their relation was unlinked). Called by the
// checkpointer after writing all dirty buffers. A failure must be treated as a
// PANIC by the caller (the kernel may have dropped the dirty pages).
Status SmgrSyncPending(SmgrSyncStats* stats = nullptr);
// Number of requests currently queued (monitoring/tests).
int SmgrPendingSyncRequests();
// How many times a backend had to fsync itself because the queue was full
// (pg_stat_bgwriter.buffers_backend_fsync).
uint64_t SmgrBackendFsyncCount();

}  // namespace hearth::storage
