// server/executor/nodes/window_store.cpp
//
// Principal entry points: PartitionStore::Append (spilling beyond
// work_mem) and PartitionStore::Get (block cache over the spill file).
#include "executor/nodes/window_store.h"

#include <algorithm>

#include "executor/row_codec.h"

namespace hearth::executor {

namespace {
constexpr size_t kMinWorkMem = 64 * 1024;
}  // namespace

void PartitionStore::Clear() {
  count_ = 0;
  bytes_ = 0;
  file_.reset();
  offsets_.clear();
  file_bytes_ = 0;
  block_id_[0] = block_id_[1] = SIZE_MAX;
}

void PartitionStore::Release() {
  Clear();
  rows_.clear();
  rows_.shrink_to_fit();
  blocks_[0].clear();
  blocks_[1].clear();
}

void PartitionStore::Append(const Row& row) {
  if (count_ == 0) width_ = row.size();
  if (file_) {
    scratch_.clear();
    EncodeValues(row.data(), row.size(), &scratch_);
    offsets_.push_back(file_bytes_);
    file_bytes_ += sizeof(uint32_t) + scratch_.size();
    file_->Write(scratch_);
    ++count_;
    return;
  }
  if (count_ < rows_.size()) {
    rows_[count_] = row;  // assigns in place: no allocation for fixed-width values
  } else {
    rows_.push_back(row);
  }
  ++count_;
  bytes_ += RowFootprint(row.data(), row.size());
  const auto limit = std::max<size_t>(kMinWorkMem, static_cast<size_t>(ctx_->work_mem));
  if (bytes_ > limit) Spill();
}

// Moves the rows held so far to a new spill file; later rows go there too.
void PartitionStore::Spill() {
  file_ = std::make_unique<SpillFile>(ctx_->temp_dir);
  // Blocks hold about a quarter of work_mem each.
  const size_t avg = std::max<size_t>(1, bytes_ / count_);
  const auto limit = std::max<size_t>(kMinWorkMem, static_cast<size_t>(ctx_->work_mem));
  block_rows_ = std::max<size_t>(16, limit / 4 / avg);
  const size_t n = count_;
  count_ = 0;
  for (size_t i = 0; i < n; ++i) {
    ctx_->CheckInterrupts();
    Append(rows_[i]);
  }
  rows_.clear();
  rows_.shrink_to_fit();
}

void PartitionStore::Finish() {
  if (file_) file_->Rewind();
}

void PartitionStore::LoadBlock(int slot, size_t block) {
  std::vector<Row>& rows = blocks_[slot];
  const size_t first = block * block_rows_;
  const size_t n = std::min(block_rows_, count_ - first);
  if (rows.size() < n) rows.resize(n);
  file_->Seek(offsets_[first]);
  for (size_t k = 0; k < n; ++k) {
    file_->Read(&scratch_);
    const char* p = scratch_.data();
    // Rows of one partition have one width: the child's.
    Row& r = rows[k];
    r.resize(width_);
    DecodeValues(&p, r.data(), width_);
  }
  block_id_[slot] = block;
}

const Row& PartitionStore::Get(size_t i) {
  if (!file_) return rows_[i];
  const size_t block = i / block_rows_;
  int slot = block_id_[0] == block ? 0 : (block_id_[1] == block ? 1 : -1);
  if (slot < 0) {
    slot = lru_;
    LoadBlock(slot, block);
  }
  lru_ = 1 - slot;  // the other slot is now the least recently used
  return blocks_[slot][i - block * block_rows_];
}

}  // namespace hearth::executor
