// storage/ipc/interrupts.h
//
// Signal-driven interrupts of a backend, PostgreSQL-style: handlers only set
// flags; the backend acts on them at CheckForInterrupts() points (between
// rows, in sleeps, while waiting for the client).
//   SIGINT   cancel the running statement (CancelRequest via the postmaster)
//   SIGTERM  terminate the session (fast shutdown, pg_terminate_backend)
//   SIGQUIT  exit at once with code 2 (crash reset; shared memory is suspect)
//   SIGHUP   reload the configuration at the next idle point
//   SIGALRM  statement_timeout expired
//   SIGUSR1  a hot standby's replay asks the backend to give way (recovery
//            conflict); the installed RecoveryConflictCheck says whether,
//            and why: a running statement is canceled (ERROR 40001), an
//            idle transaction's session ends (FATAL 40001), a dropped
//            database's session ends (FATAL 57P04)
// Process-local; no shared state. Lives at the bottom of the server stack
// (storage/ipc) so every layer, down to lock waits, can check interrupts.
#pragma once

#include <csignal>
#include <cstdint>

namespace hearth {

extern volatile sig_atomic_t g_cancel_pending;
extern volatile sig_atomic_t g_die_pending;
extern volatile sig_atomic_t g_reload_pending;
extern volatile sig_atomic_t g_timeout_pending;
// Set when a send to the client failed: the next CheckForInterrupts ends
// the session (FATAL 08006) instead of computing rows nobody will read.
extern volatile sig_atomic_t g_client_connection_lost;
extern volatile sig_atomic_t g_recovery_conflict_pending;

// Called outside the signal handler when SIGUSR1 arrived: the conflict
// reason that applies to this process (storage::RecoveryConflict as int;
// 0: none, e.g. it no longer holds the snapshot or pin replay waits for).
using RecoveryConflictCheck = int (*)();
void SetRecoveryConflictCheck(RecoveryConflictCheck check);

// Installs the handlers above, then unblocks every signal (a forked child
// starts with all signals blocked; see postmaster/ForkChild).
void InstallBackendSignalHandlers();

// Unblocks all signals in this process.
void UnblockAllSignals();

// Marks the start/end of a statement: cancels only count while one runs.
// Start arms statement_timeout (milliseconds, 0 = off).
void BeginStatementInterrupts(int64_t statement_timeout_ms);
void EndStatementInterrupts();

// Throws DbError: FATAL 57P01 when termination is pending, FATAL 08006 when
// the client is gone (see SetClientConnectionCheck), ERROR 57014 when a
// cancel or statement timeout is pending during a statement.
void CheckForInterrupts();

// Throws FATAL 57P01 when termination is pending; ignores cancels. For
// waits outside statements (idle, reading the startup packet).
void CheckForTermination();

// authentication_timeout: from accept to the end of startup. When it
// expires the process exits at once (exit code 1, nothing sent), as
// PostgreSQL does, so silent sockets cannot hold connection slots. Uses
// SIGALRM, so it is disarmed (and statement_timeout's handler restored)
// before any statement runs.
void ArmStartupTimeout(int64_t seconds);
// Once the backend holds shared state (its proc slot, during
// authentication): the timeout no longer exits at once but makes the next
// CheckForTermination throw FATAL 57014 "canceling authentication due to
// timeout", so the backend leaves through its normal exit path.
void DeferStartupTimeout();
void DisarmStartupTimeout();

// client_connection_check_interval: while a statement runs,
// CheckForInterrupts polls the client socket at most this often (ms; 0 is
// off) and ends the session (FATAL 08006 "connection to client lost") when
// the client has gone, instead of running the query to its end.
void SetClientConnectionCheck(int fd, int64_t interval_ms);

// Sleeps `usec` microseconds in short steps, checking for interrupts (and
// postmaster death) between them: the building block of pg_sleep and of
// every wait that a cancel must be able to end.
void SleepWithInterrupts(int64_t usec);

}  // namespace hearth
