// server/executor/table_access.h
//
// The table interface between the query engine and storage. The executor
// and planner only ever see tables through these classes: storage (heap
// tables, catalog) implements them; InMemoryCatalog (in_memory_catalog.h)
// implements them for tests. Keep this small: every method here is a
// promise the heap implementation must keep.
//
// Thread/process safety: a TableProvider and the scans/modifiers it opens
// belong to one backend and are used by one thread; implementations handle
// their own cross-backend concurrency (locks, MVCC) internally.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/error/db_error.h"
#include "utils/adt/type_oid.h"
#include "utils/adt/value.h"

namespace hearth::executor {

// One row of values, in column order. Callers reuse a Row across calls, so
// implementations should assign into existing elements (resize once) rather
// than rebuild the vector: fixed-width Values then never allocate.
using Row = std::vector<types::Value>;

// Opaque tuple identifier (heap: block << 16 | offset; in-memory: index).
// Only meaningful to the table that produced it, and only within the
// statement that fetched it.
using RowId = uint64_t;
inline constexpr RowId kInvalidRowId = ~RowId{0};

struct ColumnInfo {
  std::string name;
  types::Oid type = types::kInvalidOid;
  int32_t typmod = types::kNoTypmod;  // varchar(n) → n+4, numeric(p,s) → ((p<<16)|s)+4
  bool not_null = false;
  // DEFAULT clause as SQL expression text (e.g. "0", "now()", "'x'::text"),
  // parsed and bound by the planner; empty when there is none (→ NULL).
  std::string default_expr;
  bool has_default() const { return !default_expr.empty(); }
  // Identity column: 'a' GENERATED ALWAYS, 'd' BY DEFAULT, 0 for others.
  char identity = 0;
  // A system column (tableoid of the catalogs): read by name, never
  // expanded by '*'. Always after the ordinary columns.
  bool system_column = false;
  // The column's domain (pg_attribute.atttypid) when it has one; `type`
  // and `typmod` are then the domain's base type. Writes check it.
  types::Oid domain = types::kInvalidOid;
};

// A B-tree index on a table, as the planner sees it.
struct IndexInfo {
  types::Oid oid = types::kInvalidOid;
  std::string name;
  std::vector<int> columns;        // 0-based table column positions, key order
  std::vector<bool> descending;    // per key column
  std::vector<bool> nulls_first;   // per key column
  bool unique = false;
  bool primary = false;
};

// A CHECK constraint: its condition as SQL text over the table's columns
// (bound by the planner once per statement).
struct CheckConstraintInfo {
  std::string name;
  std::string expr;
};

// A FOREIGN KEY constraint (MATCH SIMPLE). Actions are PostgreSQL's
// confupdtype/confdeltype letters: 'a' NO ACTION, 'r' RESTRICT, 'c'
// CASCADE, 'n' SET NULL, 'd' SET DEFAULT.
struct ForeignKeyInfo {
  types::Oid oid = types::kInvalidOid;
  std::string name;
  types::Oid table = types::kInvalidOid;      // the referencing table
  std::string table_schema, table_name;
  std::vector<int> columns;                   // 0-based, referencing side
  types::Oid ref_table = types::kInvalidOid;  // the referenced table
  std::string ref_schema, ref_name;
  std::vector<int> ref_columns;               // 0-based, referenced side
  types::Oid ref_index = types::kInvalidOid;  // unique index on ref_columns
  char on_update = 'a';
  char on_delete = 'a';
};

struct TableInfo {
  types::Oid oid = types::kInvalidOid;
  std::string schema;  // "public" unless created elsewhere
  std::string name;
  std::vector<ColumnInfo> columns;  // attnum order (attnum = index + 1)
  std::vector<IndexInfo> indexes;   // empty when the provider has no indexes
  std::vector<CheckConstraintInfo> checks;      // name order (PostgreSQL's check order)
  std::vector<ForeignKeyInfo> foreign_keys;     // this table references others (oid order)
  std::vector<ForeignKeyInfo> referenced_by;    // others reference this table (oid order)
  // A view (relkind 'v'): its query (SQL text, planned in its place as a
  // subquery) and its owner (the role its tables are checked as). Empty for tables.
  std::string view_query;
  types::Oid view_owner = types::kInvalidOid;
  bool is_view() const { return !view_query.empty(); }
  // Table inheritance: the descendants (oids, PostgreSQL's Append order)
  // whose rows a scan, UPDATE or DELETE of this table also reaches. Filled
  // by the provider's Lookup; the planner clears it for ONLY t. Scans then
  // return rows of every member in this table's column layout with RowIds
  // tagged by member (see kInheritMemberShift).
  std::vector<types::Oid> inheritors;
  std::vector<std::string> inheritor_names;  // same order (EXPLAIN)
  // Declarative partitioning: PARTITION BY (no rows of its own; INSERT
  // and COPY route rows to its partitions).
  bool partitioned = false;
  void DropInheritors() {
    inheritors.clear();
    inheritor_names.clear();
  }
};

// A RowId of an inheritance scan: member index (0 = the named table, k =
// inheritors[k-1]) in the bits above kInheritMemberShift, the member's own
// RowId below (heap RowIds use 48 bits).
inline constexpr int kInheritMemberShift = 48;
inline constexpr RowId kInheritRowIdMask = (RowId{1} << kInheritMemberShift) - 1;

// Conditions of an index scan, all on the index's FIRST key column, ANDed.
// Values already have the column's type family (the planner only builds
// scans where they do). A NULL value makes the scan return nothing.
enum class IndexScanOp : uint8_t { kEq, kLt, kLe, kGt, kGe };
struct IndexBound {
  IndexScanOp op = IndexScanOp::kEq;
  types::Value value;
};
struct IndexScanRequest {
  std::vector<IndexBound> bounds;        // ANDed range/equality conditions
  // Non-empty: "first column IN (in_values)" (ANDed with bounds); rows come
  // in index order of the distinct values, each value once.
  std::vector<types::Value> in_values;
  bool has_in = false;                   // an IN list (possibly all NULL → no rows)
  bool backward = false;                 // reverse index order
};

// "column op value" among a scan's WHERE conjuncts (partition pruning).
struct ColumnCondition {
  int column = 0;  // 0-based
  IndexScanOp op = IndexScanOp::kEq;
  types::Value value;
};

// Outcome of Delete/Update. kOk: done. kConcurrentlyUpdated /
// kConcurrentlyDeleted: another (now committed) transaction changed the row
// after our snapshot saw it. Return these only under Read Committed: the
// executor then skips a deleted row, or calls FetchLatestVersion, re-checks
// the WHERE clause on the newest version and retries. Under Repeatable Read
// the implementation throws 40001 itself ("could not serialize access due
// to concurrent update"). The in-memory catalog never returns them.
// kSelfModified: the row was already changed by this same statement
// (PostgreSQL skips it silently). kNotFound: rid names no live row.
enum class ModifyResult : uint8_t {
  kOk,
  kConcurrentlyUpdated,
  kConcurrentlyDeleted,
  kSelfModified,
  kNotFound,
};

// A forward-only scan of the rows visible to the current statement.
class TableScan {
 public:
  virtual ~TableScan() = default;
  // Fills `row` (resized to the table's column count) with the next visible
  // row and `*rid` (if not null) with its id; false at the end. Rows
  // inserted by the current statement after the scan was opened are never
  // returned (no Halloween problem). May throw DbError (I/O, corruption).
  virtual bool Next(Row& row, RowId* rid) = 0;
};

// Writes into one table for the current statement/transaction. Values
// passed in already have the column types and typmods (the executor
// coerces and checks NOT NULL before calling).
class TableModifier {
 public:
  virtual ~TableModifier() = default;
  // Inserts a row; returns its id. May throw DbError (e.g. 23505 later).
  virtual RowId Insert(const Row& row) = 0;
  // Deletes the row `rid`.
  virtual ModifyResult Delete(RowId rid) = 0;
  // Replaces row `rid` by `row`; on kOk `*new_rid` (if not null) receives
  // the new version's id (may equal rid). `key_update`: some unique-index
  // column changes (the row lock strength taken: FOR UPDATE, else FOR NO
  // KEY UPDATE, which FOR KEY SHARE holders do not block).
  virtual ModifyResult Update(RowId rid, const Row& row, RowId* new_rid, bool key_update) = 0;
  // Read Committed re-check: after Update/Delete of `rid` returned
  // kConcurrentlyUpdated, follows the update chain to the newest committed
  // version (waiting for an in-progress updater), stores it in *row and its
  // id in *latest, and returns true; false if that version is deleted.
  virtual bool FetchLatestVersion(RowId rid, Row* row, RowId* latest) = 0;

