// server/executor/nodes/join_nodes.h
//
// Joins. Output rows are [left columns..., right columns...]; the
// unmatched side of an outer join is filled with NULLs.
// - HashJoinNode: equi-joins. Builds a hash table on the right (inner)
//   input and probes it with each left row; past ExecContext::hash_mem it
//   becomes a hybrid hash join over spilled partitions (see the class).
//   Keys containing NULL never match. Extra non-equi ON conditions are a
//   join filter evaluated on the combined row before a pair counts as
//   matched.
// - NestedLoopJoinNode: any condition (or none: CROSS JOIN). Materializes
//   the right input in memory once per execution.
// Both support INNER, LEFT, RIGHT and FULL, and SEMI / ANTI (EXISTS and
// NOT EXISTS pulled up into a join): those emit only the left row, once
// when some right row matches (SEMI) or when none does (ANTI); a NULL key
// matches nothing. Immutable plan, one execution at a time.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "executor/exec_node.h"
#include "executor/spill_partitions.h"

namespace hearth::executor {

enum class JoinKind : uint8_t { kInner, kLeft, kRight, kFull, kSemi, kAnti };

class JoinNodeBase : public ExecNode {
 public:
  void Close() override;

 protected:
  JoinNodeBase(JoinKind kind, ExecNodePtr left, ExecNodePtr right, PlanExpr filter);
  // Reads the whole right input into inner_ (checking interrupts).
  void Materialize(ExecContext& ctx);
  // row = (left_row_ or NULLs when !have_left_) ++ (inner or NULLs when null).
  void Combine(Row& row, const types::Value* inner) const;
  // Evaluates the join filter on row (true when there is none).
  bool PassesFilter(const Row& row);
  // Emits the next right row never matched (RIGHT/FULL), with NULL left.
  bool NextUnmatchedInner(Row& row);
  // SEMI/ANTI: the output is the left row alone.
  bool LeftOnly() const { return kind_ == JoinKind::kSemi || kind_ == JoinKind::kAnti; }
  // Emits a left row with no match: LEFT/FULL null-extended, ANTI alone.
  bool EmitsUnmatchedLeft() const {
    return kind_ == JoinKind::kLeft || kind_ == JoinKind::kFull || kind_ == JoinKind::kAnti;
  }

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

// The inner input is loaded into an in-memory table while it fits in
// hash_mem. When it would not, the pass becomes partitioned: inner rows are
// split by key hash into 2^k partitions (SpillPartitions), partition 0
// staying in memory (hybrid hash join) and the others going to temp files;
// should partition 0 overflow too, it follows them to disk. Outer rows of
// an in-memory partition are probed at once, the others are written to
// the outer file of their partition. After the outer input ends (and the
// unmatched inner rows of memory are emitted for RIGHT/FULL), each pair of
// partition files is joined by a pass of its own one level deeper, with
// different hash bits, so an overflowing partition splits again. A
// partition holding every row of its pass (one huge key) is loaded whole
// instead of splitting forever. Inner rows with a NULL key never match;
// RIGHT/FULL emits them at the end from a file of their own.
class HashJoinNode : public JoinNodeBase {
 public:
  ExecNodePtr Clone() const override;
  // left_keys[i] (bound on left rows) = right_keys[i] (bound on right rows).
  // cond_text is the EXPLAIN "Hash Cond" text.
  HashJoinNode(JoinKind kind, ExecNodePtr left, ExecNodePtr right, std::vector<PlanExpr> left_keys,
               std::vector<PlanExpr> right_keys, PlanExpr filter, std::string cond_text);
  void Open(ExecContext& ctx) override;
  bool Next(Row& row) override;
  void Close() override;
  void Explain(std::vector<std::string>* lines, int indent, bool as_child,
               const std::vector<std::string>* extra) const override;

  // Partition pairs written by the last execution (tests, EXPLAIN ANALYZE).
  size_t partitions_spilled() const { return partitions_spilled_; }

 protected:
  std::string ExplainName() const override;

 private:
  static constexpr uint32_t kNone = UINT32_MAX;
  enum class Phase : uint8_t { kProbe, kUnmatchedInner, kNullInner, kDone };
  // A pair of partitions waiting for their pass.
  struct Pending {
    std::unique_ptr<SpillFile> inner, outer;
    int depth = 0;
    bool may_spill = true;
    int fanout_bits = 0;  // how finely its pass splits what does not fit
  };

  // Encodes the keys of `row` with `keys`; false if any key is NULL.
  bool MakeKey(const std::vector<PlanExpr>& keys, const Row& row, std::string* out);
  bool FillsInner() const { return kind_ == JoinKind::kRight || kind_ == JoinKind::kFull; }
  bool FillsOuter() const { return EmitsUnmatchedLeft(); }
  // Loads one pass's inner rows (key_ scratch), spilling past hash_mem
  // when may_spill.
  template <typename NextRow>
  void Build(NextRow&& next_row, int depth, bool may_spill, int fanout_bits);
  void AddInner(const std::string& key, const Row& row);
  size_t BytesWithRow(const Row& row) const;
  // Moves the table's rows of on-disk partitions to their files.
  void SpillTable();
  bool InMemory(int partition) const { return !partitioned_ || (partition == 0 && partition0_in_memory_); }
  // The next outer row of this pass into left_row_; false at its end.
  bool NextOuter();
  // Routes left_row_ (key in key_): sets match_ and returns true when it is
  // probed here, false when it went to its partition's file.
  bool ProbeOrSpill();
  bool NextUnmatchedInMemory(Row& row);
  // Queues this pass's partition pairs and starts the next pending pass.
  bool StartNextPass();
  void ClearTable();

  std::vector<PlanExpr> left_keys_, right_keys_;
  std::string cond_text_;

  // Per execution. The in-memory inner rows: row i is
  // mem_rows_[i*inner_width_ ..]; rows with equal keys are chained in
  // insertion order through mem_next_ from table_[key].first (.second is
  // the chain's last row).
  size_t inner_width_ = 0;
  std::vector<types::Value> mem_rows_;
  std::vector<uint32_t> mem_next_;
  std::vector<uint8_t> mem_matched_;
  std::unordered_map<std::string, std::pair<uint32_t, uint32_t>> table_;
  uint32_t nrows_ = 0;
  size_t heap_bytes_ = 0;  // strings and map nodes outside the flat arrays
  size_t limit_ = 0;       // hash_mem in bytes
  // The current pass.
  int depth_ = 0;
  bool partitioned_ = false;
  bool partition0_in_memory_ = true;
  uint64_t pass_inner_rows_ = 0;
  uint64_t rows_that_fit_ = 0;  // rows in memory when the table first overflowed
  SpillFilePool pool_;
  SpillPartitions inner_parts_, outer_parts_;
  std::unique_ptr<SpillFile> outer_file_;  // outer rows of a pass > 0
  std::vector<Pending> pending_;
  std::unique_ptr<SpillFile> null_inner_;  // RIGHT/FULL: inner rows with a NULL key
  Row null_row_;
  Phase phase_ = Phase::kDone;
  uint32_t match_ = kNone;  // next chained inner row to try with left_row_
  size_t partitions_spilled_ = 0;
  std::string key_;
  std::string spill_buf_;
  std::string scratch_;
};

class NestedLoopJoinNode : public JoinNodeBase {
 public:
  ExecNodePtr Clone() const override;
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
