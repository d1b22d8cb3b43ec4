// server/planner/planner_internal.h
//
// Shared pieces of the planner: name-resolution scopes, per-statement
// planner state (parameter types, init plans, synthetic parse nodes), and
// QueryPlanner, which plans one SELECT level. Internal to server/planner.
// One PlannerState per PlanStatement call; single-threaded.
#pragma once

#include <climits>
#include <memory>
#include <optional>
#include <unordered_set>
#include <string>
#include <vector>

#include "executor/exec_node.h"
#include "executor/expr/bind_context.h"
#include "executor/nodes/agg_nodes.h"
#include "executor/nodes/join_nodes.h"
#include "executor/nodes/function_scan_node.h"
#include "executor/nodes/lock_rows_node.h"
#include "executor/nodes/project_set_node.h"
#include "executor/nodes/sort_node.h"
#include "executor/planned_statement.h"
#include "executor/table_access.h"
#include "common/error/db_error.h"
#include "parser/ast.h"
#include "planner/deparse.h"

namespace hearth::planner {

using executor::BindContext;
using executor::BoundExpr;
using executor::BoundExprPtr;
using executor::BoundKind;
using executor::ColumnBinding;
using executor::ExecNodePtr;
using executor::OutputColumn;
using executor::PlanExpr;

// One FROM item as name resolution sees it.
struct RangeEntry {
  std::string alias;  // qualifier: the alias, else the table name; "" = unnamed
  std::vector<std::string> names;
  std::vector<types::Oid> types;
  std::vector<int32_t> typmods;
  std::vector<bool> hidden;  // right-hand USING columns: no unqualified/star access
  int offset = 0;            // first slot in the row of the node that scans this scope
  int width() const { return static_cast<int>(names.size()); }
};

// Column indexes at or above this stand for outer-query columns of a
// correlated subquery; QueryPlanner::Bind turns them into parameters.
inline constexpr int kOuterRefBase = 1 << 24;

// The outer-query columns a correlated subquery uses. Each distinct outer
// column gets a parameter slot the subplan reads and a representative
// reference the outer query binds to supply the value.
struct Correlation {
  int* nslots = nullptr;                           // PlannerState::nslots
  std::vector<int> outer_index;                    // slot in the outer scope's row
  std::vector<const parser::ColumnRefExpr*> refs;  // representative reference
  std::vector<int> slots;                          // parameter slot (before + nuser)
};

// The FROM scope of one query level, chained to the enclosing query's.
struct Scope {
  std::vector<RangeEntry> entries;
  const Scope* parent = nullptr;
  // Set for the top level of a subquery in an expression: references to the
  // immediately enclosing query are allowed and recorded here.
  Correlation* corr = nullptr;

  int width() const;
  // PostgreSQL's errors: 42703 unknown column, 42702 ambiguous, 42P01
  // missing FROM-clause entry; a reference found only in an enclosing query
  // → 0A000 (correlated subqueries are not supported).
  ColumnBinding Resolve(const parser::ColumnRefExpr& c) const;
  // Entry and column index of c (same errors as Resolve).
  std::pair<const RangeEntry*, int> Find(const parser::ColumnRefExpr& c) const;
  // EXPLAIN name of a reference: "alias.col" with several entries, "col"
  // with one or when `bare`; references outside this scope as written.
  std::string DisplayName(const parser::ColumnRefExpr& c, bool bare = false) const;
  ColumnNamer Namer() const;

