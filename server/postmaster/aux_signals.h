// postmaster/aux_signals.h
//
// Signal handling shared by the auxiliary processes (aux_process.cpp,
// standby_processes.cpp): SIGTERM and SIGUSR2 ask for a clean exit, SIGHUP
// for a reload, SIGQUIT exits at once (status 2: the postmaster resets),
// SIGINT is ignored.
#pragma once

namespace hearth::postmaster {

// Installs the handlers, then unblocks every signal (blocked across fork).
void InstallAuxSignalHandlers();
bool AuxShutdownRequested();
// True once per SIGHUP received.
bool TakeAuxReloadRequest();

}  // namespace hearth::postmaster
