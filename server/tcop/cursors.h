// tcop/cursors.h
//
// SQL cursors (DECLARE / FETCH / MOVE / CLOSE) as PostgreSQL 15 has them.
// A cursor is a query started once (an executor::Execution through the
// query plan's Cursor) and read on demand. Scrollable cursors keep the rows
// read so far in memory, so FETCH can go backwards and to absolute
// positions; NO SCROLL cursors keep nothing and refuse to move back (55000).
// WITH HOLD cursors are read to the end when their transaction commits
// (the rows stay in memory, the execution and its locks go) and live until
// CLOSE or the end of the session.
//
// Lifetime (PostgreSQL's): a cursor dies with the transaction or savepoint
// level that declared it when that rolls back; at commit only the holdable
// ones survive. Errors: 34000 unknown cursor, 42P03 duplicate name.
//
// Per session; single-threaded. REQUIRES for Declare/Fetch: the session's
// transaction in progress.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "parser/ast.h"
#include "tcop/dest.h"
#include "tcop/plan.h"

namespace hearth::tcop {

class Session;

struct SqlCursor {
  std::string name;
  std::string statement;  // the query string that declared it (pg_cursors)
  bool binary = false;
  bool scrollable = true;
  bool holdable = false;
  int64_t creation_unix_us = 0;
  int level = 0;  // subtransaction level that declared it
  std::vector<ColumnDesc> columns;

  // While the declaring transaction runs: the query and its execution.
  std::unique_ptr<parser::Statement> query;
  std::unique_ptr<Plan> plan;
  std::unique_ptr<Cursor> exec;

  // Rows read so far (scrollable, or everything left once held): row k
  // (1-based) is rows[k - 1 - base].
  std::vector<std::vector<types::Value>> rows;
  int64_t base = 0;
  bool keep_rows = true;   // scrollable, or held: else only the newest row stays
  bool exhausted = false;  // the execution returned its last row
  int64_t total = -1;      // number of rows once exhausted

  // PostgreSQL's portal position: `pos` is the row the cursor is on (0 =
  // before the first, total + 1 = after the last).
  int64_t pos = 0;
  int64_t portal_pos = 0;
  bool at_start = true;
  bool at_end = false;
};

using SqlCursorMap = std::map<std::string, std::unique_ptr<SqlCursor>>;

// DECLARE: plans and starts `stmt.query` (with the statement's parameters).
void DeclareCursor(Session& s, const parser::DeclareCursorStmt& stmt, const std::vector<types::Value>& params);
// The cursor called `name`; 34000 when there is none.
SqlCursor& FindCursor(Session& s, const std::string& name);
// FETCH (out != nullptr) or MOVE: returns the number of rows the command
// tag reports.
uint64_t FetchCursor(SqlCursor& c, parser::FetchDirection direction, int64_t count, RowConsumer* out);
// CLOSE name (34000 when unknown) / CLOSE ALL (name empty).
void CloseCursor(Session& s, const std::string& name);

// Transaction ends: before commit, holdable cursors of the transaction read
// their remaining rows (may throw: the commit then fails); then every cursor
// still tied to the transaction is closed (at commit the non-holdable ones,
// at abort also the holdable ones declared in it).
void HoldCursorsForCommit(Session& s);
void CloseTransactionCursors(Session& s);
// Savepoint levels: rolled back (cursors declared at `level` or deeper
// close) or released (they now belong to level - 1).
void CloseSubtransactionCursors(Session& s, int level);
void ReassignSubtransactionCursors(Session& s, int level);

}  // namespace hearth::tcop