 private:
  // nullopt: not found here (no throw); throws on ambiguity.
  std::optional<std::pair<const RangeEntry*, int>> TryFind(const parser::ColumnRefExpr& c) const;
};

struct PlannerState {
  explicit PlannerState(executor::TableProvider& t) : tables(t) {}
  executor::TableProvider& tables;
  std::vector<types::Oid> params;
  std::vector<executor::InitPlan> init_plans;
  std::vector<executor::SubPlan> sub_plans;
  int nslots = 0;  // hidden parameter slots allocated so far
  // Hidden parameters (init-plan results, correlated outer values, subplan
  // handles): their final index is
  // (number of user params) + slot, fixed up when planning ends.
  std::vector<std::pair<BoundExpr*, int>> hidden;
  // Parse nodes the planner synthesizes (star expansion, defaults); kept
  // alive for the duration of planning.
  std::vector<std::unique_ptr<parser::Expr>> synthetic;
  std::vector<std::vector<parser::StmtPtr>> parsed_defaults;
};

struct PlannedQuery {
  ExecNodePtr node;
  std::vector<OutputColumn> columns;
};

// Row locking (locking.cpp). A locked table's scan emits its RowId as one
// more column, named kLockRowIdColumn and hidden (never matched by a name,
// '*' or NATURAL).
inline constexpr const char* kLockRowIdColumn = "\x01rowid";
struct LockSpec {
  executor::RowLockStrength strength = executor::RowLockStrength::kUpdate;
  executor::RowLockPolicy policy = executor::RowLockPolicy::kBlock;
};
// "FOR UPDATE", "FOR NO KEY UPDATE", ... (PostgreSQL's spelling in messages).
const char* LockingClauseName(parser::LockStrength s);
// PostgreSQL's 0A000 restrictions of FOR UPDATE/SHARE (set operations,
// VALUES, DISTINCT, GROUP BY, HAVING, aggregates). No-op without locking.
void CheckSelectLocking(const parser::SelectStmt& s, bool has_aggregates);

// One select-list entry after '*' expansion.
struct TargetSpec {
  const parser::Expr* expr = nullptr;
  std::string name;
};

struct SelectParts;  // one plain SELECT while it is planned (below)
struct Conjunct;     // a WHERE conjunct (below)

class QueryPlanner {
 public:
  QueryPlanner(PlannerState& st, const Scope* outer, Correlation* corr = nullptr)
      : st_(st), outer_(outer), corr_(corr) {}
  PlannedQuery PlanSelect(const parser::SelectStmt& s);

  // A BindContext resolving columns in `scope` (may be null: no columns),
  // planning subqueries as init plans; aggregates rejected with
  // "aggregate functions are not allowed in <clause>" when clause is set.
  BindContext Context(const Scope* scope, const char* agg_clause);
  // Binds with the statement-wide parameter types flowing in and out.
  BoundExprPtr Bind(const parser::Expr& e, BindContext& ctx);
  BoundExprPtr BindCond(const parser::Expr& e, BindContext& ctx, const char* what);
  // Expands '*' / 't.*' into column references (42601 without FROM).
  std::vector<TargetSpec> ExpandTargets(const std::vector<parser::ResTarget>& targets, const Scope& scope);

 private:
  // ---- A plain SELECT (select_simple.cpp, select_from.cpp, select_grouping.cpp),
  // in phase order.
  PlannedQuery PlanSimple(const parser::SelectStmt& s);
  // FROM items into p.scope; their nodes and row ranges [offset, end).
  void PlanFromClause(SelectParts& p, std::vector<ExecNodePtr>* items, std::vector<std::pair<int, int>>* ranges);
  // WHERE conjuncts bound on the whole FROM row.
  std::vector<Conjunct> BindWhere(SelectParts& p);
  // Scans (index scans where useful) with their conjuncts, joined left-deep
  // in the order written; what is left filters the join → p.node.
  void JoinFromItems(SelectParts& p, std::vector<ExecNodePtr> items, const std::vector<std::pair<int, int>>& ranges);
  // Expands the select list; finds aggregate calls (42803 where misplaced).
  void FindAggregates(SelectParts& p);
  // GROUP BY keys and the select-list binding context (grouped or not).
  void BindGrouping(SelectParts& p);
  const parser::Expr* GroupByExpr(const parser::ExprPtr& g, const SelectParts& p);
  void SetUpGroupedContext(SelectParts& p);
  // A select-list/HAVING/ORDER BY expression structurally equal to a GROUP
  // BY key → a reference to that key; else null.
  BoundExprPtr MatchGroupKey(const parser::Expr& e, SelectParts& p);
  // Binds at select-list level without converting outer references, so the
  // result may still be compared and dropped (see KeepBound).
  BoundExprPtr BindOutputTrial(const parser::Expr& e, SelectParts& p);
  BoundExprPtr KeepBound(BoundExprPtr e);
  void BindSelectList(SelectParts& p);
  void BindOrderBy(SelectParts& p);
  int OrderByColumn(const parser::SortBy& sb, SelectParts& p);
  // Drops the Sort when the chosen index scan already delivers the order.
  void UseIndexOrder(SelectParts& p);
  // [Aggregate → HAVING] → Project → [Distinct] → [Sort] → [LockRows] → [Limit].
  PlannedQuery AssembleSelect(SelectParts& p);
  PlannedQuery PlanValues(const parser::SelectStmt& s);
  PlannedQuery PlanSetOp(const parser::SelectStmt& s);
  void ApplyOutputOrder(PlannedQuery& q, const parser::SelectStmt& s);
  void ApplyLimit(PlannedQuery& q, const parser::SelectStmt& s);

