// catalog/constraint_ddl.h
//
// CHECK and FOREIGN KEY constraints in the catalog (hearth_constraint, see
// constraint_catalog.h): created by CREATE TABLE and ALTER TABLE ... ADD,
// removed by ALTER TABLE ... DROP CONSTRAINT and with their tables. The
// rows are enforced by the executor (check_constraints.h, foreign_keys.h);
// ALTER TABLE's check of existing rows runs there too (tcop calls it after
// AlterTableAddCheckOrForeignKey).
//
// Names as PostgreSQL chooses them: `t_a_check` for a condition on one
// column a, else `t_check`; `t_a_b_fkey`; a number appended until the name
// is free among the namespace's constraints (`t_check1`, ...). Errors:
// 42710 constraint "c" for relation "t" already exists, 42P01, 42703
// (column "x" referenced in foreign key constraint does not exist), 42830
// (no primary key / no unique constraint matching given keys / number of
// columns disagree), 42804 (incompatible key types), 0A000 DEFERRABLE.
//
// Locks: ADD CHECK / DROP CONSTRAINT take AccessExclusiveLock on the table;
// a foreign key also takes ShareRowExclusiveLock on the referenced table
// (writers of it wait; readers and row lockers do not).
//
// Process safety: per-backend; REQUIRES a transaction in progress.
#pragma once

#include <string>
#include <vector>

#include "catalog/ddl.h"

namespace hearth::catalog {

// CHECK and FOREIGN KEY constraints of a new table (after CreateTable and
// its PRIMARY KEY / UNIQUE indexes, so a foreign key may reference them).
DdlResult CreateTableCheckAndForeignKeys(Oid table_oid, const parser::CreateTableStmt& stmt, const DdlContext& ctx);

// ALTER TABLE t ADD [CONSTRAINT n] CHECK (...) | FOREIGN KEY ...: writes the
// row. The caller checks the existing rows when `validate` (no NOT VALID).
struct AddedConstraint {
  Oid table = 0;
  std::string name;
  char type = 'c';
  bool validate = true;
};
AddedConstraint AlterTableAddCheckOrForeignKey(const parser::RangeVar& table, const parser::Constraint& c,
                                              const DdlContext& ctx);

// ALTER TABLE t DROP CONSTRAINT [IF EXISTS] n [CASCADE]: CHECK and FOREIGN
// KEY constraints (42704 `constraint "n" of relation "t" does not exist`;
// IF EXISTS: a notice).
DdlResult AlterTableDropConstraint(const parser::RangeVar& table, const std::string& name, bool if_exists);

// DROP TABLE, before the tables' rows go: 2BP01 when a table outside `oids`
// references one of them (CASCADE: that constraint is dropped, with a
// notice); then deletes the constraint rows of `oids`.
void DropConstraintsWithTables(const std::vector<Oid>& oids, bool cascade, DdlResult* result);

// TRUNCATE: 0A000 `cannot truncate a table referenced in a foreign key
// constraint` unless every referencing table is truncated with it.
void CheckTruncateReferences(const std::vector<parser::RangeVar>& names);

}  // namespace hearth::catalog
