// catalog/partition_ddl.h
//
// DDL of declarative partitioning: PARTITION BY's key and PARTITION OF's
// bound in CREATE TABLE, ALTER TABLE ... ATTACH / DETACH PARTITION, with
// PostgreSQL's checks (42P16 bound forms, 42P17 overlaps and empty ranges,
// 23514 rows outside an attached partition's bound). A partition is an
// inheritance child (relinherits = the parent) with relpartbound set; a
// partitioned table keeps an (always empty) file: INSERT and COPY route
// its rows to the partitions.
//
// Locks: the parent is opened with AccessExclusiveLock by CREATE TABLE ...
// PARTITION OF, ATTACH and DETACH, so overlap checks see every partition.
#pragma once

#include <string>
#include <vector>

#include "catalog/catalog_rows.h"
#include "catalog/ddl.h"
#include "catalog/relcache.h"
#include "parser/ast.h"

namespace hearth::catalog {

// PARTITION BY: the relpartkey text for a table with columns `attrs`
// ("" without PARTITION BY). 42703 unknown column, 42P16 LIST with more
// than one column, 0A000 expressions / HASH.
std::string PartitionKeyForCreate(const parser::CreateTableStmt& stmt,
                                  const std::vector<internal::AttributeFields>& attrs, const DdlContext& ctx);

// PARTITION OF: the relpartbound text of the new partition `relname`
// ("" otherwise), checked against the parent's partitions.
std::string PartitionBoundForCreate(const parser::CreateTableStmt& stmt, const std::string& relname,
                                    const DdlContext& ctx);

// ALTER TABLE parent ATTACH PARTITION part FOR VALUES ... (`parent` opened
// for ALTER). Existing rows of `part` must fit the bound (23514).
void AttachPartition(const RelationEntry& parent, const parser::RangeVar& part, const parser::PartitionBoundSpec& spec,
                     const DdlContext& ctx);
// ALTER TABLE parent DETACH PARTITION part.
void DetachPartition(const RelationEntry& parent, const parser::RangeVar& part);

}  // namespace hearth::catalog
