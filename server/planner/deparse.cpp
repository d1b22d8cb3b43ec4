// server/planner/deparse.cpp
//
// Principal entry point: Deparse.
#include "planner/deparse.h"

#include <algorithm>

#include "common/error/stack_depth.h"

namespace hearth::planner {

namespace {

using parser::ExprKind;

std::string Quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += '\'';
    out += c;
  }
  return out + "'";
}

std::string TypeText(const parser::TypeName& t) {
  std::string s = t.schema.empty() ? t.name : t.schema + "." + t.name;
  if (!t.typmods.empty()) {
    s += "(";
    for (size_t i = 0; i < t.typmods.size(); ++i) s += (i ? "," : "") + std::to_string(t.typmods[i]);
    s += ")";
  }
  if (t.is_array) {
    for (int i = 0; i < std::max(t.array_dims, 1); ++i) s += "[]";  // '{}'::text[] stays an array
  }
  return s;
}

std::string Join(const std::vector<parser::ExprPtr>& v, const ColumnNamer& n) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) s += ", ";
    s += Deparse(*v[i], n);
  }
  return s;
}

}  // namespace

namespace {
// The override of the Deparse call under way on this thread, if any.
thread_local const NodeOverride* g_override = nullptr;
}  // namespace

std::string Deparse(const parser::Expr& e, const ColumnNamer& namer, const NodeOverride& override_node) {
  const NodeOverride* outer = g_override;
  g_override = &override_node;
  struct Restore {
    const NodeOverride* outer;
    ~Restore() { g_override = outer; }
  } restore{outer};
  return Deparse(e, namer);
}

