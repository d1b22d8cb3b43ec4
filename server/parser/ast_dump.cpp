// server/parser/ast_dump.cpp
//
// DumpExpr / DumpTypeName: see ast_dump.h for the format.
#include "parser/ast_dump.h"

namespace hearth::parser {
namespace {

std::string Join(const std::vector<std::string>& parts, const char* sep) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i) out += sep;
    out += parts[i];
  }
  return out;
}

std::string DumpList(const std::vector<ExprPtr>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += ", ";
    out += items[i] ? DumpExpr(*items[i]) : "<null>";
  }
  return out;
}

const char* SqlValueFunctionName(SqlValueFunctionOp op) {
  switch (op) {
    case SqlValueFunctionOp::kCurrentDate: return "CURRENT_DATE";
    case SqlValueFunctionOp::kCurrentTime: return "CURRENT_TIME";
    case SqlValueFunctionOp::kCurrentTimestamp: return "CURRENT_TIMESTAMP";
    case SqlValueFunctionOp::kLocalTime: return "LOCALTIME";
    case SqlValueFunctionOp::kLocalTimestamp: return "LOCALTIMESTAMP";
    case SqlValueFunctionOp::kCurrentRole: return "CURRENT_ROLE";
    case SqlValueFunctionOp::kCurrentUser: return "CURRENT_USER";
    case SqlValueFunctionOp::kSessionUser: return "SESSION_USER";
    case SqlValueFunctionOp::kUser: return "USER";
    case SqlValueFunctionOp::kCurrentCatalog: return "CURRENT_CATALOG";
    case SqlValueFunctionOp::kCurrentSchema: return "CURRENT_SCHEMA";
  }
  return "?";
}

}  // namespace

std::string DumpTypeName(const TypeName& t) {
  std::string out = t.schema.empty() ? t.name : t.schema + "." + t.name;
  if (!t.typmods.empty()) {
    out += '(';
    for (size_t i = 0; i < t.typmods.size(); ++i) {
      if (i) out += ',';
      out += std::to_string(t.typmods[i]);
    }
    out += ')';
  }
  for (int i = 0; i < t.array_dims; ++i) out += "[]";
  return out;
}

