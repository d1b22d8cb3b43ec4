// catalog/view_ddl.h
//
// Views (relkind 'v'): CREATE [OR REPLACE] VIEW, DROP VIEW, ALTER VIEW
// RENAME, and the dependencies of views on the relations their queries
// name. A view is a hearth_class row without a file (relfilenode 0) whose
// relviewdef holds the query's SQL text (planned in its place at each use,
// planner/view_ref.cpp) and relviewdeps the oids of the relations that text
// names directly (tables, views, sequences), recorded at CREATE; its
// columns are hearth_attribute rows with the query's output types. DROP of
// a relation a view depends on fails with 2BP01 unless CASCADE, which drops
// the dependent views (transitively) first.
//
// Same contracts as ddl.h: REQUIRES a transaction; errors are DbError with
// PostgreSQL's SQLSTATEs and messages; notices are returned.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "catalog/ddl.h"
#include "catalog/relcache.h"
#include "parser/ast.h"

namespace hearth::catalog {

struct ViewColumnSpec {
  std::string name;
  Oid type = 0;
  int32_t typmod = -1;
};

struct ViewDefinition {
  parser::RangeVar name;
  bool or_replace = false;
  bool temp = false;
  std::string query;                // the SELECT's text
  std::vector<ViewColumnSpec> columns;  // the query's output columns, renamed by the column list
  std::vector<Oid> depends_on;      // relations the query names directly
};

// CREATE [OR REPLACE] [TEMP] VIEW. Errors: 42P07 relation exists, 42701
// duplicate column, 42809 OR REPLACE of a non-view, 42P16 OR REPLACE that
// drops, renames or retypes a column, 42501 not the owner. A view over a
// temporary relation becomes temporary (notice, as PostgreSQL).
DdlResult CreateView(const ViewDefinition& def);

// DROP VIEW [IF EXISTS] a, b [CASCADE | RESTRICT]: 42P01 / notice with IF
// EXISTS, 42809 for a non-view, 2BP01 when other views depend on one.
DdlResult DropViews(const std::vector<parser::RangeVar>& names, bool if_exists, parser::DropBehavior behavior);

// Before `relations` are dropped: the views that depend on them (and are
// not among them). RESTRICT / default: 2BP01 `cannot drop table t because
// other objects depend on it`; CASCADE: drops those views, returning
// PostgreSQL's "drop cascades to ..." notice.
DdlResult DropDependentViews(const std::vector<RelationRef>& relations, parser::DropBehavior behavior);

// ALTER VIEW [IF EXISTS] v RENAME TO w.
DdlResult RenameView(const parser::RenameRelationStmt& stmt);

// pg_get_viewdef's text of a view (the planner prints it; the backend
// installs the printer at start). Without one: the stored query text.
using ViewDefinitionPrinter = std::function<std::string(const executor::TableInfo& view, bool pretty)>;
void SetViewDefinitionPrinter(ViewDefinitionPrinter printer);
std::string PrintViewDefinition(const executor::TableInfo& view, bool pretty);

// Cluster-wide hint in shared memory (catalog_shared.cpp) so DROP TABLE
// scans hearth_class for dependent views only when views may exist: unknown
// after a (re)start until a scan finds none; "maybe" from the first CREATE
// VIEW on (set before its row is written, so a concurrent scan's "none"
// cannot hide it).
enum class ViewsKnown { kUnknown, kNone, kMaybe };
ViewsKnown ViewsExist();
void NoteNoViews();
void NoteViewCreated();

// The relations a view depends on (its relviewdeps).
std::vector<Oid> ViewDependencies(Oid view);

}  // namespace hearth::catalog
