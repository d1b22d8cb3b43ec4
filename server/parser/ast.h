// server/parser/ast.h
//
// The typed abstract syntax tree produced by parser::ParseStatements: raw,
// un-analyzed SQL (names are not resolved, types are not checked).
//
// Shape:
//   - Expressions derive from Expr, statements from Statement, FROM items from
//     FromItem. Each base carries a `kind` enum so consumers `switch` on it and
//     `static_cast` (or call As<T>()) to the concrete struct; no RTTI needed.
//   - Ownership is strictly tree-shaped through std::unique_ptr (ExprPtr,
//     StmtPtr, FromItemPtr). Nodes are neither copyable nor movable.
//   - Every node has `int location`: the 0-based byte offset of the node's
//     first token in the *whole* query string passed to ParseStatements
//     (not in Statement::text), or -1 when there is none.
//   - Identifiers are already case-folded (unquoted → lowercase; "quoted"
//     kept exactly). Keywords never appear as strings except where documented
//     (operator names, option names, type names).
//
// Thread safety: plain data; a tree may be read concurrently by many threads
// but must be mutated by one at a time. Trees never point into shared memory.
//
// API stability: the Expr nodes below are bound by utils/ and executor/; add
// fields or kinds freely, never rename or remove.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace hearth::parser {

struct Expr;
struct Statement;
struct SelectStmt;
struct FromItem;

using ExprPtr = std::unique_ptr<Expr>;
using StmtPtr = std::unique_ptr<Statement>;
using FromItemPtr = std::unique_ptr<FromItem>;

// ---------------------------------------------------------------------------
// Type names
// ---------------------------------------------------------------------------

// A type as written in a cast, column definition or PREPARE. `name` is the
// canonical lowercase internal name: int4, int2, int8, float4, float8,
// numeric, bool, varchar, bpchar, timestamp, timestamptz, text, date, time,
// timetz, interval; any other name is kept as written (case-folded), with a
// schema qualifier moved to `schema` (pg_catalog.regclass → schema
// "pg_catalog", name "regclass").
struct TypeName {
  std::string schema;             // empty unless qualified
  std::string name;               // canonical name, see above
  std::vector<int32_t> typmods;   // varchar(10) → {10}; numeric(10,2) → {10,2}
  bool is_array = false;          // int4[] / int4 ARRAY
  int array_dims = 0;             // number of [] pairs (0 when !is_array)
  int location = -1;
};

// ---------------------------------------------------------------------------
// Expressions
// ---------------------------------------------------------------------------

enum class ExprKind {
  kConst,
  kColumnRef,
  kParamRef,
  kStar,
  kUnaryOp,
  kBinaryOp,
  kLike,
  kIsNull,
  kIsBool,
  kIsDistinct,
  kBetween,
  kInList,
  kCase,
  kCast,
  kFuncCall,
  kSqlValueFunction,
  kSubLink,
  kCollate,
  kArray,
  kRow,
  kDefault,     // DEFAULT as a value in INSERT ... VALUES or UPDATE ... SET
  kAnyAll,      // x op ANY|ALL (array expression), i.e. not a subquery
  kSubscript,   // expr[i] or expr[lo:hi]
};

// Base of every expression node.
struct Expr {
  explicit Expr(ExprKind k) : kind(k) {}
  virtual ~Expr() = default;
  Expr(const Expr&) = delete;
  Expr& operator=(const Expr&) = delete;

  // Downcast helpers. REQUIRES: kind == T::kKind.
  template <typename T>
  T& As() { return static_cast<T&>(*this); }
  template <typename T>
  const T& As() const { return static_cast<const T&>(*this); }

  const ExprKind kind;
  int location = -1;
};

enum class ConstKind {
  kInteger,  // value holds the digit text, optionally with a leading '-'
  kNumeric,  // decimal/exponent text as written ("1.5", ".5", "1e10", "-2.5")
  kString,   // value holds the decoded string (escapes already applied)
  kBool,     // value is "true"/"false"; bool_value set
  kNull,     // value empty
};

// A literal. A unary minus directly applied to a numeric literal is folded
// into the literal ("-5" is one Const with value "-5"), like PostgreSQL, so
// the consumer can pick int4 for -2147483648.
struct ConstExpr : Expr {
  static constexpr ExprKind kKind = ExprKind::kConst;
  ConstExpr() : Expr(kKind) {}
  ConstKind const_kind = ConstKind::kNull;
  std::string value;
  bool bool_value = false;
};

// A (possibly qualified) column reference: a, t.a, s.t.a. A reference that
// ends with '*' (t.*) has star=true and fields = {"t"} (the '*' is not in
// fields). Bare `*` is StarExpr, not ColumnRef.
struct ColumnRefExpr : Expr {
  static constexpr ExprKind kKind = ExprKind::kColumnRef;
  ColumnRefExpr() : Expr(kKind) {}
  std::vector<std::string> fields;  // never contains "*"
  bool star = false;                // the reference ends with .*
  // Planner-made references of a '*' expansion: the column's position in
  // its FROM entry (names may repeat there: ROWS FROM (f(), f())).
  int star_column = -1;
};

// $n, n >= 1.
struct ParamRefExpr : Expr {
  static constexpr ExprKind kKind = ExprKind::kParamRef;
  ParamRefExpr() : Expr(kKind) {}
  int number = 0;
};

// Bare `*` in a target list (SELECT *). count(*) instead sets FuncCallExpr::star.
struct StarExpr : Expr {
  static constexpr ExprKind kKind = ExprKind::kStar;
  StarExpr() : Expr(kKind) {}
};

// Prefix operator: op is "-", "+", "NOT", or another prefix operator token
// such as "~" or "@".
struct UnaryOpExpr : Expr {
  static constexpr ExprKind kKind = ExprKind::kUnaryOp;
  UnaryOpExpr() : Expr(kKind) {}
  std::string op;
  ExprPtr operand;
};

// Infix operator. op is one of + - * / % ^ || = <> < > <= >= AND OR, or any
// other operator token (~ !~ ~~ ~* @> ...). "!=" is normalized to "<>", and
// OPERATOR(schema.op) to the bare op. AND/OR are uppercase.
struct BinaryOpExpr : Expr {
  static constexpr ExprKind kKind = ExprKind::kBinaryOp;
  BinaryOpExpr() : Expr(kKind) {}
  std::string op;
  ExprPtr left;
  ExprPtr right;
};

// arg [NOT] LIKE|ILIKE pattern [ESCAPE escape]
struct LikeExpr : Expr {
  static constexpr ExprKind kKind = ExprKind::kLike;
  LikeExpr() : Expr(kKind) {}
  ExprPtr arg;
  ExprPtr pattern;
  ExprPtr escape;  // null when no ESCAPE clause
  bool negated = false;
  bool case_insensitive = false;  // ILIKE
};

// arg IS [NOT] NULL, arg ISNULL, arg NOTNULL
struct IsNullExpr : Expr {
  static constexpr ExprKind kKind = ExprKind::kIsNull;
  IsNullExpr() : Expr(kKind) {}
  ExprPtr arg;
  bool negated = false;  // IS NOT NULL / NOTNULL
};

enum class BoolTestKind { kTrue, kFalse, kUnknown };

// arg IS [NOT] TRUE|FALSE|UNKNOWN
struct IsBoolExpr : Expr {
  static constexpr ExprKind kKind = ExprKind::kIsBool;
  IsBoolExpr() : Expr(kKind) {}
  ExprPtr arg;
  BoolTestKind test = BoolTestKind::kTrue;
  bool negated = false;
};

// left IS [NOT] DISTINCT FROM right. negated == IS NOT DISTINCT FROM.
struct IsDistinctExpr : Expr {
  static constexpr ExprKind kKind = ExprKind::kIsDistinct;
  IsDistinctExpr() : Expr(kKind) {}
  ExprPtr left;
  ExprPtr right;
  bool negated = false;
};

// arg [NOT] BETWEEN [SYMMETRIC] low AND high
struct BetweenExpr : Expr {
  static constexpr ExprKind kKind = ExprKind::kBetween;
  BetweenExpr() : Expr(kKind) {}
  ExprPtr arg;
  ExprPtr low;
  ExprPtr high;
  bool negated = false;
  bool symmetric = false;
};

