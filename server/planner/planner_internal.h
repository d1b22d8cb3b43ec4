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
#include "planner/column_use.h"
#include "planner/deparse.h"
#include "planner/planner.h"

namespace hearth::executor {
struct WindowFunc;
struct WindowFrameSpec;
class SeqScanNode;
}  // namespace hearth::executor

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
  int system_from = INT32_MAX;  // columns from here on are system columns (tableoid): not in '*'
  int offset = 0;            // first slot in the row of the node that scans this scope
  std::vector<ColumnOrigin> origin;  // per column, for column privileges (may be shorter)
  int width() const { return static_cast<int>(names.size()); }
};

inline ColumnOrigin OriginAt(const RangeEntry& e, int i) {
  return static_cast<size_t>(i) < e.origin.size() ? e.origin[static_cast<size_t>(i)] : ColumnOrigin{};
}

// Column indexes at or above this stand for outer-query columns of a
// correlated subquery; QueryPlanner::Bind turns them into parameters.
inline constexpr int kOuterRefBase = 1 << 24;

struct Scope;

// The outer-query columns a correlated subquery uses. Each distinct outer
// column gets a parameter slot the subplan reads and a representative
// reference the outer query binds to supply the value. A column of a query
// further out is recorded the same way: binding the representative in the
// enclosing query makes that query correlated in turn, so the value is
// passed down one level at a time.
struct Correlation {
  int* nslots = nullptr;                           // PlannerState::nslots
  std::vector<const Scope*> outer_scope;           // the scope it was found in
  std::vector<int> outer_index;                    // slot in that scope's row
  std::vector<const parser::ColumnRefExpr*> refs;  // representative reference
  std::vector<int> slots;                          // parameter slot (before + nuser)
};

// The FROM scope of one query level, chained to the enclosing query's.
struct Scope {
  std::vector<RangeEntry> entries;
  const Scope* parent = nullptr;
  // Set for a subquery in an expression (and the FROM subqueries, joins and
  // set-operation arms inside it): references to enclosing queries, at any
  // depth, are allowed and recorded here.
  Correlation* corr = nullptr;

  int width() const;
  // PostgreSQL's errors: 42703 unknown column, 42702 ambiguous, 42P01
  // missing FROM-clause entry. With `corr`, a column of an enclosing query
  // binds as kOuterRefBase + k (its number in corr).
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

struct CteEnv;  // the WITH queries of one statement level (cte.cpp)
struct CteDef;  // one WITH query (cte.cpp)

struct PlannerState {
  explicit PlannerState(executor::TableProvider& t) : tables(t) {}
  executor::TableProvider& tables;
  PlannerOptions options;
  // > 0 while planning a part that may run many times per execution (a
  // recursive term, a subquery in an expression, a LATERAL subquery): a
  // WITH query there is expanded in place, since a CTE store is computed
  // once per execution (see RescannedPart).
  int rescanned_depth = 0;
  CteEnv* ctes = nullptr;  // innermost WITH list in scope; chained outwards
  const parser::Statement* top = nullptr;  // the statement planned (data-modifying WITH only there)
  std::vector<types::Oid> params;
  std::vector<executor::InitPlan> init_plans;
  std::vector<executor::SubPlan> sub_plans;
  // Hidden parameter slots allocated so far (init-plan results, correlated
  // outer values, subplan handles): bound as kHiddenParamBase + slot, stored
  // after the user's parameters at run time.
  int nslots = 0;
  // Parse nodes the planner synthesizes (star expansion, defaults); kept
  // alive for the duration of planning.
  std::vector<std::unique_ptr<parser::Expr>> synthetic;
  std::vector<std::vector<parser::StmtPtr>> parsed_defaults;
  // Views: their queries as parsed for this plan, and the views being
  // expanded (innermost last; a view met again is infinite recursion).
  std::vector<std::vector<parser::StmtPtr>> parsed_views;
  std::vector<types::Oid> view_stack;
  // Statements the planner made by rewriting DML on a view (view_dml.cpp):
  // rewritten again in place when their target is a view too.
  std::vector<const parser::Statement*> owned_statements;
};

// RAII: marks the planning of a part that may be re-run per execution.
class RescannedPart {
 public:
  explicit RescannedPart(PlannerState& st) : st_(st) { ++st_.rescanned_depth; }
  ~RescannedPart() { --st_.rescanned_depth; }
  RescannedPart(const RescannedPart&) = delete;
  RescannedPart& operator=(const RescannedPart&) = delete;

