// storage/smgr/smgr.cpp
//
// Principal entry points: SmgrInit, SmgrCreate, SmgrNblocks, SmgrExtend,
// SmgrRead, SmgrWrite, SmgrTruncate, SmgrUnlink, SmgrImmedSync,
// SmgrRegisterSync, SmgrSyncPending; SmgrShmemSize/SmgrShmemInit.
// See README.md in this folder for the invariants.
#include "storage/smgr/smgr.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <vector>

#include "storage/smgr/smgr_internals.h"

namespace hearth::storage {

namespace {

// 1 GiB segments, as in PostgreSQL.
constexpr BlockNumber kDefaultSegmentBlocks = static_cast<BlockNumber>((size_t{1} << 30) / kBlockSize);
// Per-process descriptor cache size.
constexpr int kFdCacheSize = 64;

// ---- process-private state -------------------------------------------------------
std::string g_datadir;
BlockNumber g_segment_blocks = kDefaultSegmentBlocks;
RelSizeCacheShared* g_relsize = nullptr;
SyncQueueShared* g_syncq = nullptr;
DroppedFilesShared* g_dropped = nullptr;
uint64_t g_dropped_seen = 0;  // entries of g_dropped this process has handled

struct FdEntry {
  uint64_t rel = 0;  // RelFileLocator::Key()
  uint8_t fork = 0;
  uint32_t segno = 0;
  int fd = -1;
  uint64_t last_use = 0;
};
FdEntry g_fds[kFdCacheSize];
uint64_t g_fd_clock = 0;

std::string ErrnoText(int err) { return std::strerror(err); }

std::string SegPath(RelFileLocator rel, ForkNumber fork, uint32_t segno) {
  std::string p = g_datadir + "/" + RelPath(rel, fork);
  if (segno > 0) p += "." + std::to_string(segno);
  return p;
}

void CloseFdEntry(FdEntry& e) {
  if (e.fd >= 0) close(e.fd);
  e = FdEntry{};
}

// Returns an open descriptor for the segment, or -1 with errno set. With
// `create`, a missing file is created.
int OpenSegment(RelFileLocator rel, ForkNumber fork, uint32_t segno, bool create) {
  uint8_t f = static_cast<uint8_t>(fork);
  FdEntry* victim = &g_fds[0];
  for (FdEntry& e : g_fds) {
    if (e.fd >= 0 && e.rel == rel.Key() && e.fork == f && e.segno == segno) {
      e.last_use = ++g_fd_clock;
      return e.fd;
    }
    if (e.fd < 0) {
      if (victim->fd >= 0) victim = &e;
    } else if (victim->fd >= 0 && e.last_use < victim->last_use) {
      victim = &e;
    }
  }
  int flags = O_RDWR | O_CLOEXEC | (create ? O_CREAT : 0);
  int fd = open(SegPath(rel, fork, segno).c_str(), flags, 0600);
  if (fd < 0 && create && errno == ENOENT) {
    // The database's directory itself is missing (a fresh data directory
    // of a test or tool, or redo of a database the WAL created): make it.
    if (rel.db != 0) (void)mkdir((g_datadir + "/base").c_str(), 0700);
    const std::string dir = g_datadir + "/" + DatabaseDirectory(rel.db);
    if (mkdir(dir.c_str(), 0700) == 0 || errno == EEXIST) fd = open(SegPath(rel, fork, segno).c_str(), flags, 0600);
  }
  if (fd < 0) return -1;
  CloseFdEntry(*victim);
  victim->rel = rel.Key();
  victim->fork = f;
  victim->segno = segno;
  victim->fd = fd;
  victim->last_use = ++g_fd_clock;
  return fd;
}

void ForgetFds(RelFileLocator rel, ForkNumber fork) {
  for (FdEntry& e : g_fds) {
    if (e.fd >= 0 && e.rel == rel.Key() && e.fork == static_cast<uint8_t>(fork)) CloseFdEntry(e);
  }
}

void ForgetAllForkFds(uint64_t rel) {
  for (FdEntry& e : g_fds) {
    if (e.fd >= 0 && e.rel == rel) CloseFdEntry(e);
  }
}

// Tells every process that `rel`'s files are gone (SmgrCloseDroppedFiles).
void AnnounceDropped(RelFileLocator rel) {
  if (g_dropped == nullptr) return;
  LWLockGuard guard(g_dropped->lock, LWLockMode::kExclusive);
  uint64_t n = g_dropped->count.load(std::memory_order_relaxed);
  g_dropped->rels[n % kDroppedRing] = rel.Key();
  g_dropped->count.store(n + 1, std::memory_order_release);
}

// Sizes every segment with lseek: the slow path, used when a fork is first
// seen. Returns nullopt if segment 0 does not exist.
std::optional<BlockNumber> NblocksFromFiles(RelFileLocator rel, ForkNumber fork) {
  BlockNumber total = 0;
  for (uint32_t segno = 0;; segno++) {
    int fd = OpenSegment(rel, fork, segno, false);
    if (fd < 0) {
      if (segno == 0) return std::nullopt;
      return total;
    }
    off_t end = lseek(fd, 0, SEEK_END);
    if (end < 0) return total;
    auto blocks = static_cast<BlockNumber>(static_cast<size_t>(end) / kBlockSize);
    total += blocks;
    if (blocks < g_segment_blocks) return total;
  }
}

// ---- relation-size cache ---------------------------------------------------------

uint32_t HashKey(uint64_t rel, uint8_t fork) {
  uint64_t x = ((rel << 8 | fork) ^ (rel >> 56)) * 0x9E3779B97F4A7C15ULL;
  return static_cast<uint32_t>(x >> 32);
}

RelSizePartition& PartitionFor(uint32_t hash) { return g_relsize->partitions[hash % kRelSizePartitions]; }

// REQUIRES: partition lock held (any mode). Returns the slot or nullptr.
RelSizeSlot* FindSlot(uint64_t rel, uint8_t fork, uint32_t hash) {
  RelSizePartition& part = PartitionFor(hash);
  uint32_t mask = g_relsize->slots_per_partition - 1;
  RelSizeSlot* base = &g_relsize->slots[part.first_slot];
  for (uint32_t i = (hash / kRelSizePartitions) & mask, n = 0; n <= mask; i = (i + 1) & mask, n++) {
    RelSizeSlot& s = base[i];
    if (s.rel == 0) return nullptr;
    if (s.rel == rel && s.fork == fork) return &s;
  }
  return nullptr;
}

// REQUIRES: partition lock held exclusive. Removes the slot at `hole` with
// backward-shift deletion, which keeps every probe chain unbroken without
// tombstones.
void EraseAt(RelSizePartition& part, uint32_t hole) {
  uint32_t mask = g_relsize->slots_per_partition - 1;
  RelSizeSlot* base = &g_relsize->slots[part.first_slot];
  for (uint32_t j = (hole + 1) & mask;; j = (j + 1) & mask) {
    if (base[j].rel == 0) break;
    uint32_t home = (HashKey(base[j].rel, base[j].fork) / kRelSizePartitions) & mask;
    // Move j into the hole if its home is not cyclically within (hole, j].
    bool home_in_range = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j);
    if (!home_in_range) {
      base[hole] = base[j];
      hole = j;
    }
  }
  base[hole] = RelSizeSlot{};
  part.used--;
}

// REQUIRES: partition lock held exclusive; the partition is not empty.
// Round-robin eviction: any entry may go, since a missing entry is simply
// re-read from the files (exact, because extension is serialised).
void EvictOne(RelSizePartition& part) {
  uint32_t mask = g_relsize->slots_per_partition - 1;
  RelSizeSlot* base = &g_relsize->slots[part.first_slot];
  uint32_t i = part.clock_hand & mask;
  while (base[i].rel == 0) i = (i + 1) & mask;
  part.clock_hand = (i + 1) & mask;
  EraseAt(part, i);
}

// REQUIRES: partition lock held exclusive; key absent. Keeps the load factor
// at or below 3/4 by evicting another entry first when needed.
void InsertSlot(uint64_t rel, uint8_t fork, uint32_t hash, BlockNumber nblocks) {
  RelSizePartition& part = PartitionFor(hash);
  uint32_t cap = g_relsize->slots_per_partition;
  if ((part.used + 1) * 4 > cap * 3) EvictOne(part);
  uint32_t mask = cap - 1;
  RelSizeSlot* base = &g_relsize->slots[part.first_slot];
  for (uint32_t i = (hash / kRelSizePartitions) & mask;; i = (i + 1) & mask) {
    if (base[i].rel == 0) {
      base[i].rel = rel;
      base[i].fork = fork;
      base[i].nblocks = nblocks;
      part.used++;
      return;
    }
  }
}

// REQUIRES: partition lock held exclusive. Inserts or overwrites.
void SetSlot(uint64_t rel, uint8_t fork, uint32_t hash, BlockNumber nblocks) {
  if (RelSizeSlot* s = FindSlot(rel, fork, hash)) {
    s->nblocks = nblocks;
  } else {
    InsertSlot(rel, fork, hash, nblocks);
  }
}

// Sets the cached size under the exclusive partition lock. `raise_only`:
// keep a larger cached value (extension). A missing entry is filled from the
// files (lseek) while the lock is held, so it cannot race with a writer.
void UpdateCachedSize(RelFileLocator rel, ForkNumber fork, BlockNumber nblocks, bool raise_only) {
  if (g_relsize == nullptr) return;
  uint8_t f = static_cast<uint8_t>(fork);
  uint32_t h = HashKey(rel.Key(), f);
  LWLockGuard guard(PartitionFor(h).lock, LWLockMode::kExclusive);
  if (RelSizeSlot* s = FindSlot(rel.Key(), f, h)) {
    BlockNumber old = s->nblocks == kAbsentFork ? 0 : s->nblocks;
    s->nblocks = raise_only ? std::max(old, nblocks) : nblocks;
    return;
  }
  BlockNumber value = nblocks;
  if (raise_only) value = std::max(value, NblocksFromFiles(rel, fork).value_or(0));
  InsertSlot(rel.Key(), f, h, value);
}

// The cached entry: nullopt when not cached, kAbsentFork when known missing.
std::optional<BlockNumber> CachedEntry(RelFileLocator rel, ForkNumber fork) {
  uint8_t f = static_cast<uint8_t>(fork);
  uint32_t h = HashKey(rel.Key(), f);
  LWLockGuard guard(PartitionFor(h).lock, LWLockMode::kShared);
  if (const RelSizeSlot* s = FindSlot(rel.Key(), f, h)) return s->nblocks;
  return std::nullopt;
}

// The fork's size, or kAbsentFork. On a miss the files are sized (one lseek
// per segment) under the SHARED partition lock, which excludes truncation
// and unlink (exclusive) but not other readers; then the entry is inserted
// under the exclusive lock unless someone else filled it meanwhile (an
// extension, creation or unlink in between always leaves an entry, which
// then wins over the value read here).
BlockNumber LookupOrLoad(RelFileLocator rel, ForkNumber fork) {
  if (auto cached = CachedEntry(rel, fork)) return *cached;
  uint8_t f = static_cast<uint8_t>(fork);
  uint32_t h = HashKey(rel.Key(), f);
  std::optional<BlockNumber> n;
  {
    LWLockGuard guard(PartitionFor(h).lock, LWLockMode::kShared);
    n = NblocksFromFiles(rel, fork);
  }
  LWLockGuard guard(PartitionFor(h).lock, LWLockMode::kExclusive);
  if (const RelSizeSlot* s = FindSlot(rel.Key(), f, h)) return s->nblocks;
  BlockNumber value = n.value_or(kAbsentFork);
  InsertSlot(rel.Key(), f, h, value);
  return value;
}

Status FsyncSegment(RelFileLocator rel, ForkNumber fork, uint32_t segno, bool missing_ok, bool* missing = nullptr) {
  int fd = OpenSegment(rel, fork, segno, false);
  if (fd < 0) {
    if (errno == ENOENT && missing_ok) {
      if (missing != nullptr) *missing = true;
      return Status::Ok();
    }
    return Status::IoError("could not open file \"" + SegPath(rel, fork, segno) + "\": " + ErrnoText(errno));
  }
  if (fsync(fd) != 0) {
    return Status::IoError("could not fsync file \"" + SegPath(rel, fork, segno) + "\": " + ErrnoText(errno));
  }
  return Status::Ok();
}

bool SyncRequestLess(const SyncRequest& a, const SyncRequest& b) {
  if (a.rel != b.rel) return a.rel < b.rel;
  if (a.fork != b.fork) return a.fork < b.fork;
  return a.segno < b.segno;
}
bool SyncRequestEq(const SyncRequest& a, const SyncRequest& b) {
  return a.rel == b.rel && a.fork == b.fork && a.segno == b.segno;
}

Status PwriteFull(int fd, const char* buf, off_t off, const std::string& what) {
  ssize_t n = pwrite(fd, buf, kBlockSize, off);
  if (n == static_cast<ssize_t>(kBlockSize)) return Status::Ok();
  if (n < 0) return Status::FromErrno(errno, "could not write " + what + ": " + ErrnoText(errno));
  return Status::DiskFull("could not write " + what + ": wrote only " + std::to_string(n) + " of " +
                          std::to_string(kBlockSize) + " bytes");
}

// The data directory's relative name of a segment, as PostgreSQL's messages
// show it ("base/16384").
std::string RelSegName(RelFileLocator rel, ForkNumber fork, uint32_t segno) {
  return SegPath(rel, fork, segno).substr(g_datadir.size() + 1);
}

// Writes `len` bytes at `off` of a segment being extended. On any failure
// (out of space above all) the segment is cut back to `off`, so the fork
// ends where the shared size cache says it does: no partial block, nothing
// for a later extension or a restart to trip over.
Status ExtendWrite(int fd, const char* buf, size_t len, off_t off, RelFileLocator rel, ForkNumber fork,
                   uint32_t segno, BlockNumber block) {
  for (size_t done = 0; done < len;) {
    ssize_t w = pwrite(fd, buf + done, len - done, off + static_cast<off_t>(done));
    if (w < 0 && errno == EINTR) continue;
    if (w > 0) {
      done += static_cast<size_t>(w);
      continue;
    }
    const int err = w < 0 ? errno : ENOSPC;
    // If even the cut fails, what stays beyond the cached size is
    // overwritten by the next extension (which starts at the cached size).
    [[maybe_unused]] const int cut = ftruncate(fd, off);
    const std::string file = "could not extend file \"" + RelSegName(rel, fork, segno) + "\"";
    if (w < 0) return Status::FromErrno(err, file + ": " + ErrnoText(err));
    return Status::DiskFull(file + ": wrote only " + std::to_string(done) + " of " + std::to_string(len) +
                            " bytes at block " + std::to_string(block));
  }
  return Status::Ok();
}

}  // namespace

