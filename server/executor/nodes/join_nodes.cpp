// server/executor/nodes/join_nodes.cpp
//
// Principal entry points: HashJoinNode::{Open,Next}, NestedLoopJoinNode::{Open,Next}.
#include "executor/nodes/join_nodes.h"

#include "executor/row_codec.h"

namespace hearth::executor {

JoinNodeBase::JoinNodeBase(JoinKind kind, ExecNodePtr left, ExecNodePtr right, PlanExpr filter)
    : kind_(kind), left_(std::move(left)), right_(std::move(right)), filter_(std::move(filter)) {
  columns_ = left_->columns();
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

void JoinNodeBase::Combine(Row& row, long inner_index) const {
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
    if (inner_index >= 0) {
      row[nl + i] = inner_[static_cast<size_t>(inner_index)][i];
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
      Combine(row, static_cast<long>(i));
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

void HashJoinNode::Open(ExecContext& ctx) {
  Close();
  Materialize(ctx);
  for (size_t i = 0; i < inner_.size(); ++i) {
    if (MakeKey(right_keys_, inner_[i], &key_)) table_[key_].push_back(static_cast<uint32_t>(i));
  }
  matches_ = nullptr;
}

bool HashJoinNode::Next(Row& row) {
  for (;;) {
    if (!have_left_) {
      if (left_done_ || !left_->Next(left_row_)) {
        left_done_ = true;
        return NextUnmatchedInner(row);
      }
      ctx_->CheckInterrupts();
      have_left_ = true;
      left_matched_ = false;
      match_pos_ = 0;
      auto it = MakeKey(left_keys_, left_row_, &key_) ? table_.find(key_) : table_.end();
      matches_ = it == table_.end() ? nullptr : &it->second;
    }
    while (matches_ && match_pos_ < matches_->size()) {
      uint32_t i = (*matches_)[match_pos_++];
      Combine(row, i);
      if (!PassesFilter(row)) continue;
      left_matched_ = true;
      inner_matched_[i] = true;
      return true;
    }
    have_left_ = false;
    if (!left_matched_ && (kind_ == JoinKind::kLeft || kind_ == JoinKind::kFull)) {
      have_left_ = true;
      Combine(row, -1);
      have_left_ = false;
      return true;
    }
  }
}

void HashJoinNode::Close() {
  JoinNodeBase::Close();
  table_.clear();
  matches_ = nullptr;
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
  if (extra) {
    for (const std::string& d : *extra) lines->push_back(dpad + d);
  }
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
      Combine(row, static_cast<long>(i));
      if (!PassesFilter(row)) continue;
      left_matched_ = true;
      inner_matched_[i] = true;
      return true;
    }
    have_left_ = false;
    if (!left_matched_ && (kind_ == JoinKind::kLeft || kind_ == JoinKind::kFull)) {
      have_left_ = true;
      Combine(row, -1);
      have_left_ = false;
      return true;
    }
  }
}

std::string NestedLoopJoinNode::ExplainName() const { return std::string("Nested Loop") + JoinSuffix(kind_); }

void NestedLoopJoinNode::ExplainDetails(std::vector<std::string>* out) const {
  if (filter_.expr) out->push_back("Join Filter: " + filter_.text);
}

}  // namespace hearth::executor
