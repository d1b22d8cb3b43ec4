// server/executor/spill_partitions.h
//
// Hash partitioning of rows into spill files, shared by the hash aggregate
// and the hash join when their table would outgrow ExecContext::hash_mem.
// A pass at recursion depth d sends each row whose key cannot stay in
// memory to one of kCount SpillFiles chosen by PartitionOf(hash, d); a
// partition is later re-read as the input of a pass at depth d + 1, which
// looks at different hash bits, so the partitions keep shrinking. Files
// are created on the first row of a partition and deleted by their owner
// (RAII), so nothing outlives a cancel; their bytes count towards
// temp_file_limit (53400). Owned by one node; not thread-safe.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "executor/spill_file.h"
#include "executor/table_access.h"

namespace hearth::executor {

// Hash of a key built with AppendHashKey (the same bytes give the same hash
// on both sides of a join).
uint64_t HashKeyBytes(std::string_view key);

// Emptied spill files kept for reuse by one node (at most kMaxFree).
class SpillFilePool {
 public:
  static constexpr size_t kMaxFree = 256;
  // A file ready for writing: a reused one, or a new one in `dir`.
  std::unique_ptr<SpillFile> Get(const std::string& dir);
  // Takes f back (null is ignored); it is truncated, or deleted if the
  // pool is full or truncating fails. Never throws.
  void Put(std::unique_ptr<SpillFile> f);
  void Clear() { free_.clear(); }

 private:
  std::vector<std::unique_ptr<SpillFile>> free_;
};

class SpillPartitions {
 public:
  // A pass splits into 2^bits partitions: kDefaultBits when nothing is
  // known about its input (the first pass), else FanoutBits.
  static constexpr int kDefaultBits = 5;
  static constexpr int kMinBits = 2;
  static constexpr int kMaxBits = 7;  // bounds the open files too

  // Bits for a pass over `rows` rows when `rows_that_fit` rows (or
  // groups) filled the table before: enough partitions that each fits.
  static int FanoutBits(uint64_t rows, uint64_t rows_that_fit);

  // Partition of a key hash at recursion depth `depth`, among 2^bits: each
  // depth mixes the hash with its own seed, so a partition re-split one
  // level deeper spreads over all partitions again.
  static int PartitionOf(uint64_t hash, int depth, int bits);

  // Forgets every partition (their files go back to the pool, if any);
  // there will be 2^bits, their files from `pool` or new in `dir`.
  void Reset(const std::string& dir, int bits = kDefaultBits, SpillFilePool* pool = nullptr);
  int bits() const { return bits_; }
  int count() const { return 1 << bits_; }
  // Partition of a key hash in this pass.
  int PartitionOf(uint64_t hash, int depth) const { return PartitionOf(hash, depth, bits_); }
  // Appends row v[0..n) to partition p.
  void Write(int p, const types::Value* v, size_t n);
  uint64_t rows(int p) const { return rows_[static_cast<size_t>(p)]; }
  bool any() const { return any_; }
  // Hands partition p over, rewound for reading (null when it got no row).
  std::unique_ptr<SpillFile> Take(int p);

 private:
  std::string dir_;
  SpillFilePool* pool_ = nullptr;
  int bits_ = kDefaultBits;
  std::array<std::unique_ptr<SpillFile>, 1 << kMaxBits> files_;
  std::array<uint64_t, 1 << kMaxBits> rows_{};
  bool any_ = false;
  std::string scratch_;
};

// Reads the next row written by SpillPartitions::Write into *row (reusing
// its storage; the row has as many values as were written); false at end
// of file. *buf is scratch space kept by the caller.
bool ReadSpilledRow(SpillFile& file, std::string* buf, Row* row);

}  // namespace hearth::executor