// ---- shared memory -----------------------------------------------------------------

namespace {
uint32_t SlotsPerPartition(const ShmemParams& p) {
  uint32_t want = static_cast<uint32_t>(std::max(64, p.relation_size_cache / kRelSizePartitions * 2));
  uint32_t n = 64;
  while (n < want) n <<= 1;
  return n;
}
uint32_t SyncQueueCapacity(const ShmemParams& p) {
  // One request per dirty segment since the last checkpoint: as many as
  // buffers, or as relation forks (creating many small tables touches many
  // distinct files), whichever is larger.
  return static_cast<uint32_t>(std::clamp(std::max(p.nbuffers, p.relation_size_cache), 64, 1 << 22));
}
}  // namespace

size_t SmgrShmemSize(const ShmemParams& p) {
  size_t relsize = sizeof(RelSizeCacheShared) + sizeof(RelSizeSlot) * SlotsPerPartition(p) * kRelSizePartitions;
  size_t syncq = sizeof(SyncQueueShared) + sizeof(SyncRequest) * SyncQueueCapacity(p);
  return AlignUp(relsize, 64) + AlignUp(syncq, 64) + AlignUp(sizeof(DroppedFilesShared), 64) + 192;
}

void SmgrShmemInit(ShmemSegment& seg, const ShmemParams& p) {
  uint32_t spp = SlotsPerPartition(p);
  size_t relsize = sizeof(RelSizeCacheShared) + sizeof(RelSizeSlot) * spp * kRelSizePartitions;
  auto* rc = static_cast<RelSizeCacheShared*>(seg.Allocate("smgr relation sizes", relsize));
  std::memset(static_cast<void*>(rc), 0, relsize);
  rc->slots_per_partition = spp;
  for (int i = 0; i < kRelSizePartitions; i++) {
    rc->partitions[i].lock.Init();
    rc->partitions[i].used = 0;
    rc->partitions[i].first_slot = static_cast<uint32_t>(i) * spp;
    rc->partitions[i].clock_hand = 0;
  }
  uint32_t cap = SyncQueueCapacity(p);
  size_t syncq = sizeof(SyncQueueShared) + sizeof(SyncRequest) * cap;
  auto* q = static_cast<SyncQueueShared*>(seg.Allocate("smgr fsync requests", syncq));
  std::memset(static_cast<void*>(q), 0, syncq);
  q->lock.Init();
  q->capacity = cap;
  q->count = 0;
  q->compacted = true;
  q->backend_fsyncs.store(0);
  auto* d = static_cast<DroppedFilesShared*>(seg.Allocate("smgr dropped files", sizeof(DroppedFilesShared)));
  std::memset(static_cast<void*>(d), 0, sizeof(DroppedFilesShared));
  d->lock.Init();
  d->count.store(0);
  g_relsize = rc;
  g_syncq = q;
  g_dropped = d;
  g_dropped_seen = 0;
}

