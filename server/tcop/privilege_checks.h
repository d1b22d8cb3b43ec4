// tcop/privilege_checks.h
//
// Table and column privileges of queries, PostgreSQL's way: what a
// statement needs is worked out once when it is planned (every reference to
// a table: SELECT on the columns it reads, any column when it reads none;
// the target of INSERT/UPDATE/DELETE: that privilege, on the columns
// INSERT/UPDATE write, plus SELECT on the columns WHERE, SET expressions
// and RETURNING read) and checked every time it runs, against the role
// acting then (42501 `permission denied for table t`). Table privileges
// cover every column. Superusers skip the checks.
#pragma once

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "catalog/acl.h"
#include "executor/planned_statement.h"
#include "executor/table_access.h"
#include "parser/ast.h"
#include "planner/column_use.h"

namespace hearth::tcop {

class Session;

// What a statement needs on one reference to a relation.
struct RelationPrivileges {
  types::Oid relid = 0;
  uint32_t mask = 0;          // ACL bits
  std::vector<int> selected;  // attnums read (SELECT); empty: any column
  std::vector<int> modified;  // attnums INSERT / UPDATE write
  types::Oid check_as = 0;    // a view's relation: checked as the view's owner (0: the acting role)
};
using RequiredPrivileges = std::vector<RelationPrivileges>;

// Records the relations the planner looks up while it lives.
class LookupRecorder {
 public:
  explicit LookupRecorder(Session& s);
  ~LookupRecorder();
  LookupRecorder(const LookupRecorder&) = delete;
  LookupRecorder& operator=(const LookupRecorder&) = delete;

  // What `stmt` needs, given the lookups recorded.
  RequiredPrivileges Required(const parser::Statement& stmt) const;

 private:
  Session& session_;
  // Relations the planner looked up (oid and column count: all a check of
  // the whole relation needs; copying each TableInfo cost more than the check).
  struct LookedUp {
    types::Oid oid;
    size_t ncolumns;
  };
  std::vector<LookedUp> looked_up_;
  planner::ColumnUseRecorder columns_;
};

// Throws 42501 unless the acting role holds `required`.
void CheckPrivileges(const RequiredPrivileges& required);
// The same for one relation (COPY's table).
void CheckTablePrivilege(const executor::TableInfo& table, uint32_t mask);

// Plans `stmt` and checks its privileges at once, for plans run right away
// (COPY (query) TO, CREATE TABLE AS, SELECT INTO).
executor::PlannedStatement PlanAndCheck(Session& s, const parser::Statement& stmt);

// Statement start: makes current_user the role catalog checks act as
// (resolved again only when current_user or the catalog changed).
void SetActingRole(Session& s);

}  // namespace hearth::tcop
