// server/executor/spill_partitions.cpp
//
// Principal entry points: SpillPartitions::{PartitionOf, Write, Take},
// ReadSpilledRow.
#include "executor/spill_partitions.h"

#include <functional>

#include "executor/row_codec.h"

namespace hearth::executor {

uint64_t HashKeyBytes(std::string_view key) { return std::hash<std::string_view>{}(key); }

int SpillPartitions::FanoutBits(uint64_t rows, uint64_t rows_that_fit) {
  if (rows_that_fit == 0) return kDefaultBits;
  // 1.5x head room: partitions are never exactly even.
  const uint64_t want = (rows * 3 / 2) / rows_that_fit + 1;
  int bits = kMinBits;
  while (bits < kMaxBits && (uint64_t{1} << bits) < want) ++bits;
  return bits;
}

int SpillPartitions::PartitionOf(uint64_t hash, int depth, int bits) {
  // splitmix64 finalizer over the hash xor a per-depth seed: the top bits
  // are independent of the bits std::unordered_map uses for its buckets and
  // of the bits any other depth used.
  uint64_t x = hash ^ (0x9E3779B97F4A7C15ULL * static_cast<uint64_t>(depth + 1));
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  x ^= x >> 31;
  return static_cast<int>(x >> (64 - bits));
}

std::unique_ptr<SpillFile> SpillFilePool::Get(const std::string& dir) {
  if (free_.empty()) return std::make_unique<SpillFile>(dir);
  auto f = std::move(free_.back());
  free_.pop_back();
  return f;
}

void SpillFilePool::Put(std::unique_ptr<SpillFile> f) {
  if (!f || free_.size() >= kMaxFree || !f->Truncate()) return;  // deleted
  free_.push_back(std::move(f));
}

void SpillPartitions::Reset(const std::string& dir, int bits, SpillFilePool* pool) {
  for (auto& f : files_) {
    if (pool_ != nullptr) pool_->Put(std::move(f));
    f.reset();
  }
  dir_ = dir;
  bits_ = bits;
  pool_ = pool;
  rows_.fill(0);
  any_ = false;
}

void SpillPartitions::Write(int p, const types::Value* v, size_t n) {
  auto& f = files_[static_cast<size_t>(p)];
  if (!f) f = pool_ != nullptr ? pool_->Get(dir_) : std::make_unique<SpillFile>(dir_);
  scratch_.clear();
  EncodeValues(v, n, &scratch_);
  f->Write(scratch_);
  ++rows_[static_cast<size_t>(p)];
  any_ = true;
}

std::unique_ptr<SpillFile> SpillPartitions::Take(int p) {
  auto f = std::move(files_[static_cast<size_t>(p)]);
  if (f) f->Rewind();
  return f;
}

bool ReadSpilledRow(SpillFile& file, std::string* buf, Row* row) {
  if (!file.Read(buf)) return false;
  const char* p = buf->data();
  const char* end = p + buf->size();
  size_t n = 0;
  for (; p < end; ++n) {
    if (row->size() <= n) row->emplace_back();
    DecodeValues(&p, &(*row)[n], 1);
  }
  row->resize(n);
  return true;
}

}  // namespace hearth::executor