// ---- per-process setup ---------------------------------------------------------------

void SmgrInit(std::string datadir) {
  SmgrCloseAll();
  g_datadir = std::move(datadir);
  mkdir(g_datadir.c_str(), 0700);
  mkdir((g_datadir + "/base").c_str(), 0700);
}

const std::string& SmgrDataDir() { return g_datadir; }

void SmgrCloseAll() {
  for (FdEntry& e : g_fds) CloseFdEntry(e);
}

BlockNumber SmgrSegmentBlocks() { return g_segment_blocks; }
void SmgrSetSegmentBlocksForTest(BlockNumber blocks) { g_segment_blocks = blocks == 0 ? kDefaultSegmentBlocks : blocks; }

std::string SmgrSegmentPath(RelFileLocator rel, ForkNumber fork, uint32_t segno) { return SegPath(rel, fork, segno); }

// ---- relation forks ----------------------------------------------------------------------

Status SmgrCreate(RelFileLocator rel, ForkNumber fork, bool ok_if_exists) {
  std::string path = SegPath(rel, fork, 0);
  const int flags = O_RDWR | O_CREAT | O_CLOEXEC | (ok_if_exists ? 0 : O_EXCL);
  int fd = open(path.c_str(), flags, 0600);
  if (fd < 0 && errno == ENOENT) {
    // The database's directory is missing (a fresh directory of a test or
    // tool, or redo of a database the WAL created): make it and retry.
    if (rel.db != 0) (void)mkdir((g_datadir + "/base").c_str(), 0700);
    (void)mkdir((g_datadir + "/" + DatabaseDirectory(rel.db)).c_str(), 0700);
    fd = open(path.c_str(), flags, 0600);
  }
  if (fd < 0) {
    int err = errno;
    if (err == EEXIST) return Status::InvalidArgument("relation file \"" + path + "\" already exists");
    return Status::IoError("could not create file \"" + path + "\": " + ErrnoText(err));
  }
  close(fd);
  if (g_relsize == nullptr) return Status::Ok();
  if (ok_if_exists) {
    // Redo: the file may have had blocks already; size it under the lock.
    uint8_t f = static_cast<uint8_t>(fork);
    uint32_t h = HashKey(rel.Key(), f);
    LWLockGuard guard(PartitionFor(h).lock, LWLockMode::kExclusive);
    SetSlot(rel.Key(), f, h, NblocksFromFiles(rel, fork).value_or(0));
    return Status::Ok();
  }
  // A new fork: make sure no stale size from a previous life is cached.
  UpdateCachedSize(rel, fork, 0, /*raise_only=*/false);
  if (fork == ForkNumber::kMain) {
    // A brand-new relfilenode (O_EXCL succeeded and numbers are never
    // reused) has no other forks yet: remember that, so that dropping it
    // later is decided from the cache without probing files.
    for (int other = 1; other < kNumForks; other++) {
      uint8_t f = static_cast<uint8_t>(other);
      uint32_t h = HashKey(rel.Key(), f);
      LWLockGuard guard(PartitionFor(h).lock, LWLockMode::kExclusive);
      if (FindSlot(rel.Key(), f, h) == nullptr) InsertSlot(rel.Key(), f, h, kAbsentFork);
    }
  }
  return Status::Ok();
}

