// catalog/inherit_access.h
//
// Reading and changing an inheritance tree as one table: a TableInfo with
// `inheritors` (planner: no ONLY) is served by these wrappers, which open
// the member tables through the same provider (each with its own locks and
// snapshot) and translate rows between a member's column layout and the
// named table's (columns matched by name, as PostgreSQL's inherited
// columns). RowIds carry the member index above kInheritMemberShift.
// INSERT and COPY FROM write the named table itself (PostgreSQL's rule).
//
// Process safety: per-backend, single-threaded, one statement.
#pragma once

#include <memory>

#include "executor/table_access.h"

namespace hearth::catalog {

std::unique_ptr<executor::TableScan> OpenInheritanceScan(executor::TableProvider& tables,
                                                         const executor::TableInfo& table, bool bulk);
std::unique_ptr<executor::TableModifier> OpenInheritanceModifier(executor::TableProvider& tables,
                                                                 const executor::TableInfo& table);
std::unique_ptr<executor::TableRowLocker> OpenInheritanceRowLocker(executor::TableProvider& tables,
                                                                   const executor::TableInfo& table,
                                                                   executor::RowLockStrength strength,
                                                                   executor::RowLockPolicy policy);

}  // namespace hearth::catalog
