// tcop/savepoints.h
//
// SAVEPOINT, RELEASE [SAVEPOINT] and ROLLBACK TO [SAVEPOINT] on the
// session's savepoint stack (Session::savepoints, one name per open
// subtransaction level of access/transam; the newest of a name wins), with
// PostgreSQL's errors: 25P01 outside a transaction block, 3B001 for an
// unknown name. ROLLBACK TO also leaves a failed block: it rolls back to the
// savepoint and starts it again.
#pragma once

#include <string>

namespace hearth::tcop {

class Session;

void DefineSavepoint(Session& s, const std::string& name);
void ReleaseSavepoint(Session& s, const std::string& name);
void RollbackToSavepoint(Session& s, const std::string& name);

// After an error inside a block that has savepoints: rolls back only the
// innermost level (once; the block is then failed until ROLLBACK TO).
// Returns false when the block has no savepoint (the caller aborts it all).
bool AbortInnermostSavepoint(Session& s);

}  // namespace hearth::tcop
