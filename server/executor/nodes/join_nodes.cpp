// server/executor/nodes/join_nodes.cpp
//
// Principal entry points: HashJoinNode::{Open,Next}, NestedLoopJoinNode::{Open,Next}.
#include "executor/nodes/join_nodes.h"

#include "executor/hash_memory.h"
#include "executor/row_codec.h"

namespace hearth::executor {

JoinNodeBase::JoinNodeBase(JoinKind kind, ExecNodePtr left, ExecNodePtr right, PlanExpr filter)
    : kind_(kind), left_(std::move(left)), right_(std::move(right)), filter_(std::move(filter)) {
  columns_ = left_->columns();
  if (LeftOnly()) return;
  for (const auto& c : right_->columns()) columns_.push_back(c);
}

void JoinNodeBase::Close() {
  left_->Close();
  right_->Close();
  inner_.clear();
  inner_matched_.clear();
  have_left_ = false;
}

void JoinNodeBase::Materialize(ExecContext& ctx) {
  ctx_ = &ctx;
  eval_ = ctx.MakeEval();
  inner_.clear();
  right_->Open(ctx);
  Row r;
  while (right_->Next(r)) {
    ctx.CheckInterrupts();
    inner_.push_back(r);
  }
  right_->Close();
  inner_matched_.assign(inner_.size(), false);
  have_left_ = false;
  left_done_ = false;
  unmatched_pos_ = 0;
  left_->Open(ctx);
}

void JoinNodeBase::Combine(Row& row, const types::Value* inner) const {
  size_t nl = left_->columns().size();
  const auto& rc = right_->columns();
  row.resize(nl + rc.size());
  for (size_t i = 0; i < nl; ++i) {
    if (have_left_) {
      row[i] = left_row_[i];
    } else {
      row[i] = types::Value::Null(columns_[i].type);
    }
  }
  for (size_t i = 0; i < rc.size(); ++i) {
    if (inner != nullptr) {
      row[nl + i] = inner[i];
    } else {
      row[nl + i] = types::Value::Null(rc[i].type);
    }
  }
}

bool JoinNodeBase::PassesFilter(const Row& row) {
  if (!filter_.expr) return true;
  eval_.row = row.data();
  eval_.nrow = row.size();
  return EvalPredicate(*filter_.expr, eval_);
}

bool JoinNodeBase::NextUnmatchedInner(Row& row) {
  if (kind_ != JoinKind::kRight && kind_ != JoinKind::kFull) return false;
  have_left_ = false;
  while (unmatched_pos_ < inner_.size()) {
    size_t i = unmatched_pos_++;
    if (!inner_matched_[i]) {
      Combine(row, inner_[i].data());
      return true;
    }
  }
  return false;
}

namespace {
const char* JoinSuffix(JoinKind k) {
  switch (k) {
    case JoinKind::kInner: return "";
    case JoinKind::kLeft: return " Left Join";
    case JoinKind::kRight: return " Right Join";
    case JoinKind::kFull: return " Full Join";
    case JoinKind::kSemi: return " Semi Join";
    case JoinKind::kAnti: return " Anti Join";
  }
  return "";
}
}  // namespace

HashJoinNode::HashJoinNode(JoinKind kind, ExecNodePtr left, ExecNodePtr right, std::vector<PlanExpr> left_keys,
                           std::vector<PlanExpr> right_keys, PlanExpr filter, std::string cond_text)
    : JoinNodeBase(kind, std::move(left), std::move(right), std::move(filter)),
      left_keys_(std::move(left_keys)),
      right_keys_(std::move(right_keys)),
      cond_text_(std::move(cond_text)) {}

bool HashJoinNode::MakeKey(const std::vector<PlanExpr>& keys, const Row& row, std::string* out) {
  out->clear();
  eval_.row = row.data();
  eval_.nrow = row.size();
  for (const PlanExpr& k : keys) {
    types::Value v = Eval(*k.expr, eval_);
    if (v.is_null) return false;
    AppendHashKey(v, out);
  }
  return true;
}

void HashJoinNode::ClearTable() {
  mem_rows_.clear();
  mem_next_.clear();
  mem_matched_.clear();
  table_.clear();
  nrows_ = 0;
  heap_bytes_ = 0;
}

size_t HashJoinNode::BytesWithRow(const Row& row) const {
  size_t bytes = GrownBytes(mem_rows_, inner_width_) + GrownBytes(mem_next_, 1) + GrownBytes(mem_matched_, 1) +
                 GrownBucketBytes(table_) + heap_bytes_ + kHashNodeBytes + StringHeapBytes(key_);
  for (size_t c = 0; c < inner_width_; ++c) bytes += StringHeapBytes(row[c].str);
  return bytes;
}

void HashJoinNode::AddInner(const std::string& key, const Row& row) {
  const uint32_t i = nrows_++;
  for (size_t c = 0; c < inner_width_; ++c) {
    mem_rows_.push_back(row[c]);
    heap_bytes_ += StringHeapBytes(mem_rows_.back().str);
  }
  mem_next_.push_back(kNone);
  mem_matched_.push_back(0);
  auto [it, inserted] = table_.try_emplace(key, i, i);
  if (inserted) {
    heap_bytes_ += kHashNodeBytes + StringHeapBytes(key);
  } else {
    mem_next_[it->second.second] = i;
    it->second.second = i;
  }
}

void HashJoinNode::SpillTable() {
  // The first overflow of a pass partitions it, keeping partition 0 in
  // memory; a second one sends partition 0 to disk as well.
  const bool keep0 = !partitioned_;
  partitioned_ = true;
  if (rows_that_fit_ == 0) rows_that_fit_ = nrows_;
  partition0_in_memory_ = keep0;
  std::vector<types::Value> rows = std::move(mem_rows_);
  std::vector<uint32_t> next = std::move(mem_next_);
  auto table = std::move(table_);
  ClearTable();
  Row r(inner_width_);
  for (auto& [key, chain] : table) {
    const int p = inner_parts_.PartitionOf(HashKeyBytes(key), depth_);
    for (uint32_t i = chain.first; i != kNone; i = next[i]) {
      types::Value* v = rows.data() + static_cast<size_t>(i) * inner_width_;
      if (!InMemory(p)) {
        inner_parts_.Write(p, v, inner_width_);
        continue;
      }
      for (size_t c = 0; c < inner_width_; ++c) r[c] = std::move(v[c]);
      AddInner(key, r);
    }
  }
}

template <typename NextRow>
void HashJoinNode::Build(NextRow&& next_row, int depth, bool may_spill, int fanout_bits) {
  ClearTable();
  depth_ = depth;
  partitioned_ = false;
  partition0_in_memory_ = true;
  pass_inner_rows_ = 0;
  inner_parts_.Reset(ctx_->temp_dir, fanout_bits, &pool_);
  outer_parts_.Reset(ctx_->temp_dir, fanout_bits, &pool_);
  Row in;
  while (next_row(in)) {
    ctx_->CheckInterrupts();
    if (!MakeKey(right_keys_, in, &key_)) {
      if (!FillsInner()) continue;  // can never match nor be emitted
      if (!null_inner_) null_inner_ = std::make_unique<SpillFile>(ctx_->temp_dir);
      scratch_.clear();
      EncodeValues(in.data(), inner_width_, &scratch_);
      null_inner_->Write(scratch_);
      continue;
    }
    ++pass_inner_rows_;
    int p = 0;
    if (partitioned_) p = inner_parts_.PartitionOf(HashKeyBytes(key_), depth_);
    if (InMemory(p) && may_spill && nrows_ > 0 && BytesWithRow(in) > limit_) {
      SpillTable();
      p = inner_parts_.PartitionOf(HashKeyBytes(key_), depth_);
    }
    if (InMemory(p)) {
      AddInner(key_, in);
    } else {
      inner_parts_.Write(p, in.data(), inner_width_);
    }
  }
  have_left_ = false;
  match_ = kNone;
  phase_ = Phase::kProbe;
}

bool HashJoinNode::NextOuter() {
  if (depth_ > 0) return outer_file_ && ReadSpilledRow(*outer_file_, &spill_buf_, &left_row_);
  if (left_done_ || !left_->Next(left_row_)) {
    left_done_ = true;
    return false;
  }
  return true;
}

bool HashJoinNode::ProbeOrSpill() {
  match_ = kNone;
  if (!MakeKey(left_keys_, left_row_, &key_)) return true;  // a NULL key matches nothing
  const int p = partitioned_ ? inner_parts_.PartitionOf(HashKeyBytes(key_), depth_) : 0;
  if (!InMemory(p)) {
    // Its partners, if any, are in inner partition p.
    if (inner_parts_.rows(p) > 0 || FillsOuter()) {
      outer_parts_.Write(p, left_row_.data(), left_row_.size());
      return false;
    }
    return true;  // no partner anywhere: unmatched now
  }
  auto it = table_.find(key_);
  if (it != table_.end()) match_ = it->second.first;
  return true;
}

bool HashJoinNode::NextUnmatchedInMemory(Row& row) {
  if (!FillsInner()) return false;
  have_left_ = false;
  while (unmatched_pos_ < nrows_) {
    size_t i = unmatched_pos_++;
    if (!mem_matched_[i]) {
      Combine(row, mem_rows_.data() + i * inner_width_);
      return true;
    }
  }
  return false;
}

bool HashJoinNode::StartNextPass() {
  for (int p = 0; p < inner_parts_.count(); ++p) {
    const uint64_t inner_rows = inner_parts_.rows(p), outer_rows = outer_parts_.rows(p);
    const bool needed = (inner_rows > 0 && (outer_rows > 0 || FillsInner())) || (outer_rows > 0 && FillsOuter());
    if (!needed) continue;
    // A partition with every row of its pass would only split the same way again.
    pending_.push_back({inner_parts_.Take(p), outer_parts_.Take(p), depth_ + 1, inner_rows < pass_inner_rows_,
                        SpillPartitions::FanoutBits(inner_rows, rows_that_fit_)});
    ++partitions_spilled_;
  }
  if (pending_.empty()) return false;
  Pending part = std::move(pending_.back());
  pending_.pop_back();
  outer_file_ = std::move(part.outer);
  Build([&](Row& r) { return part.inner && ReadSpilledRow(*part.inner, &spill_buf_, &r); }, part.depth,
        part.may_spill, part.fanout_bits);
  pool_.Put(std::move(part.inner));  // its rows are loaded or re-partitioned
  return true;
}

void HashJoinNode::Open(ExecContext& ctx) {
  Close();
  ctx_ = &ctx;
  eval_ = ctx.MakeEval();
  limit_ = HashMemLimit(ctx.hash_mem);
  inner_width_ = right_->columns().size();
  partitions_spilled_ = 0;
  rows_that_fit_ = 0;
  right_->Open(ctx);
  Build([this](Row& r) { return right_->Next(r); }, 0, true, SpillPartitions::kDefaultBits);
  right_->Close();
  left_done_ = false;
  left_->Open(ctx);
}

bool HashJoinNode::Next(Row& row) {
  for (;;) {
    switch (phase_) {
      case Phase::kProbe:
        if (!have_left_) {
          if (!NextOuter()) {
            phase_ = Phase::kUnmatchedInner;
            unmatched_pos_ = 0;
            continue;
          }
          ctx_->CheckInterrupts();
          if (!ProbeOrSpill()) continue;
          have_left_ = true;
          left_matched_ = false;
        }
        while (match_ != kNone) {
          const uint32_t i = match_;
          match_ = mem_next_[i];
          Combine(row, mem_rows_.data() + static_cast<size_t>(i) * inner_width_);
          if (!PassesFilter(row)) continue;
          left_matched_ = true;
          mem_matched_[i] = 1;
          if (!LeftOnly()) return true;
          match_ = kNone;  // SEMI/ANTI: one match decides the left row
          if (kind_ == JoinKind::kAnti) break;
          row.resize(left_->columns().size());
          have_left_ = false;
          return true;
        }
        if (!left_matched_ && FillsOuter()) {
          Combine(row, nullptr);
          if (LeftOnly()) row.resize(left_->columns().size());
          have_left_ = false;
          return true;
        }
        have_left_ = false;
        continue;
      case Phase::kUnmatchedInner:
        if (NextUnmatchedInMemory(row)) return true;
        pool_.Put(std::move(outer_file_));
        if (!StartNextPass()) {
          phase_ = Phase::kNullInner;
          if (null_inner_) null_inner_->Rewind();
        }
        continue;
      case Phase::kNullInner:
        if (null_inner_ && ReadSpilledRow(*null_inner_, &spill_buf_, &null_row_)) {
          have_left_ = false;
          Combine(row, null_row_.data());
          return true;
        }
        null_inner_.reset();
        phase_ = Phase::kDone;
        continue;
      case Phase::kDone:
        return false;
    }
  }
}

void HashJoinNode::Close() {
  JoinNodeBase::Close();
  ClearTable();
  // Give the memory back: a prepared plan may sit idle between executions.
  std::vector<types::Value>().swap(mem_rows_);
  std::vector<uint32_t>().swap(mem_next_);
  std::vector<uint8_t>().swap(mem_matched_);
  decltype(table_)().swap(table_);
  inner_parts_ = SpillPartitions();  // deletes their files
  outer_parts_ = SpillPartitions();
  outer_file_.reset();
  pending_.clear();
  pool_.Clear();
  null_inner_.reset();
  phase_ = Phase::kDone;
  match_ = kNone;
}

std::string HashJoinNode::ExplainName() const { return std::string("Hash") + (kind_ == JoinKind::kInner ? " Join" : JoinSuffix(kind_)); }

void HashJoinNode::Explain(std::vector<std::string>* lines, int indent, bool as_child,
                           const std::vector<std::string>* extra) const {
  std::string pad(static_cast<size_t>(indent), ' ');
  lines->push_back(pad + (as_child ? "->  " : "") + ExplainName());
  int body = indent + (as_child ? 4 : 0);
  std::string dpad(static_cast<size_t>(body + 2), ' ');
  lines->push_back(dpad + "Hash Cond: " + cond_text_);
  if (filter_.expr) lines->push_back(dpad + "Join Filter: " + filter_.text);
  if (extra) AppendExplainDetails(lines, dpad, *extra);
  left_->Explain(lines, body + 2, true);
  lines->push_back(dpad + "->  Hash");
  right_->Explain(lines, body + 8, true);
}

NestedLoopJoinNode::NestedLoopJoinNode(JoinKind kind, ExecNodePtr left, ExecNodePtr right, PlanExpr filter)
    : JoinNodeBase(kind, std::move(left), std::move(right), std::move(filter)) {}

void NestedLoopJoinNode::Open(ExecContext& ctx) {
  Close();
  Materialize(ctx);
}

bool NestedLoopJoinNode::Next(Row& row) {
  for (;;) {
    if (!have_left_) {
      if (left_done_ || !left_->Next(left_row_)) {
        left_done_ = true;
        return NextUnmatchedInner(row);
      }
      have_left_ = true;
      left_matched_ = false;
      inner_pos_ = 0;
    }
    while (inner_pos_ < inner_.size()) {
      ctx_->CheckInterrupts();
      size_t i = inner_pos_++;
      Combine(row, inner_[i].data());
      if (!PassesFilter(row)) continue;
      left_matched_ = true;
      inner_matched_[i] = true;
      if (!LeftOnly()) return true;
      inner_pos_ = inner_.size();  // SEMI/ANTI: one match decides the left row
      if (kind_ == JoinKind::kAnti) break;
      row.resize(left_->columns().size());
      have_left_ = false;
      return true;
    }
    have_left_ = false;
    if (!left_matched_ && EmitsUnmatchedLeft()) {
      have_left_ = true;
      Combine(row, nullptr);
      if (LeftOnly()) row.resize(left_->columns().size());
      have_left_ = false;
      return true;
    }
  }
}

std::string NestedLoopJoinNode::ExplainName() const { return std::string("Nested Loop") + JoinSuffix(kind_); }

void NestedLoopJoinNode::ExplainDetails(std::vector<std::string>* out) const {
  if (filter_.expr) out->push_back("Join Filter: " + filter_.text);
}

ExecNodePtr HashJoinNode::Clone() const {
  return std::make_unique<HashJoinNode>(kind_, CloneNode(left_), CloneNode(right_), ClonePlanExprs(left_keys_),
                                        ClonePlanExprs(right_keys_), ClonePlanExpr(filter_), cond_text_);
}

ExecNodePtr NestedLoopJoinNode::Clone() const {
  return std::make_unique<NestedLoopJoinNode>(kind_, CloneNode(left_), CloneNode(right_), ClonePlanExpr(filter_));
}

}  // namespace hearth::executor
