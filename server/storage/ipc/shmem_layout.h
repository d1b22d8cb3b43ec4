// storage/ipc/shmem_layout.h
//
// The single list of every shared-memory region. The postmaster calls
// TotalShmemSize to size the segment and InitAllShmem to lay it out, both
// before forking (and again after a crash, on a fresh segment).
#pragma once

#include "storage/ipc/shmem.h"

namespace hearth::storage {

size_t TotalShmemSize(const ShmemParams& p);
void InitAllShmem(ShmemSegment& seg, const ShmemParams& p);

// Creates a segment sized for `p` and lays out every region in it.
std::unique_ptr<ShmemSegment> CreateSharedMemory(const ShmemParams& p);

}  // namespace hearth::storage