  // ---- INSERT ... ON CONFLICT (speculative insertion) ----
  // `arbiters`: oids of unique indexes of the table (TableInfo::indexes).
  // The defaults throw 0A000: providers without indexes never get here.
  //
  // Looks for a row whose key in some arbiter equals `row`'s (keys with a
  // NULL never conflict), waiting for running inserters and deleters of an
  // equal key. True with *conflict = the id of the live version.
  virtual bool FindConflict(const Row& row, const std::vector<types::Oid>& arbiters, RowId* conflict);
  // Inserts `row` unless an equal arbiter key appeared since FindConflict
  // said there was none; then the new version is taken back at once (dead
  // to everyone), the inserter of that key is waited for if still running,
  // and false is returned: call FindConflict again. Other unique indexes
  // fail with 23505 as for Insert.
  virtual bool InsertSpeculative(const Row& row, const std::vector<types::Oid>& arbiters, RowId* rid);
  // DO NOTHING: under Repeatable Read a conflicting row the transaction's
  // snapshot cannot see (and this transaction did not insert) → 40001.
  virtual void CheckConflictVisible(RowId rid);
  // DO UPDATE: locks the conflicting version FOR UPDATE (waiting) and reads
  // it into *row. See ConflictLock; Repeatable Read conflicts throw 40001.
  enum class ConflictLock : uint8_t {
    kLocked,        // locked and read: update it (or leave it, WHERE false)
    kRetry,         // Read Committed: changed or deleted meanwhile: FindConflict again
    kSelfModified,  // inserted or changed by this very command (21000)
  };
  virtual ConflictLock LockConflicting(RowId rid, Row* row);
};

// SELECT ... FOR <strength> [NOWAIT | SKIP LOCKED]: PostgreSQL's four row
// lock strengths, weakest first, and what to do when a row is locked.
enum class RowLockStrength : uint8_t { kKeyShare, kShare, kNoKeyUpdate, kUpdate };
enum class RowLockPolicy : uint8_t { kBlock, kSkipLocked, kNoWait };  // stricter later (PostgreSQL's merge order)

// Outcome of TableRowLocker::Lock. kLocked: the row as scanned is locked.
// kUpdated (Read Committed): the row had been replaced by a committed
// transaction; its newest version is now locked and returned (the executor
// re-checks the WHERE clause on it). kSkipped: SKIP LOCKED met a lock.
// kGone: deleted meanwhile (or changed by this very statement): skip it.
// Repeatable Read conflicts throw 40001, NOWAIT throws 55P03.
enum class LockRowResult : uint8_t { kLocked, kUpdated, kSkipped, kGone };

// Row locks on one table for the current transaction.
class TableRowLocker {
 public:
  virtual ~TableRowLocker() = default;
  // Locks row `rid`; on kUpdated fills *row and *latest with the version locked.
  virtual LockRowResult Lock(RowId rid, Row* row, RowId* latest) = 0;
};

// Loads many rows into one table for one statement (COPY FROM, INSERT ...
// SELECT). Rows may be queued and written a page at a time (one WAL record
// per page, index entries of a batch in key order), so an error about a
// queued row (e.g. 23505) may surface from a later Insert or from Finish:
// failing_tag() then names that row by the tag it was queued with (COPY
// passes its input line number for the CONTEXT line). Values as for
// TableModifier::Insert. Nothing is written after an error; the statement
// must fail (its transaction aborts). Call Finish() once at the end: the
// destructor only releases resources.
class TableBulkInserter {
 public:
  virtual ~TableBulkInserter() = default;
  virtual void Insert(const Row& row, uint64_t tag) = 0;
  virtual void Finish() = 0;
  // The tag of the row whose write failed (valid after Insert/Finish threw).
  virtual uint64_t failing_tag() const = 0;
};

// TableBulkInserter over a provider's TableModifier, one row at a time:
// the default for providers without a bulk path.
class RowByRowInserter final : public TableBulkInserter {
 public:
  explicit RowByRowInserter(std::unique_ptr<TableModifier> mod) : mod_(std::move(mod)) {}
  void Insert(const Row& row, uint64_t tag) override {
    tag_ = tag;
    mod_->Insert(row);
  }
  void Finish() override {}
  uint64_t failing_tag() const override { return tag_; }

