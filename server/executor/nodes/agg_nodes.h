// server/executor/nodes/agg_nodes.h
//
// Hashing nodes: AggregateNode (GROUP BY with a hash table — "HashAggregate"
// — or a single group without GROUP BY — "Aggregate", one row even on empty
// input), DistinctNode (SELECT DISTINCT / UNION by hashing whole rows) and
// SetOpNode (INTERSECT/EXCEPT [ALL]). Hash tables live in memory (they do
// not spill yet; work_mem is not enforced for them). Groups are emitted in
// first-seen order, so results are deterministic. Immutable plan, one
// execution at a time.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "executor/exec_node.h"
#include "utils/adt/aggregates.h"

namespace hearth::executor {

// One aggregate call: count(*) has no args.
struct AggSpec {
  const types::FuncSignature* sig = nullptr;
  std::vector<PlanExpr> args;  // bound against the child's row
  bool distinct = false;       // agg(DISTINCT x)
  PlanExpr filter;             // agg(...) FILTER (WHERE ...), may be null
  types::Oid result_type = types::kInvalidOid;
};

class AggregateNode : public ExecNode {
 public:
  // Output rows: [group key values..., aggregate results...]. With no
  // group keys this is a plain Aggregate (exactly one output row).
  AggregateNode(ExecNodePtr child, std::vector<PlanExpr> group_keys, std::vector<AggSpec> aggs,
                std::vector<OutputColumn> columns);
  void Open(ExecContext& ctx) override;
  bool Next(Row& row) override;
  void Close() override;

 protected:
  std::string ExplainName() const override { return keys_.empty() ? "Aggregate" : "HashAggregate"; }
  void ExplainDetails(std::vector<std::string>* out) const override;
  std::vector<const ExecNode*> ExplainChildren() const override { return {child_.get()}; }

 private:
  struct Group {
    Row keys;
    std::vector<types::AggregateState> states;
    std::vector<std::unordered_set<std::string>> seen;  // DISTINCT aggregates
  };
  Group& NewGroup(Row keys);
  void Accumulate(Group& g, EvalContext& eval);

  ExecNodePtr child_;
  std::vector<PlanExpr> keys_;
  std::vector<AggSpec> aggs_;

  std::vector<std::unique_ptr<Group>> groups_;
  std::unordered_map<std::string, size_t> index_;
  size_t pos_ = 0;
  std::vector<types::Value> args_;
  std::string key_;
};

class DistinctNode : public ExecNode {
 public:
  explicit DistinctNode(ExecNodePtr child);
  void Open(ExecContext& ctx) override;
  bool Next(Row& row) override;
  void Close() override;

 protected:
  std::string ExplainName() const override { return "HashAggregate"; }
  void ExplainDetails(std::vector<std::string>* out) const override;
  std::vector<const ExecNode*> ExplainChildren() const override { return {child_.get()}; }

 private:
  ExecNodePtr child_;
  std::unordered_set<std::string> seen_;
  std::string key_;
};

enum class SetOpKind : uint8_t { kIntersect, kExcept };

class SetOpNode : public ExecNode {
 public:
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
  SetOpKind op_;
  bool all_;
  ExecNodePtr left_, right_;
  std::vector<Entry> entries_;
  size_t pos_ = 0;
  int64_t emit_left_ = 0;  // copies of entries_[pos_] still to emit
};

}  // namespace hearth::executor
