// catalog/inherit_ddl.h
//
// DDL of table inheritance: CREATE TABLE ... INHERITS (column merging with
// PostgreSQL's notices and errors), ALTER TABLE ... [NO] INHERIT, and what
// DROP TABLE does about children (2BP01 unless CASCADE). The catalog side
// is inherit_catalog.h.
//
// Locks: parents are opened with ShareUpdateExclusiveLock (CREATE TABLE
// INHERITS, ALTER ... INHERIT), so two children can be added at once while
// DROP/ALTER of the parent waits.
#pragma once

#include <string>
#include <vector>

#include "catalog/catalog_rows.h"
#include "catalog/ddl.h"
#include "catalog/relcache.h"
#include "catalog/sequence_ddl.h"
#include "parser/ast.h"

namespace hearth::catalog {

// CREATE TABLE: puts the parents' columns first (merged by name across
// parents) and merges the local columns into them, renumbering `attrs` and
// the sequences' attnums; returns the parents' oids (empty without
// INHERITS). Adds PostgreSQL's NOTICEs ("merging column ... with inherited
// definition") to `notices`.
std::vector<Oid> MergeInheritedColumns(const parser::CreateTableStmt& stmt,
                                       std::vector<internal::AttributeFields>* attrs,
                                       std::vector<ColumnSequencePlan>* sequences, std::vector<DdlNotice>* notices);

// ALTER TABLE child [NO] INHERIT parent (the child already opened for ALTER).
void AlterTableInherit(const RelationEntry& child, const parser::RangeVar& parent, bool inherit);

// DROP TABLE: the children (all levels) of the named tables that are not
// named themselves. Without `cascade` any such child is 2BP01; with it they
// are returned (to be dropped too) and the notices say so.
std::vector<parser::RangeVar> InheritedDropVictims(const std::vector<parser::RangeVar>& names, bool cascade,
                                                   std::vector<DdlNotice>* notices);

// TRUNCATE: the descendants of the named tables without ONLY (each once,
// none already named).
std::vector<parser::RangeVar> InheritedTruncateTargets(const std::vector<parser::RangeVar>& names);

}  // namespace hearth::catalog