bool SmgrExists(RelFileLocator rel, ForkNumber fork) {
  if (g_relsize == nullptr) return OpenSegment(rel, fork, 0, false) >= 0;
  return LookupOrLoad(rel, fork) != kAbsentFork;
}

std::optional<BlockNumber> SmgrCachedNblocks(RelFileLocator rel, ForkNumber fork) {
  if (g_relsize == nullptr) return std::nullopt;
  std::optional<BlockNumber> n = CachedEntry(rel, fork);
  if (n && *n == kAbsentFork) return 0;
  return n;
}

BlockNumber SmgrNblocks(RelFileLocator rel, ForkNumber fork) {
  if (g_relsize == nullptr) return NblocksFromFiles(rel, fork).value_or(0);
  BlockNumber n = LookupOrLoad(rel, fork);
  return n == kAbsentFork ? 0 : n;
}

Status SmgrExtend(RelFileLocator rel, ForkNumber fork, BlockNumber block, const char* page, bool skip_fsync) {
  static const char kZeros[kBlockSize] = {};
  uint32_t segno = block / g_segment_blocks;
  int fd = OpenSegment(rel, fork, segno, true);
  if (fd < 0) {
    return Status::IoError("could not open file \"" + SegPath(rel, fork, segno) + "\": " + ErrnoText(errno));
  }
  off_t off = static_cast<off_t>(block % g_segment_blocks) * static_cast<off_t>(kBlockSize);
  Status st = ExtendWrite(fd, page != nullptr ? page : kZeros, kBlockSize, off, rel, fork, segno, block);
  if (!st.ok()) return st;
  UpdateCachedSize(rel, fork, block + 1, /*raise_only=*/true);
  if (!skip_fsync) return SmgrRegisterSync(rel, fork, segno);
  return Status::Ok();
}

