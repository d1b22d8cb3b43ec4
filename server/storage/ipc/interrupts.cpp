// storage/ipc/interrupts.cpp
//
// Principal entry points: InstallBackendSignalHandlers, CheckForInterrupts,
// Begin/EndStatementInterrupts.
#include "storage/ipc/interrupts.h"

#include <poll.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "common/error/db_error.h"

namespace hearth {

volatile sig_atomic_t g_cancel_pending = 0;
volatile sig_atomic_t g_die_pending = 0;
volatile sig_atomic_t g_reload_pending = 0;
volatile sig_atomic_t g_timeout_pending = 0;
volatile sig_atomic_t g_client_connection_lost = 0;
volatile sig_atomic_t g_recovery_conflict_pending = 0;

namespace {

volatile sig_atomic_t g_in_statement = 0;

int g_client_fd = -1;
int64_t g_client_check_interval_ms = 0;
int64_t g_next_client_check_ms = 0;

void OnCancel(int) {
  if (g_in_statement) g_cancel_pending = 1;
}
void OnDie(int) { g_die_pending = 1; }
void OnQuit(int) { _exit(2); }
void OnHup(int) { g_reload_pending = 1; }
void OnAlarm(int) {
  if (g_in_statement) g_timeout_pending = 1;
}
void OnRecoveryConflict(int) { g_recovery_conflict_pending = 1; }
void OnStartupTimeout(int) { _exit(1); }
volatile sig_atomic_t g_auth_timeout_pending = 0;
void OnAuthTimeout(int) { g_auth_timeout_pending = 1; }

// No SA_RESTART: a blocking recv/send returns EINTR so the flag is seen.
void Install(int signo, void (*fn)(int)) {
  struct sigaction sa{};
  sa.sa_handler = fn;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;
  sigaction(signo, &sa, nullptr);
}

// Whether ITIMER_REAL may be running: disarming a timer that was never armed
// (every statement without a statement_timeout) would cost a syscall.
bool g_timer_armed = false;

void SetTimer(int64_t ms) {
  if (ms == 0 && !g_timer_armed) return;
  g_timer_armed = ms > 0;
  struct itimerval t{};
  t.it_value.tv_sec = ms / 1000;
  t.it_value.tv_usec = (ms % 1000) * 1000;
  setitimer(ITIMER_REAL, &t, nullptr);
}

int64_t MonotonicMs() {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);  // vDSO, no syscall
  return static_cast<int64_t>(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
}

// True when the peer closed or reset the connection. Unread input does not
// count: a pipelining client is still there.
bool ClientGone(int fd) {
  pollfd pfd{fd, POLLRDHUP, 0};
  if (poll(&pfd, 1, 0) <= 0) return false;
  return (pfd.revents & (POLLRDHUP | POLLHUP | POLLERR)) != 0;
}

RecoveryConflictCheck g_recovery_conflict_check = nullptr;

// PostgreSQL's errdetail_recovery_conflict texts (reason values as
// storage::RecoveryConflict).
const char* RecoveryConflictDetail(int reason) {
  switch (reason) {
    case 1: return "User query might have needed to see row versions that must be removed.";
    case 2: return "User was holding shared buffer pin for too long.";
    default: return "User was connected to a database that must be dropped.";
  }
}

// The conflict that applies now, or 0. Consumes the pending flag.
int TakeRecoveryConflict() {
  if (!g_recovery_conflict_pending) return 0;
  g_recovery_conflict_pending = 0;
  return g_recovery_conflict_check != nullptr ? g_recovery_conflict_check() : 0;
}

[[noreturn]] void ThrowRecoveryConflict(int reason, bool in_statement) {
  const char* code = reason == 3 ? "57P04" : "40001";
  if (in_statement && reason != 3) {
    throw DbError(code, "canceling statement due to conflict with recovery").WithDetail(RecoveryConflictDetail(reason));
  }
  throw DbError(code, "terminating connection due to conflict with recovery", Severity::kFatal)
      .WithDetail(RecoveryConflictDetail(reason))
      .WithHint("In a moment you should be able to reconnect to the database and repeat your command.");
}

[[noreturn]] void ThrowClientLost() {
  throw DbError(sqlstate::kConnectionFailure, "connection to client lost", Severity::kFatal);
}

void CheckClientConnection() {
  if (g_client_connection_lost) ThrowClientLost();
  if (g_client_check_interval_ms <= 0 || g_client_fd < 0 || !g_in_statement) return;
  const int64_t now = MonotonicMs();
  if (now < g_next_client_check_ms) return;
  g_next_client_check_ms = now + g_client_check_interval_ms;
  if (ClientGone(g_client_fd)) ThrowClientLost();
}

}  // namespace

void ArmStartupTimeout(int64_t seconds) {
  Install(SIGALRM, OnStartupTimeout);
  SetTimer(seconds * 1000);
}

void DeferStartupTimeout() { Install(SIGALRM, OnAuthTimeout); }

void DisarmStartupTimeout() {
  SetTimer(0);
  Install(SIGALRM, OnAlarm);
  g_auth_timeout_pending = 0;
}

void SetRecoveryConflictCheck(RecoveryConflictCheck check) { g_recovery_conflict_check = check; }

void SetClientConnectionCheck(int fd, int64_t interval_ms) {
  g_client_fd = fd;
  g_client_check_interval_ms = interval_ms;
  g_next_client_check_ms = 0;
}

void InstallBackendSignalHandlers() {
  Install(SIGINT, OnCancel);
  Install(SIGTERM, OnDie);
  Install(SIGQUIT, OnQuit);
  Install(SIGHUP, OnHup);
  Install(SIGALRM, OnAlarm);
  Install(SIGUSR1, OnRecoveryConflict);
  signal(SIGPIPE, SIG_IGN);
  signal(SIGUSR2, SIG_IGN);
  UnblockAllSignals();
}

void UnblockAllSignals() {
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
}

void BeginStatementInterrupts(int64_t statement_timeout_ms) {
  g_cancel_pending = 0;
  g_timeout_pending = 0;
  g_in_statement = 1;
  if (statement_timeout_ms > 0) SetTimer(statement_timeout_ms);
}

void EndStatementInterrupts() {
  g_in_statement = 0;
  SetTimer(0);
  g_cancel_pending = 0;
  g_timeout_pending = 0;
}

void CheckForTermination() {
  if (g_auth_timeout_pending) {
    g_auth_timeout_pending = 0;
    throw DbError(sqlstate::kQueryCanceled, "canceling authentication due to timeout", Severity::kFatal);
  }
  if (g_die_pending) {
    g_die_pending = 0;
    throw DbError(sqlstate::kAdminShutdown, "terminating connection due to administrator command",
                  Severity::kFatal);
  }
  // Between statements a conflict can only end the session (the client is
  // not waiting for a statement's result).
  if (!g_in_statement) {
    if (const int reason = TakeRecoveryConflict()) ThrowRecoveryConflict(reason, false);
  }
}

void CheckForInterrupts() {
  CheckForTermination();
  CheckClientConnection();
  if (const int reason = TakeRecoveryConflict()) ThrowRecoveryConflict(reason, true);
  if (g_timeout_pending) {
    g_timeout_pending = 0;
    g_cancel_pending = 0;
    throw DbError(sqlstate::kQueryCanceled, "canceling statement due to statement timeout");
  }
  if (g_cancel_pending) {
    g_cancel_pending = 0;
    throw DbError(sqlstate::kQueryCanceled, "canceling statement due to user request");
  }
}

void SleepWithInterrupts(int64_t usec) {
  static const pid_t parent = getppid();
  while (usec > 0) {
    CheckForInterrupts();
    if (getppid() != parent) {
      throw DbError(sqlstate::kAdminShutdown, "terminating connection because the postmaster died",
                    Severity::kFatal);
    }
    int64_t step = usec < 10000 ? usec : 10000;
    struct timespec ts{static_cast<time_t>(step / 1000000), static_cast<long>((step % 1000000) * 1000)};
    nanosleep(&ts, nullptr);
    usec -= step;
  }
  CheckForInterrupts();
}

}  // namespace hearth