// arg [NOT] IN (item, ...). `x IN (SELECT ...)` is a SubLinkExpr instead.
struct InListExpr : Expr {
  static constexpr ExprKind kKind = ExprKind::kInList;
  InListExpr() : Expr(kKind) {}
  ExprPtr arg;
  std::vector<ExprPtr> items;
  bool negated = false;
};

struct CaseWhen {
  ExprPtr condition;  // a boolean, or a value compared with CaseExpr::operand
  ExprPtr result;
  int location = -1;
};

// CASE [operand] WHEN .. THEN .. [...] [ELSE ..] END
struct CaseExpr : Expr {
  static constexpr ExprKind kKind = ExprKind::kCase;
  CaseExpr() : Expr(kKind) {}
  ExprPtr operand;  // null for a searched CASE
  std::vector<CaseWhen> whens;
  ExprPtr else_result;  // null when no ELSE
};

// arg::type, CAST(arg AS type), and typed literals (date '2026-01-01' →
// Cast of a String Const to date).
struct CastExpr : Expr {
  static constexpr ExprKind kKind = ExprKind::kCast;
  CastExpr() : Expr(kKind) {}
  ExprPtr arg;
  TypeName type;
};

enum class SortDir { kDefault, kAsc, kDesc };
enum class NullsOrder { kDefault, kFirst, kLast };

// ORDER BY item (also used inside aggregate calls).
struct SortBy {
  ExprPtr expr;  // an integer Const for ORDER BY 1 ordinals
  SortDir dir = SortDir::kDefault;
  NullsOrder nulls = NullsOrder::kDefault;
  std::vector<std::string> using_op;  // ORDER BY x USING <  (rare)
  int location = -1;
};

// Window frame: {ROWS | RANGE | GROUPS} [BETWEEN] start [AND end] [EXCLUDE ...].
enum class FrameMode { kRange, kRows, kGroups };
enum class FrameBoundKind { kUnboundedPreceding, kPreceding, kCurrentRow, kFollowing, kUnboundedFollowing };
enum class FrameExclusion { kNoOthers, kCurrentRow, kGroup, kTies };
struct FrameBound {
  FrameBoundKind kind = FrameBoundKind::kCurrentRow;
  ExprPtr offset;  // n PRECEDING / n FOLLOWING
  int location = -1;
};
struct WindowFrame {
  FrameMode mode = FrameMode::kRange;
  FrameBound start, end;  // end defaults to CURRENT ROW
  FrameExclusion exclusion = FrameExclusion::kNoOthers;
  int location = -1;
};

// Window specification of f(...) OVER ... or of a WINDOW clause entry.
struct WindowSpec {
  std::string def_name;  // WINDOW def_name AS (...); empty in OVER
  std::string name;      // OVER w, or the base window name inside (...)
  bool bare_name = false;  // OVER w (no parentheses)
  std::vector<ExprPtr> partition_by;
  std::vector<SortBy> order_by;
  std::unique_ptr<WindowFrame> frame;  // null: the default frame
  int location = -1;
};

// Function call, possibly qualified: name = {"pg_catalog", "lower"}.
// Names are case-folded. count(*) has star=true and no args. COALESCE,
// NULLIF, GREATEST and LEAST are FuncCalls with those lowercase names.
// EXTRACT(field FROM x) → extract('field', x); POSITION(a IN b) →
// position(b, a); SUBSTRING(x FROM a FOR b) → substring(x, a, b);
// TRIM([LEADING|TRAILING|BOTH] [c] FROM x) → btrim/ltrim/rtrim(x [, c]).
struct FuncCallExpr : Expr {
  static constexpr ExprKind kKind = ExprKind::kFuncCall;
  FuncCallExpr() : Expr(kKind) {}
  std::vector<std::string> name;
  std::vector<ExprPtr> args;
  bool star = false;      // f(*)
  bool distinct = false;  // f(DISTINCT ...)
  bool variadic = false;  // f(VARIADIC arr)
  std::vector<SortBy> agg_order;  // string_agg(x, ',' ORDER BY y)
  bool within_group = false;      // agg_order came from WITHIN GROUP (ORDER BY ...)
  ExprPtr filter;                 // FILTER (WHERE ...), null if none
  std::unique_ptr<WindowSpec> over;  // OVER (...), null if none
};

enum class SqlValueFunctionOp {
  kCurrentDate,
  kCurrentTime,
  kCurrentTimestamp,
  kLocalTime,
  kLocalTimestamp,
  kCurrentRole,
  kCurrentUser,
  kSessionUser,
  kUser,
  kCurrentCatalog,
  kCurrentSchema,
};

// CURRENT_TIMESTAMP and friends, written without parentheses (an optional
// precision is allowed for the time-valued ones: CURRENT_TIMESTAMP(3)).
struct SqlValueFunctionExpr : Expr {
  static constexpr ExprKind kKind = ExprKind::kSqlValueFunction;
  SqlValueFunctionExpr() : Expr(kKind) {}
  SqlValueFunctionOp op = SqlValueFunctionOp::kCurrentTimestamp;
  int32_t typmod = -1;  // precision, -1 when not given
};

enum class SubLinkKind {
  kExists,  // EXISTS (select)
  kAny,     // x IN (select) (op "="), x op ANY|SOME (select)
  kAll,     // x op ALL (select); x NOT IN (select) is NOT(kAny "=")
  kExpr,    // (select) used as a scalar
  kArray,   // ARRAY(select)
};

// A subquery inside an expression.
struct SubLinkExpr : Expr {
  static constexpr ExprKind kKind = ExprKind::kSubLink;
  SubLinkExpr() : Expr(kKind) {}
  ~SubLinkExpr() override;  // out of line: SelectStmt is incomplete here
  SubLinkKind sublink_kind = SubLinkKind::kExpr;
  ExprPtr test_expr;  // left operand for kAny/kAll, else null
  std::string op;     // operator for kAny/kAll ("=" for IN)
  std::unique_ptr<SelectStmt> subselect;
};

// arg COLLATE name
struct CollateExpr : Expr {
  static constexpr ExprKind kKind = ExprKind::kCollate;
  CollateExpr() : Expr(kKind) {}
  ExprPtr arg;
  std::vector<std::string> collation;  // possibly qualified, e.g. {"C"}
};

// ARRAY[e1, e2, ...] (nested ARRAY[[..],[..]] gives ArrayExpr elements).
struct ArrayExpr : Expr {
  static constexpr ExprKind kKind = ExprKind::kArray;
  ArrayExpr() : Expr(kKind) {}
  std::vector<ExprPtr> elements;
};

// ROW(a, b) or (a, b).
struct RowExpr : Expr {
  static constexpr ExprKind kKind = ExprKind::kRow;
  RowExpr() : Expr(kKind) {}
  std::vector<ExprPtr> items;
  bool explicit_row = false;  // written with the ROW keyword
};

// DEFAULT in INSERT ... VALUES (...) or UPDATE ... SET c = DEFAULT.
struct DefaultExpr : Expr {
  static constexpr ExprKind kKind = ExprKind::kDefault;
  DefaultExpr() : Expr(kKind) {}
};

// left op ANY|SOME|ALL (array expression), e.g. oid = ANY($1).
struct AnyAllExpr : Expr {
  static constexpr ExprKind kKind = ExprKind::kAnyAll;
  AnyAllExpr() : Expr(kKind) {}
  std::string op;
  bool all = false;  // ALL vs ANY/SOME
  ExprPtr left;
  ExprPtr right;  // the array
};

// arg[index] or arg[lower:upper] (either bound may be null in a slice).
struct SubscriptExpr : Expr {
  static constexpr ExprKind kKind = ExprKind::kSubscript;
  SubscriptExpr() : Expr(kKind) {}
  ExprPtr arg;
  ExprPtr index;  // the subscript, or the lower bound of a slice
  ExprPtr upper;  // upper bound of a slice
  bool is_slice = false;
};

// ---------------------------------------------------------------------------
// Pieces shared by statements
// ---------------------------------------------------------------------------

// A possibly qualified relation name: [catalog.][schema.]name.
struct RangeVar {
  std::string catalog;
  std::string schema;  // empty when unqualified
  std::string name;
  bool inh = true;  // false for ONLY t
  int location = -1;
};

// AS alias [(col, ...)]
struct Alias {
  std::string name;  // empty when there is no alias
  std::vector<std::string> columns;
};