Status SmgrExtendZeros(RelFileLocator rel, ForkNumber fork, BlockNumber first, BlockNumber count) {
  // One write per segment piece, from a shared zero area of kMaxZeroBlocks.
  constexpr BlockNumber kMaxZeroBlocks = 256;
  static const std::vector<char> zeros(static_cast<size_t>(kMaxZeroBlocks) * kBlockSize, 0);
  BlockNumber block = first;
  const BlockNumber end = first + count;
  while (block < end) {
    const uint32_t segno = block / g_segment_blocks;
    const BlockNumber in_seg = g_segment_blocks - block % g_segment_blocks;
    const BlockNumber n = std::min({end - block, in_seg, kMaxZeroBlocks});
    int fd = OpenSegment(rel, fork, segno, true);
    if (fd < 0) {
      return Status::IoError("could not open file \"" + SegPath(rel, fork, segno) + "\": " + ErrnoText(errno));
    }
    const off_t off = static_cast<off_t>(block % g_segment_blocks) * static_cast<off_t>(kBlockSize);
    const size_t len = static_cast<size_t>(n) * kBlockSize;
    Status st = ExtendWrite(fd, zeros.data(), len, off, rel, fork, segno, block);
    if (!st.ok()) return st;
    UpdateCachedSize(rel, fork, block + n, /*raise_only=*/true);
    st = SmgrRegisterSync(rel, fork, segno);
    if (!st.ok()) return st;
    block += n;
  }
  return Status::Ok();
}

