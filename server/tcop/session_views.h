// tcop/session_views.h
//
// The system views that need the session or the proc array, registered on
// the backend's SystemViewProvider at backend start:
//   pg_settings      PostgreSQL 15's columns over the settings registry and
//                    this session's values (raw value in the base unit, as
//                    PostgreSQL: shared_buffers 16384 with unit 8kB);
//   pg_stat_activity PostgreSQL 15's columns; one row per used proc slot
//                    (pid, backend_type, state, state_change, wait event
//                    "Lock" while waiting on a heavyweight lock, backend_xid,
//                    backend_xmin); the session columns (datname, usename,
//                    application_name, query, ...) are filled for the
//                    calling backend only and NULL for others (the proc
//                    array does not hold them yet);
//   pg_cursors       this session's SQL cursors (cursor_views.cpp).
#pragma once

#include "catalog/system_views.h"

namespace hearth::tcop {

class Session;

void AddSessionViews(catalog::SystemViewProvider& p, Session& session);
// pg_cursors alone (cursor_views.cpp; AddSessionViews calls it).
void AddPgCursors(catalog::SystemViewProvider& p, Session& session);
// pg_stat_replication and pg_stat_wal_receiver (replication_views.cpp;
// AddSessionViews calls it).
void AddReplicationViews(catalog::SystemViewProvider& p);

}  // namespace hearth::tcop