// One entry of a SELECT target list or RETURNING list.
struct ResTarget {
  ExprPtr expr;
  std::string alias;  // empty when not given (with or without AS)
  int location = -1;
};

// (name [value]) or name = value options: COPY, EXPLAIN, VACUUM, WITH (...)
// storage parameters, CREATE DATABASE, CREATE ROLE. Names are lowercase
// (dotted storage parameters keep the dot: "toast.fillfactor"); value keeps
// the text of the value (string contents, number text with its sign,
// lowercase keyword, "*", or a parenthesized name list joined as "a,b"), and
// has_value is false for a bare `name`.
struct GenericOption {
  std::string name;
  std::string value;
  bool has_value = false;
  int location = -1;
};

// ---------------------------------------------------------------------------
// FROM items
// ---------------------------------------------------------------------------

enum class FromKind { kTable, kSubquery, kJoin, kFunction };

struct FromItem {
  explicit FromItem(FromKind k) : kind(k) {}
  virtual ~FromItem() = default;
  FromItem(const FromItem&) = delete;
  FromItem& operator=(const FromItem&) = delete;

  template <typename T>
  T& As() { return static_cast<T&>(*this); }
  template <typename T>
  const T& As() const { return static_cast<const T&>(*this); }

  const FromKind kind;
  int location = -1;
};

// [ONLY] [schema.]table [[AS] alias [(cols)]]
struct TableRef : FromItem {
  static constexpr FromKind kKind = FromKind::kTable;
  TableRef() : FromItem(kKind) {}
  RangeVar table;
  Alias alias;
};

// [LATERAL] (select) [AS] alias [(cols)]
struct SubqueryRef : FromItem {
  static constexpr FromKind kKind = FromKind::kSubquery;
  SubqueryRef() : FromItem(kKind) {}
  ~SubqueryRef() override;  // out of line: SelectStmt is incomplete here
  std::unique_ptr<SelectStmt> subquery;
  Alias alias;
  bool lateral = false;
};

// [LATERAL] func(args) [WITH ORDINALITY] [[AS] alias [(cols)]], or
// [LATERAL] ROWS FROM (func(args), ...) [WITH ORDINALITY] [[AS] alias [(cols)]]
struct FunctionRef : FromItem {
  static constexpr FromKind kKind = FromKind::kFunction;
  FunctionRef() : FromItem(kKind) {}
  ExprPtr call;  // a FuncCallExpr (or SqlValueFunctionExpr)
  Alias alias;
  bool lateral = false;
  bool with_ordinality = false;
  // ROWS FROM (f(...), g(...)): the calls after the first (`call`).
  bool rows_from = false;
  std::vector<ExprPtr> more_calls;
};

enum class JoinType { kInner, kLeft, kRight, kFull, kCross };

// left JOIN right ON ... / USING (...) / NATURAL / CROSS JOIN. A comma in
// the FROM list does not make a JoinRef: it gives separate FROM items.
struct JoinRef : FromItem {
  static constexpr FromKind kKind = FromKind::kJoin;
  JoinRef() : FromItem(kKind) {}
  JoinType join_type = JoinType::kInner;
  bool natural = false;
  FromItemPtr left;
  FromItemPtr right;
  ExprPtr on;                            // null unless ON
  std::vector<std::string> using_cols;   // non-empty for USING
  std::string using_alias;               // JOIN ... USING (cols) AS name: the merged columns
  Alias alias;                           // (a JOIN b) AS j, rare
};

// ---------------------------------------------------------------------------
// Statements
// ---------------------------------------------------------------------------

enum class StmtKind {
  kSelect,
  kInsert,
  kUpdate,
  kDelete,
  kCreateTable,
  kCreateTableAs,
  kCreateIndex,
  kAlterTable,
  kDrop,
  kTruncate,
  kCopy,
  kTransaction,
  kSet,
  kShow,
  kReset,
  kExplain,
  kVacuum,
  kCheckpoint,
  kPrepare,
  kExecute,
  kDeallocate,
  kCreateDatabase,
  kCreateRole,
  kAlterRole,
  kDiscard,
  kCreateExtension,
  kCreateSequence,
  kAlterSequence,
  kGrantRole,
  kGrantPriv,
  kDeclareCursor,  // cursor statements: parse_cursor.cpp
  kFetch,
  kClosePortal,
  kAlterOwner,
  kOwned,
  kCreateSchema,  // schema statements: parse_schema.cpp
  kAlterSchema,
  kAlterDatabase,  // parse_database.cpp
  // SQL functions (parse_function.cpp)
  kCreateFunction,
  kDropFunction,
  kDo,
  kCall,
  kGrantFunction,
  kLock,  // LOCK TABLE: parse_lock.cpp
  kCreateView,  // views: parse_view.cpp
  kRenameRelation,
  // triggers: parse_trigger.cpp
  kCreateTrigger,
  kDropTrigger,
  kComment,  // COMMENT ON: parse_comment.cpp
  kAlterDefaultPrivileges,  // parse_default_privileges.cpp
  // user-defined types: parse_type_ddl.cpp
  kCreateEnum,
  kCreateDomain,
  kAlterType,
  kDropType,
};

struct Statement {
  explicit Statement(StmtKind k) : kind(k) {}
  virtual ~Statement() = default;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  template <typename T>
  T& As() { return static_cast<T&>(*this); }
  template <typename T>
  const T& As() const { return static_cast<const T&>(*this); }

  const StmtKind kind;
  int location = -1;  // offset of the statement's first token
  // The statement's own source text, from its first token up to (not
  // including) the terminating ';' or end of input, trailing whitespace and
  // comments trimmed. Also set for the bodies of EXPLAIN, PREPARE, COPY
  // (query) and WITH queries; empty for subqueries inside expressions/FROM.
  std::string text;
};

enum class SetOpKind { kNone, kUnion, kIntersect, kExcept };

enum class LockStrength { kUpdate, kNoKeyUpdate, kShare, kKeyShare };
enum class LockWaitPolicy { kBlock, kSkipLocked, kNoWait };

// FOR UPDATE | NO KEY UPDATE | SHARE | KEY SHARE [OF t, ...] [NOWAIT | SKIP LOCKED]
struct LockingClause {
  LockStrength strength = LockStrength::kUpdate;
  std::vector<RangeVar> tables;
  LockWaitPolicy wait = LockWaitPolicy::kBlock;
};

// WITH name [(cols)] AS [[NOT] MATERIALIZED] (query)
enum class CteMaterialize { kDefault, kAlways, kNever };
struct CommonTableExpr {
  std::string name;
  std::vector<std::string> columns;
  CteMaterialize materialized = CteMaterialize::kDefault;
  StmtPtr query;  // SELECT, or INSERT/UPDATE/DELETE ... RETURNING
  int location = -1;
};

// A query. Exactly one of three shapes:
//   - a plain SELECT (set_op == kNone, values_lists empty),
//   - VALUES (...), (...) (values_lists non-empty; targets/from empty),
//   - a set operation (set_op != kNone; larg/rarg hold the operands).
// order_by / limit / offset / locking / with apply to the whole shape.
// Parenthesized selects are merged into this node when they add no clauses.
// SELECT ... INTO [TEMP|UNLOGGED] [TABLE] t: the statement creates t from
// its result, as CREATE TABLE t AS (only on a top-level SELECT).
struct IntoClause {
  RangeVar table;
  bool temp = false;
  bool unlogged = false;
  int location = -1;
};

struct SelectStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kSelect;
  SelectStmt() : Statement(kKind) {}

  std::vector<CommonTableExpr> with;
  bool with_recursive = false;

  bool distinct = false;               // DISTINCT or DISTINCT ON
  std::vector<ExprPtr> distinct_on;    // DISTINCT ON (...) expressions
  std::vector<ResTarget> targets;
  std::vector<FromItemPtr> from;       // comma-separated items
  ExprPtr where;
  std::vector<ExprPtr> group_by;
  // GROUP BY with GROUPING SETS / ROLLUP / CUBE / (): every grouping set
  // as indexes into group_by (expanded, in PostgreSQL's order; an
  // expression may appear in group_by more than once). Empty with
  // has_grouping_sets false for a plain GROUP BY list.
  std::vector<std::vector<int>> grouping_sets;
  bool has_grouping_sets = false;
  ExprPtr having;
  std::vector<std::unique_ptr<WindowSpec>> windows;  // WINDOW w AS (...), ...

  std::vector<std::vector<ExprPtr>> values_lists;

  SetOpKind set_op = SetOpKind::kNone;
  bool set_all = false;  // UNION ALL etc.
  std::unique_ptr<SelectStmt> larg;
  std::unique_ptr<SelectStmt> rarg;

  std::vector<SortBy> order_by;
  ExprPtr limit;   // null when absent or LIMIT ALL; FETCH FIRST n ROWS ONLY too
  ExprPtr offset;  // null when absent
  bool limit_with_ties = false;  // FETCH FIRST n ROWS WITH TIES
  std::vector<LockingClause> locking;
  std::unique_ptr<IntoClause> into;  // SELECT ... INTO t (top level; set ops: on the top node)
};

