// tcop/query_plan.cpp
//
// Principal entry points: PlanQuery, Plan::Start (default). Statements over
// tables go through planner::PlanStatement once (at Parse for prepared
// statements) and run as an executor::Execution per Execute, streaming rows
// to the client or to a portal cursor.
#include "executor/executor.h"
#include "planner/planner.h"
#include "storage/ipc/interrupts.h"
#include "tcop/privilege_checks.h"
#include "tcop/session.h"
#include "utils/adt/type_catalog.h"

namespace hearth::tcop {

namespace {

// Buffers a whole result (the default Start for small utility results).
class BufferedCursor : public Cursor {
 public:
  bool Next(std::vector<types::Value>& row) override {
    if (next_ >= rows_.size()) return false;
    row = std::move(rows_[next_++]);
    return true;
  }
  std::string Tag() const override { return tag_; }

  std::vector<std::vector<types::Value>> rows_;
  size_t next_ = 0;
  std::string tag_;
};

class CollectRows : public RowConsumer {
 public:
  explicit CollectRows(std::vector<std::vector<types::Value>>& rows) : rows_(rows) {}
  void Row(const std::vector<types::Value>& row) override { rows_.push_back(row); }

 private:
  std::vector<std::vector<types::Value>>& rows_;
};


// A running executor::Execution as a portal cursor.
class ExecutionCursor : public Cursor {
 public:
  ExecutionCursor(executor::PlannedStatement& plan, const executor::ExecContext& ctx, std::vector<types::Value> params)
      : params_(std::move(params)), execution_(plan, WithParams(ctx)) {}
  ExecutionCursor(executor::PlannedStatement& plan, const executor::ExecContext& ctx, std::vector<types::Value> params,
                  executor::Execution::ConsumePlan consume)
      : params_(std::move(params)), execution_(plan, WithParams(ctx), consume) {}

  bool Next(std::vector<types::Value>& row) override { return execution_.Next(row); }
  std::string Tag() const override { return execution_.CommandTag(); }

 private:
  executor::ExecContext WithParams(executor::ExecContext ctx) {
    ctx.params = params_.data();
    ctx.nparams = params_.size();
    return ctx;
  }

  std::vector<types::Value> params_;  // must outlive execution_
  executor::Execution execution_;
};

class QueryPlan : public Plan {
 public:
  QueryPlan(Session& s, const parser::Statement& stmt, const std::vector<types::Oid>& param_types) {
    {
      LookupRecorder recorder(s);
      planner::PlannerOptions options;
      options.enable_hashjoin = s.settings.hot().enable_hashjoin;
      options.enable_indexscan = s.settings.hot().enable_indexscan;
      planned_ = planner::PlanStatement(stmt, *s.tables, param_types, options);
      required_ = recorder.Required(stmt);
    }
    for (const executor::OutputColumn& c : planned_.columns) {
      ColumnDesc d;
      d.name = c.name;
      d.type_oid = c.type;
      d.typlen = types::TypeLength(c.type);
      d.typmod = c.typmod;
      columns_.push_back(std::move(d));
    }
  }

  std::vector<types::Oid> ParamTypes() const override { return planned_.param_types; }
  const std::vector<ColumnDesc>* Columns() const override {
    return planned_.returns_rows() ? &columns_ : nullptr;
  }

  std::string Run(Session& s, const std::vector<types::Value>& params, RowConsumer& out) override {
    CheckPrivileges(required_);
    executor::Execution exec(planned_, MakeExecContext(s, params));
    return Drain(exec, out);
  }

  std::string RunOnce(Session& s, const std::vector<types::Value>& params, RowConsumer& out) override {
    CheckPrivileges(required_);
    executor::Execution exec(planned_, MakeExecContext(s, params), executor::Execution::ConsumePlan{});
    return Drain(exec, out);
  }

  std::unique_ptr<Cursor> Start(Session& s, const std::vector<types::Value>& params) override {
    CheckPrivileges(required_);
    return std::make_unique<ExecutionCursor>(planned_, MakeExecContext(s, params), params);
  }

  bool CheaperToStartOnce() const override { return true; }
  std::unique_ptr<Cursor> StartOnce(Session& s, const std::vector<types::Value>& params) override {
    CheckPrivileges(required_);
    return std::make_unique<ExecutionCursor>(planned_, MakeExecContext(s, params), params,
                                             executor::Execution::ConsumePlan{});
  }

 private:
  static std::string Drain(executor::Execution& exec, RowConsumer& out) {
    std::vector<types::Value> row;
    while (exec.Next(row)) out.Row(row);
    return exec.CommandTag();
  }

  executor::PlannedStatement planned_;
  RequiredPrivileges required_;  // checked at every execution
  std::vector<ColumnDesc> columns_;
};

}  // namespace

executor::ExecContext MakeExecContext(Session& s, const std::vector<types::Value>& params) {
  executor::ExecContext ctx;
  ctx.tables = s.tables;
  ctx.params = params.data();
  ctx.nparams = params.size();
  ctx.work_mem = s.settings.hot().work_mem_kb * 1024;
  ctx.hash_mem = static_cast<int64_t>(static_cast<double>(ctx.work_mem) * s.settings.hot().hash_mem_multiplier);
  ctx.temp_dir = s.datadir + "/base/pgsql_tmp";
  ctx.check_interrupts = [] { CheckForInterrupts(); };
  ctx.session = &s.callbacks;
  return ctx;
}

std::unique_ptr<Cursor> Plan::Start(Session& session, const std::vector<types::Value>& params) {
  auto cursor = std::make_unique<BufferedCursor>();
  CollectRows collect(cursor->rows_);
  std::string tag = Run(session, params, collect);
  cursor->tag_ = tag == "SELECT" ? "SELECT " + std::to_string(cursor->rows_.size()) : tag;
  return cursor;
}

std::unique_ptr<Plan> PlanQuery(Session& session, const parser::Statement& stmt,
                                const std::vector<types::Oid>& param_types) {
  return std::make_unique<QueryPlan>(session, stmt, param_types);
}

}  // namespace hearth::tcop
