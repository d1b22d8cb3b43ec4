// tcop/extension_plans.cpp
//
// Principal entry point: PlanExtension — CREATE EXTENSION and DROP
// EXTENSION. Hearth has no extension machinery: the objects of the
// extensions it knows (pg_buffercache) are built in and always present, so
// CREATE/DROP EXTENSION of those succeed without changing anything, letting
// scripts written for PostgreSQL run unmodified. Any other extension is
// reported as not available, with PostgreSQL 15's SQLSTATEs.
#include <algorithm>

#include "common/error/sqlstate.h"
#include "parser/parser.h"
#include "tcop/plan.h"
#include "tcop/session.h"

namespace hearth::tcop {

namespace {

bool IsBuiltInExtension(const std::string& name) { return name == "pg_buffercache" || name == "plpgsql"; }

class CreateExtensionPlan : public Plan {
 public:
  explicit CreateExtensionPlan(const parser::CreateExtensionStmt& stmt) : stmt_(stmt) {}
  std::string Run(Session&, const std::vector<types::Value>&, RowConsumer&) override {
    if (!IsBuiltInExtension(stmt_.name)) {
      // PostgreSQL 15.18's wording (its DETAIL names a control file; Hearth
      // has none).
      throw DbError(sqlstate::kFeatureNotSupported, "extension \"" + stmt_.name + "\" is not available")
          .WithDetail("Hearth has no loadable extensions; pg_buffercache is built in.")
          .WithHint("The extension must first be installed on the system where PostgreSQL is running.");
    }
    return "CREATE EXTENSION";
  }

 private:
  const parser::CreateExtensionStmt& stmt_;
};

class DropExtensionPlan : public Plan {
 public:
  explicit DropExtensionPlan(const parser::DropStmt& stmt) : stmt_(stmt) {}
  std::string Run(Session& s, const std::vector<types::Value>&, RowConsumer&) override {
    for (const parser::RangeVar& rv : stmt_.objects) {
      if (IsBuiltInExtension(rv.name)) continue;
      std::string msg = "extension \"" + rv.name + "\" does not exist";
      if (!stmt_.if_exists) throw DbError(sqlstate::kUndefinedObject, msg);
      s.Notice(Severity::kNotice, "00000", msg + ", skipping");
    }
    return "DROP EXTENSION";
  }

 private:
  const parser::DropStmt& stmt_;
};

}  // namespace

std::unique_ptr<Plan> PlanExtension(const parser::Statement& stmt) {
  if (stmt.kind == parser::StmtKind::kCreateExtension) {
    return std::make_unique<CreateExtensionPlan>(stmt.As<parser::CreateExtensionStmt>());
  }
  if (stmt.kind == parser::StmtKind::kDrop && stmt.As<parser::DropStmt>().object_type == parser::ObjectType::kExtension) {
    return std::make_unique<DropExtensionPlan>(stmt.As<parser::DropStmt>());
  }
  return nullptr;
}

}  // namespace hearth::tcop
