// server/executor/nodes/agg_nodes.h
//
// Hashing nodes: AggregateNode (GROUP BY with a hash table — "HashAggregate"
// — or a single group without GROUP BY — "Aggregate", one row even on empty
// input), DistinctNode (SELECT DISTINCT / UNION by hashing whole rows) and
// SetOpNode (INTERSECT/EXCEPT [ALL]). Each node's hash table stays within
// ExecContext::hash_mem: once full, rows of values not in it are spilled
// by hash partition and handled by later passes (see each class). Within
// one pass values are emitted in first-seen order, so results are
// deterministic. Immutable plan, one execution at a time.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "executor/exec_node.h"
#include "executor/nodes/agg_ordered.h"
#include "executor/nodes/sort_node.h"
#include "executor/spill_partitions.h"
#include "utils/adt/aggregates.h"

namespace hearth::executor {

// One aggregate call: count(*) has no args.
struct AggSpec {
  const types::FuncSignature* sig = nullptr;
  std::vector<PlanExpr> args;  // bound against the child's row
  bool distinct = false;       // agg(DISTINCT x)
  PlanExpr filter;             // agg(...) FILTER (WHERE ...), may be null
  types::Oid result_type = types::kInvalidOid;
  // agg(x ORDER BY y) / WITHIN GROUP: the input is sorted by `order`, whose
  // columns index [args..., order_exprs...]; order_exprs are the ORDER BY
  // expressions that are not arguments. Empty: input order does not matter.
  std::vector<PlanExpr> order_exprs;
  std::vector<SortKey> order;
  // Ordered-set aggregate (WITHIN GROUP): args[0 .. direct_args) are the
  // direct arguments, the rest the sorted ones. -1 for other aggregates.
  int direct_args = -1;

  // GROUPING(args): the group keys its arguments are (see the planner's
  // grouping sets); never given to an AggregateNode.
  std::vector<int> grouping_keys;

  bool ordered() const { return !order.empty(); }
  size_t OrderedWidth() const { return args.size() + order_exprs.size(); }
};

// A deep copy of a (plan-time) spec.
AggSpec CloneAggSpec(const AggSpec& a);

// HashAggregate spills as PostgreSQL 13+ does: while the table fits in
// hash_mem new groups are created; once it is full no new group is, and a
// row whose group is not in the table is written to one of
// 2^k temp files chosen by its key's hash. After the
// input ends the groups in memory are emitted, the table is emptied and
// each partition is aggregated the same way as a new input, one level
// deeper (different hash bits), until none is left. Every group is thus
// aggregated whole in exactly one pass, so all aggregates (DISTINCT and
// FILTER included) stay exact. Spilled rows are the child's rows.
class AggregateNode : public ExecNode {
 public:
  ExecNodePtr Clone() const override;
  // Output rows: [group key values..., aggregate results...]. With no
  // group keys this is a plain Aggregate (exactly one output row).
  AggregateNode(ExecNodePtr child, std::vector<PlanExpr> group_keys, std::vector<AggSpec> aggs,
                std::vector<OutputColumn> columns);
  void Open(ExecContext& ctx) override;
  bool Next(Row& row) override;
  void Close() override;

  // Partitions written by the last execution (tests, EXPLAIN ANALYZE).
  size_t partitions_spilled() const { return partitions_spilled_; }
  // True when some aggregate sorts its input (ORDER BY, WITHIN GROUP) or
  // is DISTINCT: PostgreSQL then groups sorted input, so the planner
  // emits the groups in key order.
  bool NeedsSortedGroups() const;
  size_t aggregate_count() const { return aggs_.size(); }

 protected:
  std::string ExplainName() const override { return keys_.empty() ? "Aggregate" : "HashAggregate"; }
  void ExplainDetails(std::vector<std::string>* out) const override;
  std::vector<const ExecNode*> ExplainChildren() const override { return {child_.get()}; }

 private:
  // A spilled partition waiting for its pass.
  struct Pending {
    std::unique_ptr<SpillFile> file;
    int depth = 0;
    int fanout_bits = 0;  // how finely its pass splits what does not fit
  };
  // One pass: aggregates next_row's rows, spilling into 2^fanout_bits
  // partitions (queued in pending_) once the table is full.
  template <typename NextRow>
  void Consume(NextRow&& next_row, int depth, int fanout_bits);
  // The group of key_ (keyvals are its values), created if the table has
  // room; SIZE_MAX when it is full.
  size_t FindOrAddGroup(const Row& keyvals);
  void AddGroup(const Row& keyvals);
  void Accumulate(size_t group, EvalContext& eval);
  // Buffers args_ (plus the aggregate's extra ORDER BY values) for ordered aggregate a.
  void BufferOrdered(size_t group, size_t a, EvalContext& eval);
  // Bytes the table holds, and would hold after one more group.
  size_t TableBytes() const;
  size_t BytesWithOneMoreGroup() const;
  void ClearTable();
  // Starts the next pending partition's pass; false when none is left.
  bool NextPass();

  ExecNodePtr child_;
  std::vector<PlanExpr> keys_;
  std::vector<AggSpec> aggs_;
  std::vector<types::AggregateState> fresh_states_;  // one per aggregate, before any row
  std::vector<int> distinct_slot_;  // per aggregate: its index among DISTINCT ones, or -1
  size_t ndistinct_ = 0;
  std::vector<int> ordered_slot_;  // per aggregate: its index among ordered ones, or -1
  size_t nordered_ = 0;