std::string DumpExpr(const Expr& e) {
  switch (e.kind) {
    case ExprKind::kConst: {
      const auto& c = e.As<ConstExpr>();
      switch (c.const_kind) {
        case ConstKind::kInteger:
        case ConstKind::kNumeric: return c.value;
        case ConstKind::kString: return "'" + c.value + "'";
        case ConstKind::kBool: return c.bool_value ? "true" : "false";
        case ConstKind::kNull: return "NULL";
      }
      return "?";
    }
    case ExprKind::kColumnRef: {
      const auto& r = e.As<ColumnRefExpr>();
      std::string out = Join(r.fields, ".");
      if (r.star) out += out.empty() ? "*" : ".*";
      return out;
    }
    case ExprKind::kParamRef: return "$" + std::to_string(e.As<ParamRefExpr>().number);
    case ExprKind::kStar: return "*";
    case ExprKind::kUnaryOp: {
      const auto& u = e.As<UnaryOpExpr>();
      return "(" + u.op + " " + DumpExpr(*u.operand) + ")";
    }
    case ExprKind::kBinaryOp: {
      const auto& b = e.As<BinaryOpExpr>();
      return "(" + DumpExpr(*b.left) + " " + b.op + " " + DumpExpr(*b.right) + ")";
    }
    case ExprKind::kLike: {
      const auto& l = e.As<LikeExpr>();
      std::string out = "(" + DumpExpr(*l.arg) + (l.negated ? " NOT" : "") +
                        (l.case_insensitive ? " ILIKE " : " LIKE ") + DumpExpr(*l.pattern);
      if (l.escape) out += " ESCAPE " + DumpExpr(*l.escape);
      return out + ")";
    }
    case ExprKind::kIsNull: {
      const auto& n = e.As<IsNullExpr>();
      // Appended piecewise: g++ 12 at -O3 reports a false -Wrestrict on
      // chains of std::string operator+ that start from a literal.
      std::string out = "(";
      out += DumpExpr(*n.arg);
      out += n.negated ? " IS NOT NULL)" : " IS NULL)";
      return out;
    }
    case ExprKind::kIsBool: {
      const auto& n = e.As<IsBoolExpr>();
      const char* what = n.test == BoolTestKind::kTrue    ? "TRUE"
                         : n.test == BoolTestKind::kFalse ? "FALSE"
                                                          : "UNKNOWN";
      std::string out = "(";
      out += DumpExpr(*n.arg);
      out += n.negated ? " IS NOT " : " IS ";
      out += what;
      out += ")";
      return out;
    }
    case ExprKind::kIsDistinct: {
      const auto& d = e.As<IsDistinctExpr>();
      return "(" + DumpExpr(*d.left) + (d.negated ? " IS NOT DISTINCT FROM " : " IS DISTINCT FROM ") +
             DumpExpr(*d.right) + ")";
    }
    case ExprKind::kBetween: {
      const auto& b = e.As<BetweenExpr>();
      return "(" + DumpExpr(*b.arg) + (b.negated ? " NOT" : "") + " BETWEEN " +
             (b.symmetric ? "SYMMETRIC " : "") + DumpExpr(*b.low) + " AND " + DumpExpr(*b.high) + ")";
    }
    case ExprKind::kInList: {
      const auto& in = e.As<InListExpr>();
      return "(" + DumpExpr(*in.arg) + (in.negated ? " NOT IN (" : " IN (") + DumpList(in.items) + "))";
    }
    case ExprKind::kCase: {
      const auto& c = e.As<CaseExpr>();
      std::string out = "CASE";
      if (c.operand) out += " " + DumpExpr(*c.operand);
      for (const CaseWhen& w : c.whens) {
        out += " WHEN " + DumpExpr(*w.condition) + " THEN " + DumpExpr(*w.result);
      }
      if (c.else_result) out += " ELSE " + DumpExpr(*c.else_result);
      return out + " END";
    }
    case ExprKind::kCast: {
      const auto& c = e.As<CastExpr>();
      return "CAST(" + DumpExpr(*c.arg) + " AS " + DumpTypeName(c.type) + ")";
    }
    case ExprKind::kFuncCall: {
      const auto& f = e.As<FuncCallExpr>();
      std::string out = Join(f.name, ".") + "(";
      if (f.star) out += "*";
      if (f.distinct) out += "DISTINCT ";
      out += DumpList(f.args);
      if (!f.agg_order.empty()) {
        out += " ORDER BY";
        for (const SortBy& s : f.agg_order) out += " " + DumpExpr(*s.expr);
      }
      out += ")";
      if (f.filter) out += " FILTER(" + DumpExpr(*f.filter) + ")";
      if (f.over) out += " OVER(...)";
      return out;
    }
    case ExprKind::kSqlValueFunction: {
      const auto& f = e.As<SqlValueFunctionExpr>();
      std::string out = SqlValueFunctionName(f.op);
      if (f.typmod >= 0) out += "(" + std::to_string(f.typmod) + ")";
      return out;
    }
    case ExprKind::kSubLink: {
      const auto& s = e.As<SubLinkExpr>();
      switch (s.sublink_kind) {
        case SubLinkKind::kExists: return "EXISTS(SELECT ...)";
        case SubLinkKind::kAny:
          return "(" + DumpExpr(*s.test_expr) + " " + s.op + " ANY(SELECT ...))";
        case SubLinkKind::kAll:
          return "(" + DumpExpr(*s.test_expr) + " " + s.op + " ALL(SELECT ...))";
        case SubLinkKind::kExpr: return "(SELECT ...)";
        case SubLinkKind::kArray: return "ARRAY(SELECT ...)";
      }
      return "?";
    }
    case ExprKind::kCollate: {
      const auto& c = e.As<CollateExpr>();
      return "(" + DumpExpr(*c.arg) + " COLLATE " + Join(c.collation, ".") + ")";
    }
    case ExprKind::kArray: return "ARRAY[" + DumpList(e.As<ArrayExpr>().elements) + "]";
    case ExprKind::kRow: return "ROW(" + DumpList(e.As<RowExpr>().items) + ")";
    case ExprKind::kDefault: return "DEFAULT";
    case ExprKind::kAnyAll: {
      const auto& a = e.As<AnyAllExpr>();
      return "(" + DumpExpr(*a.left) + " " + a.op + (a.all ? " ALL(" : " ANY(") + DumpExpr(*a.right) +
             "))";
    }
    case ExprKind::kSubscript: {
      const auto& s = e.As<SubscriptExpr>();
      std::string out = DumpExpr(*s.arg) + "[";
      if (s.index) out += DumpExpr(*s.index);
      if (s.is_slice) out += ":";
      if (s.upper) out += DumpExpr(*s.upper);
      return out + "]";
    }
  }
  return "?";
}

}  // namespace hearth::parser