Status SmgrRead(RelFileLocator rel, ForkNumber fork, BlockNumber block, char* buf) {
  uint32_t segno = block / g_segment_blocks;
  int fd = OpenSegment(rel, fork, segno, false);
  if (fd < 0) {
    int err = errno;
    std::string msg = "could not open file \"" + SegPath(rel, fork, segno) + "\" (target block " +
                      std::to_string(block) + "): " + ErrnoText(err);
    return err == ENOENT ? Status::NotFound(msg) : Status::IoError(msg);
  }
  off_t off = static_cast<off_t>(block % g_segment_blocks) * static_cast<off_t>(kBlockSize);
  size_t done = 0;
  while (done < kBlockSize) {
    ssize_t n = pread(fd, buf + done, kBlockSize - done, off + static_cast<off_t>(done));
    if (n < 0) {
      if (errno == EINTR) continue;
      return Status::IoError("could not read block " + std::to_string(block) + " in file \"" +
                             SegPath(rel, fork, segno) + "\": " + ErrnoText(errno));
    }
    if (n == 0) {
      return Status::Corruption("could not read block " + std::to_string(block) + " in file \"" +
                                SegPath(rel, fork, segno) + "\": read only " + std::to_string(done) + " of " +
                                std::to_string(kBlockSize) + " bytes");
    }
    done += static_cast<size_t>(n);
  }
  return Status::Ok();
}

Status SmgrWrite(RelFileLocator rel, ForkNumber fork, BlockNumber block, const char* buf, bool skip_fsync) {
  uint32_t segno = block / g_segment_blocks;
  int fd = OpenSegment(rel, fork, segno, false);
  if (fd < 0) {
    return Status::IoError("could not open file \"" + SegPath(rel, fork, segno) + "\" (target block " +
                           std::to_string(block) + "): " + ErrnoText(errno));
  }
  off_t off = static_cast<off_t>(block % g_segment_blocks) * static_cast<off_t>(kBlockSize);
  Status st = PwriteFull(fd, buf, off, "block " + std::to_string(block) + " of relation " + RelPath(rel, fork));
  if (!st.ok()) return st;
  if (!skip_fsync) return SmgrRegisterSync(rel, fork, segno);
  return Status::Ok();
}

