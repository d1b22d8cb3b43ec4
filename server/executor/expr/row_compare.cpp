// server/executor/expr/row_compare.cpp
//
// Principal entry points: BindRowCompare and the binder hooks for row
// constructors in comparisons (see row_compare.h).
#include "executor/expr/row_compare.h"

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "executor/expr/binder.h"
#include "utils/adt/text_io.h"
#include "utils/adt/type_catalog.h"
#include "utils/adt/record_text.h"

#include <cctype>

namespace hearth::executor {

namespace {

BoundExprPtr Bool2(BoundKind k, BoundExprPtr l, BoundExprPtr r, int location) {
  if (!l) return r;
  auto e = std::make_unique<BoundExpr>(k, types::kBoolOid);
  e->location = location;
  e->children.push_back(std::move(l));
  e->children.push_back(std::move(r));
  return e;
}

[[noreturn]] void Throw(DbError e, int location) {
  if (location >= 0 && e.position() == 0) e.WithPosition(location + 1);
  throw e;
}

bool IsRow(const parser::ExprPtr& e) { return e && e->kind == parser::ExprKind::kRow; }

std::vector<BoundExprPtr> BindItems(const parser::Expr& e, BindContext& ctx) {
  std::vector<BoundExprPtr> out;
  if (e.kind == parser::ExprKind::kRow) {
    for (const parser::ExprPtr& item : e.As<parser::RowExpr>().items) out.push_back(BindExpr(*item, ctx));
  } else {
    out.push_back(BindExpr(e, ctx));
  }
  return out;
}

// Lexicographic l op r from field i on (op one of < <= > >=).
BoundExprPtr Lexicographic(const std::string& op, std::vector<BoundExprPtr>& l, std::vector<BoundExprPtr>& r,
                           size_t i, int location, BindContext& ctx) {
  if (i + 1 == l.size()) return BindOperator(op, std::move(l[i]), std::move(r[i]), location, ctx);
  const std::string strict = op.substr(0, 1);
  BoundExprPtr first = BindOperator(strict, CloneBound(*l[i]), CloneBound(*r[i]), location, ctx);
  BoundExprPtr tie = BindOperator("=", std::move(l[i]), std::move(r[i]), location, ctx);
  BoundExprPtr rest = Lexicographic(op, l, r, i + 1, location, ctx);
  return Bool2(BoundKind::kOr, std::move(first), Bool2(BoundKind::kAnd, std::move(tie), std::move(rest), location),
               location);
}

// record_out (utils/adt/record_text.h).
types::Value RecordOut(const types::Value* args, int nargs, types::FuncCallContext& /*ctx*/) {
  return types::RecordValue(args, nargs);
}

const types::FuncSignature* RecordSignature() {
  static const types::FuncSignature sig = {
      "row", types::FuncKind::kFunction, 1, {types::kAnyOid, 0, 0},
      types::kRecordOid, &RecordOut, /*strict=*/false, /*variadic=*/true, /*is_volatile=*/false};
  return &sig;
}

}  // namespace

BoundExprPtr BindRowValue(const parser::RowExpr& e, BindContext& ctx) {
  auto call = std::make_unique<BoundExpr>(BoundKind::kFuncCall, types::kRecordOid);
  call->func = RecordSignature();
  call->location = e.location;
  for (const parser::ExprPtr& item : e.items) {
    BoundExprPtr f = BindExpr(*item, ctx);
    // As PostgreSQL, an unknown literal in a row is text.
    if (f->type == types::kUnknownOid) {
      f = Coerce(std::move(f), types::kTextOid, types::kNoTypmod, types::CoercionContext::kImplicit, ctx);
    }
    call->children.push_back(std::move(f));
  }
  return call;
}

BoundExprPtr BindRowCompare(const std::string& op, std::vector<BoundExprPtr> l, std::vector<BoundExprPtr> r,
                            int location, BindContext& ctx) {
  if (l.size() != r.size()) Throw(DbError(sqlstate::kSyntaxError, "unequal number of entries in row expressions"), location);
  if (l.empty()) Throw(DbError(sqlstate::kFeatureNotSupported, "cannot compare rows of zero length"), location);
  if (op == "=" || op == "<>") {
    BoundExprPtr out;
    for (size_t i = 0; i < l.size(); ++i) {
      out = Bool2(op == "=" ? BoundKind::kAnd : BoundKind::kOr, std::move(out),
                  BindOperator(op, std::move(l[i]), std::move(r[i]), location, ctx), location);
    }
    return out;
  }
  if (op == "<" || op == "<=" || op == ">" || op == ">=") return Lexicographic(op, l, r, 0, location, ctx);
  // As PostgreSQL: the operator must exist for the fields (42883) and yield
  // boolean, and only B-tree comparisons have a row meaning.
  BoundExprPtr first = BindOperator(op, std::move(l[0]), std::move(r[0]), location, ctx);
  if (first->type != types::kBoolOid) {
    Throw(DbError(sqlstate::kDatatypeMismatch,
                  "row comparison operator must yield type boolean, not type " + types::FormatType(first->type)),
          location);
  }
  Throw(DbError(sqlstate::kFeatureNotSupported, "could not determine interpretation of row comparison operator " + op)
            .WithHint("Row comparison operators must be associated with btree operator families."),
        location);
}

BoundExprPtr BindRowBinary(const parser::BinaryOpExpr& e, BindContext& ctx) {
  if (!IsRow(e.left) || !IsRow(e.right)) return nullptr;
  return BindRowCompare(e.op, BindItems(*e.left, ctx), BindItems(*e.right, ctx), e.location, ctx);
}

BoundExprPtr BindRowIsNull(const parser::IsNullExpr& e, BindContext& ctx) {
  if (!IsRow(e.arg)) return nullptr;
  // ROW IS NULL: every field NULL; ROW IS NOT NULL: every field not NULL.
  BoundExprPtr out;
  for (BoundExprPtr& f : BindItems(*e.arg, ctx)) {
    auto t = std::make_unique<BoundExpr>(BoundKind::kIsNull, types::kBoolOid);
    t->location = e.location;
    t->negated = e.negated;
    t->children.push_back(std::move(f));
    out = Bool2(BoundKind::kAnd, std::move(out), std::move(t), e.location);
  }
  if (!out) {
    out = std::make_unique<BoundExpr>(BoundKind::kConst, types::kBoolOid);
    out->value = types::Value::Bool(true);
  }
  return out;
}

BoundExprPtr BindRowIsDistinct(const parser::IsDistinctExpr& e, BindContext& ctx) {
  if (!IsRow(e.left) || !IsRow(e.right)) return nullptr;
  std::vector<BoundExprPtr> l = BindItems(*e.left, ctx), r = BindItems(*e.right, ctx);
  if (l.size() != r.size()) Throw(DbError(sqlstate::kSyntaxError, "unequal number of entries in row expressions"), e.location);
  // Distinct when some field is distinct; NOT DISTINCT when none is.
  BoundExprPtr out;
  for (size_t i = 0; i < l.size(); ++i) {
    BoundExprPtr eq = BindOperator("=", std::move(l[i]), std::move(r[i]), e.location, ctx);
    auto d = std::make_unique<BoundExpr>(BoundKind::kIsDistinct, types::kBoolOid);
    d->location = e.location;
    d->func = eq->func;
    d->children = std::move(eq->children);
    out = Bool2(BoundKind::kOr, std::move(out), std::move(d), e.location);
  }
  if (e.negated) {
    auto n = std::make_unique<BoundExpr>(BoundKind::kNot, types::kBoolOid);
    n->location = e.location;
    n->children.push_back(std::move(out));
    out = std::move(n);
  }
  return out;
}

BoundExprPtr BindRowInList(const parser::InListExpr& e, BindContext& ctx) {
  if (!IsRow(e.arg)) return nullptr;
  // (a, b) IN ((1, 2), ...) = OR of row equalities; NOT IN = AND of row <>.
  BoundExprPtr out;
  for (const parser::ExprPtr& item : e.items) {
    BoundExprPtr c = BindRowCompare(e.negated ? "<>" : "=", BindItems(*e.arg, ctx), BindItems(*item, ctx),
                                    e.location, ctx);
    out = Bool2(e.negated ? BoundKind::kAnd : BoundKind::kOr, std::move(out), std::move(c), e.location);
  }
  return out;
}

}  // namespace hearth::executor
