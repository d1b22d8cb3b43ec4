// postmaster/aux_process.h
//
// The auxiliary processes: walwriter, bgwriter, checkpointer and the
// autovacuum launcher (which asks the postmaster for a worker, SIGUSR1, every
// autovacuum_naptime while autovacuum is on). Each runs a
// loop that sleeps its configured delay, does one round of work, and exits
// cleanly on SIGTERM/SIGUSR2 or when the postmaster dies. Their rounds are
// filled in by the WAL and storage subsystems as those arrive.
#pragma once

#include "postmaster/child_registry.h"

namespace hearth::config {
class Settings;
}

namespace hearth::postmaster {

[[noreturn]] void AuxProcessMain(ChildKind kind, storage::ProcNumber slot, config::Settings* settings);

}  // namespace hearth::postmaster