  // What a LATERAL item (or a function in FROM) reads from the items to
  // its left: `values` bound on their row, passed to the item's plan
  // through the hidden parameters `slots` (select_lateral.cpp).
  struct LateralRefs {
    std::vector<PlanExpr> values;
    std::vector<BoundExprPtr> slots;
    std::vector<int> slot_numbers;  // hidden parameter slot of each value
    std::string first_table;  // for PostgreSQL's errors: the first reference
    int first_location = -1;
    bool empty() const { return values.empty(); }
  };
  struct FromResult {
    ExecNodePtr node;
    std::vector<RangeEntry> entries;  // offsets relative to node's row
    LateralRefs lateral;
  };
  FromResult PlanFromItem(const parser::FromItem& item);
  FromResult PlanJoin(const parser::JoinRef& j);

  // ---- Functions in FROM (select_function.cpp), LATERAL
  // (select_lateral.cpp), SRFs in the select list (select_srf.cpp).
  FromResult PlanFunctionItem(const parser::FunctionRef& f);
  executor::ScanFunction BindScanFunction(const parser::Expr& call, LateralRefs* lateral);
  FromResult PlanSubqueryItem(const parser::SubqueryRef& sq);
  // A FROM item at `lateral_scope_`'s level: the left row joined to `right`
  // per outer row (LateralJoinNode); `conds` bound on the combined row.
  ExecNodePtr JoinLateral(executor::JoinKind kind, ExecNodePtr left, ExecNodePtr right, LateralRefs refs,
                          std::vector<PlanExpr> conds);
  // 42P01/42703 with PostgreSQL's hint when a non-LATERAL subquery referred
  // to an item to its left; returns if `e` is another error.
  void RethrowSiblingReference(const DbError& e) const;
  // SRF placement errors (CASE, COALESCE, aggregates, HAVING) and the
  // select-list binding of SRF calls into p.srfs.
  void SetUpSrfTargets(SelectParts& p);
  // ProjectSet under the projection when the select list has SRFs.
  ExecNodePtr AddProjectSet(ExecNodePtr node, SelectParts& p);
  // The FROM entries left of the item being planned (lateral references
  // allowed); null where none are (the left side of a JOIN).
  const Scope* lateral_scope_ = nullptr;
  std::vector<LateralRefs> from_lateral_;  // per top-level FROM item

  BoundExprPtr BindSublink(const parser::SubLinkExpr& s, BindContext& ctx, const Scope* scope);
  BoundExprPtr BindCorrelated(const parser::SubLinkExpr& s, BindContext& ctx, PlannedQuery q,
                              const Correlation& corr);
  BoundExprPtr HiddenParam(types::Oid type, int32_t typmod, int slot);
  // Rewrites outer-column references (kOuterRefBase) into hidden params.
  void ConvertOuterRefs(BoundExpr& e);

