// tcop/prepare_plans.cpp
//
// Principal entry point: PlanPrepared — SQL-level PREPARE, EXECUTE and
// DEALLOCATE. They share the session's prepared-statement namespace with the
// extended protocol's named statements, as in PostgreSQL: a statement is
// parsed and planned once at PREPARE and run with new parameter values by
// each EXECUTE.
#include "catalog/catalog_shared.h"
#include "catalog/pending_delete.h"
#include "common/error/sqlstate.h"
#include "executor/expr/binder.h"
#include "executor/expr/eval.h"
#include "parser/parser.h"
#include "tcop/session.h"
#include "utils/adt/type_catalog.h"

namespace hearth::tcop {

namespace {

class PreparePlan : public Plan {
 public:
  explicit PreparePlan(const parser::PrepareStmt& stmt) : stmt_(stmt) {}

  std::string Run(Session& s, const std::vector<types::Value>&, RowConsumer&) override {
    if (s.prepared.count(stmt_.name)) {
      throw DbError(sqlstate::kDuplicatePreparedStatement, "prepared statement \"" + stmt_.name + "\" already exists");
    }
    std::vector<types::Oid> param_types;
    for (const parser::TypeName& t : stmt_.arg_types) {
      const types::TypeInfo* info = types::LookupTypeByName(t.name);
      if (info != nullptr && t.is_array) info = types::LookupType(types::ArrayTypeOf(info->oid));
      if (info == nullptr) {
        throw DbError(sqlstate::kUndefinedObject, "type \"" + t.name + "\" does not exist").WithPosition(t.location + 1);
      }
      param_types.push_back(info->oid);
    }
    // The body gets its own copy of the tree: the PREPARE statement itself
    // dies with this query string.
    auto ps = std::make_unique<PreparedStatement>();
    ps->query = stmt_.query->text;
    std::vector<parser::StmtPtr> body = parser::ParseStatements(ps->query);
    if (body.size() != 1) throw DbError(sqlstate::kSyntaxError, "PREPARE needs exactly one statement");
    ps->stmt = std::move(body[0]);
    ps->catalog_version = catalog::PlanCacheVersion();
    ps->declared_types = param_types;
    ps->plan = PlanStatement(s, *ps->stmt, param_types);
    s.prepared[stmt_.name] = std::move(ps);
    return "PREPARE";
  }

 private:
  const parser::PrepareStmt& stmt_;
};

class ExecutePlan : public Plan {
 public:
  ExecutePlan(Session& s, const parser::ExecuteStmt& stmt) : stmt_(stmt) {
    auto it = s.prepared.find(stmt.name);
    if (it == s.prepared.end() || it->second->plan == nullptr) {
      throw DbError(sqlstate::kInvalidSqlStatementName, "prepared statement \"" + stmt.name + "\" does not exist");
    }
    s.RevalidatePrepared(*it->second);
    target_ = it->second->plan.get();
    std::vector<types::Oid> types = target_->ParamTypes();
    if (types.size() != stmt.params.size()) {
      throw DbError(sqlstate::kSyntaxError, "wrong number of parameters for prepared statement \"" + stmt.name + "\"")
          .WithDetail("Expected " + std::to_string(types.size()) + " parameters but got " +
                      std::to_string(stmt.params.size()) + ".");
    }
    for (size_t i = 0; i < types.size(); i++) {
      params_.push_back(executor::Coerce(executor::BindExpr(*stmt.params[i], ctx_), types[i], types::kNoTypmod,
                                         types::CoercionContext::kAssignment, ctx_));
    }
  }

  const std::vector<ColumnDesc>* Columns() const override { return target_->Columns(); }

  std::string Run(Session& s, const std::vector<types::Value>&, RowConsumer& out) override {
    executor::EvalContext ec;
    ec.func.session = &s.callbacks;
    std::vector<types::Value> values;
    for (const auto& p : params_) values.push_back(executor::Eval(*p, ec));
    return target_->Run(s, values, out);
  }

 private:
  const parser::ExecuteStmt& stmt_;
  Plan* target_ = nullptr;  // owned by Session::prepared; DEALLOCATE cannot run meanwhile
  executor::BindContext ctx_;
  std::vector<executor::BoundExprPtr> params_;
};

class DeallocatePlan : public Plan {
 public:
  explicit DeallocatePlan(const parser::DeallocateStmt& stmt) : stmt_(stmt) {}

  std::string Run(Session& s, const std::vector<types::Value>&, RowConsumer&) override {
    s.portals.clear();  // portals refer to the statements they came from
    if (stmt_.all) {
      s.prepared.clear();
      return "DEALLOCATE ALL";
    }
    if (s.prepared.erase(stmt_.name) == 0) {
      throw DbError(sqlstate::kInvalidSqlStatementName, "prepared statement \"" + stmt_.name + "\" does not exist");
    }
    return "DEALLOCATE";
  }

 private:
  const parser::DeallocateStmt& stmt_;
};

}  // namespace

std::unique_ptr<Plan> PlanPrepared(Session& session, const parser::Statement& stmt) {
  switch (stmt.kind) {
    case parser::StmtKind::kPrepare:
      return std::make_unique<PreparePlan>(stmt.As<parser::PrepareStmt>());
    case parser::StmtKind::kExecute:
      return std::make_unique<ExecutePlan>(session, stmt.As<parser::ExecuteStmt>());
    case parser::StmtKind::kDeallocate:
      return std::make_unique<DeallocatePlan>(stmt.As<parser::DeallocateStmt>());
    default:
      return nullptr;
  }
}

}  // namespace hearth::tcop
