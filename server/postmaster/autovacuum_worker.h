// postmaster/autovacuum_worker.h
//
// An autovacuum worker: forked by the postmaster when the launcher asks
// (at most autovacuum_max_workers at once), it looks at every table the
// catalog lists (system catalogs and user tables), picks those whose
// statistics cross PostgreSQL's thresholds, runs VACUUM or ANALYZE on each
// in its own transaction, and exits.
//
//   vacuum  when n_dead_tup > autovacuum_vacuum_threshold
//                             + autovacuum_vacuum_scale_factor * reltuples
//           or n_ins_since_vacuum > autovacuum_vacuum_insert_threshold
//                             + autovacuum_vacuum_insert_scale_factor * reltuples
//           (insert threshold -1: never)
//   analyze when n_mod_since_analyze > autovacuum_analyze_threshold
//                             + autovacuum_analyze_scale_factor * reltuples
//
// A table with WITH (autovacuum_enabled = false) is skipped. A table whose
// ShareUpdateExclusiveLock is not free at once is skipped (another worker
// or a manual VACUUM has it). A lock request that conflicts with the
// worker's lock cancels it (SIGINT, storage/lmgr/lock.cpp): the worker logs
// "canceling autovacuum task" and moves on to the next table. SIGTERM (any
// shutdown) ends it (exit 1); SIGQUIT exits at once (crash reset).
#pragma once

#include "storage/lmgr/proc_array.h"

namespace hearth::config {
class Settings;
}

namespace hearth::postmaster {

[[noreturn]] void AutovacuumWorkerMain(storage::ProcNumber slot, config::Settings* settings);

}  // namespace hearth::postmaster
