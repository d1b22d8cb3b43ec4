// planner/column_use.h
//
// Which columns of which tables a statement reads and writes, as the
// planner binds it (PostgreSQL's selectedCols / insertedCols / updatedCols
// of each range-table entry), for column privileges
// (tcop/privilege_checks.h). The planner reports through the Note*
// functions; they record only while a ColumnUseRecorder lives.
//
// Process safety: per backend (one recorder at a time, nested ones stack).
#pragma once

#include <cstddef>
#include <vector>

#include "utils/adt/type_oid.h"

namespace hearth::planner {

// One reference to a table in a statement.
struct RelationUse {
  types::Oid relid = 0;
  bool target = false;        // the table INSERT / UPDATE / DELETE modifies
  std::vector<int> read;      // 1-based attnums read (sorted, unique)
  std::vector<int> modified;  // target: attnums INSERT / UPDATE write (sorted, unique)
  // Inside a view's query: the role its privileges are checked as (the
  // view's owner) and the view (0 and 0: named by the statement itself).
  types::Oid check_as = 0;
  types::Oid via_view = 0;
};

class ColumnUseRecorder {
 public:
  ColumnUseRecorder();
  ~ColumnUseRecorder();
  ColumnUseRecorder(const ColumnUseRecorder&) = delete;
  ColumnUseRecorder& operator=(const ColumnUseRecorder&) = delete;

  const std::vector<RelationUse>& uses() const { return uses_; }

  int NewUse(types::Oid relid, bool target);
  void Read(int use, int attnum);
  void Modified(types::Oid relid, int attnum);

 private:
  std::vector<RelationUse> uses_;
  ColumnUseRecorder* previous_ = nullptr;
};

// While it lives, the relations the planner notes are those of view
// `view`'s query: checked as `owner` (PostgreSQL checks a view's tables
// with its owner's privileges). Nests (a view over a view).
class ViewExpansionScope {
 public:
  ViewExpansionScope(types::Oid view, types::Oid owner);
  ~ViewExpansionScope();
  ViewExpansionScope(const ViewExpansionScope&) = delete;
  ViewExpansionScope& operator=(const ViewExpansionScope&) = delete;

 private:
  types::Oid saved_view_;
  types::Oid saved_owner_;
};

// While it lives, the target use of `base` (INSERT / UPDATE / DELETE
// through view `view`) is checked as `owner`; other relations are not.
class ViewTargetScope {
 public:
  ViewTargetScope(types::Oid base, types::Oid view, types::Oid owner);
  ~ViewTargetScope();
  ViewTargetScope(const ViewTargetScope&) = delete;
  ViewTargetScope& operator=(const ViewTargetScope&) = delete;

 private:
  types::Oid saved_[3];
};

// Where a column of a scope entry comes from: a use (-1: none, e.g. a
// subquery's output) and the attnum in that table.
struct ColumnOrigin {
  int use = -1;
  int attnum = 0;
};

// A new reference to table `relid` (the target: one use per statement);
// -1 when nothing records.
int NoteRelationUse(types::Oid relid, bool target);
// The origins of the first `ncolumns` columns of use `use` (empty for -1).
std::vector<ColumnOrigin> OriginsOf(int use, size_t ncolumns);
void NoteColumnRead(const ColumnOrigin& origin);
// A column of target table `relid` that INSERT / UPDATE writes.
void NoteModifiedColumn(types::Oid relid, int attnum);

}  // namespace hearth::planner