  // ---- FOR UPDATE/SHARE (locking.cpp)
  // Reads the locking clauses of `s` (per-table strength and wait policy).
  void SetUpLocking(const parser::SelectStmt& s);
  // The lock a FROM table known as `alias` gets, if any (marks OF names used).
  std::optional<LockSpec> LockSpecFor(const std::string& alias);
  // 42P01 for an OF name that matched no table of this query level (0A000
  // for a join alias, as PostgreSQL, or a subquery: not supported yet).
  void CheckLockTargetsFound(const parser::SelectStmt& s, const Scope& scope);
  // 0A000 when a locked table is on the nullable side of an outer join.
  void CheckNullableSideUnlocked(parser::JoinType type, const std::vector<RangeEntry>& left,
                                 const std::vector<RangeEntry>& right);
  // The locked tables with their FROM-row positions (after FROM planning).
  std::vector<executor::LockedTable> LockedTables(const Scope& scope);
  // Adds the LockRows node for a locking query: `exprs` get the FROM row
  // after the outputs; returns its width (0 without locking).
  int AddLockColumns(const parser::SelectStmt& s, const Scope& scope, std::vector<PlanExpr>* exprs);
  ExecNodePtr AddLockRows(ExecNodePtr node, const parser::SelectStmt& s, const Scope& scope,
                          const std::vector<TargetSpec>& targets, const std::vector<OutputColumn>& columns,
                          int from_width);

  struct NamedLock {
    std::string name;
    std::optional<LockSpec> spec;
    const char* clause;
    int location;
    bool matched;
  };
  struct PendingLock {
    std::string alias;
    executor::TableInfo table;
    LockSpec spec;
  };
  std::optional<LockSpec> lock_all_;       // clauses without OF
  std::vector<NamedLock> lock_named_;      // OF names
  std::vector<PendingLock> pending_locks_;  // locked tables met while planning FROM

  PlannerState& st_;
  const Scope* outer_;
  Correlation* corr_;
  bool set_op_arm_ = false;  // planning an operand of UNION/INTERSECT/EXCEPT
};

// --- helpers shared by the planner files ---

// Hidden parameters get their final index when planning ends.
inline constexpr int kUnsetParamIndex = 1 << 20;

// Throws e with its position set to location + 1 (if it has none).
[[noreturn]] void ThrowAt(DbError e, int location);
// Applies the conjunction of `conds` (if any) to node's rows: pushed into a
// plain table scan, else as a FilterNode.
ExecNodePtr AddFilter(ExecNodePtr node, std::vector<PlanExpr> conds, int agg_base = -1);
// A join of `left` (slots [0, split)) and `right` (slots [split, end)) from
// `conds` (bound on the combined row): equalities across the sides with
// hash-compatible types become hash keys; the rest is a join filter.
ExecNodePtr MakeJoin(executor::JoinKind kind, ExecNodePtr left, ExecNodePtr right, int split,
                     std::vector<PlanExpr> conds);
executor::SortKey MakeSortKey(int column, const parser::SortBy& sb, const std::string& text);
// ORDER BY/GROUP BY ordinal: the integer constant's value, or 0 (-1 out of range).
int Ordinal(const parser::Expr& e);
bool IsOrdinalConst(const parser::Expr& e);
// Structural equality of bound expressions (the planner never compares
// expressions by their text).
bool SameExpr(const BoundExpr& a, const BoundExpr& b);
bool ContainsSublink(const parser::Expr& e);
bool ContainsSublinkOrAggregate(const parser::Expr& e);

// A WHERE/ON conjunct with the slots it reads.
struct Conjunct {
  PlanExpr e;
  std::string scan_text;  // with bare column names, as PostgreSQL shows scan filters
  int min = INT_MAX, max = -1;
  bool used = false;
};

// Top-level AND operands of e (e itself if not an AND).
void SplitConjuncts(const parser::Expr* e, std::vector<const parser::Expr*>* out);
// Smallest/largest kColumn index in e; min = INT_MAX when none.
void ColumnRange(const BoundExpr& e, int* min, int* max);
// Adds delta to every kColumn index in e.
void ShiftColumns(BoundExpr& e, int delta);
// a AND b as a bound node.
BoundExprPtr MakeAnd(BoundExprPtr a, BoundExprPtr b);
BoundExprPtr MakeColumn(int index, types::Oid type, int32_t typmod);
// Output column description of a bound select-list entry.
OutputColumn Describe(const std::string& name, const BoundExpr& e);
// True if f names an aggregate (count, sum, ...), not a window call.
bool IsAggregateCall(const parser::FuncCallExpr& f);
// Calls fn for each direct sub-expression of e (not into subqueries).
void ForEachChild(const parser::Expr& e, const std::function<void(const parser::Expr&)>& fn);

// Assignment coercion to a table column with PostgreSQL's message:
// 42804 `column "a" is of type integer but expression is of type boolean`.
BoundExprPtr AssignCoerce(BoundExprPtr e, const executor::ColumnInfo& col, BindContext& ctx, int location);

}  // namespace hearth::planner

