// server/executor/nodes/join_nodes.h
//
// Joins. Output rows are [left columns..., right columns...]; the
// unmatched side of an outer join is filled with NULLs.
// - HashJoinNode: equi-joins. Builds an in-memory hash table on the right
//   (inner) input — it does not spill yet, so the inner side must fit in
//   memory — and probes it with each left row. Keys containing NULL never
//   match. Extra non-equi ON conditions are a join filter evaluated on the
//   combined row before a pair counts as matched.
// - NestedLoopJoinNode: any condition (or none: CROSS JOIN). Materializes
//   the right input in memory once per execution.
// Both support INNER, LEFT, RIGHT and FULL. Immutable plan, one execution
// at a time.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "executor/exec_node.h"

namespace hearth::executor {

enum class JoinKind : uint8_t { kInner, kLeft, kRight, kFull };

class JoinNodeBase : public ExecNode {
 public:
  void Close() override;

 protected:
  JoinNodeBase(JoinKind kind, ExecNodePtr left, ExecNodePtr right, PlanExpr filter);
  // Reads the whole right input into inner_ (checking interrupts).
  void Materialize(ExecContext& ctx);
  // row = left_row_ ++ (inner_[i] or NULLs when i < 0).
  void Combine(Row& row, long inner_index) const;
  // Evaluates the join filter on row (true when there is none).
  bool PassesFilter(const Row& row);
  // Emits the next right row never matched (RIGHT/FULL), with NULL left.
  bool NextUnmatchedInner(Row& row);

  JoinKind kind_;
  ExecNodePtr left_, right_;
  PlanExpr filter_;
  ExecContext* ctx_ = nullptr;
  EvalContext eval_;
  std::vector<Row> inner_;
  std::vector<bool> inner_matched_;
  Row left_row_;
  bool have_left_ = false;
  bool left_matched_ = false;
  bool left_done_ = false;
  size_t unmatched_pos_ = 0;
};

class HashJoinNode : public JoinNodeBase {
 public:
  // left_keys[i] (bound on left rows) = right_keys[i] (bound on right rows).
  // cond_text is the EXPLAIN "Hash Cond" text.
  HashJoinNode(JoinKind kind, ExecNodePtr left, ExecNodePtr right, std::vector<PlanExpr> left_keys,
               std::vector<PlanExpr> right_keys, PlanExpr filter, std::string cond_text);
  void Open(ExecContext& ctx) override;
  bool Next(Row& row) override;
  void Close() override;
  void Explain(std::vector<std::string>* lines, int indent, bool as_child,
               const std::vector<std::string>* extra) const override;

 protected:
  std::string ExplainName() const override;

 private:
  // Encodes the keys of `row` with `keys`; false if any key is NULL.
  bool MakeKey(const std::vector<PlanExpr>& keys, const Row& row, std::string* out);

  std::vector<PlanExpr> left_keys_, right_keys_;
  std::string cond_text_;
  std::unordered_map<std::string, std::vector<uint32_t>> table_;
  const std::vector<uint32_t>* matches_ = nullptr;
  size_t match_pos_ = 0;
  std::string key_;
};

class NestedLoopJoinNode : public JoinNodeBase {
 public:
  // filter null → every pair matches (CROSS JOIN).
  NestedLoopJoinNode(JoinKind kind, ExecNodePtr left, ExecNodePtr right, PlanExpr filter);
  void Open(ExecContext& ctx) override;
  bool Next(Row& row) override;

 protected:
  std::string ExplainName() const override;
  void ExplainDetails(std::vector<std::string>* out) const override;
  std::vector<const ExecNode*> ExplainChildren() const override { return {left_.get(), right_.get()}; }

 private:
  size_t inner_pos_ = 0;
};

}  // namespace hearth::executor
