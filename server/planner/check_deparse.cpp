// server/planner/check_deparse.cpp
//
// Principal entry point: DeparseCheckCondition.
#include "planner/check_deparse.h"

#include <optional>

#include "planner/deparse.h"
#include "utils/adt/regclass.h"
#include "utils/adt/type_catalog.h"
#include "utils/adt/type_oid.h"

namespace hearth::planner {

namespace {

using parser::ConstKind;
using parser::ExprKind;
using types::Oid;

bool IsComparison(const std::string& op) {
  return op == "=" || op == "<>" || op == "!=" || op == "<" || op == ">" || op == "<=" || op == ">=";
}

bool IsInteger(Oid t) { return t == types::kInt2Oid || t == types::kInt4Oid || t == types::kInt8Oid; }

bool AllDigits(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

std::string Quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += '\'';
    out += c;
  }
  return out + "'";
}

// The column's type when `e` names a column of `table`, else invalid.
Oid ColumnType(const parser::Expr& e, const executor::TableInfo& table) {
  if (e.kind != ExprKind::kColumnRef) return types::kInvalidOid;
  const auto& ref = e.As<parser::ColumnRefExpr>();
  if (ref.star || ref.fields.empty()) return types::kInvalidOid;
  for (const executor::ColumnInfo& c : table.columns) {
    if (c.name == ref.fields.back()) return c.type;
  }
  return types::kInvalidOid;
}

struct Operands {
  std::string column;   // the column's text
  std::string literal;  // the literal's text
};

// How PostgreSQL prints `column op literal` for a column of type `t`;
// nullopt where Hearth's plain deparse already matches (or the shape is
// not one this handles).
std::optional<Operands> Labelled(const std::string& column, Oid t, const parser::ConstExpr& lit) {
  const std::string& v = lit.value;
  switch (lit.const_kind) {
    case ConstKind::kString:
      if (t == types::kInt4Oid) return AllDigits(v) ? std::optional<Operands>({column, v}) : std::nullopt;
      if (t == types::kBoolOid) return std::nullopt;
      if (t == types::kVarcharOid) return Operands{"(" + column + ")::text", Quoted(v) + "::text"};
      if (t == types::kNumericOid) {
        if (AllDigits(v)) return Operands{column, v + "::numeric"};
        return std::nullopt;
      }
      if (t == types::kBpcharOid) return Operands{column, Quoted(v) + "::bpchar"};
      return Operands{column, Quoted(v) + "::" + types::FormatType(t)};
    case ConstKind::kInteger:
      if (t == types::kNumericOid || t == types::kFloat8Oid || t == types::kFloat4Oid) {
        return Operands{column, "(" + v + ")::" + types::FormatType(t)};
      }
      return std::nullopt;
    case ConstKind::kNumeric:
      if (IsInteger(t)) return Operands{"(" + column + ")::numeric", v};
      if (t == types::kFloat8Oid || t == types::kFloat4Oid) return Operands{column, "(" + v + ")::double precision"};
      return std::nullopt;
    default: return std::nullopt;
  }
}

}  // namespace

std::string DeparseCheckCondition(const parser::Expr& e, const executor::TableInfo& table) {
  const ColumnNamer bare = [](const parser::ColumnRefExpr& ref) {
    return ref.fields.empty() ? std::string() : types::QuoteIdentifier(ref.fields.back());
  };
  const NodeOverride casts = [&](const parser::Expr& node) -> std::optional<std::string> {
    if (node.kind != ExprKind::kBinaryOp) return std::nullopt;
    const auto& b = node.As<parser::BinaryOpExpr>();
    if (!IsComparison(b.op)) return std::nullopt;
    for (const bool column_left : {true, false}) {
      const parser::Expr& col = column_left ? *b.left : *b.right;
      const parser::Expr& lit = column_left ? *b.right : *b.left;
      const Oid t = ColumnType(col, table);
      if (t == types::kInvalidOid || lit.kind != ExprKind::kConst) continue;
      std::optional<Operands> o = Labelled(Deparse(col, bare), t, lit.As<parser::ConstExpr>());
      if (!o) return std::nullopt;
      return "(" + (column_left ? o->column : o->literal) + " " + b.op + " " + (column_left ? o->literal : o->column) +
             ")";
    }
    return std::nullopt;
  };
  return Deparse(e, bare, casts);
}

}  // namespace hearth::planner