// ---- Index paths (index_path.cpp) -------------------------------------------

namespace hearth::planner {

// An ORDER BY the scan of one table could deliver: table column positions
// with their directions (PostgreSQL's defaults already applied).
struct WantedOrder {
  std::vector<int> columns;
  std::vector<bool> descending;
  std::vector<bool> nulls_first;
  bool has_limit = false;
};

// Chooses an index scan of `table` for the WHERE conjuncts `conds` (bound on
// the table's row, texts as scan filters show them) and/or the wanted
// order. Rule: an index whose first column has an equality (best), an IN
// list, or a range condition (=, <, <=, >, >=, BETWEEN) against constants
// or parameters of a compatible type; else, for an ORDER BY with LIMIT,
// an index whose key prefix gives that order forward or backward. Returns
// nullptr (conds untouched) when no index applies; otherwise the node owns
// every conjunct (all are re-checked on fetched rows) and *ordered says
// whether its output is in `order` (when given). keep_conds: the caller
// keeps applying `conds` itself (UPDATE/DELETE); the node has no filter and
// conds are left in place.
ExecNodePtr PlanIndexScan(const executor::TableInfo& table, const std::string& alias, std::vector<PlanExpr>* conds,
                          const WantedOrder* order, bool emit_rid, bool* ordered, bool keep_conds = false);

// The ORDER BY of `s` as columns of its single FROM table `entry`, when it
// consists of plain column references only (and the statement is not
// grouped or DISTINCT). False otherwise.
bool WantedOrderOf(const parser::SelectStmt& s, const RangeEntry& entry, WantedOrder* out);

// One plain SELECT level while PlanSimple's phases build it. Binding
// contexts point into it (scope), so it stays where it was created.
struct SelectParts {
  explicit SelectParts(const parser::SelectStmt& stmt) : s(stmt) {}
  SelectParts(const SelectParts&) = delete;
  SelectParts& operator=(const SelectParts&) = delete;

  const parser::SelectStmt& s;
  Scope scope;       // the FROM entries
  ExecNodePtr node;  // FROM ⋈ WHERE, then the pipeline above it
  WantedOrder wanted_order;  // valid when index_ordered
  bool index_ordered = false;  // the single table is read in ORDER BY order
  std::vector<TargetSpec> targets;
  bool has_agg = false;
  std::unordered_set<const parser::Expr*> in_agg;  // column refs inside aggregate args
  BindContext out_ctx;  // binds select-list level expressions
  int agg_base = -1;    // grouped: number of group keys
  std::vector<PlanExpr> group_keys;
  std::vector<executor::AggSpec> aggs;
  std::vector<PlanExpr> exprs;         // projection: outputs, lock columns, sort junk
  std::vector<OutputColumn> columns;   // visible outputs
  int lock_width = 0;
  PlanExpr having;
  std::vector<executor::SortKey> keys;
  std::vector<executor::SrfSpec> srfs;  // SRF calls of the select list (ProjectSet)
};

}  // namespace hearth::planner