 private:
  PlannerState& st_;
};

struct PlannedQuery {
  ExecNodePtr node;
  std::vector<OutputColumn> columns;
  // ORDER BY keys as columns of node's rows (FETCH ... WITH TIES compares
  // them); node's rows may carry hidden key columns after `columns`.
  std::vector<int> sort_columns;
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

// (sublink_hashed.cpp) What an EXISTS or scalar subquery's planner hands
// back when its WHERE meets the outer query only in `inner = outer`
// equalities and conditions on outer values alone (the node is then its
// FROM row).
struct HashProbe {
  const parser::Expr* value_target = nullptr;  // set by the caller for a scalar subquery
  bool engaged = false;
  BoundExprPtr inner_value;              // scalar: the select-list value on the FROM row
  std::vector<BoundExprPtr> inner_keys;  // on the subquery's FROM row
  std::vector<BoundExprPtr> outer_keys;  // on outer values (hidden parameters)
  std::vector<PlanExpr> outer_conds;     // conjuncts on outer values alone
  std::string cond_text;                 // "(o.x = i.y)": EXPLAIN's Hash Cond
};
// A top-level WHERE [NOT] EXISTS pulled up into a semi (anti) join.
struct SemiJoin {
  bool anti = false;
  ExecNodePtr inner;
  std::vector<PlanExpr> outer_keys;  // on the outer FROM row
  std::vector<PlanExpr> inner_keys;  // on inner's row
  std::string cond_text;
};
// An EXISTS or scalar subquery that may be hashed (plain SELECT, no
// aggregates, SRFs, grouping, OFFSET; EXISTS: LIMIT only NULL or positive;
// scalar: one value, no LIMIT or DISTINCT).
bool SublinkMayHash(const parser::SubLinkExpr& s);
// The sublink of a WHERE conjunct `EXISTS (…)` / `NOT EXISTS (…)` (*anti).
const parser::SubLinkExpr* PullUpCandidate(const parser::Expr& e, bool* anti);

struct SelectParts;  // one plain SELECT while it is planned (below)
struct WindowParts;     // its window functions (select_window.h)
struct WindowGroup;
struct ResolvedWindow;
class WithScope;     // a WITH list in scope while its statement is planned (cte.cpp)
struct Conjunct;     // a WHERE conjunct (below)

class QueryPlanner {
 public:
  QueryPlanner(PlannerState& st, const Scope* outer, Correlation* corr = nullptr)
      : st_(st), outer_(outer), corr_(corr) {}
  PlannedQuery PlanSelect(const parser::SelectStmt& s);
  // (sublink_multiassign.cpp) UPDATE SET (a, b) = (SELECT ...): the values
  // of the list's columns (table positions table_cols), in list order.
  std::vector<BoundExprPtr> BindMultiAssign(const parser::SubLinkExpr& s, BindContext& ctx, const Scope* scope,
                                            const std::vector<int>& table_cols);
  // (update_from.cpp) UPDATE ... FROM / DELETE ... USING: the target's scan
  // (row + RowId) joined with `from`, WHERE conjuncts placed as in a SELECT;
  // *scope gets the target entry (RowId hidden) then the FROM entries.
  ExecNodePtr PlanModifyJoin(const executor::TableInfo& t, const std::string& alias,
                             const std::vector<parser::FromItemPtr>& from, const parser::Expr* where, Scope* scope);

