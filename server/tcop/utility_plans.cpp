// tcop/utility_plans.cpp
//
// Principal entry points: PlanTransactionStmt, PlanSetStmt, PlanShowStmt,
// PlanResetStmt. Transaction control follows PostgreSQL's messages: BEGIN
// inside a block warns 25001, COMMIT/ROLLBACK outside one warns 25P01, and
// COMMIT of a failed block rolls back and answers ROLLBACK.
#include "common/error/sqlstate.h"
#include "access/transam/xact.h"
#include "config/registry.h"
#include "tcop/savepoints.h"
#include "tcop/session.h"

namespace hearth::tcop {

namespace {

const char* IsolationName(parser::IsolationLevel level) {
  switch (level) {
    case parser::IsolationLevel::kReadUncommitted: return "read uncommitted";
    case parser::IsolationLevel::kRepeatableRead: return "repeatable read";
    case parser::IsolationLevel::kSerializable: return "serializable";
    default: return "read committed";
  }
}

// Sets the running transaction's isolation level. READ UNCOMMITTED behaves
// as READ COMMITTED, as in PostgreSQL; SERIALIZABLE is refused (0A000).
void ApplyIsolation(parser::IsolationLevel level) {
  switch (level) {
    case parser::IsolationLevel::kDefault: return;
    case parser::IsolationLevel::kReadUncommitted:
    case parser::IsolationLevel::kReadCommitted:
      access::SetTransactionIsolation(access::IsolationLevel::kReadCommitted);
      return;
    case parser::IsolationLevel::kRepeatableRead:
      access::SetTransactionIsolation(access::IsolationLevel::kRepeatableRead);
      return;
    case parser::IsolationLevel::kSerializable:
      throw DbError(sqlstate::kFeatureNotSupported, "SERIALIZABLE isolation is not supported yet")
          .WithHint("Use REPEATABLE READ or READ COMMITTED.");
  }
}

class TransactionPlan : public Plan {
 public:
  explicit TransactionPlan(const parser::TransactionStmt& s)
      : kind_(s.txn_kind), options_(s.options), savepoint_(s.savepoint) {}

  bool IsTransactionControl() const override { return true; }
  bool EndsFailedTransaction() const override {
    return kind_ == parser::TransactionKind::kCommit || kind_ == parser::TransactionKind::kRollback ||
           kind_ == parser::TransactionKind::kRollbackTo;
  }

  std::string Run(Session& s, const std::vector<types::Value>&, RowConsumer&) override {
    using K = parser::TransactionKind;
    switch (kind_) {
      case K::kBegin:
      case K::kStart:
        if (s.block != BlockState::kIdle) {
          s.Notice(Severity::kWarning, sqlstate::kActiveSqlTransaction, "there is already a transaction in progress");
        } else {
          ApplyIsolation(options_.isolation);
          s.ShowIsolation();
          s.block = BlockState::kInBlock;
        }
        return kind_ == K::kBegin ? "BEGIN" : "START TRANSACTION";
      case K::kCommit: {
        if (s.block == BlockState::kIdle) {
          s.Notice(Severity::kWarning, sqlstate::kNoActiveSqlTransaction, "there is no transaction in progress");
          return "COMMIT";
        }
        bool failed = s.block == BlockState::kFailed;
        s.EndTransaction(!failed);
        return failed ? "ROLLBACK" : "COMMIT";
      }
      case K::kRollback:
        if (s.block == BlockState::kIdle) {
          s.Notice(Severity::kWarning, sqlstate::kNoActiveSqlTransaction, "there is no transaction in progress");
          return "ROLLBACK";
        }
        s.EndTransaction(false);
        return "ROLLBACK";
      case K::kSavepoint:
        DefineSavepoint(s, savepoint_);
        return "SAVEPOINT";
      case K::kRelease:
        ReleaseSavepoint(s, savepoint_);
        return "RELEASE";
      case K::kRollbackTo:
        RollbackToSavepoint(s, savepoint_);
        return "ROLLBACK";
    }
    return "";
  }

 private:
  parser::TransactionKind kind_;
  parser::TransactionOptions options_;
  std::string savepoint_;
};

class SetPlan : public Plan {
 public:
  explicit SetPlan(const parser::SetStmt& s) : kind_(s.set_kind), name_(s.name), is_local_(s.is_local) {
    for (const auto& v : s.values) values_.push_back(v.text);
    isolation_ = s.txn_options.isolation;
  }

