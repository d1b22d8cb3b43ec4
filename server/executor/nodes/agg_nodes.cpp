// server/executor/nodes/agg_nodes.cpp
//
// Principal entry points: AggregateNode, DistinctNode, SetOpNode.
#include "executor/nodes/agg_nodes.h"

#include <algorithm>

#include "executor/hash_memory.h"
#include "executor/row_codec.h"

namespace hearth::executor {

AggregateNode::AggregateNode(ExecNodePtr child, std::vector<PlanExpr> group_keys, std::vector<AggSpec> aggs,
                             std::vector<OutputColumn> columns)
    : child_(std::move(child)), keys_(std::move(group_keys)), aggs_(std::move(aggs)) {
  columns_ = std::move(columns);
  for (const AggSpec& a : aggs_) {
    fresh_states_.emplace_back(a.sig, a.result_type);
    distinct_slot_.push_back(a.distinct ? static_cast<int>(ndistinct_++) : -1);
    ordered_slot_.push_back(a.ordered() ? static_cast<int>(nordered_++) : -1);
  }
}

bool AggregateNode::NeedsSortedGroups() const {
  return ndistinct_ > 0 || nordered_ > 0;
}

size_t AggregateNode::TableBytes() const {
  return CapacityBytes(group_keys_) + CapacityBytes(agg_states_) + CapacityBytes(seen_) + CapacityBytes(ordered_) +
         index_.bucket_count() * sizeof(void*) + heap_bytes_;
}

size_t AggregateNode::BytesWithOneMoreGroup() const {
  return GrownBytes(group_keys_, keys_.size()) + GrownBytes(agg_states_, aggs_.size()) +
         GrownBytes(seen_, ndistinct_) + GrownBytes(ordered_, nordered_) + GrownBucketBytes(index_) + heap_bytes_ + kHashNodeBytes +
         StringHeapBytes(key_);
}

void AggregateNode::AddGroup(const Row& keyvals) {
  for (const types::Value& v : keyvals) {
    group_keys_.push_back(v);
    heap_bytes_ += StringHeapBytes(group_keys_.back().str);
  }
  agg_states_.insert(agg_states_.end(), fresh_states_.begin(), fresh_states_.end());
  seen_.resize(seen_.size() + ndistinct_);
  ordered_.resize(ordered_.size() + nordered_);
  ++ngroups_;
}

size_t AggregateNode::FindOrAddGroup(const Row& keyvals) {
  auto it = index_.find(key_);
  if (it != index_.end()) return it->second;
  if (table_full_) return SIZE_MAX;
  // The first group is always admitted, so every pass makes progress.
  if (ngroups_ > 0 && BytesWithOneMoreGroup() > limit_) {
    table_full_ = true;  // as PostgreSQL: no new group for the rest of this pass
    if (groups_that_fit_ == 0) groups_that_fit_ = ngroups_;
    return SIZE_MAX;
  }
  index_.emplace(key_, ngroups_);
  heap_bytes_ += kHashNodeBytes + StringHeapBytes(key_);
  AddGroup(keyvals);
  return ngroups_ - 1;
}

void AggregateNode::Accumulate(size_t group, EvalContext& eval) {
  types::AggregateState* states = agg_states_.data() + group * aggs_.size();
  for (size_t a = 0; a < aggs_.size(); ++a) {
    const AggSpec& spec = aggs_[a];
    if (spec.filter.expr && !EvalPredicate(*spec.filter.expr, eval)) continue;
    args_.resize(spec.args.size());
    for (size_t i = 0; i < spec.args.size(); ++i) args_[i] = Eval(*spec.args[i].expr, eval);
    if (spec.distinct) {
      // DISTINCT ignores NULL inputs too (they would be skipped anyway).
      distinct_key_.clear();
      bool any_null = false;
      for (const types::Value& v : args_) {
        any_null |= v.is_null;
        AppendHashKey(v, &distinct_key_);
      }
      if (any_null) continue;
      auto& seen = seen_[group * ndistinct_ + static_cast<size_t>(distinct_slot_[a])];
      const size_t buckets = seen.bucket_count();
      if (!seen.insert(distinct_key_).second) continue;
      heap_bytes_ += kHashNodeBytes + StringHeapBytes(distinct_key_) + (seen.bucket_count() - buckets) * sizeof(void*);
    }
    if (spec.ordered()) {
      BufferOrdered(group, a, eval);
      continue;
    }
    types::AggregateState& st = states[a];
    const size_t before = st.HeapBytes();
    st.Accumulate(args_.data(), static_cast<int>(args_.size()));
    heap_bytes_ = heap_bytes_ + st.HeapBytes() - before;
  }
}

void AggregateNode::BufferOrdered(size_t group, size_t a, EvalContext& eval) {
  const AggSpec& spec = aggs_[a];
  order_vals_.resize(spec.order_exprs.size());
  for (size_t i = 0; i < spec.order_exprs.size(); ++i) order_vals_[i] = Eval(*spec.order_exprs[i].expr, eval);
  OrderedAggInput& in = ordered_[group * nordered_ + static_cast<size_t>(ordered_slot_[a])];
  heap_bytes_ += AppendOrderedRow(in, args_, order_vals_);
}

template <typename NextRow>
void AggregateNode::Consume(NextRow&& next_row, int depth, int fanout_bits) {
  spill_.Reset(ctx_->temp_dir, fanout_bits, &pool_);
  EvalContext eval = ctx_->MakeEval();
  Row in;
  Row keyvals(keys_.size());
  while (next_row(in)) {
    ctx_->CheckInterrupts();
    eval.row = in.data();
    eval.nrow = in.size();
    size_t group = 0;  // the only group of a plain Aggregate
    if (!keys_.empty()) {
      key_.clear();
      for (size_t k = 0; k < keys_.size(); ++k) {
        keyvals[k] = Eval(*keys_[k].expr, eval);
        AppendHashKey(keyvals[k], &key_);
      }
      group = FindOrAddGroup(keyvals);
      if (group == SIZE_MAX) {
        spill_.Write(spill_.PartitionOf(HashKeyBytes(key_), depth), in.data(), in.size());
        continue;
      }
    }
    Accumulate(group, eval);
  }
  // This pass's partitions wait for their own passes, one level deeper.
  for (int p = 0; p < spill_.count(); ++p) {
    if (spill_.rows(p) == 0) continue;
    pending_.push_back({spill_.Take(p), depth + 1, SpillPartitions::FanoutBits(spill_.rows(p), groups_that_fit_)});
    ++partitions_spilled_;
  }
}

void AggregateNode::ClearTable() {
  group_keys_.clear();
  agg_states_.clear();
  seen_.clear();
  ordered_.clear();
  index_.clear();
  ngroups_ = 0;
  heap_bytes_ = 0;
  table_full_ = false;
  pos_ = 0;
}

bool AggregateNode::NextPass() {
  if (pending_.empty()) return false;
  Pending part = std::move(pending_.back());
  pending_.pop_back();
  ClearTable();
  Consume([&](Row& r) { return ReadSpilledRow(*part.file, &spill_buf_, &r); }, part.depth, part.fanout_bits);
  pool_.Put(std::move(part.file));  // its rows are aggregated or re-spilled
  return true;
}

void AggregateNode::Open(ExecContext& ctx) {
  Close();
  ctx_ = &ctx;
  limit_ = HashMemLimit(ctx.hash_mem);
  partitions_spilled_ = 0;
  groups_that_fit_ = 0;
  if (keys_.empty()) AddGroup({});
  child_->Open(ctx);
  Consume([this](Row& r) { return child_->Next(r); }, 0, SpillPartitions::kDefaultBits);
  child_->Close();
}

bool AggregateNode::Next(Row& row) {
  while (pos_ >= ngroups_) {
    if (!NextPass()) return false;
  }
  const size_t g = pos_++;
  row.resize(keys_.size() + aggs_.size());
  for (size_t k = 0; k < keys_.size(); ++k) row[k] = group_keys_[g * keys_.size() + k];
  EvalContext eval = ctx_->MakeEval();  // direct arguments of ordered-set aggregates over no rows
  for (size_t a = 0; a < aggs_.size(); ++a) {
    const types::AggregateState& st = agg_states_[g * aggs_.size() + a];
    row[keys_.size() + a] =
        aggs_[a].ordered()
            ? FinishOrderedAggregate(aggs_[a], st, ordered_[g * nordered_ + static_cast<size_t>(ordered_slot_[a])], eval)
            : st.Finish();
  }
  return true;
}

void AggregateNode::Close() {
  child_->Close();
  ClearTable();
  // Give the memory back: a prepared plan may sit idle between executions.
  std::vector<types::Value>().swap(group_keys_);
  std::vector<types::AggregateState>().swap(agg_states_);
  std::vector<std::unordered_set<std::string>>().swap(seen_);
  std::vector<OrderedAggInput>().swap(ordered_);
  std::unordered_map<std::string, size_t>().swap(index_);
  pending_.clear();
  spill_ = SpillPartitions();  // deletes its files
  pool_.Clear();
}

void AggregateNode::ExplainDetails(std::vector<std::string>* out) const {
  if (keys_.empty()) return;
  std::string s = "Group Key: ";
  for (size_t i = 0; i < keys_.size(); ++i) {
    if (i) s += ", ";
    s += keys_[i].text;
  }
  out->push_back(s);
}

DistinctNode::DistinctNode(ExecNodePtr child) : child_(std::move(child)) { columns_ = child_->columns(); }

void DistinctNode::Open(ExecContext& ctx) {
  Close();
  ctx_ = &ctx;
  limit_ = HashMemLimit(ctx.hash_mem);
  keys_that_fit_ = 0;
  depth_ = 0;
  child_done_ = false;
  spill_.Reset(ctx.temp_dir, SpillPartitions::kDefaultBits, &pool_);
  child_->Open(ctx);
}

bool DistinctNode::NextInput(Row& row) {
  if (depth_ > 0) return input_ && ReadSpilledRow(*input_, &spill_buf_, &row);
  if (child_done_ || !child_->Next(row)) {
    child_done_ = true;
    return false;
  }
  return true;
}

bool DistinctNode::FirstSeen(const Row& row) {
  if (seen_.find(key_) != seen_.end()) return false;
  if (!table_full_ && !seen_.empty() &&
      GrownBucketBytes(seen_) + heap_bytes_ + kHashNodeBytes + StringHeapBytes(key_) > limit_) {
    table_full_ = true;  // no new value for the rest of this pass
    if (keys_that_fit_ == 0) keys_that_fit_ = seen_.size();
  }
  if (table_full_) {
    spill_.Write(spill_.PartitionOf(HashKeyBytes(key_), depth_), row.data(), row.size());
    return false;
  }
  seen_.insert(key_);
  heap_bytes_ += kHashNodeBytes + StringHeapBytes(key_);
  return true;
}

bool DistinctNode::NextPass() {
  for (int p = 0; p < spill_.count(); ++p) {
    if (spill_.rows(p) == 0) continue;
    pending_.push_back({spill_.Take(p), depth_ + 1, SpillPartitions::FanoutBits(spill_.rows(p), keys_that_fit_)});
  }
  pool_.Put(std::move(input_));
  if (pending_.empty()) return false;
  Pending part = std::move(pending_.back());
  pending_.pop_back();
  input_ = std::move(part.file);
  depth_ = part.depth;
  seen_.clear();
  heap_bytes_ = 0;
  table_full_ = false;
  spill_.Reset(ctx_->temp_dir, part.fanout_bits, &pool_);
  return true;
}

bool DistinctNode::Next(Row& row) {
  for (;;) {
    if (!NextInput(row)) {
      if (!NextPass()) return false;
      continue;
    }
    ctx_->CheckInterrupts();
    key_.clear();
    for (const types::Value& v : row) AppendHashKey(v, &key_);
    if (FirstSeen(row)) return true;
  }
}

void DistinctNode::Close() {
  child_->Close();
  std::unordered_set<std::string>().swap(seen_);
  heap_bytes_ = 0;
  table_full_ = false;
  spill_ = SpillPartitions();  // deletes its files
  pending_.clear();
  input_.reset();
  pool_.Clear();
}

void DistinctNode::ExplainDetails(std::vector<std::string>* out) const {
  std::string s = "Group Key: ";
  for (size_t i = 0; i < columns_.size(); ++i) {
    if (i) s += ", ";
    s += columns_[i].name;
  }
  out->push_back(s);
}

SetOpNode::SetOpNode(SetOpKind op, bool all, ExecNodePtr left, ExecNodePtr right)
    : op_(op), all_(all), left_(std::move(left)), right_(std::move(right)) {
  columns_ = left_->columns();
}

size_t SetOpNode::BytesWithEntry(const Row& row) const {
  size_t bytes = GrownBytes(entries_, 1) + GrownBucketBytes(index_) + heap_bytes_ + kHashNodeBytes +
                 StringHeapBytes(key_) + row.size() * sizeof(types::Value) + 16;  // + malloc header
  for (const types::Value& v : row) bytes += StringHeapBytes(v.str);
  return bytes;
}

template <typename NextRow>
void SetOpNode::Count(NextRow&& next_row, bool left_side) {
  Row in;
  while (next_row(in)) {
    ctx_->CheckInterrupts();
    key_.clear();
    for (const types::Value& v : in) AppendHashKey(v, &key_);
    auto it = index_.find(key_);
    if (it != index_.end()) {
      (left_side ? entries_[it->second].left : entries_[it->second].right)++;
      continue;
    }
    if (left_side && !table_full_ && !entries_.empty() && BytesWithEntry(in) > limit_) {
      table_full_ = true;  // no new value for the rest of this pass
      if (values_that_fit_ == 0) values_that_fit_ = entries_.size();
    }
    if (left_side && !table_full_) {
      index_.emplace(key_, entries_.size());
      entries_.push_back({in, 1, 0});
      heap_bytes_ += kHashNodeBytes + StringHeapBytes(key_) + in.size() * sizeof(types::Value) + 16;
      for (const types::Value& v : in) heap_bytes_ += StringHeapBytes(v.str);
      continue;
    }
    // A value absent from the table: its left rows are in partition p.
    const int p = left_parts_.PartitionOf(HashKeyBytes(key_), depth_);
    if (left_side) {
      left_parts_.Write(p, in.data(), in.size());
    } else if (left_parts_.rows(p) > 0) {
      right_parts_.Write(p, in.data(), in.size());
    }
  }
}

bool SetOpNode::NextPass() {
  for (int p = 0; p < left_parts_.count(); ++p) {
    const uint64_t rows = left_parts_.rows(p);
    if (rows == 0) continue;
    pending_.push_back({left_parts_.Take(p), right_parts_.Take(p), depth_ + 1,
                        SpillPartitions::FanoutBits(rows, values_that_fit_)});
  }
  if (pending_.empty()) return false;
  Pending part = std::move(pending_.back());
  pending_.pop_back();
  entries_.clear();
  index_.clear();
  heap_bytes_ = 0;
  table_full_ = false;
  depth_ = part.depth;
  left_parts_.Reset(ctx_->temp_dir, part.fanout_bits, &pool_);
  right_parts_.Reset(ctx_->temp_dir, part.fanout_bits, &pool_);
  Count([&](Row& r) { return ReadSpilledRow(*part.left, &spill_buf_, &r); }, true);
  Count([&](Row& r) { return part.right && ReadSpilledRow(*part.right, &spill_buf_, &r); }, false);
  pool_.Put(std::move(part.left));
  pool_.Put(std::move(part.right));
  pos_ = 0;
  emit_left_ = -1;
  return true;
}

void SetOpNode::Open(ExecContext& ctx) {
  Close();
  ctx_ = &ctx;
  limit_ = HashMemLimit(ctx.hash_mem);
  values_that_fit_ = 0;
  depth_ = 0;
  left_parts_.Reset(ctx.temp_dir, SpillPartitions::kDefaultBits, &pool_);
  right_parts_.Reset(ctx.temp_dir, SpillPartitions::kDefaultBits, &pool_);
  left_->Open(ctx);
  Count([this](Row& r) { return left_->Next(r); }, true);
  left_->Close();
  right_->Open(ctx);
  Count([this](Row& r) { return right_->Next(r); }, false);
  right_->Close();
  pos_ = 0;
  emit_left_ = -1;
}

bool SetOpNode::Next(Row& row) {
  for (;;) {
    while (pos_ < entries_.size()) {
      Entry& e = entries_[pos_];
      if (emit_left_ < 0) {
        int64_t n;
        if (op_ == SetOpKind::kIntersect) {
          n = all_ ? std::min(e.left, e.right) : (e.left > 0 && e.right > 0 ? 1 : 0);
        } else {
          n = all_ ? std::max<int64_t>(e.left - e.right, 0) : (e.right == 0 ? 1 : 0);
        }
        emit_left_ = n;
      }
      if (emit_left_ > 0) {
        --emit_left_;
        row = e.row;
        return true;
      }
      ++pos_;
      emit_left_ = -1;
    }
    if (!NextPass()) return false;
  }
}

void SetOpNode::Close() {
  left_->Close();
  right_->Close();
  std::vector<Entry>().swap(entries_);
  std::unordered_map<std::string, size_t>().swap(index_);
  heap_bytes_ = 0;
  table_full_ = false;
  left_parts_ = SpillPartitions();  // deletes their files
  right_parts_ = SpillPartitions();
  pending_.clear();
  pool_.Clear();
  pos_ = 0;
}

std::string SetOpNode::ExplainName() const {
  std::string s = op_ == SetOpKind::kIntersect ? "HashSetOp Intersect" : "HashSetOp Except";
  if (all_) s += " All";
  return s;
}

AggSpec CloneAggSpec(const AggSpec& a) {
  AggSpec c;
  c.sig = a.sig;
  c.args = ClonePlanExprs(a.args);
  c.distinct = a.distinct;
  c.filter = ClonePlanExpr(a.filter);
  c.result_type = a.result_type;
  c.order_exprs = ClonePlanExprs(a.order_exprs);
  c.order = a.order;
  c.direct_args = a.direct_args;
  c.grouping_keys = a.grouping_keys;
  return c;
}

ExecNodePtr AggregateNode::Clone() const {
  std::vector<AggSpec> aggs;
  aggs.reserve(aggs_.size());
  for (const AggSpec& a : aggs_) aggs.push_back(CloneAggSpec(a));
  return std::make_unique<AggregateNode>(CloneNode(child_), ClonePlanExprs(keys_), std::move(aggs), columns_);
}

ExecNodePtr DistinctNode::Clone() const {
  return std::make_unique<DistinctNode>(CloneNode(child_));
}

ExecNodePtr SetOpNode::Clone() const {
  return std::make_unique<SetOpNode>(op_, all_, CloneNode(left_), CloneNode(right_));
}

}  // namespace hearth::executor