  // A BindContext resolving columns in `scope` (may be null: no columns),
  // planning subqueries as init plans; aggregates rejected with
  // "aggregate functions are not allowed in <clause>" when clause is set.
  BindContext Context(const Scope* scope, const char* agg_clause);
  // Binds with the statement-wide parameter types flowing in and out.
  BoundExprPtr Bind(const parser::Expr& e, BindContext& ctx);
  BoundExprPtr BindCond(const parser::Expr& e, BindContext& ctx, const char* what);
  // Expands '*' / 't.*' into column references (42601 without FROM).
  std::vector<TargetSpec> ExpandTargets(const std::vector<parser::ResTarget>& targets, const Scope& scope);
  // Makes a statement's WITH queries visible until the result is destroyed
  // (null when `with` is empty); plans the materialized ones (cte.cpp).
  std::unique_ptr<WithScope> EnterWith(const std::vector<parser::CommonTableExpr>& with, bool recursive,
                                       const parser::Statement& body);

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
  // PostgreSQL groups sorted input when an aggregate is DISTINCT or ordered:
  // its groups then come out in key order, so a Sort on the keys is added.
  ExecNodePtr SortGroupsIfOrdered(std::unique_ptr<executor::AggregateNode> agg);
  // ---- Grouping sets and GROUPING() (select_grouping_sets.cpp)
  // Merges equal GROUP BY keys and maps the parsed sets onto them.
  void MergeGroupingKeys(SelectParts& p);
  BoundExprPtr BindGroupingCall(const parser::FuncCallExpr& f, std::vector<BoundExprPtr> args,
                                const types::ResolvedFunc& rf, SelectParts& p);
  // One Aggregate per set, projected to [keys..., aggregates...] and appended.
  ExecNodePtr PlanGroupingSets(ExecNodePtr input, SelectParts& p, std::vector<OutputColumn> cols);
  // ORDER BY / WITHIN GROUP of an aggregate call into spec (select_agg_order.cpp).
  void BindAggregateOrder(const parser::FuncCallExpr& f, executor::AggSpec& spec, BindContext& ctx, SelectParts& p);
  // A select-list/HAVING/ORDER BY expression structurally equal to a GROUP
  // BY key → a reference to that key; else null.
  BoundExprPtr MatchGroupKey(const parser::Expr& e, SelectParts& p);
  // Binds at select-list level without converting outer references, so the
  // result may still be compared and dropped (see KeepBound).
  BoundExprPtr BindOutputTrial(const parser::Expr& e, SelectParts& p);
  BoundExprPtr KeepBound(BoundExprPtr e);
  void BindSelectList(SelectParts& p);
  void BindOrderBy(SelectParts& p);
  // clause names it in errors ("ORDER BY", "DISTINCT ON").
  int OrderByColumn(const parser::Expr& e, SelectParts& p, const char* clause);
  // Drops the Sort when the chosen index scan already delivers the order.
  void UseIndexOrder(SelectParts& p);
  // [Aggregate → HAVING] → Project → [Distinct] → [Sort] → [LockRows] → [Limit].
  PlannedQuery AssembleSelect(SelectParts& p);
  // ---- Window functions (select_window.cpp, select_window_plan.cpp)
  // Checks where window calls appear and lets the select list bind them.
  void SetUpWindows(SelectParts& p);
  void CheckWindowDefinitions(SelectParts& p);
  BoundExprPtr BindWindowCall(const parser::FuncCallExpr& f, BindContext& ctx, SelectParts& p);
  int WindowInput(BoundExprPtr e, const parser::Expr& source, SelectParts& p);
  BoundExprPtr WindowRef(WindowGroup spec, executor::WindowFunc fn, int location, SelectParts& p);
  executor::WindowFrameSpec BindFrame(const ResolvedWindow& rw, const std::vector<executor::SortKey>& order,
                                      SelectParts& p);
  PlanExpr BindFrameOffset(const parser::Expr* e, parser::FrameMode mode, types::Oid order_type);
  // The WindowAgg nodes above `node` (after HAVING); rewrites p.exprs.
  ExecNodePtr AddWindowAggs(ExecNodePtr node, SelectParts& p);
  ExecNodePtr ProjectWindowInputs(ExecNodePtr node, SelectParts& p);
  PlannedQuery PlanValues(const parser::SelectStmt& s);
  PlannedQuery PlanSetOp(const parser::SelectStmt& s);
  void ApplyOutputOrder(PlannedQuery& q, const parser::SelectStmt& s);
  void ApplyLimit(PlannedQuery& q, const parser::SelectStmt& s);
  // ---- DISTINCT ON and FETCH ... WITH TIES (select_distinct_on.cpp)
  // DISTINCT ON items → projection columns, checked against ORDER BY
  // (42P10) and appended to the sort keys when missing there.
  void BindDistinctOn(SelectParts& p);
  // The LimitTiesNode over q (42601 without ORDER BY or with SKIP LOCKED).
  ExecNodePtr MakeLimitWithTies(ExecNodePtr node, PlanExpr limit, PlanExpr offset, const PlannedQuery& q,
                                const parser::SelectStmt& s);
  // Sort → [Unique on DISTINCT ON keys]; keeps hidden key columns for WITH TIES.
  ExecNodePtr AddSortAndDistinctOn(ExecNodePtr node, SelectParts& p, PlannedQuery* q);

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
  // Appends a planned FROM item to p.scope (42712 for a repeated alias).
  void AddFromItem(SelectParts& p, FromResult r, int location, std::vector<ExecNodePtr>* items,
                   std::vector<std::pair<int, int>>* ranges);
  // ---- WITH (cte.cpp)
  PlannedQuery PlanWith(const parser::SelectStmt& s);
  // A FROM name that is a WITH query in scope → its scan (CTE Scan, the
  // inlined query, or the working table); nullopt for other names.
  std::optional<FromResult> PlanCteRef(const parser::TableRef& t);
  friend class WithScope;
  PlannedQuery PlanCteQuery(CteEnv& env, CteDef& d);
  PlannedQuery PlanRecursiveCte(CteEnv& env, CteDef& d);
  void MaterializeCte(CteEnv& env, CteDef& d);
  const parser::SelectStmt* with_planned_ = nullptr;  // PlanWith in progress for it
  FromResult PlanJoin(const parser::JoinRef& j);

