// catalog/alter_table.h
//
// The catalog side of ALTER TABLE's column and rename actions (the data
// side of the actions that rewrite the table — ADD COLUMN with a default or
// NOT NULL, DROP COLUMN, ALTER COLUMN TYPE — is tcop/alter_table_plan.cpp
// with catalog/table_rewrite.h).
//
// Like ddl.h: every change is transactional catalog rows (WAL-logged as any
// heap row, gone on ROLLBACK), ends with CommandCounterIncrement and marks
// the relation changed (relcache entries and prepared plans are rebuilt).
// The caller opens the table with OpenTableForAlter, which takes
// AccessExclusiveLock (held to transaction end): readers and writers of the
// table wait for the ALTER's transaction, as in PostgreSQL.
//
// Design: rows are stored with exactly the table's columns, in attnum
// order. A column added without a rewrite reads as NULL in older, shorter
// tuples. DROP COLUMN rewrites the table without the column and renumbers
// the later columns (attnum - 1) in hearth_attribute, the index keys and
// the owned sequences, so attnum always equals position + 1.
//
// Process safety: per-backend; REQUIRES a transaction in progress.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog_rows.h"
#include "catalog/ddl.h"
#include "catalog/relcache.h"
#include "parser/ast.h"

namespace hearth::catalog {

// ALTER TABLE [IF EXISTS] t: the table, locked AccessExclusive. nullptr
// with a notice in *result when IF EXISTS skips (`relation "t" does not
// exist, skipping`). Errors: 42P01 `relation "t" does not exist`, 3F000,
// 42501 system catalogs / not the owner, 42809 for a sequence when
// `tables_only`.
RelationRef OpenTableForAlter(const parser::RangeVar& rv, bool if_exists, bool tables_only, DdlResult* result);

// 0-based position of column `name` of `e`; 42703 `column "x" of relation
// "t" does not exist` when missing.
int AlterColumnPosition(const RelationEntry& e, const std::string& name);

// ALTER COLUMN c SET DEFAULT (text as stored) / DROP DEFAULT (empty text).
void AlterColumnDefault(const RelationEntry& e, const std::string& column, const std::string& default_text);
// ALTER COLUMN c SET NOT NULL: 23502 `column "c" of relation "t" contains
// null values` when a row (committed or this transaction's) has NULL.
void AlterColumnSetNotNull(const RelationEntry& e, const std::string& column);
// ALTER COLUMN c DROP NOT NULL: 42P16 for a primary-key or identity column.
void AlterColumnDropNotNull(const RelationEntry& e, const std::string& column);
// RENAME [COLUMN] a TO b: 42703, 42701 `column "b" of relation "t" already exists`.
void RenameColumn(const RelationEntry& e, const std::string& column, const std::string& new_name);

// ALTER {TABLE|INDEX|SEQUENCE} [IF EXISTS] name RENAME TO new_name. An
// index is renamed in hearth_index, a table or sequence in hearth_class;
// renaming a sequence also rewrites the nextval('old'::regclass) defaults
// of the columns that own it. Errors: 42P01 / 42704 (index), 42P07
// `relation "n" already exists`, 42809 when the kind does not match the
// command (ALTER TABLE accepts every kind, as PostgreSQL).
DdlResult RenameRelation(parser::ObjectType kind, const parser::RangeVar& rv, bool if_exists,
                         const std::string& new_name);

// ADD COLUMN that needs no rewrite (no default, nullable): one attribute
// row at attnum natts + 1. `attr.attrelid` / `attnum` are set here.
void AddColumnWithoutRewrite(const RelationEntry& e, internal::AttributeFields attr);

// The validated attribute of ADD COLUMN `def` for table `e` (name, type,
// typmod, NOT NULL, deparsed DEFAULT via ctx.deparse). Errors as CREATE
// TABLE's column checks (42704, 42P16, 42601, 0A000 for constraints other
// than NULL/NOT NULL/DEFAULT; 54011 past 1600 columns).
internal::AttributeFields ValidateNewColumn(const RelationEntry& e, const parser::ColumnDef& def,
                                            const DdlContext& ctx);
// ALTER COLUMN c TYPE t: the type and typmod of `tn` (42704, 42P16 as CREATE TABLE).
void ResolveAlterColumnType(const parser::TypeName& tn, const std::string& column, std::string_view query_text,
                            Oid* type, int32_t* typmod);
// Whether `e` already has a column named `name`.
bool HasColumn(const RelationEntry& e, const std::string& name);

// One column of a rewritten table: its new attribute row and where its
// values come from (the old 0-based position, or -1 for a new column).
struct RewrittenColumn {
  internal::AttributeFields attr;
  int old_position = -1;
  std::optional<std::string> acl;  // attacl kept from the old column
};

// After the rows were copied into `new_relfilenode` (made with
// NewRewriteFile): replaces the attribute rows with `columns`, points the
// table at the new file (the old one is unlinked at commit), drops the
// indexes that used a column no longer there, renumbers the other index
// keys and owned sequences, rebuilds every remaining index from the new
// file, and drops sequences owned by dropped columns.
void FinishTableRewrite(const RelationEntry& old_entry, const std::vector<RewrittenColumn>& columns,
                        Oid new_relfilenode);
// A new relation file for a rewrite (WAL-logged, unlinked at abort).
Oid NewRewriteFile();

}  // namespace hearth::catalog
