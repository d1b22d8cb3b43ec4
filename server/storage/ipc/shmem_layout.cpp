// storage/ipc/shmem_layout.cpp
//
// Principal entry points: TotalShmemSize, InitAllShmem, CreateSharedMemory.
// To add a region: add its XxxShmemSize to kRegions below, in the order the
// regions should sit in the segment. Nothing else needs to change.
#include "storage/ipc/shmem_layout.h"

#include "storage/buffer/bufmgr.h"
#include "storage/lmgr/backend_activity.h"
#include "storage/lmgr/backend_progress.h"
#include "storage/lmgr/lock.h"
#include "storage/lmgr/proc_array.h"
#include "storage/smgr/smgr.h"
#include "storage/stats/table_stats.h"

namespace hearth::storage {

namespace {

struct RegionFns {
  size_t (*size)(const ShmemParams&);
  void (*init)(ShmemSegment&, const ShmemParams&);
};

// Page-sized slack per region covers alignment padding.
constexpr size_t kPerRegionSlack = 8192;

const RegionFns kRegions[] = {
    {ProcArrayShmemSize, ProcArrayShmemInit},
    {BackendProgressShmemSize, BackendProgressShmemInit},
    {BackendActivityShmemSize, BackendActivityShmemInit},
    {BufferShmemSize, BufferShmemInit},
    {SmgrShmemSize, SmgrShmemInit},
    {LockShmemSize, LockShmemInit},
    {XactAreaShmemSize, XactAreaShmemInit},
    {TableStatsShmemSize, TableStatsShmemInit},
    {[](const ShmemParams& p) { return p.WalAreaBytes(); }, [](ShmemSegment& s, const ShmemParams& p) { s.Allocate(ShmemParams::kWalAreaName, p.WalAreaBytes(), 8192); }},
};

}  // namespace

size_t TotalShmemSize(const ShmemParams& p) {
  size_t total = 0;
  for (const RegionFns& r : kRegions) total += r.size(p) + kPerRegionSlack;
  return total;
}

void InitAllShmem(ShmemSegment& seg, const ShmemParams& p) {
  for (const RegionFns& r : kRegions) r.init(seg, p);
}

std::unique_ptr<ShmemSegment> CreateSharedMemory(const ShmemParams& p) {
  auto seg = ShmemSegment::Create(TotalShmemSize(p));
  InitAllShmem(*seg, p);
  return seg;
}

}  // namespace hearth::storage