struct OnConflictClause;

// INSERT INTO t [AS alias] [(cols)] {VALUES ... | query | DEFAULT VALUES}
// [ON CONFLICT ...] [RETURNING ...]
struct InsertStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kInsert;
  InsertStmt() : Statement(kKind) {}
  std::vector<CommonTableExpr> with;
  bool with_recursive = false;
  RangeVar table;
  std::string alias;
  std::vector<std::string> columns;     // empty when not given
  std::vector<int> column_locations;    // offset of each name in `columns`
  // Per column: SubscriptExpr nodes without arg (INSERT INTO t (a[1:2]) ...).
  std::vector<std::vector<ExprPtr>> column_subscripts;
  std::unique_ptr<SelectStmt> source;   // VALUES lists or a query; null for DEFAULT VALUES
  bool default_values = false;
  // OVERRIDING SYSTEM VALUE ('s') / OVERRIDING USER VALUE ('u'); 0 when absent.
  char overriding = 0;
  std::unique_ptr<OnConflictClause> on_conflict;  // null without ON CONFLICT
  std::vector<ResTarget> returning;
};

// SET col = expr, or SET col[i][j] = expr (subfield paths are not supported).
// SET (a, b) = ROW(...) becomes one clause per column. SET (a, b) =
// (SELECT ...) too: the first clause holds the subquery, the others a null
// value; multi_index is the column's position in the list (-1: plain).
struct SetClause {
  std::string column;
  std::vector<ExprPtr> subscripts;  // SubscriptExpr nodes without arg, outermost first
  ExprPtr value;  // may be DefaultExpr
  int location = -1;
  int multi_index = -1;
};

// ON CONFLICT [ ( target, ... ) [WHERE pred] | ON CONSTRAINT name ]
//   DO NOTHING | DO UPDATE SET ... [WHERE cond]
// Each target element is a column or an expression in parentheses; its
// COLLATE and operator class are accepted and not recorded.
enum class OnConflictAction : uint8_t { kNothing, kUpdate };
struct OnConflictClause {
  OnConflictAction action = OnConflictAction::kNothing;
  std::vector<ExprPtr> target;      // empty: no inference specification
  ExprPtr target_where;             // partial-index predicate of the target
  std::string constraint;           // ON CONSTRAINT name ("" when absent)
  int constraint_location = -1;
  std::vector<SetClause> set;       // DO UPDATE
  ExprPtr where;                    // DO UPDATE ... WHERE
  int location = -1;                // of ON CONFLICT
};

// UPDATE [ONLY] t [[AS] alias] SET ... [FROM ...] [WHERE ...] [RETURNING ...]
struct UpdateStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kUpdate;
  UpdateStmt() : Statement(kKind) {}
  std::vector<CommonTableExpr> with;
  bool with_recursive = false;
  RangeVar table;
  std::string alias;
  std::vector<SetClause> set;
  std::vector<FromItemPtr> from;
  ExprPtr where;
  std::vector<ResTarget> returning;
};

// DELETE FROM [ONLY] t [[AS] alias] [USING ...] [WHERE ...] [RETURNING ...]
struct DeleteStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kDelete;
  DeleteStmt() : Statement(kKind) {}
  std::vector<CommonTableExpr> with;
  bool with_recursive = false;
  RangeVar table;
  std::string alias;
  std::vector<FromItemPtr> using_items;
  ExprPtr where;
  std::vector<ResTarget> returning;
};

enum class ConstraintKind {
  kNotNull,
  kNull,
  kDefault,
  kPrimaryKey,
  kUnique,
  kForeignKey,
  kCheck,
  kIdentity,  // GENERATED {ALWAYS | BY DEFAULT} AS IDENTITY [( seq options )]
};

// One option of CREATE/ALTER SEQUENCE or of an identity column's ( ... ).
// kSequenceName: SEQUENCE NAME n, only among an identity column's options.
enum class SeqOptionKind { kAs, kIncrement, kMinValue, kMaxValue, kStart, kRestart, kCache, kCycle, kOwnedBy, kSequenceName };
struct SeqOption {
  SeqOptionKind kind = SeqOptionKind::kIncrement;
  bool is_no = false;       // NO MINVALUE / NO MAXVALUE / NO CYCLE
  bool has_value = false;   // a number was given (RESTART may omit it)
  std::string value;        // the number's text with its sign
  TypeName type;            // AS type
  std::vector<std::string> owned_by;  // OWNED BY [schema.]table.column parts (empty: NONE); SEQUENCE NAME's parts
  int location = -1;
};

enum class FkAction { kNoAction, kRestrict, kCascade, kSetNull, kSetDefault };

// A column or table constraint. Column constraints leave `columns` empty
// (they apply to their column); table constraints list their columns.
struct Constraint {
  ConstraintKind kind = ConstraintKind::kNotNull;
  std::string name;                 // CONSTRAINT name, empty if not given
  ExprPtr expr;                     // DEFAULT value or CHECK condition
  std::vector<std::string> columns; // PK/UNIQUE/FK local columns (table level)
  RangeVar ref_table;               // FOREIGN KEY / REFERENCES target
  std::vector<std::string> ref_columns;  // may be empty: the referenced PK
  FkAction on_delete = FkAction::kNoAction;
  FkAction on_update = FkAction::kNoAction;
  bool deferrable = false;
  bool initially_deferred = false;
  bool not_valid = false;  // NOT VALID (ALTER TABLE ADD: existing rows unchecked)
  std::vector<GenericOption> with_options;  // PRIMARY KEY ... WITH (...)
  char identity = 0;                 // kIdentity: 'a' (ALWAYS) or 'd' (BY DEFAULT)
  std::vector<SeqOption> seq_options;  // kIdentity: the sequence's options
  int location = -1;
};

struct ColumnDef {
  std::string name;
  TypeName type;
  std::vector<std::string> collation;  // COLLATE name, empty if none
  std::vector<Constraint> constraints;
  int location = -1;
};

struct PartitionSpec;  // below IndexElem

// FOR VALUES IN (...) | FROM (...) TO (...) | WITH (MODULUS m, REMAINDER r)
// | DEFAULT. MINVALUE / MAXVALUE in a range bound are column references of
// those names (as PostgreSQL's grammar leaves them).
struct PartitionBoundSpec {
  char strategy = 0;  // 'l' list, 'r' range, 'h' hash, 'd' DEFAULT
  std::vector<ExprPtr> in_values;
  std::vector<ExprPtr> from, to;
  int64_t modulus = 0, remainder = 0;
  int location = -1;
};

// CREATE [TEMP|UNLOGGED] TABLE [IF NOT EXISTS] t (...) [WITH (...)]
// LIKE source [{INCLUDING | EXCLUDING} option ...] among CREATE TABLE's
// elements. [begin, end) is the clause's span in the query text (offsets
// like Statement::location): it is replaced by the source's columns.
struct TableLikeClause {
  RangeVar relation;
  bool defaults = false;     // INCLUDING DEFAULTS
  bool constraints = false;  // INCLUDING CONSTRAINTS (CHECK)
  int begin = -1;
  int end = -1;
};