  // ---- Functions in FROM (select_function.cpp), LATERAL
  // (select_lateral.cpp), SRFs in the select list (select_srf.cpp).
  FromResult PlanFunctionItem(const parser::FunctionRef& f);
  executor::ScanFunction BindScanFunction(const parser::Expr& call, LateralRefs* lateral);
  FromResult PlanSubqueryItem(const parser::SubqueryRef& sq);
  // (view_ref.cpp) A view in FROM: its query planned in its place.
  FromResult PlanViewRef(const parser::TableRef& t, const executor::TableInfo& view);
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
  // Plans the subquery of s one level below `scope`, recording in *corr the
  // enclosing queries' columns it uses.
  PlannedQuery PlanSubquery(const parser::SubLinkExpr& s, BindContext& ctx, const Scope* scope, Correlation* corr,
                            HashProbe* probe = nullptr);
  BoundExprPtr BindCorrelated(const parser::SubLinkExpr& s, BindContext& ctx, PlannedQuery q,
                              const Correlation& corr);
  // (sublink_quantified.cpp) op ANY/ALL (subquery) as a subplan comparing
  // each row; the outer-column arguments of a subplan call.
  BoundExprPtr BindQuantified(const parser::SubLinkExpr& s, BindContext& ctx, PlannedQuery q,
                              const Correlation& corr);
  void AddOuterValues(BoundExpr& call, const Correlation& corr, BindContext& ctx);
  BoundExprPtr HiddenParam(types::Oid type, int32_t typmod, int slot);
  // Rewrites outer-column references (kOuterRefBase) into hidden params.
  void ConvertOuterRefs(BoundExpr& e);

