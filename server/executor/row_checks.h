// server/executor/row_checks.h
//
// Checks every path that writes table rows applies (INSERT/UPDATE through
// ModifyTableNode, COPY FROM through tcop), so they fail with one message.
#pragma once

#include "executor/table_access.h"

namespace hearth::executor {

// Throws DbError 23502 `null value in column "c" of relation "t" violates
// not-null constraint` with detail `Failing row contains (...).` when a NOT
// NULL column of `table` is NULL in `row` (a full table row).
void CheckNotNull(const TableInfo& table, const Row& row);

// `Failing row contains (1, null, x).`: the table's columns of `row`.
std::string FailingRowDetail(const TableInfo& table, const Row& row);

}  // namespace hearth::executor
