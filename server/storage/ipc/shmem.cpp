// storage/ipc/shmem.cpp
//
// Principal entry points: ShmemSegment::Create, Allocate, Find.
// The segment is a Boost.Interprocess shared_memory_object whose name is
// removed right after mapping: the postmaster and its children keep the
// mapping through fork, and the kernel frees it when the last one exits, so a
// crashed server never leaks a segment.
#include "storage/ipc/shmem.h"

#include <unistd.h>

#include <atomic>
#include <boost/interprocess/mapped_region.hpp>
#include <boost/interprocess/shared_memory_object.hpp>
#include <cstring>
#include <stdexcept>
#include <string>

namespace hearth::storage {

namespace bip = boost::interprocess;

struct ShmemMapping {
  bip::mapped_region region;
};

// Table of contents at offset 0 of the segment.
struct ShmemSegment::Header {
  uint64_t magic;
  uint64_t total_size;
  uint64_t next_free;  // bump pointer, offset from base
  int32_t nregions;
  ShmemRegionEntry regions[kMaxRegions];
};

namespace {
constexpr uint64_t kShmemMagic = 0x4845415254483031ULL;  // "HEARTH01"
}

std::unique_ptr<ShmemSegment> ShmemSegment::Create(size_t size) {
  size_t total = AlignUp(size + AlignUp(sizeof(Header), 4096) + 4096, 4096);
  static std::atomic<int> counter{0};
  std::string name = "/hearth." + std::to_string(getpid()) + "." + std::to_string(counter++);
  bip::shared_memory_object::remove(name.c_str());
  std::unique_ptr<ShmemSegment> seg(new ShmemSegment());
  try {
    // Owner only, as PostgreSQL's segments (0600): other users must not map
    // the buffer pool.
    bip::permissions owner_only(0600);
    bip::shared_memory_object shm(bip::create_only, name.c_str(), bip::read_write, owner_only);
    shm.truncate(static_cast<bip::offset_t>(total));
    seg->mapping_ = std::make_unique<ShmemMapping>();
    seg->mapping_->region = bip::mapped_region(shm, bip::read_write, 0, total);
    bip::shared_memory_object::remove(name.c_str());
  } catch (const bip::interprocess_exception& e) {
    bip::shared_memory_object::remove(name.c_str());
    throw std::runtime_error("could not create shared memory segment of " + std::to_string(total) +
                             " bytes: " + e.what());
  }
  seg->base_ = seg->mapping_->region.get_address();
  seg->size_ = total;
  Header* h = seg->header();
  std::memset(h, 0, sizeof(Header));
  h->magic = kShmemMagic;
  h->total_size = total;
  h->next_free = AlignUp(sizeof(Header), 4096);
  return seg;
}

ShmemSegment::~ShmemSegment() = default;

ShmemSegment::Header* ShmemSegment::header() const { return static_cast<Header*>(base_); }

size_t ShmemSegment::used() const { return header()->next_free; }

void* ShmemSegment::Allocate(std::string_view name, size_t size, size_t align) {
  Header* h = header();
  if (Find(name) != nullptr) throw std::runtime_error("shared memory region allocated twice: " + std::string(name));
  if (h->nregions >= kMaxRegions) throw std::runtime_error("too many shared memory regions");
  if (name.size() >= sizeof(ShmemRegionEntry::name)) throw std::runtime_error("region name too long");
  uint64_t offset = AlignUp(h->next_free, align);
  if (offset + size > h->total_size) {
    throw std::runtime_error("shared memory segment too small for region " + std::string(name) + " (" +
                             std::to_string(size) + " bytes)");
  }
  ShmemRegionEntry& e = h->regions[h->nregions++];
  std::memcpy(e.name, name.data(), name.size());
  e.name[name.size()] = '\0';
  e.offset = offset;
  e.size = size;
  h->next_free = offset + size;
  return static_cast<char*>(base_) + offset;
}

void* ShmemSegment::Find(std::string_view name) const {
  const Header* h = header();
  for (int i = 0; i < h->nregions; i++) {
    if (name == h->regions[i].name) return static_cast<char*>(base_) + h->regions[i].offset;
  }
  return nullptr;
}

}  // namespace hearth::storage
