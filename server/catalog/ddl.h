// catalog/ddl.h
//
// Transactional DDL on heap tables: CREATE TABLE, DROP TABLE, TRUNCATE.
// Each writes catalog rows with the current transaction's xid and command
// id, ends with CommandCounterIncrement (so the transaction's next commands
// see the change) and marks the catalog changed (relcache invalidation at
// commit, see pending_delete.h). Files: CREATE makes the relation file at
// once and schedules it for unlink at ABORT; DROP schedules unlink at
// COMMIT (kept on rollback); TRUNCATE makes a new file (unlinked at abort)
// and schedules the old one for unlink at commit.
//
// Locks (held to transaction end): DROP and TRUNCATE take AccessExclusiveLock
// on each relation (waiting for readers/writers to finish); CREATE takes an
// ExclusiveLock on the object (hearth_class, hash of schema + name), so two
// sessions creating the same name serialise and the second gets 42P07.
//
// Errors are DbError with PostgreSQL's SQLSTATEs and messages; the caller
// aborts the transaction on any throw (the partial catalog changes then
// vanish with it). Notices (IF [NOT] EXISTS) are returned, not sent.
//
// Process safety: per-backend; REQUIRES a transaction in progress and a
// claimed proc slot.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/catalog_defs.h"
#include "catalog/relcache.h"
#include "parser/ast.h"

namespace hearth::catalog {

struct DdlNotice {
  DdlNotice(std::string state, std::string text, std::string hint_text = {}, std::string detail_text = {})
      : sqlstate(std::move(state)), message(std::move(text)), hint(std::move(hint_text)), detail(std::move(detail_text)) {}
  std::string sqlstate;  // "42P07", "00000", ...
  std::string message;   // e.g. relation "t" already exists, skipping
  std::string hint;      // empty: none
  std::string detail;    // empty: none
};

struct DdlContext {
  // The whole query string the statement was parsed from (node locations
  // index into it); used for error positions. May be empty.
  std::string_view query_text;
  // Turns a DEFAULT expression into the SQL text stored in attdefault (the
  // lead passes planner::Deparse). When unset only literal constants are
  // accepted (anything else: 0A000).
  std::function<std::string(const parser::Expr&)> deparse;
  // CHECK conditions: validates `e` over `table`'s columns (42703 unknown
  // column, 42804 not boolean, ...) and returns the SQL text stored in
  // hearth_constraint.conbin; `*columns` receives the distinct 0-based
  // columns it reads. tcop passes the executor's binder and
  // planner::Deparse. Unset: CHECK constraints are refused (0A000).
  std::function<std::string(const parser::Expr&, const executor::TableInfo&, std::vector<int>*)> check_expr;
  // Partition bounds: the value of a constant expression as `type`
  // (assignment cast; PostgreSQL's errors). Unset: partitions refused (0A000).
  std::function<types::Value(const parser::Expr&, Oid type, int32_t typmod)> eval_const;
};

struct DdlResult {
  std::vector<DdlNotice> notices;
  // CreateTable: the new table's oid (0 when skipped by IF NOT EXISTS).
  Oid oid = 0;
  // Number of relations created / dropped / truncated.
  int count = 0;
};

// CREATE TABLE. Errors: 42P07 relation "t" already exists (IF NOT EXISTS →
// notice 42P07 `relation "t" already exists, skipping`), 42704 type "x" does
// not exist, 42701 column "a" specified more than once, 42601 conflicting
// NULL/NOT NULL / multiple default values, 42P16 multiple primary keys, 42703
// column "x" named in key does not exist, 42P16 pseudo-type columns, 22023 bad
// fillfactor / unknown WITH parameter, 3F000 unknown schema, 42501 pg_catalog,
// 0A000 TEMP tables, CHECK, FOREIGN KEY, array types, 54011 > 1600 columns.
// PRIMARY KEY / UNIQUE are accepted but not enforced yet (the index issue
// does that); PRIMARY KEY columns become NOT NULL. UNLOGGED is accepted and
// ignored. WITH (fillfactor=N) is stored in hearth_class and used by inserts.
DdlResult CreateTable(const parser::CreateTableStmt& stmt, const DdlContext& ctx = {});

// DROP TABLE a, b, ... Errors: 42P01 table "x" does not exist (IF EXISTS →
// notice 00000 `table "x" does not exist, skipping`), 3F000 unknown schema,
// 42501 system catalogs. CASCADE/RESTRICT: nothing depends on tables yet.
DdlResult DropTables(const std::vector<parser::RangeVar>& names, bool if_exists);

// TRUNCATE a, b, ... Errors: 42P01 relation "x" does not exist, 42501 system catalogs.
DdlResult TruncateTables(const std::vector<parser::RangeVar>& names);

// VACUUM / ANALYZE: records a relation's page and live-tuple counts in
// hearth_class (relpages, reltuples) as a transactional update of its row.
// Does not invalidate relcaches (the entries do not carry the counts).
// REQUIRES: the caller holds a lock on the relation that conflicts with DDL
// (ShareUpdateExclusiveLock for VACUUM/ANALYZE). Throws 42P01 when it is gone.
void UpdateRelationStats(Oid relid, int32_t relpages, double reltuples);

struct RelationStats {
  int32_t relpages = 0;
  double reltuples = -1;  // -1: never counted
};
// The stored counts (catalog snapshot). Throws 42P01 when there is no such relation.
RelationStats GetRelationStats(Oid relid);

// Every user table (namespace public), sorted by name, through the relcache
// (no locks taken): VACUUM without a table list, catalog listings.
std::vector<RelationRef> ListUserTables();

// What VACUUM / ANALYZE without a table list process: the system catalogs
// (so their dead row versions and catalog index entries go too), then every
// user table as ListUserTables.
std::vector<RelationRef> ListMaintainedRelations();

}  // namespace hearth::catalog