Status SmgrTruncate(RelFileLocator rel, ForkNumber fork, BlockNumber nblocks) {
  BlockNumber old = SmgrNblocks(rel, fork);
  uint8_t f = static_cast<uint8_t>(fork);
  uint32_t h = HashKey(rel.Key(), f);
  std::optional<LWLockGuard> guard;
  if (g_relsize != nullptr) guard.emplace(PartitionFor(h).lock, LWLockMode::kExclusive);
  uint32_t last_seg = old == 0 ? 0 : (old - 1) / g_segment_blocks;
  uint32_t keep_seg = nblocks / g_segment_blocks;
  for (uint32_t segno = keep_seg; segno <= std::max(last_seg, keep_seg); segno++) {
    int fd = OpenSegment(rel, fork, segno, false);
    if (fd < 0) {
      if (errno == ENOENT) continue;
      return Status::IoError("could not open file \"" + SegPath(rel, fork, segno) + "\": " + ErrnoText(errno));
    }
    off_t len = segno == keep_seg ? static_cast<off_t>(nblocks % g_segment_blocks) * static_cast<off_t>(kBlockSize) : 0;
    if (ftruncate(fd, len) != 0) {
      return Status::IoError("could not truncate file \"" + SegPath(rel, fork, segno) + "\": " + ErrnoText(errno));
    }
    // Truncation must be durable before the WAL that describes it is recycled.
    if (fsync(fd) != 0) {
      return Status::IoError("could not fsync file \"" + SegPath(rel, fork, segno) + "\": " + ErrnoText(errno));
    }
  }
  if (g_relsize != nullptr) SetSlot(rel.Key(), f, h, nblocks);
  return Status::Ok();
}

Status SmgrUnlink(RelFileLocator rel, ForkNumber fork) {
  ForgetFds(rel, fork);
  uint8_t f = static_cast<uint8_t>(fork);
  uint32_t h = HashKey(rel.Key(), f);
  std::optional<LWLockGuard> guard;
  if (g_relsize != nullptr) guard.emplace(PartitionFor(h).lock, LWLockMode::kExclusive);
  Status result;
  for (uint32_t segno = 0;; segno++) {
    std::string path = SegPath(rel, fork, segno);
    // Truncate first: other processes may still have the file open (until
    // they next call SmgrCloseDroppedFiles), and the space must return now.
    if (truncate(path.c_str(), 0) != 0 && errno == ENOENT) break;
    if (unlink(path.c_str()) != 0) {
      if (errno != ENOENT && result.ok()) {
        result = Status::IoError("could not remove file \"" + path + "\": " + ErrnoText(errno));
      }
      // Segment files are contiguous; the first missing one ends the fork.
      if (errno == ENOENT) break;
    }
  }
  // Remembered as absent (not erased): a reader that sized the files just
  // before the unlink then finds this entry instead of inserting its value.
  if (g_relsize != nullptr) SetSlot(rel.Key(), f, h, kAbsentFork);
  return result;
}

Status SmgrUnlinkAllForks(RelFileLocator rel) {
  Status result;
  for (int f = 0; f < kNumForks; f++) {
    Status st = SmgrUnlink(rel, static_cast<ForkNumber>(f));
    if (!st.ok() && result.ok()) result = st;
  }
  AnnounceDropped(rel);
  return result;
}

Status SmgrUnlinkRelations(std::span<const RelFileLocator> rels) {
  if (rels.empty()) return Status::Ok();
  if (g_syncq != nullptr) {
    // Their queued fsync requests are moot: one pass over the queue.
    std::vector<uint64_t> gone;
    gone.reserve(rels.size());
    for (const RelFileLocator& r : rels) gone.push_back(r.Key());
    std::sort(gone.begin(), gone.end());
    LWLockGuard guard(g_syncq->lock, LWLockMode::kExclusive);
    uint32_t kept = 0;
    for (uint32_t i = 0; i < g_syncq->count; i++) {
      if (!std::binary_search(gone.begin(), gone.end(), g_syncq->entries[i].rel)) {
        g_syncq->entries[kept++] = g_syncq->entries[i];
      }
    }
    g_syncq->count = kept;  // order kept: a compacted queue stays compacted
  }
  Status result;
  for (const RelFileLocator& r : rels) {
    Status st = SmgrUnlinkAllForks(r);
    if (!st.ok() && result.ok()) result = st;
  }
  return result;
}

