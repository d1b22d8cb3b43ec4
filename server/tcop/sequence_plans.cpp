// tcop/sequence_plans.cpp
//
// Principal entry point: PlanSequenceDdl — CREATE SEQUENCE, ALTER SEQUENCE,
// DROP SEQUENCE through catalog/sequence_ddl.h. As every DDL plan, the work
// happens at Run; notices (IF [NOT] EXISTS, CASCADE) precede the tag.
#include "catalog/sequence_ddl.h"
#include "tcop/session.h"

namespace hearth::tcop {

namespace {

template <typename Stmt>
class SequencePlan : public Plan {
 public:
  using Action = catalog::DdlResult (*)(const Stmt&);
  SequencePlan(const Stmt& stmt, Action action, const char* tag) : stmt_(stmt), action_(action), tag_(tag) {}
  std::string Run(Session& s, const std::vector<types::Value>&, RowConsumer&) override {
    for (const auto& n : action_(stmt_).notices) s.Notice(Severity::kNotice, n.sqlstate, n.message);
    return tag_;
  }

 private:
  const Stmt& stmt_;
  Action action_;
  const char* tag_;
};

catalog::DdlResult DropSequenceAction(const parser::DropStmt& d) {
  return catalog::DropSequences(d.objects, d.if_exists, d.behavior);
}

}  // namespace

std::unique_ptr<Plan> PlanSequenceDdl(const parser::Statement& stmt) {
  using K = parser::StmtKind;
  switch (stmt.kind) {
    case K::kCreateSequence:
      return std::make_unique<SequencePlan<parser::CreateSequenceStmt>>(stmt.As<parser::CreateSequenceStmt>(),
                                                                        catalog::CreateSequence, "CREATE SEQUENCE");
    case K::kAlterSequence:
      return std::make_unique<SequencePlan<parser::AlterSequenceStmt>>(stmt.As<parser::AlterSequenceStmt>(),
                                                                       catalog::AlterSequence, "ALTER SEQUENCE");
    case K::kDrop:
      if (stmt.As<parser::DropStmt>().object_type != parser::ObjectType::kSequence) break;
      return std::make_unique<SequencePlan<parser::DropStmt>>(stmt.As<parser::DropStmt>(), DropSequenceAction,
                                                              "DROP SEQUENCE");
    default:
      break;
  }
  return nullptr;
}

}  // namespace hearth::tcop