struct CreateTableStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kCreateTable;
  CreateTableStmt() : Statement(kKind) {}
  RangeVar table;
  bool temp = false;
  bool unlogged = false;
  bool if_not_exists = false;
  std::vector<ColumnDef> columns;
  std::vector<Constraint> constraints;  // table constraints
  std::vector<GenericOption> with_options;  // WITH (fillfactor=100)
  std::string on_commit;  // "", "preserve rows", "delete rows", "drop"
  std::vector<RangeVar> inherits;  // INHERITS (parent, ...); PARTITION OF parent (one)
  std::shared_ptr<PartitionSpec> partition_by;      // PARTITION BY ...
  std::shared_ptr<PartitionBoundSpec> partition_of;  // PARTITION OF parent FOR VALUES ... (parent in inherits)
  std::vector<TableLikeClause> likes;  // tcop/create_table_like.cpp expands them
};

// CREATE [TEMP|UNLOGGED] TABLE [IF NOT EXISTS] t [(cols)] [WITH (...)]
// AS query [WITH [NO] DATA]
struct CreateTableAsStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kCreateTableAs;
  CreateTableAsStmt() : Statement(kKind) {}
  RangeVar table;
  bool temp = false;
  bool unlogged = false;
  bool if_not_exists = false;
  std::vector<std::string> column_names;
  std::vector<GenericOption> with_options;
  std::unique_ptr<SelectStmt> query;
  bool with_data = true;
};

// One index key: a column name or a parenthesized expression.
struct IndexElem {
  std::string column;  // empty when expr is set
  ExprPtr expr;
  std::vector<std::string> collation;
  std::vector<std::string> opclass;
  SortDir dir = SortDir::kDefault;
  NullsOrder nulls = NullsOrder::kDefault;
  int location = -1;
};

// PARTITION BY {RANGE | LIST | HASH} (key, ...): each key a column name
// or a parenthesized expression (IndexElem).
struct PartitionSpec {
  std::string strategy;  // "range", "list", "hash"
  std::vector<IndexElem> keys;
  int location = -1;
};

// CREATE [UNIQUE] INDEX [CONCURRENTLY] [IF NOT EXISTS] [name] ON [ONLY] t
// [USING method] (elems) [INCLUDE (cols)] [WITH (...)] [WHERE pred]
struct CreateIndexStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kCreateIndex;
  CreateIndexStmt() : Statement(kKind) {}
  std::string name;  // empty when not given (the catalog picks one)
  RangeVar table;
  bool unique = false;
  bool concurrently = false;
  bool if_not_exists = false;
  std::string method;  // lowercase, empty when no USING
  std::vector<IndexElem> elems;
  std::vector<std::string> include;
  std::vector<GenericOption> with_options;
  ExprPtr where;
};

enum class DropBehavior { kDefault, kRestrict, kCascade };

enum class AlterTableCmdKind {
  kAddColumn,         // ADD [COLUMN] [IF NOT EXISTS] def
  kDropColumn,        // DROP [COLUMN] [IF EXISTS] name [CASCADE|RESTRICT]
  kAddConstraint,     // ADD [CONSTRAINT n] PRIMARY KEY|UNIQUE|FOREIGN KEY|CHECK
  kDropConstraint,    // DROP CONSTRAINT [IF EXISTS] name
  kAlterColumnType,   // ALTER [COLUMN] c [SET DATA] TYPE t
  kSetNotNull,        // ALTER [COLUMN] c SET NOT NULL
  kDropNotNull,       // ALTER [COLUMN] c DROP NOT NULL
  kSetDefault,        // ALTER [COLUMN] c SET DEFAULT e
  kDropDefault,       // ALTER [COLUMN] c DROP DEFAULT
  kRenameTable,       // RENAME TO new
  kRenameColumn,      // RENAME [COLUMN] c TO new
  kRenameConstraint,  // RENAME CONSTRAINT c TO new
  kSetOptions,        // SET (name = value, ...)
  kEnableTrigger,     // ENABLE TRIGGER name|ALL|USER (name "" = all)
  kDisableTrigger,    // DISABLE TRIGGER name|ALL|USER
  kInherit,           // INHERIT parent
  kNoInherit,         // NO INHERIT parent
  kAttachPartition,   // ATTACH PARTITION parent FOR VALUES ... (the partition in `parent`)
  kDetachPartition,   // DETACH PARTITION name (in `parent`)
  kAddIdentity,       // ALTER [COLUMN] c ADD GENERATED {ALWAYS | BY DEFAULT} AS IDENTITY [(opts)]
};

struct AlterTableCmd {
  AlterTableCmdKind kind = AlterTableCmdKind::kAddColumn;
  std::string name;      // column / constraint being acted on
  std::string new_name;  // RENAME targets
  std::unique_ptr<ColumnDef> column;       // kAddColumn
  std::unique_ptr<Constraint> constraint;  // kAddConstraint, kAddIdentity (kind kIdentity)
  TypeName type;                           // kAlterColumnType
  ExprPtr expr;                            // kSetDefault, USING of kAlterColumnType
  std::vector<GenericOption> options;      // kSetOptions
  RangeVar parent;                         // kInherit, kNoInherit, k{Attach,Detach}Partition
  std::shared_ptr<PartitionBoundSpec> bound;  // kAttachPartition
  bool if_exists = false;
  bool if_not_exists = false;
  DropBehavior behavior = DropBehavior::kDefault;
  int location = -1;
};

enum class ObjectType;

// ALTER TABLE [IF EXISTS] [ONLY] t cmd, cmd, ...; also ALTER INDEX|SEQUENCE
// [IF EXISTS] name RENAME TO new (object_type says which; one kRenameTable).
struct AlterTableStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kAlterTable;
  AlterTableStmt();
  RangeVar table;
  bool if_exists = false;
  ObjectType object_type;
  std::vector<AlterTableCmd> cmds;
};

enum class ObjectType { kTable, kIndex, kView, kSequence, kSchema, kDatabase, kRole, kExtension };

inline AlterTableStmt::AlterTableStmt() : Statement(kKind), object_type(ObjectType::kTable) {}

// DROP {TABLE|INDEX|VIEW|SEQUENCE|SCHEMA|DATABASE|ROLE|USER|EXTENSION} [IF
// EXISTS] a, ... [CASCADE|RESTRICT]. For DATABASE, SCHEMA, ROLE and EXTENSION
// only RangeVar::name is used.
struct DropStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kDrop;
  DropStmt() : Statement(kKind) {}
  ObjectType object_type = ObjectType::kTable;
  std::vector<RangeVar> objects;
  bool if_exists = false;
  bool concurrently = false;  // DROP INDEX CONCURRENTLY
  DropBehavior behavior = DropBehavior::kDefault;
  bool force = false;  // DROP DATABASE ... WITH (FORCE)
};

// TRUNCATE [TABLE] [ONLY] a, b [RESTART|CONTINUE IDENTITY] [CASCADE|RESTRICT]
struct TruncateStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kTruncate;
  TruncateStmt() : Statement(kKind) {}
  std::vector<RangeVar> tables;
  bool restart_identity = false;
  DropBehavior behavior = DropBehavior::kDefault;
};

// COPY t [(cols)] FROM {STDIN | 'file' | PROGRAM 'cmd'} [[WITH] options] [WHERE e]
// COPY {t [(cols)] | (query)} TO {STDOUT | 'file' | PROGRAM 'cmd'} [[WITH] options]
// Options are normalized to the modern (name, value) form, lowercase names:
// legacy `CSV` → ("format","csv"), `BINARY` → ("format","binary"),
// `HEADER` → ("header", no value), `DELIMITER [AS] ','` → ("delimiter", ","),
// `NULL [AS] ''` → ("null", ""), `FREEZE` → ("freeze", no value),
// `QUOTE [AS] 'q'` → ("quote", "q"), `ESCAPE [AS] 'e'`, `ENCODING 'x'`,
// `FORCE QUOTE *|a, b` → ("force_quote", "*" or "a,b"), `FORCE NOT NULL a`
// → ("force_not_null", "a"), `FORCE NULL a` → ("force_null", "a"),
// `BINARY` before the table name → ("format", "binary"). A boolean written
// as on/off/true/false/1/0 keeps that text as value; a bare option name
// (HEADER, FREEZE) has has_value == false and means true.
struct CopyStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kCopy;
  CopyStmt() : Statement(kKind) {}
  RangeVar table;                   // empty name when query is set
  std::vector<std::string> columns;
  StmtPtr query;                    // COPY (query) TO ...
  bool is_from = false;             // FROM (load) vs TO (dump)
  bool is_program = false;
  std::string filename;             // empty for STDIN/STDOUT
  std::vector<GenericOption> options;
  ExprPtr where;                    // COPY ... FROM ... WHERE
};