std::string Deparse(const parser::Expr& e, const ColumnNamer& namer) {
  CheckStackDepth();
  if (g_override != nullptr && *g_override) {
    if (std::optional<std::string> text = (*g_override)(e)) return *text;
  }
  switch (e.kind) {
    case ExprKind::kConst: {
      const auto& c = e.As<parser::ConstExpr>();
      switch (c.const_kind) {
        case parser::ConstKind::kInteger:
        case parser::ConstKind::kNumeric:
          return c.value;
        case parser::ConstKind::kString:
          return Quote(c.value);
        case parser::ConstKind::kBool:
          return c.bool_value ? "true" : "false";
        case parser::ConstKind::kNull:
          return "NULL";
      }
      return "?";
    }
    case ExprKind::kColumnRef: {
      const auto& c = e.As<parser::ColumnRefExpr>();
      if (namer && !c.star) return namer(c);
      std::string s;
      for (size_t i = 0; i < c.fields.size(); ++i) s += (i ? "." : "") + c.fields[i];
      if (c.star) s += ".*";
      return s;
    }
    case ExprKind::kParamRef:
      return "$" + std::to_string(e.As<parser::ParamRefExpr>().number);
    case ExprKind::kStar:
      return "*";
    case ExprKind::kUnaryOp: {
      const auto& u = e.As<parser::UnaryOpExpr>();
      if (u.op == "NOT") return "(NOT " + Deparse(*u.operand, namer) + ")";
      return "(" + u.op + " " + Deparse(*u.operand, namer) + ")";
    }
    case ExprKind::kBinaryOp: {
      const auto& b = e.As<parser::BinaryOpExpr>();
      return "(" + Deparse(*b.left, namer) + " " + b.op + " " + Deparse(*b.right, namer) + ")";
    }
    case ExprKind::kLike: {
      const auto& l = e.As<parser::LikeExpr>();
      std::string op = l.case_insensitive ? "~~*" : "~~";
      if (l.negated) op = "!" + op;
      return "(" + Deparse(*l.arg, namer) + " " + op + " " + Deparse(*l.pattern, namer) + ")";
    }
    case ExprKind::kIsNull: {
      const auto& n = e.As<parser::IsNullExpr>();
      return "(" + Deparse(*n.arg, namer) + (n.negated ? " IS NOT NULL)" : " IS NULL)");
    }
    case ExprKind::kIsBool: {
      const auto& n = e.As<parser::IsBoolExpr>();
      const char* what = n.test == parser::BoolTestKind::kTrue    ? "TRUE"
                         : n.test == parser::BoolTestKind::kFalse ? "FALSE"
                                                                   : "UNKNOWN";
      return "(" + Deparse(*n.arg, namer) + (n.negated ? " IS NOT " : " IS ") + what + ")";
    }
    case ExprKind::kIsDistinct: {
      const auto& d = e.As<parser::IsDistinctExpr>();
      return "(" + Deparse(*d.left, namer) + (d.negated ? " IS NOT DISTINCT FROM " : " IS DISTINCT FROM ") +
             Deparse(*d.right, namer) + ")";
    }
    case ExprKind::kBetween: {
      const auto& b = e.As<parser::BetweenExpr>();
      return "(" + Deparse(*b.arg, namer) + (b.negated ? " NOT BETWEEN " : " BETWEEN ") +
             Deparse(*b.low, namer) + " AND " + Deparse(*b.high, namer) + ")";
    }
    case ExprKind::kInList: {
      const auto& in = e.As<parser::InListExpr>();
      return "(" + Deparse(*in.arg, namer) + (in.negated ? " NOT IN (" : " IN (") + Join(in.items, namer) + "))";
    }
    case ExprKind::kCase: {
      const auto& c = e.As<parser::CaseExpr>();
      std::string s = "CASE";
      if (c.operand) s += " " + Deparse(*c.operand, namer);
      for (const auto& w : c.whens) {
        s += " WHEN " + Deparse(*w.condition, namer) + " THEN " + Deparse(*w.result, namer);
      }
      if (c.else_result) s += " ELSE " + Deparse(*c.else_result, namer);
      return s + " END";
    }
    case ExprKind::kCast: {
      const auto& c = e.As<parser::CastExpr>();
      // A string literal needs no parentheses: 'x'::text, as PostgreSQL
      // prints it (and pg_dump writes it back).
      const bool literal = c.arg->kind == ExprKind::kConst &&
                           c.arg->As<parser::ConstExpr>().const_kind == parser::ConstKind::kString;
      if (literal) return Deparse(*c.arg, namer) + "::" + TypeText(c.type);
      return "(" + Deparse(*c.arg, namer) + ")::" + TypeText(c.type);
    }
    case ExprKind::kFuncCall: {
      const auto& f = e.As<parser::FuncCallExpr>();
      std::string s;
      for (size_t i = 0; i < f.name.size(); ++i) s += (i ? "." : "") + f.name[i];
      s += "(";
      if (f.star) s += "*";
      if (f.distinct) s += "DISTINCT ";
      s += Join(f.args, namer) + ")";
      if (f.filter) s += " FILTER (WHERE " + Deparse(*f.filter, namer) + ")";
      return s;
    }
    case ExprKind::kSqlValueFunction: {
      switch (e.As<parser::SqlValueFunctionExpr>().op) {
        case parser::SqlValueFunctionOp::kCurrentDate: return "CURRENT_DATE";
        case parser::SqlValueFunctionOp::kCurrentTimestamp: return "CURRENT_TIMESTAMP";
        case parser::SqlValueFunctionOp::kLocalTimestamp: return "LOCALTIMESTAMP";
        case parser::SqlValueFunctionOp::kCurrentUser: return "CURRENT_USER";
        default: return "SQLVALUEFUNCTION";
      }
    }
    case ExprKind::kSubLink: {
      const auto& s = e.As<parser::SubLinkExpr>();
      switch (s.sublink_kind) {
        case parser::SubLinkKind::kExists: return "(EXISTS (SubPlan))";
        case parser::SubLinkKind::kAny:
          return "(" + Deparse(*s.test_expr, namer) + " " + s.op + " ANY (SubPlan))";
        case parser::SubLinkKind::kAll:
          return "(" + Deparse(*s.test_expr, namer) + " " + s.op + " ALL (SubPlan))";
        default: return "(SubPlan)";
      }
    }
    case ExprKind::kCollate: {
      const auto& c = e.As<parser::CollateExpr>();
      return Deparse(*c.arg, namer) + " COLLATE " + (c.collation.empty() ? "" : c.collation.back());
    }
    case ExprKind::kDefault:
      return "DEFAULT";
    case ExprKind::kRow: {
      const auto& r = e.As<parser::RowExpr>();
      return "ROW(" + Join(r.items, namer) + ")";
    }
    case ExprKind::kArray:
      return "ARRAY[" + Join(e.As<parser::ArrayExpr>().elements, namer) + "]";
    case ExprKind::kAnyAll: {
      const auto& a = e.As<parser::AnyAllExpr>();
      return "(" + Deparse(*a.left, namer) + " " + a.op + (a.all ? " ALL (" : " ANY (") +
             Deparse(*a.right, namer) + "))";
    }
    case ExprKind::kSubscript: {
      const auto& s = e.As<parser::SubscriptExpr>();
      return Deparse(*s.arg, namer) + "[" + (s.index ? Deparse(*s.index, namer) : "") + "]";
    }
  }
  return "?";
}

}  // namespace hearth::planner
