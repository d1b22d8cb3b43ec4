// replication/walsender.h
//
// A replication connection's backend ("walsender"): after the usual startup
// (tcop/backend_main), a connection whose startup packet said
// replication=true (or database) runs here instead of the SQL message loop.
// Only the simple query protocol; each query is one replication command
// (repl_command.h). Physical mode refuses SQL (0A000); database mode runs SQL
// through the normal query path.
#pragma once

#include "tcop/session.h"

namespace hearth::replication {

// Installed as tcop::BackendStartInfo::walsender_main by the postmaster.
// Returns when the client terminates; throws DbError FATAL to end the session.
void WalSenderMain(tcop::Session& session, bool database_mode);

}  // namespace hearth::replication
