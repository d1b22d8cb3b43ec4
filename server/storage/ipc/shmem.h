// storage/ipc/shmem.h
//
// The one shared memory segment of a Hearth server. The postmaster creates it
// before forking anything, so every child inherits the mapping at the same
// address and plain pointers into it stay valid in all processes. Regions are
// carved out once, at layout time, in the postmaster (single-threaded, before
// fork); after that the region table is read-only.
//
// Each subsystem that owns shared state exports a pair, called from
// storage/ipc/shmem_layout.cpp (the single list of regions):
//   size_t XxxShmemSize(const ShmemParams&);        // bytes it needs
//   void   XxxShmemInit(ShmemSegment&, const ShmemParams&);
// Init allocates the region with ShmemSegment::Allocate, initialises it and
// stores the pointer in a process-global that children inherit through fork.
// After a crash the postmaster discards the segment and runs every Init again.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

namespace hearth::storage {

// Everything the layout depends on, derived from the settings at postmaster
// start. Subsystems add fields here as they need them.
struct ShmemParams {
  int max_connections = 100;   // client backends and walsenders (max_connections + max_wal_senders)
  int max_aux_processes = 8;   // walwriter, bgwriter, checkpointer, spare
  int nbuffers = 16384;        // shared_buffers in 8 KiB pages
  int wal_buffers = 2048;      // WAL buffer pages of 8 KiB
  int relation_size_cache = 131072;  // smgr: relation forks whose size is cached (LRU-ish eviction beyond)
  int max_locks_per_transaction = 64;  // lock table: sizes the shared part (a backend spills beyond it)
  // Client backends plus auxiliary processes: the number of proc slots.
  int TotalProcs() const { return max_connections + max_aux_processes; }
  // The "wal area": reserved here, laid out by access/transam's XLogStartup
  // (storage must not depend on access). Fixed control part plus, per WAL
  // buffer page, the page and its bookkeeping. XLogShmemBytes must agree.
  static constexpr const char* kWalAreaName = "wal area";
  static constexpr size_t kWalAreaFixedBytes = 64 * 1024;
  static constexpr size_t kWalAreaPerBuffer = 8192 + 64;
  size_t WalAreaBytes() const { return kWalAreaFixedBytes + static_cast<size_t>(wal_buffers) * kWalAreaPerBuffer; }
};

// One named region in the segment's table of contents.
struct ShmemRegionEntry {
  char name[48];
  uint64_t offset;
  uint64_t size;
};

class ShmemSegment {
 public:
  static constexpr int kMaxRegions = 64;

  // Creates and maps a new anonymous-to-the-filesystem segment of at least
  // `size` bytes plus the table of contents, zero-filled. Postmaster only.
  // Throws std::runtime_error when the kernel refuses (the message says why).
  static std::unique_ptr<ShmemSegment> Create(size_t size);

  ~ShmemSegment();
  ShmemSegment(const ShmemSegment&) = delete;
  ShmemSegment& operator=(const ShmemSegment&) = delete;

  // Carves `size` bytes aligned to `align` (a power of two) and records them
  // under `name`. REQUIRES: layout time (postmaster, before fork); name unique.
  // Throws std::runtime_error when the segment is too small (a sizing bug).
  void* Allocate(std::string_view name, size_t size, size_t align = 64);

  // The region recorded under `name`, or nullptr.
  void* Find(std::string_view name) const;

  void* base() const { return base_; }
  size_t size() const { return size_; }
  size_t used() const;

 private:
  ShmemSegment() = default;
  struct Header;
  Header* header() const;

  void* base_ = nullptr;
  size_t size_ = 0;
  std::unique_ptr<struct ShmemMapping> mapping_;
};

// Rounds up to a multiple of `align` (a power of two).
constexpr size_t AlignUp(size_t n, size_t align) { return (n + align - 1) & ~(align - 1); }

}  // namespace hearth::storage
