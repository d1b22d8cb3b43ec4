// server/planner/planner_internal.h
//
// Shared pieces of the planner: name-resolution scopes, per-statement
// planner state (parameter types, init plans, synthetic parse nodes), and
// QueryPlanner, which plans one SELECT level. Internal to server/planner.
// One PlannerState per PlanStatement call; single-threaded.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "executor/exec_node.h"
#include "executor/expr/bind_context.h"
#include "executor/nodes/lock_rows_node.h"
#include "executor/planned_statement.h"
#include "executor/table_access.h"
#include "parser/ast.h"
#include "planner/column_use.h"
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
  std::vector<ColumnOrigin> origin;  // per column, for column privileges (may be shorter)
  int width() const { return static_cast<int>(names.size()); }
};

inline ColumnOrigin OriginAt(const RangeEntry& e, int i) {
  return static_cast<size_t>(i) < e.origin.size() ? e.origin[static_cast<size_t>(i)] : ColumnOrigin{};
}

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
  PlannedQuery PlanSimple(const parser::SelectStmt& s);
  PlannedQuery PlanValues(const parser::SelectStmt& s);
  PlannedQuery PlanSetOp(const parser::SelectStmt& s);
  void ApplyOutputOrder(PlannedQuery& q, const parser::SelectStmt& s);
  void ApplyLimit(PlannedQuery& q, const parser::SelectStmt& s);

  struct FromResult {
    ExecNodePtr node;
    std::vector<RangeEntry> entries;  // offsets relative to node's row
  };
  FromResult PlanFromItem(const parser::FromItem& item);
  FromResult PlanJoin(const parser::JoinRef& j);

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

}  // namespace hearth::planner
