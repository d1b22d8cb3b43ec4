// server/executor/nodes/agg_nodes.cpp
//
// Principal entry points: AggregateNode, DistinctNode, SetOpNode.
#include "executor/nodes/agg_nodes.h"

#include <algorithm>

#include "executor/row_codec.h"

namespace hearth::executor {

AggregateNode::AggregateNode(ExecNodePtr child, std::vector<PlanExpr> group_keys, std::vector<AggSpec> aggs,
                             std::vector<OutputColumn> columns)
    : child_(std::move(child)), keys_(std::move(group_keys)), aggs_(std::move(aggs)) {
  columns_ = std::move(columns);
}

AggregateNode::Group& AggregateNode::NewGroup(Row keys) {
  auto g = std::make_unique<Group>();
  g->keys = std::move(keys);
  g->states.reserve(aggs_.size());
  for (const AggSpec& a : aggs_) g->states.emplace_back(a.sig);
  g->seen.resize(aggs_.size());
  groups_.push_back(std::move(g));
  return *groups_.back();
}

void AggregateNode::Accumulate(Group& g, EvalContext& eval) {
  for (size_t a = 0; a < aggs_.size(); ++a) {
    const AggSpec& spec = aggs_[a];
    if (spec.filter.expr && !EvalPredicate(*spec.filter.expr, eval)) continue;
    args_.resize(spec.args.size());
    for (size_t i = 0; i < spec.args.size(); ++i) args_[i] = Eval(*spec.args[i].expr, eval);
    if (spec.distinct) {
      // DISTINCT ignores NULL inputs too (they would be skipped anyway).
      key_.clear();
      bool any_null = false;
      for (const types::Value& v : args_) {
        any_null |= v.is_null;
        AppendHashKey(v, &key_);
      }
      if (any_null || !g.seen[a].insert(key_).second) continue;
    }
    g.states[a].Accumulate(args_.data(), static_cast<int>(args_.size()));
  }
}

void AggregateNode::Open(ExecContext& ctx) {
  Close();
  child_->Open(ctx);
  EvalContext eval = ctx.MakeEval();
  Row in;
  Row keyvals(keys_.size());
  if (keys_.empty()) NewGroup({});
  while (child_->Next(in)) {
    ctx.CheckInterrupts();
    eval.row = in.data();
    eval.nrow = in.size();
    Group* g;
    if (keys_.empty()) {
      g = groups_[0].get();
    } else {
      key_.clear();
      for (size_t k = 0; k < keys_.size(); ++k) {
        keyvals[k] = Eval(*keys_[k].expr, eval);
        AppendHashKey(keyvals[k], &key_);
      }
      auto it = index_.find(key_);
      if (it == index_.end()) {
        index_.emplace(key_, groups_.size());
        g = &NewGroup(keyvals);
      } else {
        g = groups_[it->second].get();
      }
    }
    Accumulate(*g, eval);
  }
  child_->Close();
}

bool AggregateNode::Next(Row& row) {
  if (pos_ >= groups_.size()) return false;
  const Group& g = *groups_[pos_++];
  row.resize(keys_.size() + aggs_.size());
  for (size_t k = 0; k < keys_.size(); ++k) row[k] = g.keys[k];
  for (size_t a = 0; a < aggs_.size(); ++a) row[keys_.size() + a] = g.states[a].Finish();
  return true;
}

void AggregateNode::Close() {
  child_->Close();
  groups_.clear();
  index_.clear();
  pos_ = 0;
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
  seen_.clear();
  child_->Open(ctx);
}

bool DistinctNode::Next(Row& row) {
  while (child_->Next(row)) {
    key_.clear();
    for (const types::Value& v : row) AppendHashKey(v, &key_);
    if (seen_.find(key_) != seen_.end()) continue;
    seen_.insert(key_);
    return true;
  }
  return false;
}

void DistinctNode::Close() {
  child_->Close();
  seen_.clear();
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

void SetOpNode::Open(ExecContext& ctx) {
  Close();
  std::unordered_map<std::string, size_t> index;
  std::string key;
  Row in;
  for (int side = 0; side < 2; ++side) {
    ExecNode& n = side == 0 ? *left_ : *right_;
    n.Open(ctx);
    while (n.Next(in)) {
      ctx.CheckInterrupts();
      key.clear();
      for (const types::Value& v : in) AppendHashKey(v, &key);
      auto it = index.find(key);
      if (it == index.end()) {
        if (side == 1) continue;  // only rows of the left input can be emitted
        index.emplace(key, entries_.size());
        entries_.push_back({in, 1, 0});
      } else {
        (side == 0 ? entries_[it->second].left : entries_[it->second].right)++;
      }
    }
    n.Close();
  }
  pos_ = 0;
  emit_left_ = -1;
}

bool SetOpNode::Next(Row& row) {
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
  return false;
}

void SetOpNode::Close() {
  left_->Close();
  right_->Close();
  entries_.clear();
  pos_ = 0;
}

std::string SetOpNode::ExplainName() const {
  std::string s = op_ == SetOpKind::kIntersect ? "HashSetOp Intersect" : "HashSetOp Except";
  if (all_) s += " All";
  return s;
}

}  // namespace hearth::executor
