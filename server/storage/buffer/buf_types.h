// storage/buffer/buf_types.h
//
// Small value types of the buffer manager: BufferId, BufferTag, ReadMode and
// the backend-private BufferAccessStrategy (ring). Safe anywhere; a strategy
// object belongs to one process and is never shared.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "storage/page/block.h"
#include "storage/smgr/relfile.h"

namespace hearth::storage {

// Index of a buffer in the pool (0..NBuffers-1).
using BufferId = int32_t;
inline constexpr BufferId kInvalidBufferId = -1;

// Identity of the page a buffer holds.
struct BufferTag {
  uint64_t rel = 0;    // RelFileLocator::Key(): database and relfilenode
  BlockNumber block = kInvalidBlockNumber;
  uint8_t fork = 0;    // ForkNumber
  uint8_t pad[3] = {0, 0, 0};

  static BufferTag Make(RelFileLocator r, ForkNumber f, BlockNumber b) {
    BufferTag t;
    t.rel = r.Key();
    t.fork = static_cast<uint8_t>(f);
    t.block = b;
    return t;
  }
  bool operator==(const BufferTag& o) const { return rel == o.rel && block == o.block && fork == o.fork; }
  bool operator<(const BufferTag& o) const {
    if (rel != o.rel) return rel < o.rel;
    if (fork != o.fork) return fork < o.fork;
    return block < o.block;
  }
};
static_assert(sizeof(BufferTag) == 16);

enum class ReadMode : uint8_t {
  kNormal,       // read the block from disk if not cached (verifies the checksum)
  kZeroAndLock,  // do not read: a not-cached page comes back zeroed; returned
                 // exclusively locked (redo that overwrites the whole page)
  kExtend,       // P_NEW: add a block at the end (block argument ignored);
                 // returned zeroed and exclusively locked
};

enum class StrategyType : uint8_t { kNormal, kBulkRead, kBulkWrite, kVacuum };

// On-disk-independent ring sizes (bytes), as in PostgreSQL. Every ring is also
// capped at 1/8 of shared_buffers.
inline constexpr size_t kBulkReadRingBytes = 256 * 1024;
inline constexpr size_t kBulkWriteRingBytes = 16 * 1024 * 1024;
inline constexpr size_t kVacuumRingBytes = 2 * 1024 * 1024;

// A private ring of buffers reused by a bulk operation so it does not push
// the whole pool out. Created per operation by GetAccessStrategy and passed
// to ReadBuffer; nullptr means normal replacement.
struct BufferAccessStrategy {
  StrategyType type = StrategyType::kNormal;
  int current = 0;              // slot last handed out
  std::vector<BufferId> ring;   // kInvalidBufferId = slot not filled yet
};

// REQUIRES: the buffer pool is initialised (uses NBuffers for the cap).
// kNormal returns nullptr.
std::unique_ptr<BufferAccessStrategy> GetAccessStrategy(StrategyType type);

}  // namespace hearth::storage
