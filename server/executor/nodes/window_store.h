// server/executor/nodes/window_store.h
//
// PartitionStore: the rows of one window partition with random access by
// position. Rows live in memory (Row objects reused from partition to
// partition, so fixed-width rows do not allocate in steady state) while
// their footprint stays under work_mem; beyond that the whole partition
// goes to a SpillFile in the sort's row format (row_codec.h) and rows are
// read back in blocks through two cached blocks (a window function reads
// near two places at once: the current row and its frame's edge). The file
// is deleted by Clear, Close or unwinding (RAII). One execution's state.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "executor/exec_context.h"
#include "executor/spill_file.h"
#include "executor/table_access.h"

namespace hearth::executor {

class PartitionStore {
 public:
  void Open(ExecContext& ctx) { ctx_ = &ctx; }
  // Empties the store for the next partition (keeps memory for reuse).
  void Clear();
  void Append(const Row& row);
  // Switches from appending to reading.
  void Finish();
  size_t size() const { return count_; }
  bool spilled() const { return file_ != nullptr; }
  // Row i. The reference stays valid until the next Get or Append.
  const Row& Get(size_t i);
  // Frees everything (and deletes the spill file).
  void Release();

 private:
  void Spill();
  void LoadBlock(int slot, size_t block);

  ExecContext* ctx_ = nullptr;
  std::vector<Row> rows_;  // in memory: rows_[0, count_)
  size_t count_ = 0;
  size_t width_ = 0;  // every row of a partition has the child's width
  size_t bytes_ = 0;
  // Spilled.
  std::unique_ptr<SpillFile> file_;
  std::vector<uint64_t> offsets_;  // record offset of every row
  uint64_t file_bytes_ = 0;
  size_t block_rows_ = 0;
  std::vector<Row> blocks_[2];
  size_t block_id_[2] = {SIZE_MAX, SIZE_MAX};
  int lru_ = 0;  // slot to evict next
  std::string scratch_;
};

}  // namespace hearth::executor
