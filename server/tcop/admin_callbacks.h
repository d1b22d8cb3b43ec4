// tcop/admin_callbacks.h
//
// Connects the administration functions of the type library
// (pg_relation_size & co, pg_current_wal_lsn & co, regclass I/O) to the
// catalog, smgr and WAL of this server process.
#pragma once

#include "utils/adt/func_context.h"

namespace hearth::tcop {

// Fills the relation_sizes and wal_position callbacks and installs the
// regclass name hooks for this process. Called once per backend.
void InstallAdminCallbacks(types::SessionCallbacks& callbacks);

class Session;
// pg_cancel_backend / pg_terminate_backend (backend_signals.cpp); warnings
// go to session `s`.
void InstallBackendSignalCallback(Session& s, types::SessionCallbacks& callbacks);

}  // namespace hearth::tcop