void SmgrCloseDroppedFiles() {
  if (g_dropped == nullptr) return;
  if (g_dropped->count.load(std::memory_order_acquire) == g_dropped_seen) return;  // the common case
  LWLockGuard guard(g_dropped->lock, LWLockMode::kShared);
  uint64_t n = g_dropped->count.load(std::memory_order_relaxed);
  if (n - g_dropped_seen > kDroppedRing) {
    SmgrCloseAll();
  } else {
    for (uint64_t i = g_dropped_seen; i < n; i++) ForgetAllForkFds(g_dropped->rels[i % kDroppedRing]);
  }
  g_dropped_seen = n;
}

Status SmgrImmedSync(RelFileLocator rel, ForkNumber fork) {
  BlockNumber n = SmgrNblocks(rel, fork);
  uint32_t last_seg = n == 0 ? 0 : (n - 1) / g_segment_blocks;
  for (uint32_t segno = 0; segno <= last_seg; segno++) {
    Status st = FsyncSegment(rel, fork, segno, /*missing_ok=*/segno > 0);
    if (!st.ok()) return st;
  }
  return Status::Ok();
}

// ---- fsync requests --------------------------------------------------------------------------

Status SmgrRegisterSync(RelFileLocator rel, ForkNumber fork, uint32_t segno) {
  if (g_syncq != nullptr) {
    SyncRequest req{rel.Key(), static_cast<uint8_t>(fork), {0, 0, 0}, segno};
    LWLockGuard guard(g_syncq->lock, LWLockMode::kExclusive);
    uint32_t n = g_syncq->count;
    // The most common case: the same segment as the last request.
    if (n > 0 && SyncRequestEq(g_syncq->entries[n - 1], req)) return Status::Ok();
    if (n == g_syncq->capacity && !g_syncq->compacted) {
      // Compact: requests for the same segment are interchangeable. Once
      // compacted, a still-full queue is not sorted again until it changes.
      std::sort(g_syncq->entries, g_syncq->entries + n, SyncRequestLess);
      n = static_cast<uint32_t>(std::unique(g_syncq->entries, g_syncq->entries + n, SyncRequestEq) - g_syncq->entries);
      g_syncq->count = n;
      g_syncq->compacted = true;
    }
    if (n < g_syncq->capacity) {
      g_syncq->entries[n] = req;
      g_syncq->count = n + 1;
      g_syncq->compacted = false;
      return Status::Ok();
    }
    guard.Release();
    g_syncq->backend_fsyncs.fetch_add(1, std::memory_order_relaxed);
  }
  return FsyncSegment(rel, fork, segno, /*missing_ok=*/true);
}

Status SmgrSyncPending(SmgrSyncStats* stats) {
  if (g_syncq == nullptr) return Status::Ok();
  std::vector<SyncRequest> reqs;
  {
    LWLockGuard guard(g_syncq->lock, LWLockMode::kExclusive);
    reqs.assign(g_syncq->entries, g_syncq->entries + g_syncq->count);
    g_syncq->count = 0;
    g_syncq->compacted = true;
  }
  std::sort(reqs.begin(), reqs.end(), SyncRequestLess);
  reqs.erase(std::unique(reqs.begin(), reqs.end(), SyncRequestEq), reqs.end());
  Status result;
  SmgrSyncStats local;
  for (const SyncRequest& r : reqs) {
    const auto start = std::chrono::steady_clock::now();
    bool missing = false;
    Status st = FsyncSegment(RelFileLocator::FromKey(r.rel), static_cast<ForkNumber>(r.fork), r.segno, /*missing_ok=*/true,
                             &missing);
    if (!st.ok() && result.ok()) result = st;
    if (missing) continue;
    const int64_t ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start)
                           .count();
    local.files++;
    local.total_ns += ns;
    local.longest_ns = std::max(local.longest_ns, ns);
  }
  if (stats != nullptr) *stats = local;
  return result;
}

int SmgrPendingSyncRequests() {
  if (g_syncq == nullptr) return 0;
  LWLockGuard guard(g_syncq->lock, LWLockMode::kShared);
  return static_cast<int>(g_syncq->count);
}

uint64_t SmgrBackendFsyncCount() {
  return g_syncq == nullptr ? 0 : g_syncq->backend_fsyncs.load(std::memory_order_relaxed);
}

}  // namespace hearth::storage
