// tcop/savepoints.cpp
//
// Principal entry points: DefineSavepoint, ReleaseSavepoint,
// RollbackToSavepoint, AbortInnermostSavepoint.
//
// Invariant: with the block in progress, access::SubTransactionLevel() ==
// savepoints.size(); in a failed block the innermost level is already rolled
// back (one less), and only ROLLBACK TO (or the end of the block) follows.
#include "tcop/savepoints.h"

#include "access/transam/xact.h"
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "tcop/session.h"

namespace hearth::tcop {

namespace {

void RequireBlock(const Session& s, const char* what) {
  if (s.block == BlockState::kIdle) {
    throw DbError(sqlstate::kNoActiveSqlTransaction, std::string(what) + " can only be used in transaction blocks");
  }
}

// Index of the newest savepoint called `name`; 3B001 when there is none.
size_t FindSavepoint(const Session& s, const std::string& name) {
  for (size_t i = s.savepoints.size(); i-- > 0;) {
    if (s.savepoints[i] == name) return i;
  }
  throw DbError(sqlstate::kInvalidSavepointSpecification, "savepoint \"" + name + "\" does not exist");
}

}  // namespace

void DefineSavepoint(Session& s, const std::string& name) {
  RequireBlock(s, "SAVEPOINT");
  access::BeginSubTransaction();
  s.savepoints.push_back(name);
}

void ReleaseSavepoint(Session& s, const std::string& name) {
  RequireBlock(s, "RELEASE SAVEPOINT");
  const size_t at = FindSavepoint(s, name);
  while (access::SubTransactionLevel() > static_cast<int>(at)) access::ReleaseSubTransaction();
  ReassignSubtransactionCursors(s, static_cast<int>(at) + 1);
  s.savepoints.resize(at);
}

void RollbackToSavepoint(Session& s, const std::string& name) {
  RequireBlock(s, "ROLLBACK TO SAVEPOINT");
  const size_t at = FindSavepoint(s, name);
  CloseSubtransactionCursors(s, static_cast<int>(at) + 1);
  while (access::SubTransactionLevel() > static_cast<int>(at)) access::RollbackSubTransaction();
  s.savepoints.resize(at + 1);
  s.DropPortals();
  // The savepoint stays: a new level starts where the old one did.
  access::BeginSubTransaction();
  s.block = BlockState::kInBlock;
}

bool AbortInnermostSavepoint(Session& s) {
  if (s.savepoints.empty() || !access::IsTransactionInProgress()) return false;
  if (s.block == BlockState::kInBlock) {
    CloseSubtransactionCursors(s, access::SubTransactionLevel());
    access::RollbackSubTransaction();
  }
  s.block = BlockState::kFailed;
  s.DropPortals();
  return true;
}

}  // namespace hearth::tcop