  // Per execution. Groups live flat, in first-seen order: group g's keys
  // are group_keys_[g*nkeys ..], its states agg_states_[g*naggs ..], its
  // DISTINCT sets seen_[g*ndistinct ..]; index_ maps hash-key bytes to g.
  ExecContext* ctx_ = nullptr;
  std::vector<types::Value> group_keys_;
  std::vector<types::AggregateState> agg_states_;
  std::vector<std::unordered_set<std::string>> seen_;
  std::vector<OrderedAggInput> ordered_;  // g*nordered_ + slot: buffered input of ordered aggregates
  std::unordered_map<std::string, size_t> index_;
  size_t ngroups_ = 0;
  size_t heap_bytes_ = 0;  // strings and set nodes outside the flat arrays
  size_t limit_ = 0;       // hash_mem in bytes
  bool table_full_ = false;
  size_t groups_that_fit_ = 0;  // groups in the table when it first filled up
  SpillFilePool pool_;
  SpillPartitions spill_;  // partitions of the current pass
  std::vector<Pending> pending_;
  size_t partitions_spilled_ = 0;
  size_t pos_ = 0;
  std::vector<types::Value> args_;
  std::vector<types::Value> order_vals_;
  std::string key_;
  std::string distinct_key_;
  std::string spill_buf_;
};

// DISTINCT streams each row the first time its value is seen. Its table of
// seen values stays within hash_mem the same way: once full, a row not in
// it is spilled to its hash partition (all later copies of that value go
// there too), and after the input ends each partition is de-duplicated by
// a pass of its own, one level deeper.
class DistinctNode : public ExecNode {
 public:
  ExecNodePtr Clone() const override;
  explicit DistinctNode(ExecNodePtr child);
  void Open(ExecContext& ctx) override;
  bool Next(Row& row) override;
  void Close() override;

 protected:
  std::string ExplainName() const override { return "HashAggregate"; }
  void ExplainDetails(std::vector<std::string>* out) const override;
  std::vector<const ExecNode*> ExplainChildren() const override { return {child_.get()}; }

 private:
  struct Pending {
    std::unique_ptr<SpillFile> file;
    int depth = 0;
    int fanout_bits = 0;
  };
  // The next input row of this pass (child or partition); false at its end.
  bool NextInput(Row& row);
  // True when row (key in key_) is new; false when seen or spilled.
  bool FirstSeen(const Row& row);
  // Queues this pass's partitions and starts the next pending one.
  bool NextPass();

  ExecNodePtr child_;
  ExecContext* ctx_ = nullptr;
  std::unordered_set<std::string> seen_;
  size_t heap_bytes_ = 0;  // set nodes and key strings
  size_t limit_ = 0;
  bool table_full_ = false;
  size_t keys_that_fit_ = 0;
  int depth_ = 0;
  bool child_done_ = false;
  std::unique_ptr<SpillFile> input_;  // the partition a pass > 0 reads
  SpillFilePool pool_;
  SpillPartitions spill_;
  std::vector<Pending> pending_;
  std::string key_;
  std::string spill_buf_;
};

enum class SetOpKind : uint8_t { kIntersect, kExcept };

// INTERSECT/EXCEPT count each distinct left value's copies on both sides.
// The table of values stays within hash_mem: once full, left rows of values
// not in it go to their hash partition, and so do right rows of such values
// whose partition has left rows (others cannot matter); each pair of
// partitions is then counted by a pass of its own, one level deeper.
class SetOpNode : public ExecNode {
 public:
  ExecNodePtr Clone() const override;
  SetOpNode(SetOpKind op, bool all, ExecNodePtr left, ExecNodePtr right);
  void Open(ExecContext& ctx) override;
  bool Next(Row& row) override;
  void Close() override;

 protected:
  std::string ExplainName() const override;
  std::vector<const ExecNode*> ExplainChildren() const override { return {left_.get(), right_.get()}; }

 private:
  struct Entry {
    Row row;
    int64_t left = 0, right = 0;
  };
  struct Pending {
    std::unique_ptr<SpillFile> left, right;
    int depth = 0;
    int fanout_bits = 0;
  };
  // One side of a pass: counts next_row's rows (spilling as above).
  template <typename NextRow>
  void Count(NextRow&& next_row, bool left_side);
  size_t BytesWithEntry(const Row& row) const;
  // Queues this pass's partition pairs and counts the next pending one.
  bool NextPass();

  SetOpKind op_;
  bool all_;
  ExecNodePtr left_, right_;
  ExecContext* ctx_ = nullptr;
  std::vector<Entry> entries_;
  std::unordered_map<std::string, size_t> index_;
  size_t heap_bytes_ = 0;  // rows, strings and map nodes outside entries_
  size_t limit_ = 0;
  bool table_full_ = false;
  size_t values_that_fit_ = 0;
  int depth_ = 0;
  SpillFilePool pool_;
  SpillPartitions left_parts_, right_parts_;
  std::vector<Pending> pending_;
  std::string key_;
  std::string spill_buf_;
  size_t pos_ = 0;
  int64_t emit_left_ = 0;  // copies of entries_[pos_] still to emit
};

}  // namespace hearth::executor