  std::string Run(Session& s, const std::vector<types::Value>&, RowConsumer&) override {
    switch (kind_) {
      case parser::SetKind::kValue:
        if (is_local_ && s.block == BlockState::kIdle) {
          s.Notice(Severity::kWarning, sqlstate::kNoActiveSqlTransaction,
                   "SET LOCAL can only be used in transaction blocks");
          return "SET";
        }
        if (!SetRoleSetting(s, name_, &values_, is_local_)) s.settings.Set(name_, values_, is_local_);
        break;
      case parser::SetKind::kDefault:
        if (!SetRoleSetting(s, name_, nullptr, is_local_)) s.settings.SetDefault(name_, is_local_);
        break;
      case parser::SetKind::kTransaction:
        if (s.block == BlockState::kIdle) {
          s.Notice(Severity::kWarning, sqlstate::kNoActiveSqlTransaction,
                   "SET TRANSACTION can only be used in transaction blocks");
          return "SET";
        }
        ApplyIsolation(isolation_);
        s.ShowIsolation();
        break;
      case parser::SetKind::kSessionCharacteristics:
        if (isolation_ == parser::IsolationLevel::kSerializable) {
          throw DbError(sqlstate::kFeatureNotSupported, "SERIALIZABLE isolation is not supported yet");
        }
        if (isolation_ != parser::IsolationLevel::kDefault) {
          s.settings.Set("default_transaction_isolation", {IsolationName(isolation_)}, false);
        }
        break;
    }
    return "SET";
  }

 private:
  parser::SetKind kind_;
  std::string name_;
  bool is_local_;
  std::vector<std::string> values_;
  parser::IsolationLevel isolation_ = parser::IsolationLevel::kDefault;
};

class ShowPlan : public Plan {
 public:
  ShowPlan(Session& s, const parser::ShowStmt& stmt) : all_(stmt.all), name_(stmt.name) {
    if (all_) {
      columns_ = {{"name"}, {"setting"}, {"description"}};
    } else {
      // Unknown names fail here, at plan time, as PostgreSQL's SHOW does.
      s.settings.Show(name_);
      const config::SettingDef* def = config::FindSetting(name_);
      columns_ = {{def != nullptr ? std::string(def->name) : name_}};
    }
  }

  const std::vector<ColumnDesc>* Columns() const override { return &columns_; }

  std::string Run(Session& s, const std::vector<types::Value>&, RowConsumer& out) override {
    std::vector<types::Value> row;
    if (!all_) {
      row.push_back(types::Value::Text(s.settings.Show(name_)));
      out.Row(row);
      return "SHOW";
    }
    for (const auto& r : s.settings.ShowAll()) {
      row.clear();
      row.push_back(types::Value::Text(r.name));
      row.push_back(types::Value::Text(r.setting));
      row.push_back(types::Value::Text(r.description));
      out.Row(row);
    }
    return "SHOW";
  }

 private:
  bool all_;
  std::string name_;
  std::vector<ColumnDesc> columns_;
};

class ResetPlan : public Plan {
 public:
  explicit ResetPlan(const parser::ResetStmt& s) : all_(s.all), name_(s.name) {}

  std::string Run(Session& s, const std::vector<types::Value>&, RowConsumer&) override {
    if (all_) {
      s.settings.ResetAll();
    } else if (!SetRoleSetting(s, name_, nullptr, false)) {
      s.settings.Reset(name_);
    }
    return "RESET";
  }

 private:
  bool all_;
  std::string name_;
};

}  // namespace

std::unique_ptr<Plan> PlanTransactionStmt(const parser::TransactionStmt& stmt) {
  return std::make_unique<TransactionPlan>(stmt);
}
std::unique_ptr<Plan> PlanSetStmt(const parser::SetStmt& stmt) { return std::make_unique<SetPlan>(stmt); }
std::unique_ptr<Plan> PlanShowStmt(Session& session, const parser::ShowStmt& stmt) {
  return std::make_unique<ShowPlan>(session, stmt);
}
std::unique_ptr<Plan> PlanResetStmt(const parser::ResetStmt& stmt) { return std::make_unique<ResetPlan>(stmt); }

}  // namespace hearth::tcop
