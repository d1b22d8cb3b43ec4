// server/executor/nodes/sort_node.cpp
//
// Principal entry points: SortNode::Open (consume + spill), Next (emit
// from memory or merge), Close (drop runs).
#include "executor/nodes/sort_node.h"

#include <algorithm>

#include "executor/row_codec.h"
#include "utils/adt/compare.h"

namespace hearth::executor {

// One sorted run being read back; `row` holds its current head.
struct SortNode::RunReader {
  std::unique_ptr<SpillFile> file;
  Row row;
  size_t width = 0;
  size_t seq = 0;  // run order, breaks ties to keep the sort stable
  std::string buf;
  bool Advance() {
    if (!file->Read(&buf)) return false;
    const char* p = buf.data();
    row.resize(width);
    DecodeValues(&p, row.data(), width);
    return true;
  }
};

SortNode::SortNode(ExecNodePtr child, std::vector<SortKey> keys, size_t output_width)
    : child_(std::move(child)), keys_(std::move(keys)), output_width_(output_width) {
  const auto& cc = child_->columns();
  columns_.assign(cc.begin(), cc.begin() + static_cast<std::ptrdiff_t>(output_width_));
}

SortNode::~SortNode() { Close(); }

bool SortNode::Less(const Row& a, const Row& b) const {
  for (const SortKey& k : keys_) {
    const types::Value& x = a[static_cast<size_t>(k.column)];
    const types::Value& y = b[static_cast<size_t>(k.column)];
    if (x.is_null || y.is_null) {
      if (x.is_null && y.is_null) continue;
      // NULL sorts first iff nulls_first.
      return x.is_null ? k.nulls_first : !k.nulls_first;
    }
    int c = types::CompareValues(x, y);
    if (c != 0) return k.descending ? c > 0 : c < 0;
  }
  return false;
}

void SortNode::SpillBuffer() {
  std::stable_sort(buffer_.begin(), buffer_.end(), [this](const Row& a, const Row& b) { return Less(a, b); });
  auto f = std::make_unique<SpillFile>(ctx_->temp_dir);
  for (const Row& r : buffer_) {
    ctx_->CheckInterrupts();
    scratch_.clear();
    EncodeValues(r.data(), r.size(), &scratch_);
    f->Write(scratch_);
  }
  f->Rewind();
  runs_.push_back(std::move(f));
  ++runs_spilled_;
  buffer_.clear();
  buffer_bytes_ = 0;
}

void SortNode::Open(ExecContext& ctx) {
  Close();
  ctx_ = &ctx;
  runs_spilled_ = 0;
  child_->Open(ctx);
  Row in;
  const auto limit = static_cast<size_t>(std::max<int64_t>(ctx.work_mem, 64 * 1024));
  while (child_->Next(in)) {
    ctx.CheckInterrupts();
    buffer_bytes_ += RowFootprint(in.data(), in.size());
    buffer_.push_back(in);
    if (buffer_bytes_ > limit) SpillBuffer();
  }
  child_->Close();
  if (runs_.empty()) {
    std::stable_sort(buffer_.begin(), buffer_.end(), [this](const Row& a, const Row& b) { return Less(a, b); });
    pos_ = 0;
    return;
  }
  if (!buffer_.empty()) SpillBuffer();
  std::vector<Row>().swap(buffer_);  // give the memory back before merging
  // Too many runs for one merge: merge consecutive groups (keeping run
  // order, hence stability) until one final merge suffices.
  while (runs_.size() > kMaxFanIn) {
    std::vector<std::unique_ptr<SpillFile>> next;
    for (size_t i = 0; i < runs_.size(); i += kMaxFanIn) {
      std::vector<std::unique_ptr<SpillFile>> group;
      for (size_t j = i; j < std::min(i + kMaxFanIn, runs_.size()); ++j) group.push_back(std::move(runs_[j]));
      next.push_back(group.size() == 1 ? std::move(group[0]) : MergeRuns(std::move(group)));
    }
    runs_ = std::move(next);
  }
  StartMerge();
}

std::unique_ptr<SpillFile> SortNode::MergeRuns(std::vector<std::unique_ptr<SpillFile>> runs) {
  // Reuse the streaming merge with a temporary reader set.
  auto saved_readers = std::move(readers_);
  auto saved_heap = std::move(heap_);
  readers_.clear();
  heap_.clear();
  auto saved_runs = std::move(runs_);
  runs_ = std::move(runs);
  StartMerge();
  auto out = std::make_unique<SpillFile>(ctx_->temp_dir);
  Row r;
  while (NextMerged(r)) {
    scratch_.clear();
    EncodeValues(r.data(), r.size(), &scratch_);
    out->Write(scratch_);
  }
  out->Rewind();
  ++runs_spilled_;
  readers_ = std::move(saved_readers);
  heap_ = std::move(saved_heap);
  runs_ = std::move(saved_runs);
  return out;
}

void SortNode::StartMerge() {
  size_t width = child_->columns().size();
  readers_.clear();
  heap_.clear();
  for (size_t i = 0; i < runs_.size(); ++i) {
    auto rd = std::make_unique<RunReader>();
    rd->file = std::move(runs_[i]);
    rd->width = width;
    rd->seq = i;
    if (rd->Advance()) heap_.push_back(readers_.size());
    readers_.push_back(std::move(rd));
  }
  runs_.clear();
  std::make_heap(heap_.begin(), heap_.end(), [this](size_t a, size_t b) {
    // std heap is a max-heap: "less" means a comes after b.
    const RunReader& x = *readers_[a];
    const RunReader& y = *readers_[b];
    if (Less(y.row, x.row)) return true;
    if (Less(x.row, y.row)) return false;
    return x.seq > y.seq;
  });
}

bool SortNode::NextMerged(Row& row) {
  if (heap_.empty()) return false;
  auto cmp = [this](size_t a, size_t b) {
    const RunReader& x = *readers_[a];
    const RunReader& y = *readers_[b];
    if (Less(y.row, x.row)) return true;
    if (Less(x.row, y.row)) return false;
    return x.seq > y.seq;
  };
  std::pop_heap(heap_.begin(), heap_.end(), cmp);
  size_t top = heap_.back();
  RunReader& rd = *readers_[top];
  row.swap(rd.row);
  if (rd.Advance()) {
    std::push_heap(heap_.begin(), heap_.end(), cmp);
  } else {
    heap_.pop_back();
    rd.file.reset();  // delete the exhausted run early
  }
  return true;
}

bool SortNode::Next(Row& row) {
  if (!readers_.empty()) {
    ctx_->CheckInterrupts();
    if (!NextMerged(row)) return false;
    row.resize(output_width_);
    return true;
  }
  if (pos_ >= buffer_.size()) return false;
  Row& r = buffer_[pos_++];
  row.resize(output_width_);
  for (size_t i = 0; i < output_width_; ++i) row[i] = std::move(r[i]);
  return true;
}

void SortNode::Close() {
  if (child_) child_->Close();
  std::vector<Row>().swap(buffer_);
  buffer_bytes_ = 0;
  pos_ = 0;
  readers_.clear();
  heap_.clear();
  runs_.clear();
}

void SortNode::ExplainDetails(std::vector<std::string>* out) const {
  std::string s = "Sort Key: ";
  for (size_t i = 0; i < keys_.size(); ++i) {
    if (i) s += ", ";
    s += keys_[i].text;
  }
  out->push_back(s);
}

ExecNodePtr SortNode::Clone() const {
  return std::make_unique<SortNode>(CloneNode(child_), keys_, output_width_);
}

}  // namespace hearth::executor
