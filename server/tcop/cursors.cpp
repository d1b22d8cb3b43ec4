// tcop/cursors.cpp
//
// Principal entry points: DeclareCursor, FetchCursor, CloseCursor and the
// transaction-end hooks.
//
// FetchCursor follows PostgreSQL's DoPortalRunFetch step by step, built on
// two moves of the underlying rows (RunSelect forward/backward, which keep
// PostgreSQL's at_start/at_end/portal_pos bookkeeping) and a rewind, so
// every direction lands on the same row, reports the same count and fails
// (NO SCROLL) in the same cases as PostgreSQL.
#include "tcop/cursors.h"

#include <time.h>

#include <stdexcept>

#include "access/transam/xact.h"
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "parser/parser.h"
#include "tcop/session.h"

namespace hearth::tcop {

namespace {

using parser::FetchDirection;
using parser::kFetchAll;
using Row = std::vector<types::Value>;

int64_t NowUnixUs() {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000 + ts.tv_nsec / 1000;
}

[[noreturn]] void ForwardOnly() {
  throw DbError(sqlstate::kObjectNotInPrerequisiteState, "cursor can only scan forward")
      .WithHint("Declare it with SCROLL option to enable backward scan.");
}

// Row k (1-based) into *out, reading the execution as far as needed; false
// past the last row. Scrollable cursors keep every row read; the others
// keep only the newest (they never go back).
bool RowAt(SqlCursor& c, int64_t k, Row* out) {
  while (c.base + static_cast<int64_t>(c.rows.size()) < k) {
    Row r;
    if (c.exhausted || c.exec == nullptr || !c.exec->Next(r)) {
      if (!c.exhausted) c.total = c.base + static_cast<int64_t>(c.rows.size());
      c.exhausted = true;
      return false;
    }
    if (!c.keep_rows) {
      c.base += static_cast<int64_t>(c.rows.size());
      c.rows.clear();
    }
    c.rows.push_back(std::move(r));
  }
  if (k <= c.base) throw std::logic_error("cursor row no longer kept");
  if (out != nullptr) *out = c.rows[static_cast<size_t>(k - 1 - c.base)];
  return true;
}

// Moves the cursor `count` rows (kFetchAll: to the end) forward or
// backward, sending the rows passed to `out`; returns how many.
uint64_t MoveRows(SqlCursor& c, bool forward, int64_t count, RowConsumer* out) {
  uint64_t n = 0;
  Row row;
  while (count == kFetchAll || static_cast<int64_t>(n) < count) {
    if (forward) {
      if (!RowAt(c, c.pos + 1, out != nullptr ? &row : nullptr)) {
        c.pos = c.total + 1;
        break;
      }
      c.pos++;
    } else {
      if (c.pos <= 1) {
        c.pos = 0;
        break;
      }
      c.pos--;
      RowAt(c, c.pos, out != nullptr ? &row : nullptr);
    }
    n++;
    if (out != nullptr) out->Row(row);
  }
  return n;
}

// PostgreSQL's PortalRunSelect.
uint64_t RunSelect(SqlCursor& c, bool forward, int64_t count, RowConsumer* out) {
  if (!forward && !c.scrollable) ForwardOnly();
  const bool no_movement = forward ? (c.at_end || count <= 0) : (c.at_start || count <= 0);
  if (no_movement) return 0;
  const uint64_t n = MoveRows(c, forward, count, out);
  const bool all = count == kFetchAll || n < static_cast<uint64_t>(count);
  if (forward) {
    if (n > 0) c.at_start = false;
    if (all) c.at_end = true;
    c.portal_pos += static_cast<int64_t>(n);
  } else {
    if (n > 0 && c.at_end) {
      c.at_end = false;
      c.portal_pos++;
    }
    if (all) {
      c.at_start = true;
      c.portal_pos = 0;
    } else {
      c.portal_pos -= static_cast<int64_t>(n);
    }
  }
  return n;
}

// PostgreSQL's DoPortalRewind.
void Rewind(SqlCursor& c) {
  if (c.at_start && !c.at_end) return;
  if (!c.scrollable) ForwardOnly();
  c.pos = 0;
  c.portal_pos = 0;
  c.at_start = true;
  c.at_end = false;
}

uint64_t FetchAbsolute(SqlCursor& c, int64_t count, RowConsumer* out) {
  if (count > 0) {
    // From the start, or from where we are when the target is nearer.
    if (count - 1 <= c.portal_pos / 2) {
      Rewind(c);
      if (count > 1) RunSelect(c, true, count - 1, nullptr);
    } else {
      int64_t pos = c.portal_pos;
      if (c.at_end) pos++;
      if (count <= pos) {
        RunSelect(c, false, pos - count + 1, nullptr);
      } else if (count > pos + 1) {
        RunSelect(c, true, count - pos - 1, nullptr);
      }
    }
    return RunSelect(c, true, 1, out);
  }
  if (count < 0) {
    RunSelect(c, true, kFetchAll, nullptr);
    if (count < -1) RunSelect(c, false, -count - 1, nullptr);
    return RunSelect(c, false, 1, out);
  }
  Rewind(c);
  return RunSelect(c, true, 0, out);
}

void DropCursor(Session& s, SqlCursorMap::iterator it) { s.sql_cursors.erase(it); }

}  // namespace

void DeclareCursor(Session& s, const parser::DeclareCursorStmt& stmt, const std::vector<types::Value>& params) {
  if (!stmt.hold && s.block == BlockState::kIdle && !s.implicit_block) {
    throw DbError(sqlstate::kNoActiveSqlTransaction, "DECLARE CURSOR can only be used in transaction blocks");
  }
  if (s.sql_cursors.count(stmt.name) != 0) {
    throw DbError(sqlstate::kDuplicateCursor, "cursor \"" + stmt.name + "\" already exists");
  }
  auto c = std::make_unique<SqlCursor>();
  c->name = stmt.name;
  c->statement = s.query_string.empty() ? stmt.text : std::string(s.query_string);
  c->binary = stmt.binary;
  c->scrollable = stmt.scroll != parser::CursorScroll::kNoScroll;
  c->keep_rows = c->scrollable;
  c->holdable = stmt.hold;
  c->creation_unix_us = NowUnixUs();
  c->level = access::SubTransactionLevel();
  // The cursor owns its query and plan (a prepared DECLARE may run again
  // while this cursor is open): parse the query's own text once more.
  std::vector<parser::StmtPtr> parsed = parser::ParseStatements(stmt.query->text);
  if (parsed.size() != 1) throw std::logic_error("DECLARE: query text does not parse back");
  c->query = std::move(parsed[0]);
  c->plan = PlanQuery(s, *c->query, {});
  if (const std::vector<ColumnDesc>* cols = c->plan->Columns()) c->columns = *cols;
  c->exec = c->plan->Start(s, params);
  // Later statements take newer snapshots; this one must stay protected.
  access::KeepSnapshotXminUntilTransactionEnd();
  s.sql_cursors.emplace(stmt.name, std::move(c));
}

SqlCursor& FindCursor(Session& s, const std::string& name) {
  auto it = s.sql_cursors.find(name);
  if (it == s.sql_cursors.end()) throw DbError(sqlstate::kInvalidCursorName, "cursor \"" + name + "\" does not exist");
  return *it->second;
}

uint64_t FetchCursor(SqlCursor& c, FetchDirection direction, int64_t count, RowConsumer* out) {
  switch (direction) {
    case FetchDirection::kForward:
      if (count < 0) {
        direction = FetchDirection::kBackward;
        count = -count;
      }
      break;
    case FetchDirection::kBackward:
      if (count < 0) {
        direction = FetchDirection::kForward;
        count = -count;
      }
      break;
    case FetchDirection::kAbsolute:
      return FetchAbsolute(c, count, out);
    case FetchDirection::kRelative:
      if (count > 0) {
        if (count > 1) RunSelect(c, true, count - 1, nullptr);
        return RunSelect(c, true, 1, out);
      }
      if (count < 0) {
        if (count < -1) RunSelect(c, false, -count - 1, nullptr);
        return RunSelect(c, false, 1, out);
      }
      direction = FetchDirection::kForward;  // RELATIVE 0 = FORWARD 0
      break;
  }
  bool forward = direction == FetchDirection::kForward;
  if (count == 0) {
    // The current row again, if the cursor is on one.
    const bool on_row = !c.at_start && !c.at_end;
    if (out == nullptr) return on_row ? 1 : 0;
    if (on_row) {
      RunSelect(c, false, 1, nullptr);
      count = 1;
      forward = true;
    }
  }
  if (!forward && count == kFetchAll && out == nullptr) {
    // MOVE BACKWARD ALL: a rewind, counting the rows passed.
    int64_t passed = c.portal_pos;
    if (passed > 0 && !c.at_end) passed--;
    Rewind(c);
    return static_cast<uint64_t>(passed);
  }
  return RunSelect(c, forward, count, out);
}

void CloseCursor(Session& s, const std::string& name) {
  if (name.empty()) {
    s.sql_cursors.clear();
    return;
  }
  auto it = s.sql_cursors.find(name);
  if (it == s.sql_cursors.end()) throw DbError(sqlstate::kInvalidCursorName, "cursor \"" + name + "\" does not exist");
  DropCursor(s, it);
}

void HoldCursorsForCommit(Session& s) {
  for (auto& [name, c] : s.sql_cursors) {
    if (!c->holdable || c->exec == nullptr) continue;
    // Keep what is left to read (and, scrollable, what was read), then let
    // the execution, its snapshot and its locks go with the transaction.
    if (!c->keep_rows) {
      c->base += static_cast<int64_t>(c->rows.size());
      c->rows.clear();
      c->keep_rows = true;
    }
    while (RowAt(*c, c->base + static_cast<int64_t>(c->rows.size()) + 1, nullptr)) {
    }
    c->exec.reset();
    c->plan.reset();
    c->query.reset();
    c->level = 0;
  }
}

void CloseTransactionCursors(Session& s) {
  std::erase_if(s.sql_cursors, [](const auto& entry) { return entry.second->exec != nullptr; });
}

void CloseSubtransactionCursors(Session& s, int level) {
  std::erase_if(s.sql_cursors, [level](const auto& entry) {
    return entry.second->exec != nullptr && entry.second->level >= level;
  });
}

void ReassignSubtransactionCursors(Session& s, int level) {
  for (auto& [name, c] : s.sql_cursors) {
    if (c->exec != nullptr && c->level >= level) c->level = level - 1;
  }
}

}  // namespace hearth::tcop