enum class IsolationLevel {
  kDefault,
  kReadUncommitted,
  kReadCommitted,
  kRepeatableRead,
  kSerializable,
};

// Transaction modes of BEGIN / START TRANSACTION / SET TRANSACTION.
struct TransactionOptions {
  IsolationLevel isolation = IsolationLevel::kDefault;
  std::optional<bool> read_only;   // READ ONLY (true) / READ WRITE (false)
  std::optional<bool> deferrable;  // [NOT] DEFERRABLE
};

enum class TransactionKind {
  kBegin,       // BEGIN [WORK|TRANSACTION]
  kStart,       // START TRANSACTION
  kCommit,      // COMMIT / END [WORK|TRANSACTION]
  kRollback,    // ROLLBACK / ABORT [WORK|TRANSACTION]
  kSavepoint,   // SAVEPOINT n
  kRelease,     // RELEASE [SAVEPOINT] n
  kRollbackTo,  // ROLLBACK [WORK|TRANSACTION] TO [SAVEPOINT] n
};

struct TransactionStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kTransaction;
  TransactionStmt() : Statement(kKind) {}
  TransactionKind txn_kind = TransactionKind::kBegin;
  std::string savepoint;  // kSavepoint / kRelease / kRollbackTo
  TransactionOptions options;  // kBegin / kStart
  bool chain = false;          // COMMIT/ROLLBACK AND CHAIN
};

// One value of SET name TO v1, v2. `text` is the value as a string: string
// literal contents, number text (with '-' for negatives), or identifier /
// keyword (case-folded unless quoted with "").
struct SetValue {
  std::string text;
  bool quoted = false;  // written as a 'string' (or "identifier")
  int location = -1;
};

enum class SetKind {
  kValue,        // SET name TO values
  kDefault,      // SET name TO DEFAULT, SET TIME ZONE DEFAULT/LOCAL
  kTransaction,  // SET TRANSACTION ... (this transaction)
  kSessionCharacteristics,  // SET SESSION CHARACTERISTICS AS TRANSACTION ...
};

// SET [SESSION|LOCAL] name {TO|=} value[, ...] | DEFAULT. Special forms:
// SET TIME ZONE x → name "timezone"; SET NAMES 'x' → "client_encoding";
// SET SCHEMA 'x' → "search_path"; SET ROLE x → "role";
// SET SESSION AUTHORIZATION x → "session_authorization".
// Dotted names are joined with '.' ("myapp.setting").
struct SetStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kSet;
  SetStmt() : Statement(kKind) {}
  SetKind set_kind = SetKind::kValue;
  std::string name;  // lowercase (unless quoted)
  std::vector<SetValue> values;
  bool is_local = false;  // SET LOCAL
  TransactionOptions txn_options;  // kTransaction / kSessionCharacteristics
};

// SHOW name | SHOW ALL. SHOW TIME ZONE → "timezone", SHOW TRANSACTION
// ISOLATION LEVEL → "transaction_isolation", SHOW SESSION AUTHORIZATION →
// "session_authorization".
struct ShowStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kShow;
  ShowStmt() : Statement(kKind) {}
  std::string name;  // "all" when all is true
  bool all = false;
};

// RESET name | RESET ALL (RESET TIME ZONE → "timezone").
struct ResetStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kReset;
  ResetStmt() : Statement(kKind) {}
  std::string name;  // "all" when all is true
  bool all = false;
};

// EXPLAIN [ANALYZE] [VERBOSE] stmt | EXPLAIN (opt [value], ...) stmt.
// Legacy ANALYZE/VERBOSE become options ("analyze") / ("verbose").
struct ExplainStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kExplain;
  ExplainStmt() : Statement(kKind) {}
  std::vector<GenericOption> options;
  StmtPtr query;
};

struct VacuumRelation {
  RangeVar table;
  std::vector<std::string> columns;
};

// VACUUM [FULL] [FREEZE] [VERBOSE] [ANALYZE] [(opts)] [t [(cols)], ...]
// ANALYZE [VERBOSE] [(opts)] [t [(cols)], ...]  (is_vacuum == false)
// Legacy keywords become options: "full", "freeze", "verbose", "analyze".
struct VacuumStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kVacuum;
  VacuumStmt() : Statement(kKind) {}
  bool is_vacuum = true;
  std::vector<GenericOption> options;
  std::vector<VacuumRelation> relations;  // empty: the whole database
};

struct CheckpointStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kCheckpoint;
  CheckpointStmt() : Statement(kKind) {}
};

// PREPARE name [(type, ...)] AS stmt
struct PrepareStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kPrepare;
  PrepareStmt() : Statement(kKind) {}
  std::string name;
  std::vector<TypeName> arg_types;
  StmtPtr query;
};

// DECLARE name [BINARY] [ASENSITIVE|INSENSITIVE] [[NO] SCROLL] CURSOR
// [{WITH|WITHOUT} HOLD] FOR query. `query` is a SELECT (with its text).
enum class CursorScroll : uint8_t { kDefault, kScroll, kNoScroll };
struct DeclareCursorStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kDeclareCursor;
  DeclareCursorStmt() : Statement(kKind) {}
  std::string name;
  bool binary = false;
  CursorScroll scroll = CursorScroll::kDefault;
  bool hold = false;
  StmtPtr query;
};

// FETCH / MOVE [direction] [FROM|IN] name. `count` is signed; kFetchAll
// stands for ALL.
enum class FetchDirection : uint8_t { kForward, kBackward, kAbsolute, kRelative };
inline constexpr int64_t kFetchAll = INT64_MAX;
struct FetchStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kFetch;
  FetchStmt() : Statement(kKind) {}
  bool is_move = false;
  FetchDirection direction = FetchDirection::kForward;
  int64_t count = 1;
  std::string name;
};

// CLOSE name | CLOSE ALL (name empty).
struct ClosePortalStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kClosePortal;
  ClosePortalStmt() : Statement(kKind) {}
  std::string name;
};

// EXECUTE name [(expr, ...)]
struct ExecuteStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kExecute;
  ExecuteStmt() : Statement(kKind) {}
  std::string name;
  std::vector<ExprPtr> params;
};

// DEALLOCATE [PREPARE] {name | ALL}
struct DeallocateStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kDeallocate;
  DeallocateStmt() : Statement(kKind) {}
  std::string name;  // empty when all
  bool all = false;
};

// CREATE DATABASE name [[WITH] option [=] value ...]
// Option names are lowercase (owner, template, encoding, locale, lc_collate,
// lc_ctype, tablespace, allow_connections, connection_limit, is_template,
// strategy, ...); values as written ("default" for DEFAULT).
struct CreateDatabaseStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kCreateDatabase;
  CreateDatabaseStmt() : Statement(kKind) {}
  std::string name;
  std::vector<GenericOption> options;  // e.g. ("owner","bob"), ("template","template0")
};

enum class RoleStmtKind { kRole, kUser, kGroup };

// CREATE ROLE|USER|GROUP name [[WITH] option ...]. Options are lowercase
// keywords (superuser, nosuperuser, login, createdb, ...) without a value,
// or ("password", 'x') (PASSWORD NULL: "password" without value; ENCRYPTED
// is dropped), ("connection_limit", "5"), ("valid_until", '...'),
// ("in_role", "a,b"), ("role", "a,b"), ("admin", "a,b"), ("sysid", "n").
struct CreateRoleStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kCreateRole;
  CreateRoleStmt() : Statement(kKind) {}
  RoleStmtKind role_kind = RoleStmtKind::kRole;
  std::string name;
  std::vector<GenericOption> options;
};

// ALTER ROLE|USER name [[WITH] option ...] | RENAME TO x | SET name TO v | RESET name.
// Options as for CREATE ROLE, plus: RENAME TO x → ("rename to", "x");
// SET name {TO|=} v[, v] → ("set name", "v[,v]") (DEFAULT: no value);
// RESET name → ("reset name"); RESET ALL → ("reset all").
struct AlterRoleStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kAlterRole;
  AlterRoleStmt() : Statement(kKind) {}
  RoleStmtKind role_kind = RoleStmtKind::kRole;
  std::string name;
  std::vector<GenericOption> options;
};

