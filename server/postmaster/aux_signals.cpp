// postmaster/aux_signals.cpp
//
// Principal entry point: InstallAuxSignalHandlers.
#include "postmaster/aux_signals.h"

#include <signal.h>
#include <unistd.h>

#include "storage/ipc/interrupts.h"

namespace hearth::postmaster {

namespace {

volatile sig_atomic_t g_shutdown_requested = 0;
volatile sig_atomic_t g_reload_requested = 0;

void OnShutdownSignal(int) { g_shutdown_requested = 1; }
void OnReloadSignal(int) { g_reload_requested = 1; }
void OnQuitSignal(int) { _exit(2); }

void InstallHandler(int signo, void (*fn)(int)) {
  struct sigaction sa{};
  sa.sa_handler = fn;
  sigemptyset(&sa.sa_mask);
  sigaction(signo, &sa, nullptr);
}

}  // namespace

void InstallAuxSignalHandlers() {
  InstallHandler(SIGTERM, OnShutdownSignal);
  InstallHandler(SIGUSR2, OnShutdownSignal);
  InstallHandler(SIGINT, SIG_IGN);
  InstallHandler(SIGHUP, OnReloadSignal);
  InstallHandler(SIGQUIT, OnQuitSignal);
  UnblockAllSignals();
}

bool AuxShutdownRequested() { return g_shutdown_requested != 0; }

bool TakeAuxReloadRequest() {
  if (g_reload_requested == 0) return false;
  g_reload_requested = 0;
  return true;
}

}  // namespace hearth::postmaster