 private:
  std::unique_ptr<TableModifier> mod_;
  uint64_t tag_ = 0;
};

// The catalog as the planner and executor see it.
class TableProvider {
 public:
  virtual ~TableProvider() = default;
  // Finds a table. `schema` empty means "search path" (public). nullopt if
  // there is no such table (the planner raises 42P01).
  virtual std::optional<TableInfo> Lookup(const std::string& schema, const std::string& name) = 0;
  // Opens a scan of `table` for the current snapshot. `bulk`: the caller
  // will read the whole table (storage may use a ring buffer strategy).
  virtual std::unique_ptr<TableScan> OpenScan(const TableInfo& table, bool bulk) = 0;
  // Opens a modifier for INSERT/UPDATE/DELETE on `table`.
  virtual std::unique_ptr<TableModifier> OpenModifier(const TableInfo& table) = 0;
  // Opens a row locker for SELECT ... FOR <strength> on `table`.
  virtual std::unique_ptr<TableRowLocker> OpenRowLocker(const TableInfo& table, RowLockStrength strength,
                                                        RowLockPolicy policy) = 0;
  // Opens a scan of `table` through `index` (one of table.indexes): yields
  // the rows visible to the statement's snapshot whose first key column
  // satisfies `req`, in index order (or reverse). RowIds as OpenScan. The
  // default throws: providers without indexes never list any in TableInfo,
  // so the planner never asks them.
  virtual std::unique_ptr<TableScan> OpenIndexScan(const TableInfo& table, const IndexInfo& index,
                                                   const IndexScanRequest& req);
  // Opens a bulk load of `table` (COPY FROM, INSERT ... SELECT). The
  // default inserts row by row through OpenModifier.
  virtual std::unique_ptr<TableBulkInserter> OpenBulkInserter(const TableInfo& table) {
    return std::make_unique<RowByRowInserter>(OpenModifier(table));
  }
  // COPY FREEZE: a bulk load whose rows are written already frozen.
  // Throws 55000 unless the current transaction created or truncated the
  // table (the default: providers that cannot tell refuse).
  virtual std::unique_ptr<TableBulkInserter> OpenFrozenBulkInserter(const TableInfo& table);
  // Foreign key checks: like OpenIndexScan (`index` set) or OpenScan, but
  // under a fresh snapshot that also sees this transaction's rows up to and
  // including the current command, as PostgreSQL's referential-integrity
  // queries (a row another transaction committed after the statement began
  // counts). The snapshot is the one TakeLatestSnapshot took in this
  // command (taken on first use otherwise). The default uses the
  // statement's scans.
  virtual std::unique_ptr<TableScan> OpenLatestScan(const TableInfo& table, const IndexInfo* index,
                                                    const IndexScanRequest& req) {
    return index != nullptr ? OpenIndexScan(table, *index, req) : OpenScan(table, false);
  }
  virtual void TakeLatestSnapshot() {}
  // Foreign key checks: FOR KEY SHARE locks that, like OpenLatestScan,
  // count the current command's own rows (a row it inserted can be locked).
  virtual std::unique_ptr<TableRowLocker> OpenLatestRowLocker(const TableInfo& table) {
    return OpenRowLocker(table, RowLockStrength::kKeyShare, RowLockPolicy::kBlock);
  }
  // The table with oid `oid` (nullopt if gone). Default: none.
  virtual std::optional<TableInfo> LookupByOid(types::Oid) { return std::nullopt; }
  // Partition pruning at plan time: removes from table->inheritors the
  // partitions no row satisfying every condition can be in. Default: none.
  virtual void PruneInheritors(TableInfo* /*table*/, const std::vector<ColumnCondition>& /*conds*/) {}
};

// PostgreSQL 15's message (it says subtransaction; see copy_plan.cpp).
[[noreturn]] inline void ThrowCopyFreezeNotAllowed() {
  throw DbError("55000",
                "cannot perform COPY FREEZE because the table was not created or truncated in the current subtransaction");
}

inline std::unique_ptr<TableBulkInserter> TableProvider::OpenFrozenBulkInserter(const TableInfo&) {
  ThrowCopyFreezeNotAllowed();
}

[[noreturn]] inline void ThrowNoSpeculativeInsertion() {
  throw DbError("0A000", "ON CONFLICT is not supported by this table provider");
}
inline bool TableModifier::FindConflict(const Row&, const std::vector<types::Oid>&, RowId*) {
  ThrowNoSpeculativeInsertion();
}
inline bool TableModifier::InsertSpeculative(const Row&, const std::vector<types::Oid>&, RowId*) {
  ThrowNoSpeculativeInsertion();
}
inline void TableModifier::CheckConflictVisible(RowId) { ThrowNoSpeculativeInsertion(); }
inline TableModifier::ConflictLock TableModifier::LockConflicting(RowId, Row*) { ThrowNoSpeculativeInsertion(); }

inline std::unique_ptr<TableScan> TableProvider::OpenIndexScan(const TableInfo&, const IndexInfo&,
                                                               const IndexScanRequest&) {
  throw std::logic_error("this table provider has no indexes");
}

}  // namespace hearth::executor