  // ---- Hashed EXISTS and semi/anti joins (sublink_hashed.cpp)
  // In a subquery planned with probe_: splits the WHERE conjuncts into
  // kept ones, hash keys and outer conditions, or leaves them all.
  void ExtractHashProbe(SelectParts& p, std::vector<Conjunct>* conjs, bool from_correlated);
  // A hashed subplan call, or (the pull-up target) a semi join noted in
  // semi_joins_ and a placeholder the caller drops.
  BoundExprPtr BindHashedSublink(const parser::SubLinkExpr& s, BindContext& ctx, PlannedQuery q,
                                 const Correlation& corr, HashProbe probe);
  ExecNodePtr AddSemiJoins(ExecNodePtr node);
  HashProbe* probe_ = nullptr;  // this planner plans an EXISTS / scalar subquery that may hash
  const parser::SubLinkExpr* pullup_target_ = nullptr;  // the WHERE conjunct's EXISTS being bound
  bool pullup_anti_ = false;
  bool pullup_done_ = false;
  std::vector<SemiJoin> semi_joins_;

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

// Throws e with its position set to location + 1 (if it has none).
[[noreturn]] void ThrowAt(DbError e, int location);
// Applies the conjunction of `conds` (if any) to node's rows: pushed into a
// plain table scan, else as a FilterNode.
ExecNodePtr AddFilter(ExecNodePtr node, std::vector<PlanExpr> conds, int agg_base = -1);
// A join of `left` (slots [0, split)) and `right` (slots [split, end)) from
// `conds` (bound on the combined row): equalities across the sides with
// hash-compatible types become hash keys; the rest is a join filter.
// allow_hash false (enable_hashjoin = off): always a nested loop.
ExecNodePtr MakeJoin(executor::JoinKind kind, ExecNodePtr left, ExecNodePtr right, int split,
                     std::vector<PlanExpr> conds, bool allow_hash = true);
executor::SortKey MakeSortKey(int column, const parser::SortBy& sb, const std::string& text);
// ORDER BY/GROUP BY ordinal: the integer constant's value, or 0 (-1 out of range).
int Ordinal(const parser::Expr& e);
bool IsOrdinalConst(const parser::Expr& e);
// Structural equality of bound expressions (the planner never compares
// expressions by their text).
bool SameExpr(const BoundExpr& a, const BoundExpr& b);
bool ContainsSublink(const parser::Expr& e);
// (sublink_quantified.cpp) ANY/ALL/IN sublinks; the uncorrelated single
// `x IN (subquery)` an init plan's hash set answers.
bool IsQuantified(const parser::SubLinkExpr& s);
bool IsHashedIn(const parser::SubLinkExpr& s, const PlannedQuery& q);
bool ContainsSublinkOrAggregate(const parser::Expr& e);
// Where PostgreSQL points at an expression (exprLocation): its leftmost token.
int LeftmostLocation(const parser::Expr& e);

// A WHERE/ON conjunct with the slots it reads.
struct Conjunct {
  PlanExpr e;
  const parser::Expr* source = nullptr;  // the WHERE conjunct as parsed
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

// (update_from.cpp) The entry of a table known as `alias` (its name when empty).
RangeEntry TableRangeEntry(const executor::TableInfo& t, const std::string& alias);
// A record-returning function in FROM (pg_options_to_table): appends the
// calls of its further columns to *fns and returns the column names;
// empty for any other call (select_record_srf.cpp).
std::vector<std::string> ExpandRecordFunction(std::vector<executor::ScanFunction>* fns);

// A column of JOIN ... USING / NATURAL: its slots in the join's [left, right] row.
struct UsingColumn {
  std::string name;
  int left_slot = 0, right_slot = 0;
  types::Oid left_type = types::kInvalidOid, right_type = types::kInvalidOid;
  int32_t left_typmod = types::kNoTypmod, right_typmod = types::kNoTypmod;
};
// (join_using.cpp) Puts the merged USING columns in front of the join's row
// (a projection over *node) as an unnamed entry first in *entries, shifting
// the other entries; both input copies must already be hidden.
void MergeUsingColumns(executor::JoinKind kind, const std::vector<UsingColumn>& cols, ExecNodePtr* node,
                       std::vector<RangeEntry>* entries);
// (join_using.cpp) JOIN ... USING (cols) AS name: an entry `name` over the
// merged columns (the first entry), reachable only qualified (name.col,
// name.*); 42712 when name is already a table name of the join.
void AddUsingAlias(const parser::JoinRef& j, std::vector<RangeEntry>* entries);

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
// partition_prune.cpp: drops partitions `conds` (on the scan's row) exclude.
void PrunePartitions(executor::TableProvider& tables, executor::SeqScanNode* scan, const std::vector<PlanExpr>& conds);
ExecNodePtr PlanIndexScan(const executor::TableInfo& table, const std::string& alias, std::vector<PlanExpr>* conds,
                          const WantedOrder* order, bool emit_rid, bool* ordered, bool keep_conds = false);

// The ORDER BY of `s` as columns of its single FROM table `entry`, when it
// consists of plain column references only (and the statement is not
// grouped or DISTINCT). False otherwise.
bool WantedOrderOf(const parser::SelectStmt& s, const RangeEntry& entry, WantedOrder* out);

// A comparison operator's name as an index-scan operator (=, <, <=, >, >=;
// false for others), and the operator with its sides swapped (`5 < a` is
// `a > 5`): index paths and partition pruning (index_path.cpp).
bool OpFromName(const std::string& n, executor::IndexScanOp* op);
executor::IndexScanOp Commute(executor::IndexScanOp op);

// One plain SELECT level while PlanSimple's phases build it. Binding
// contexts point into it (scope), so it stays where it was created.
struct SelectParts {
  explicit SelectParts(const parser::SelectStmt& stmt) : s(stmt), where(stmt.where.get()) {}
  SelectParts(const SelectParts&) = delete;
  SelectParts& operator=(const SelectParts&) = delete;

  const parser::SelectStmt& s;
  const parser::Expr* where;  // s.where (UPDATE ... FROM / DELETE ... USING: theirs)
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
  std::shared_ptr<WindowParts> win;  // null without window functions
  std::vector<int> distinct_on;  // DISTINCT ON items as projection columns
  std::vector<std::vector<int>> grouping_sets;  // GROUPING SETS as indexes into group_keys
  bool uses_grouping_func = false;              // GROUPING(...) appears
  std::vector<executor::SrfSpec> srfs;  // SRF calls of the select list (ProjectSet)
};

}  // namespace hearth::planner
