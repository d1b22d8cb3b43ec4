// catalog/index_ddl.h
//
// Index DDL: CREATE [UNIQUE] INDEX, PRIMARY KEY / UNIQUE constraints (in
// CREATE TABLE and ALTER TABLE ADD), DROP INDEX, and the index side of DROP
// TABLE and TRUNCATE. Indexes live in hearth_index only (not hearth_class);
// their names share the namespace of tables (42P07 on a clash).
//
// Like ddl.h: transactional catalog rows, CommandCounterIncrement at the
// end, relcache invalidation, files created at once (unlinked at abort) and
// dropped files unlinked at commit. Locks (to transaction end): CREATE INDEX
// ShareLock on the table (writers wait, readers do not); ALTER TABLE,
// DROP INDEX, DROP TABLE, TRUNCATE AccessExclusiveLock.
//
// The build reads the heap with a fresh snapshot (rows committed or written
// by this transaction) and sorts in memory (BtBuilder).
//
// Process safety: per-backend; REQUIRES a transaction in progress.
#pragma once

#include <string>
#include <vector>

#include "catalog/ddl.h"
#include "parser/ast.h"

namespace hearth::catalog {

// CREATE [UNIQUE] INDEX [IF NOT EXISTS] [name] ON t (col [ASC|DESC] [NULLS
// FIRST|LAST], ...). Default name `<table>_<col>[_<col>]_idx` (a number is
// appended while taken). Errors: 42P01 table, 42703 `column "x" does not
// exist`, 42P07 `relation "x" already exists` (IF NOT EXISTS → notice
// `relation "x" already exists, skipping`), 23505 `could not create unique
// index "x"` detail `Key (a)=(1) is duplicated.`, 0A000 expressions /
// USING other than btree / WHERE / INCLUDE / CONCURRENTLY.
DdlResult CreateIndex(const parser::CreateIndexStmt& stmt, const DdlContext& ctx = {});

// ALTER TABLE t ADD [CONSTRAINT name] PRIMARY KEY (cols) | UNIQUE (cols).
// PRIMARY KEY: name `<table>_pkey`; 42P16 `multiple primary keys for table
// "t" are not allowed`; columns become NOT NULL (23502 `column "a" of
// relation "t" contains null values` if one has NULLs). UNIQUE: `<table>_<cols>_key`.
// Other constraint kinds: 0A000.
DdlResult AlterTableAddConstraint(const parser::RangeVar& table, const parser::Constraint& c);
// Shorthand for ADD PRIMARY KEY (cols).
DdlResult AlterTableAddPrimaryKey(const parser::RangeVar& table, const std::vector<std::string>& cols);

// The indexes for the PRIMARY KEY / UNIQUE constraints of `stmt` (column or
// table level) on the table `table_oid` just created by CreateTable(stmt).
DdlResult CreateConstraintIndexes(Oid table_oid, const parser::CreateTableStmt& stmt);
// CreateTable + CreateConstraintIndexes (notices of both).
DdlResult CreateTableWithConstraints(const parser::CreateTableStmt& stmt, const DdlContext& ctx = {});

// DROP INDEX [IF EXISTS] a, b. Errors: 42704 `index "x" does not exist`
// (IF EXISTS → notice 00000 `index "x" does not exist, skipping`), 2BP01
// for an index backing a PRIMARY KEY.
DdlResult DropIndexes(const std::vector<parser::RangeVar>& names, bool if_exists);

// DROP TABLE with the tables' indexes (rows deleted, files unlinked at commit).
// Same errors and notices as DropTables.
// `cascade`: DROP ... CASCADE drops other tables' foreign keys referencing them.
DdlResult DropTablesWithIndexes(const std::vector<parser::RangeVar>& names, bool if_exists, bool cascade = false);

// TRUNCATE with the tables' indexes (each gets a new empty file).
DdlResult TruncateTablesWithIndexes(const std::vector<parser::RangeVar>& names);

// Builds every index of table `table_oid` anew into a new file from the
// table's current file and columns (ALTER TABLE's rewrites); the old files
// are unlinked at commit.
void RebuildIndexes(Oid table_oid);

}  // namespace hearth::catalog