// GRANT role[, ...] TO member[, ...] [WITH ADMIN OPTION] [GRANTED BY r]
// REVOKE [ADMIN OPTION FOR] role[, ...] FROM member[, ...] [GRANTED BY r]
// [CASCADE | RESTRICT]. Names as written (CURRENT_USER/SESSION_USER/
// CURRENT_ROLE/PUBLIC lowercased as keywords).
struct GrantRoleStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kGrantRole;
  GrantRoleStmt() : Statement(kKind) {}
  bool is_grant = true;
  std::vector<std::string> roles;
  std::vector<std::string> members;
  bool admin_option = false;  // GRANT: WITH ADMIN OPTION; REVOKE: ADMIN OPTION FOR
  std::string grantor;        // GRANTED BY (empty: none)
};

// GRANT privilege[, ...] | ALL [PRIVILEGES] ON [TABLE] t[, ...] TO grantee[, ...]
// [WITH GRANT OPTION]; REVOKE [GRANT OPTION FOR] ... FROM grantee[, ...]
// [CASCADE | RESTRICT]. Privileges lowercase ("all" for ALL); grantees as
// written ("public", "current_user", ... lowercased keywords).
struct GrantPrivStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kGrantPriv;
  GrantPrivStmt() : Statement(kKind) {}
  bool is_grant = true;
  std::vector<std::string> privileges;
  // Column list of each privilege (same index; empty: the whole table).
  std::vector<std::vector<std::string>> columns;
  std::vector<RangeVar> tables;
  std::vector<std::string> grantees;
  bool grant_option = false;  // GRANT: WITH GRANT OPTION; REVOKE: GRANT OPTION FOR
  bool cascade = false;       // REVOKE ... CASCADE
  bool on_sequence = false;   // ON SEQUENCE (else ON [TABLE])
  // ON DATABASE / ON SCHEMA: "database" or "schema" (names in tables[i].name);
  // empty for tables and sequences.
  std::string object_kind;
};

// ALTER {TABLE|SEQUENCE|INDEX|VIEW} [IF EXISTS] [ONLY] name OWNER TO role.
// new_owner as ParseRoleSpec gives it ("current_user", ... lowercased).
struct AlterOwnerStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kAlterOwner;
  AlterOwnerStmt() : Statement(kKind) {}
  ObjectType object_type = ObjectType::kTable;
  RangeVar object;
  bool if_exists = false;
  std::string new_owner;
};

// CREATE [OR REPLACE] [TEMP] VIEW name [(col, ...)] AS query
// [WITH [CASCADED | LOCAL] CHECK OPTION].
struct CreateViewStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kCreateView;
  CreateViewStmt() : Statement(kKind) {}
  RangeVar view;
  bool or_replace = false;
  bool temp = false;
  std::vector<std::string> column_names;
  StmtPtr query;  // a SelectStmt; query->text is its source text
  std::string check_option;  // "", "cascaded" or "local"
};

// ALTER {VIEW | TABLE} [IF EXISTS] name RENAME TO new_name (views only so far).
struct RenameRelationStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kRenameRelation;
  RenameRelationStmt() : Statement(kKind) {}
  ObjectType object_type = ObjectType::kView;
  RangeVar object;
  bool if_exists = false;
  std::string new_name;
};

// REASSIGN OWNED BY role[, ...] TO role | DROP OWNED BY role[, ...]
// [CASCADE | RESTRICT]. Role names as ParseRoleSpec gives them.
struct OwnedStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kOwned;
  OwnedStmt() : Statement(kKind) {}
  bool is_drop = false;
  std::vector<std::string> roles;
  std::string new_owner;  // REASSIGN
  bool cascade = false;   // DROP ... CASCADE
};

// LOCK [TABLE] [ONLY] name [*] [, ...] [IN lockmode MODE] [NOWAIT].
// mode is the heavyweight lock mode's number (1 ACCESS SHARE ... 8 ACCESS
// EXCLUSIVE, storage::LockMode's values); ACCESS EXCLUSIVE by default.
struct LockStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kLock;
  LockStmt() : Statement(kKind) {}
  std::vector<RangeVar> tables;
  int mode = 8;
  bool nowait = false;
};

// CREATE [TEMP] SEQUENCE [IF NOT EXISTS] name [options]
struct CreateSequenceStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kCreateSequence;
  CreateSequenceStmt() : Statement(kKind) {}
  RangeVar name;
  bool temp = false;
  bool if_not_exists = false;
  std::vector<SeqOption> options;
};

// ALTER SEQUENCE [IF EXISTS] name options (incl. RESTART [[WITH] n])
struct AlterSequenceStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kAlterSequence;
  AlterSequenceStmt() : Statement(kKind) {}
  RangeVar name;
  bool if_exists = false;
  std::vector<SeqOption> options;
};

enum class DiscardTarget { kAll, kPlans, kSequences, kTemp };

// DISCARD {ALL | PLANS | SEQUENCES | TEMP | TEMPORARY}
struct DiscardStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kDiscard;
  DiscardStmt() : Statement(kKind) {}
  DiscardTarget target = DiscardTarget::kAll;
};

// CREATE EXTENSION [IF NOT EXISTS] name [WITH] [SCHEMA s] [VERSION v] [CASCADE]
struct CreateExtensionStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kCreateExtension;
  CreateExtensionStmt() : Statement(kKind) {}
  std::string name;
  bool if_not_exists = false;
  std::string schema;   // empty when not given
  std::string version;  // empty when not given
  bool cascade = false;
};

// CREATE SCHEMA [IF NOT EXISTS] name [AUTHORIZATION role] |
// CREATE SCHEMA [IF NOT EXISTS] AUTHORIZATION role (the schema takes the
// role's name).
struct CreateSchemaStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kCreateSchema;
  CreateSchemaStmt() : Statement(kKind) {}
  std::string name;           // empty: the role's name
  std::string authorization;  // role spec; empty when not given
  bool if_not_exists = false;
};

// ALTER DATABASE name RENAME TO n | OWNER TO r | [WITH] option [=] value ...
// (allow_connections, connection_limit, is_template) | SET param {TO|=}
// value | SET param FROM CURRENT | RESET param | RESET ALL.
struct AlterDatabaseStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kAlterDatabase;
  AlterDatabaseStmt() : Statement(kKind) {}
  std::string name;
  std::string new_name;                  // RENAME TO; empty otherwise
  std::string new_owner;                 // OWNER TO; empty otherwise
  std::vector<GenericOption> options;    // WITH options
  std::string set_name;                  // SET / RESET parameter; "all" for RESET ALL
  std::optional<std::string> set_value;  // SET's value as text (nullopt: RESET; "default" resets too)
};

// ALTER SCHEMA name RENAME TO new_name | OWNER TO role
struct AlterSchemaStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kAlterSchema;
  AlterSchemaStmt() : Statement(kKind) {}
  std::string name;
  std::string new_name;   // RENAME TO; empty otherwise
  std::string new_owner;  // OWNER TO; empty otherwise
};

// ---------------------------------------------------------------------------
// SQL functions (parse_function.cpp)
// ---------------------------------------------------------------------------

enum class FuncParamMode : char { kIn = 'i', kOut = 'o', kInOut = 'b', kVariadic = 'v', kTable = 't' };

struct FuncParam {
  std::string name;  // empty when unnamed
  TypeName type;
  FuncParamMode mode = FuncParamMode::kIn;
  ExprPtr default_expr;      // DEFAULT / = expression, null if none
  std::string default_text;  // its source text
};

// CREATE [OR REPLACE] {FUNCTION|PROCEDURE} name ( params ) [RETURNS type |
// RETURNS SETOF type | RETURNS TABLE (cols)] options... AS 'body' |
// RETURN expr | BEGIN ATOMIC stmts END
struct CreateFunctionStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kCreateFunction;
  CreateFunctionStmt() : Statement(kKind) {}
  RangeVar name;
  bool or_replace = false;
  bool is_procedure = false;
  std::vector<FuncParam> params;  // RETURNS TABLE columns are kTable params
  bool has_return_type = false;
  TypeName return_type;
  bool returns_set = false;
  bool returns_table = false;
  std::string language;     // lowercased; empty when not given
  char volatility = 0;      // 'i', 's', 'v'; 0 when not given
  int strict = -1;          // 1 STRICT, 0 CALLED ON NULL INPUT, -1 not given
  bool security_definer = false;
  bool has_body = false;
  std::string body;          // AS 'body' (prosrc)
  int body_location = -1;    // offset of the body string token
  // SQL-standard body (RETURN expr / BEGIN ATOMIC ... END): its source text
  // as statements ("SELECT expr" for RETURN), kept as the body too.
  bool sql_standard_body = false;
  std::string sql_body_text;  // the clause as written (for pg_get_functiondef)
};

