// server/planner/select_grouping_sets.cpp
//
// GROUP BY GROUPING SETS / ROLLUP / CUBE and GROUPING(...). The parser
// expands the sets (indexes into GROUP BY's expressions); here equal
// expressions become one key, and the plan aggregates each set on its own
// — an Aggregate (one row even on empty input for the empty set) over a
// clone of the input, grouped by that set's keys — and projects every set
// to the common row [all keys..., aggregates...] with NULL for the keys
// the set does not group and GROUPING's bit mask (1 = argument not grouped)
// as a constant. An Append of the sets feeds HAVING and the select list.
// A query using GROUPING() without grouping sets is one set of all keys.
#include <algorithm>
#include <functional>
#include <string>
#include <unordered_set>


#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "executor/nodes/agg_nodes.h"
#include "executor/nodes/basic_nodes.h"
#include "planner/planner_internal.h"

namespace hearth::planner {
namespace {

BoundExprPtr NullOf(types::Oid type, int32_t typmod) {
  auto c = std::make_unique<BoundExpr>(BoundKind::kConst, type);
  c->value = types::Value::Null(type);
  c->typmod = typmod;
  return c;
}

BoundExprPtr Int4Const(int32_t v) {
  auto c = std::make_unique<BoundExpr>(BoundKind::kConst, types::kInt4Oid);
  c->value = types::Value::Int4(v);
  return c;
}

}  // namespace

void QueryPlanner::MergeGroupingKeys(SelectParts& p) {
  if (!p.s.has_grouping_sets) return;
  // GROUP BY item i → its key after merging structurally equal ones.
  std::vector<int> key_of(p.group_keys.size());
  std::vector<PlanExpr> keys;
  for (size_t i = 0; i < p.group_keys.size(); ++i) {
    int k = -1;
    for (size_t j = 0; j < keys.size() && k < 0; ++j) {
      if (SameExpr(*keys[j].expr, *p.group_keys[i].expr)) k = static_cast<int>(j);
    }
    if (k < 0) {
      k = static_cast<int>(keys.size());
      keys.push_back(std::move(p.group_keys[i]));
    }
    key_of[i] = k;
  }
  p.group_keys = std::move(keys);
  for (const std::vector<int>& set : p.s.grouping_sets) {
    std::vector<int> mapped;
    for (int i : set) {
      int k = key_of[static_cast<size_t>(i)];
      if (std::find(mapped.begin(), mapped.end(), k) == mapped.end()) mapped.push_back(k);
    }
    p.grouping_sets.push_back(std::move(mapped));
  }
}

BoundExprPtr QueryPlanner::BindGroupingCall(const parser::FuncCallExpr& f, std::vector<BoundExprPtr> args,
                                            const types::ResolvedFunc& rf, SelectParts& p) {
  executor::AggSpec spec;
  spec.sig = rf.sig;
  spec.result_type = types::kInt4Oid;
  for (size_t i = 0; i < args.size(); ++i) {
    int key = -1;
    for (size_t k = 0; k < p.group_keys.size() && key < 0; ++k) {
      if (SameExpr(*args[i], *p.group_keys[k].expr)) key = static_cast<int>(k);
    }
    if (key < 0) {
      ThrowAt(DbError(sqlstate::kGroupingError,
                      "arguments to GROUPING must be grouping expressions of the associated query level"),
              LeftmostLocation(*f.args[i]));
    }
    spec.grouping_keys.push_back(key);
  }
  p.aggs.push_back(std::move(spec));
  p.uses_grouping_func = true;
  auto ref = std::make_unique<BoundExpr>(BoundKind::kAggRef, types::kInt4Oid);
  ref->index = static_cast<int>(p.aggs.size() - 1);
  ref->location = f.location;
  return ref;
}

ExecNodePtr QueryPlanner::PlanGroupingSets(ExecNodePtr input, SelectParts& p, std::vector<OutputColumn> cols) {
  std::vector<std::vector<int>> sets = p.grouping_sets;
  if (!p.s.has_grouping_sets) {
    sets.emplace_back();
    for (size_t k = 0; k < p.group_keys.size(); ++k) sets.back().push_back(static_cast<int>(k));
  }
  // Each set reads its own copy of the input.
  const size_t nkeys = p.group_keys.size();
  std::vector<ExecNodePtr> arms;
  for (size_t si = 0; si < sets.size(); ++si) {
    const std::vector<int>& set = sets[si];
    std::vector<PlanExpr> keys;
    std::vector<OutputColumn> agg_cols;
    for (int k : set) {
      keys.push_back(executor::ClonePlanExpr(p.group_keys[static_cast<size_t>(k)]));
      agg_cols.push_back(cols[static_cast<size_t>(k)]);
    }
    std::vector<executor::AggSpec> aggs;
    std::vector<PlanExpr> proj;
    for (size_t k = 0; k < nkeys; ++k) {
      auto at = std::find(set.begin(), set.end(), static_cast<int>(k));
      const OutputColumn& c = cols[k];
      proj.push_back(PlanExpr{at == set.end() ? NullOf(c.type, c.typmod)
                                              : MakeColumn(static_cast<int>(at - set.begin()), c.type, c.typmod),
                              c.name});
    }
    for (size_t a = 0; a < p.aggs.size(); ++a) {
      const executor::AggSpec& spec = p.aggs[a];
      if (spec.sig && std::string(spec.sig->name) == "grouping") {
        int32_t mask = 0;
        for (int k : spec.grouping_keys) mask = (mask << 1) | (std::find(set.begin(), set.end(), k) == set.end() ? 1 : 0);
        proj.push_back(PlanExpr{Int4Const(mask), "grouping"});
        continue;
      }
      proj.push_back(PlanExpr{MakeColumn(static_cast<int>(set.size() + aggs.size()), spec.result_type, types::kNoTypmod),
                              spec.sig->name});
      agg_cols.push_back(cols[nkeys + a]);
      aggs.push_back(executor::CloneAggSpec(spec));
    }
    ExecNodePtr in = si + 1 == sets.size() ? std::move(input) : input->Clone();
    auto agg = std::make_unique<executor::AggregateNode>(std::move(in), std::move(keys), std::move(aggs),
                                                         std::move(agg_cols));
    ExecNodePtr sorted = SortGroupsIfOrdered(std::move(agg));
    arms.push_back(std::make_unique<executor::ProjectNode>(std::move(sorted), std::move(proj), cols));
  }
  if (arms.size() == 1) return std::move(arms.front());
  return std::make_unique<executor::AppendNode>(std::move(arms), std::move(cols));
}

}  // namespace hearth::planner
