// server/planner/scope.cpp
//
// Principal entry points: Scope::Resolve (column name resolution with
// PostgreSQL's errors) and the small bound-tree helpers of
// planner_internal.h.
#include <climits>

#include "common/error/db_error.h"
#include "common/error/stack_depth.h"
#include "common/error/sqlstate.h"
#include "executor/expr/binder.h"
#include "planner/planner_internal.h"
#include "utils/adt/cast.h"
#include "utils/adt/func_registry.h"
#include "utils/adt/type_catalog.h"

namespace hearth::planner {

int Scope::width() const {
  int w = 0;
  for (const RangeEntry& e : entries) w = std::max(w, e.offset + e.width());
  return w;
}

std::optional<std::pair<const RangeEntry*, int>> Scope::TryFind(const parser::ColumnRefExpr& c) const {
  const std::vector<std::string>& f = c.fields;
  if (f.empty()) return std::nullopt;
  const std::string& col = f.back();
  if (f.size() == 1) {
    std::optional<std::pair<const RangeEntry*, int>> found;
    for (const RangeEntry& e : entries) {
      for (int i = 0; i < e.width(); ++i) {
        if (e.hidden[static_cast<size_t>(i)] || e.names[static_cast<size_t>(i)] != col) continue;
        if (found) {
          throw DbError(sqlstate::kAmbiguousColumn, "column reference \"" + col + "\" is ambiguous");
        }
        found = std::make_pair(&e, i);
      }
    }
    return found;
  }
  const std::string& qual = f[f.size() - 2];
  for (const RangeEntry& e : entries) {
    if (e.alias != qual) continue;
    if (c.star_column >= 0 && c.star_column < e.width()) return std::make_pair(&e, c.star_column);
    for (int i = 0; i < e.width(); ++i) {
      if (e.names[static_cast<size_t>(i)] == col) return std::make_pair(&e, i);
    }
    throw DbError(sqlstate::kUndefinedColumn, "column " + qual + "." + col + " does not exist");
  }
  return std::nullopt;
}

std::pair<const RangeEntry*, int> Scope::Find(const parser::ColumnRefExpr& c) const {
  if (auto r = TryFind(c)) return *r;
  for (const Scope* p = parent; p != nullptr; p = p->parent) {
    std::optional<std::pair<const RangeEntry*, int>> r;
    try {
      r = p->TryFind(c);
    } catch (const DbError&) {
      r = std::make_pair(nullptr, 0);  // exists up there (ambiguously)
    }
    if (r) {
      throw DbError(sqlstate::kFeatureNotSupported, "correlated references to a query other than the immediately enclosing one are not supported yet");
    }
  }
  if (c.fields.size() >= 2) {
    throw DbError(sqlstate::kUndefinedTable,
                  "missing FROM-clause entry for table \"" + c.fields[c.fields.size() - 2] + "\"");
  }
  throw DbError(sqlstate::kUndefinedColumn, "column \"" + c.fields.back() + "\" does not exist");
}

ColumnBinding Scope::Resolve(const parser::ColumnRefExpr& c) const {
  if (corr != nullptr && parent != nullptr && !TryFind(c)) {
    for (const Scope* up = parent; up != nullptr; up = up->parent) {
      auto outer = up->TryFind(c);
      if (!outer) continue;
      auto [oe, oi] = *outer;
      NoteColumnRead(OriginAt(*oe, oi));
      int index = oe->offset + oi;
      size_t k = 0;
      while (k < corr->outer_index.size() && (corr->outer_index[k] != index || corr->outer_scope[k] != up)) ++k;
      if (k == corr->outer_index.size()) {
        corr->outer_scope.push_back(up);
        corr->outer_index.push_back(index);
        corr->refs.push_back(&c);
        corr->slots.push_back((*corr->nslots)++);
      }
      return ColumnBinding{kOuterRefBase + static_cast<int>(k), oe->types[static_cast<size_t>(oi)],
                           oe->typmods[static_cast<size_t>(oi)]};
    }
  }
  auto [e, i] = Find(c);
  NoteColumnRead(OriginAt(*e, i));
  ColumnBinding b;
  b.index = e->offset + i;
  b.type = e->types[static_cast<size_t>(i)];
  b.typmod = e->typmods[static_cast<size_t>(i)];
  return b;
}

std::string Scope::DisplayName(const parser::ColumnRefExpr& c, bool bare) const {
  std::optional<std::pair<const RangeEntry*, int>> found;
  try {
    found = TryFind(c);
  } catch (const DbError&) {
  }
  if (!found) return Deparse(c);
  auto [e, i] = *found;
  const std::string& name = e->names[static_cast<size_t>(i)];
  if (!bare && entries.size() > 1 && !e->alias.empty()) return e->alias + "." + name;
  return name;
}

ColumnNamer Scope::Namer() const {
  return [this](const parser::ColumnRefExpr& c) { return DisplayName(c); };
}

void SplitConjuncts(const parser::Expr* e, std::vector<const parser::Expr*>* out) {
  if (e->kind == parser::ExprKind::kBinaryOp) {
    const auto& b = e->As<parser::BinaryOpExpr>();
    if (b.op == "AND") {
      SplitConjuncts(b.left.get(), out);
      SplitConjuncts(b.right.get(), out);
      return;
    }
  }
  out->push_back(e);
}

void ColumnRange(const BoundExpr& e, int* min, int* max) {
  if (e.kind == BoundKind::kColumn) {
    *min = std::min(*min, e.index);
    *max = std::max(*max, e.index);
  }
  for (const auto& c : e.children) ColumnRange(*c, min, max);
}

void ShiftColumns(BoundExpr& e, int delta) {
  if (e.kind == BoundKind::kColumn) e.index += delta;
  for (auto& c : e.children) ShiftColumns(*c, delta);
}

BoundExprPtr MakeAnd(BoundExprPtr a, BoundExprPtr b) {
  if (!a) return b;
  if (!b) return a;
  auto n = std::make_unique<BoundExpr>(BoundKind::kAnd, types::kBoolOid);
  n->children.push_back(std::move(a));
  n->children.push_back(std::move(b));
  return n;
}

BoundExprPtr MakeColumn(int index, types::Oid type, int32_t typmod) {
  auto n = std::make_unique<BoundExpr>(BoundKind::kColumn, type);
  n->index = index;
  n->typmod = typmod;
  return n;
}

OutputColumn Describe(const std::string& name, const BoundExpr& e) {
  executor::ResultColumn r = executor::DescribeResult(e);
  return OutputColumn{name, r.type, r.typmod};
}

bool IsAggregateCall(const parser::FuncCallExpr& f) {
  if (f.over || f.name.empty()) return false;
  if (f.name.size() == 2 && f.name[0] != "pg_catalog") return false;
  return types::FunctionNameExists(f.name.back(), types::FuncKind::kAggregate);
}

void ForEachChild(const parser::Expr& e, const std::function<void(const parser::Expr&)>& fn) {
  using parser::ExprKind;
  CheckStackDepth();  // every walk over the tree recurses through here
  auto visit = [&](const parser::ExprPtr& p) {
    if (p) fn(*p);
  };
  switch (e.kind) {
    case ExprKind::kUnaryOp: visit(e.As<parser::UnaryOpExpr>().operand); break;
    case ExprKind::kBinaryOp:
      visit(e.As<parser::BinaryOpExpr>().left);
      visit(e.As<parser::BinaryOpExpr>().right);
      break;
    case ExprKind::kLike: {
      const auto& l = e.As<parser::LikeExpr>();
      visit(l.arg);
      visit(l.pattern);
      visit(l.escape);
      break;
    }
    case ExprKind::kIsNull: visit(e.As<parser::IsNullExpr>().arg); break;
    case ExprKind::kIsBool: visit(e.As<parser::IsBoolExpr>().arg); break;
    case ExprKind::kIsDistinct:
      visit(e.As<parser::IsDistinctExpr>().left);
      visit(e.As<parser::IsDistinctExpr>().right);
      break;
    case ExprKind::kBetween: {
      const auto& b = e.As<parser::BetweenExpr>();
      visit(b.arg);
      visit(b.low);
      visit(b.high);
      break;
    }
    case ExprKind::kInList: {
      const auto& in = e.As<parser::InListExpr>();
      visit(in.arg);
      for (const auto& i : in.items) visit(i);
      break;
    }
    case ExprKind::kCase: {
      const auto& c = e.As<parser::CaseExpr>();
      visit(c.operand);
      for (const auto& w : c.whens) {
        visit(w.condition);
        visit(w.result);
      }
      visit(c.else_result);
      break;
    }
    case ExprKind::kCast: visit(e.As<parser::CastExpr>().arg); break;
    case ExprKind::kFuncCall: {
      const auto& f = e.As<parser::FuncCallExpr>();
      for (const auto& a : f.args) visit(a);
      visit(f.filter);
      if (f.over) {  // OVER (PARTITION BY ... ORDER BY ...)
        for (const auto& p : f.over->partition_by) visit(p);
        for (const auto& o : f.over->order_by) visit(o.expr);
      }
      break;
    }
    case ExprKind::kSubLink: visit(e.As<parser::SubLinkExpr>().test_expr); break;
    case ExprKind::kCollate: visit(e.As<parser::CollateExpr>().arg); break;
    case ExprKind::kArray:
      for (const auto& i : e.As<parser::ArrayExpr>().elements) visit(i);
      break;
    case ExprKind::kRow:
      for (const auto& i : e.As<parser::RowExpr>().items) visit(i);
      break;
    case ExprKind::kAnyAll:
      visit(e.As<parser::AnyAllExpr>().left);
      visit(e.As<parser::AnyAllExpr>().right);
      break;
    case ExprKind::kSubscript: {
      const auto& s = e.As<parser::SubscriptExpr>();
      visit(s.arg);
      visit(s.index);
      visit(s.upper);
      break;
    }
    default:
      break;
  }
}

BoundExprPtr AssignCoerce(BoundExprPtr e, const executor::ColumnInfo& col, BindContext& ctx, int location) {
  if (e->type != types::kUnknownOid && e->type != col.type &&
      !types::CanCoerce(e->type, col.type, types::CoercionContext::kAssignment)) {
    DbError err(sqlstate::kDatatypeMismatch, "column \"" + col.name + "\" is of type " +
                                                 types::FormatType(col.type) + " but expression is of type " +
                                                 types::FormatType(e->type));
    err.WithHint("You will need to rewrite or cast the expression.");
    if (location >= 0) err.WithPosition(location + 1);
    throw err;
  }
  return executor::Coerce(std::move(e), col.type, col.typmod, types::CoercionContext::kAssignment, ctx);
}

}  // namespace hearth::planner
