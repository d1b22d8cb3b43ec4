// server/planner/join_using.cpp
//
// Principal entry point: MergeUsingColumns — the merged columns of
// `JOIN ... USING (...)` / NATURAL JOIN. As in PostgreSQL, each USING column
// appears once, first in `*`, and an unqualified reference means the merged
// value: the left input's for INNER/LEFT joins, the right input's for a
// RIGHT join, COALESCE(left, right) for a FULL join (both in their common
// type). The qualified copies (a.x, b.x) stay reachable, and so do the
// merged columns under the name of `USING (...) AS name`.
#include "common/error/db_error.h"
#include "executor/expr/binder.h"
#include "executor/nodes/basic_nodes.h"
#include "planner/planner_internal.h"
#include "utils/adt/type_catalog.h"

namespace hearth::planner {

namespace {

BoundExprPtr MergedValue(executor::JoinKind kind, const UsingColumn& u, types::Oid common) {
  BindContext ctx;
  auto side = [&](int slot, types::Oid t, int32_t typmod) {
    return executor::Coerce(MakeColumn(slot, t, typmod), common, types::kNoTypmod, types::CoercionContext::kImplicit,
                            ctx);
  };
  switch (kind) {
    case executor::JoinKind::kRight:
      return side(u.right_slot, u.right_type, u.right_typmod);
    case executor::JoinKind::kFull: {
      auto c = std::make_unique<BoundExpr>(BoundKind::kCoalesce, common);
      c->children.push_back(side(u.left_slot, u.left_type, u.left_typmod));
      c->children.push_back(side(u.right_slot, u.right_type, u.right_typmod));
      return c;
    }
    default:
      return side(u.left_slot, u.left_type, u.left_typmod);
  }
}

}  // namespace

void MergeUsingColumns(executor::JoinKind kind, const std::vector<UsingColumn>& cols, ExecNodePtr* node,
                       std::vector<RangeEntry>* entries) {
  if (cols.empty()) return;
  const auto nmerged = static_cast<int>(cols.size());
  RangeEntry merged;  // unnamed: reachable only unqualified (and by '*')
  std::vector<PlanExpr> exprs;
  std::vector<OutputColumn> out_cols;
  for (const UsingColumn& u : cols) {
    types::Oid common = u.left_type;
    if (u.left_type != u.right_type) common = types::SelectCommonType({u.left_type, u.right_type}, "JOIN/USING");
    const int32_t typmod = u.left_type == u.right_type && u.left_typmod == u.right_typmod ? u.left_typmod
                                                                                          : types::kNoTypmod;
    BoundExprPtr v = MergedValue(kind, u, common);
    v->typmod = typmod;
    out_cols.push_back(OutputColumn{u.name, common, typmod});
    exprs.push_back(PlanExpr{std::move(v), u.name});
    merged.names.push_back(u.name);
    merged.types.push_back(common);
    merged.typmods.push_back(typmod);
    merged.hidden.push_back(false);
  }
  // Row: [merged..., left..., right...]; the inputs' entries shift right.
  const std::vector<OutputColumn>& in_cols = (*node)->columns();
  for (size_t i = 0; i < in_cols.size(); ++i) {
    exprs.push_back(PlanExpr{MakeColumn(static_cast<int>(i), in_cols[i].type, in_cols[i].typmod), ""});
    out_cols.push_back(in_cols[i]);
  }
  *node = std::make_unique<executor::ProjectNode>(std::move(*node), std::move(exprs), std::move(out_cols));
  for (RangeEntry& e : *entries) e.offset += nmerged;
  entries->insert(entries->begin(), std::move(merged));
}

void AddUsingAlias(const parser::JoinRef& j, std::vector<RangeEntry>* entries) {
  for (const RangeEntry& e : *entries) {
    if (e.alias == j.using_alias) {
      throw DbError("42712", "table name \"" + j.using_alias + "\" specified more than once");
    }
  }
  RangeEntry alias = entries->front();  // the merged columns (MergeUsingColumns)
  alias.alias = j.using_alias;
  alias.hidden.assign(alias.names.size(), true);  // not unqualified, not in '*': already there
  entries->push_back(std::move(alias));
}

}  // namespace hearth::planner