struct FunctionRefSpec {
  RangeVar name;
  bool has_args = false;
  std::vector<TypeName> arg_types;  // IN/INOUT/VARIADIC argument types
  std::vector<FuncParamMode> arg_modes;
};

// DROP {FUNCTION|PROCEDURE|ROUTINE} [IF EXISTS] name[(types)], ... [CASCADE|RESTRICT]
struct DropFunctionStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kDropFunction;
  DropFunctionStmt() : Statement(kKind) {}
  std::vector<FunctionRefSpec> functions;
  bool if_exists = false;
  bool is_procedure = false;
  bool cascade = false;
};

// DO [LANGUAGE l] 'code'
struct DoStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kDo;
  DoStmt() : Statement(kKind) {}
  std::string language = "plpgsql";
  std::string code;
};

// CALL name(args)
struct CallStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kCall;
  CallStmt() : Statement(kKind) {}
  std::unique_ptr<FuncCallExpr> call;
};

// ALTER DEFAULT PRIVILEGES [FOR {ROLE|USER} r, ...] [IN SCHEMA s, ...]
// {GRANT privileges ON kind TO grantee, ... [WITH GRANT OPTION] |
//  REVOKE [GRANT OPTION FOR] privileges ON kind FROM grantee, ... [CASCADE | RESTRICT]}
// kind: TABLES, SEQUENCES, FUNCTIONS / ROUTINES, TYPES, SCHEMAS, stored as
// pg_default_acl's defaclobjtype ('r', 'S', 'f', 'T', 'n').
struct AlterDefaultPrivilegesStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kAlterDefaultPrivileges;
  AlterDefaultPrivilegesStmt() : Statement(kKind) {}
  std::vector<std::string> roles;    // FOR ROLE (empty: the current user)
  std::vector<std::string> schemas;  // IN SCHEMA (empty: every schema)
  bool is_grant = true;
  std::vector<std::string> privileges;  // lowercase; "all" for ALL [PRIVILEGES]
  char objtype = 'r';
  std::vector<std::string> grantees;
  bool grant_option = false;
  bool cascade = false;
};

// GRANT/REVOKE EXECUTE | ALL [PRIVILEGES] ON {FUNCTION|PROCEDURE|ROUTINE} f[(types)], ...
// TO/FROM grantee, ...
struct GrantFunctionStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kGrantFunction;
  GrantFunctionStmt() : Statement(kKind) {}
  bool is_grant = true;
  std::vector<FunctionRefSpec> functions;
  std::vector<std::string> grantees;
  bool grant_option = false;
  bool cascade = false;
};

// CREATE [OR REPLACE] TRIGGER name {BEFORE|AFTER|INSTEAD OF} event [OR ...]
// ON table [FOR [EACH] {ROW|STATEMENT}] [WHEN (cond)]
// EXECUTE {FUNCTION|PROCEDURE} f(args) (parse_trigger.cpp).
struct CreateTriggerStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kCreateTrigger;
  CreateTriggerStmt() : Statement(kKind) {}
  bool or_replace = false;
  std::string name;
  char timing = 'b';  // 'b' BEFORE, 'a' AFTER, 'i' INSTEAD OF
  bool on_insert = false, on_update = false, on_delete = false, on_truncate = false;
  std::vector<std::string> update_columns;  // UPDATE OF
  RangeVar table;
  bool for_each_row = false;
  std::string when_text;  // the WHEN condition as written; empty: none
  RangeVar function;
  std::vector<std::string> args;  // as text
  bool has_transition_tables = false;  // REFERENCING ...
};

// DROP TRIGGER [IF EXISTS] name ON table [CASCADE|RESTRICT]
struct DropTriggerStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kDropTrigger;
  DropTriggerStmt() : Statement(kKind) {}
  bool if_exists = false;
  std::string name;
  RangeVar table;
};

// COMMENT ON object IS 'text' | NULL. Which of the name fields is set
// depends on the object: a relation (TABLE, INDEX, VIEW, SEQUENCE) in
// `relation`; COLUMN's dotted name as written in `column_path`; CONSTRAINT c ON t in
// `name` + `relation`; FUNCTION / PROCEDURE / ROUTINE in `function`;
// SCHEMA, ROLE, DATABASE in `name`. comment nullopt = IS NULL.
enum class CommentObject { kTable, kIndex, kView, kSequence, kColumn, kConstraint, kFunction, kProcedure, kSchema,
                           kRole, kDatabase };
struct CommentStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kComment;
  CommentStmt() : Statement(kKind) {}
  CommentObject object = CommentObject::kTable;
  RangeVar relation;
  std::vector<std::string> column_path;
  std::string name;
  FunctionRefSpec function;
  std::optional<std::string> comment;
};

// ---------------------------------------------------------------------------
// User-defined types (parse_type_ddl.cpp)
// ---------------------------------------------------------------------------

// CREATE TYPE name AS ENUM ('a', ...)
struct CreateEnumStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kCreateEnum;
  CreateEnumStmt() : Statement(kKind) {}
  RangeVar name;
  std::vector<std::string> labels;
};

// A domain constraint: [CONSTRAINT name] {NOT NULL | NULL | CHECK (cond)}.
struct DomainConstraint {
  std::string name;        // empty: PostgreSQL's default name
  char kind = 'c';         // 'c' CHECK, 'n' NOT NULL, 'u' NULL
  ExprPtr check;           // kind 'c'
  int location = -1;
};

// CREATE DOMAIN name [AS] type [DEFAULT expr] [constraint ...]
struct CreateDomainStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kCreateDomain;
  CreateDomainStmt() : Statement(kKind) {}
  RangeVar name;
  TypeName base;
  ExprPtr default_expr;
  std::vector<DomainConstraint> constraints;
};

// ALTER TYPE / ALTER DOMAIN name action.
enum class AlterTypeAction {
  kAddValue,        // ADD VALUE [IF NOT EXISTS] 'v' [{BEFORE|AFTER} 'n']
  kRenameValue,     // RENAME VALUE 'a' TO 'b'
  kRename,          // RENAME TO new
  kOwner,           // OWNER TO role
  kSetSchema,       // SET SCHEMA s
  kSetDefault,      // (domain) SET DEFAULT expr
  kDropDefault,     // (domain) DROP DEFAULT
  kSetNotNull,      // (domain) SET NOT NULL
  kDropNotNull,     // (domain) DROP NOT NULL
  kAddConstraint,   // (domain) ADD constraint
  kDropConstraint,  // (domain) DROP CONSTRAINT [IF EXISTS] name [CASCADE|RESTRICT]
  kValidateConstraint,  // (domain) VALIDATE CONSTRAINT name
};

struct AlterTypeStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kAlterType;
  AlterTypeStmt() : Statement(kKind) {}
  bool is_domain = false;
  RangeVar name;
  AlterTypeAction action = AlterTypeAction::kAddValue;
  std::string value;        // the label added / renamed, new name, role, schema, constraint name
  std::string new_value;    // RENAME VALUE's new label
  std::string neighbor;     // BEFORE/AFTER label
  bool before = false;
  bool if_not_exists = false;  // ADD VALUE IF NOT EXISTS
  bool if_exists = false;      // DROP CONSTRAINT IF EXISTS
  ExprPtr default_expr;
  std::optional<DomainConstraint> constraint;
  bool not_valid = false;
};

// DROP {TYPE | DOMAIN} [IF EXISTS] a, ... [CASCADE | RESTRICT]
struct DropTypeStmt : Statement {
  static constexpr StmtKind kKind = StmtKind::kDropType;
  DropTypeStmt() : Statement(kKind) {}
  bool is_domain = false;
  std::vector<RangeVar> names;
  bool if_exists = false;
  DropBehavior behavior = DropBehavior::kDefault;
};

}  // namespace hearth::parser
