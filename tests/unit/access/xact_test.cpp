#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <vector>

#include "access/transam/clog.h"
#include "access/transam/varsup.h"
#include "access/transam/xact.h"
#include "access_test_util.h"
#include "common/error/db_error.h"

using namespace hearth::access;
using hearth::access::testing::TransamCluster;
using hearth::storage::MyProc;

namespace {
std::vector<XactEvent> g_events;
void Record(XactEvent e, void* arg) {
  g_events.push_back(e);
  if (arg != nullptr && e == XactEvent::kPreCommit) throw hearth::DbError("23505", "pre-commit check failed");
}

// Runs one committed write transaction in a forked "backend" on slot `slot`.
TransactionId CommitInChild(int slot) {
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  pid_t pid = fork();
  if (pid == 0) {
    try {
      hearth::storage::ClaimProcSlot(slot, hearth::storage::BackendType::kClient);
      // The parent is inside a read-only transaction; forget the inherited
      // per-backend state (a server never forks mid-transaction).
      AbortTransaction();
      StartTransaction();
      TransactionId x = GetCurrentTransactionId();
      CommitTransaction();
      if (write(fds[1], &x, sizeof(x)) != sizeof(x)) _exit(2);
    } catch (...) {
      _exit(3);
    }
    _exit(0);
  }
  close(fds[1]);  // so a child that dies early ends the read
  TransactionId x = 0;
  ssize_t n = read(fds[0], &x, sizeof(x));
  int status = 0;
  waitpid(pid, &status, 0);
  close(fds[0]);
  REQUIRE(n == sizeof(x));
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  return x;
}
}  // namespace

TEST_CASE("Commit and abort record the outcome; read-only transactions need no xid", "[xact]") {
  TransamCluster c;
  StartTransaction();
  CHECK(IsTransactionInProgress());
  CHECK(GetCurrentTransactionStartTimestamp() > 1600000000LL * 1000000);
  CHECK(GetCurrentTransactionIdIfAny() == kInvalidTransactionId);
  CommitTransaction();
  CHECK_FALSE(IsTransactionInProgress());
  CHECK(hearth::access::ReadNextTransactionId() == kFirstNormalTransactionId);  // none consumed

  StartTransaction();
  TransactionId x1 = GetCurrentTransactionId();
  CHECK(GetCurrentTransactionId() == x1);  // assigned once
  CHECK(MyProc()->xid.load() == x1);
  CHECK(TransactionIdIsCurrentTransactionId(x1));
  CHECK(hearth::storage::LockHeldByMe(hearth::storage::LockTag::Transaction(x1), hearth::storage::LockMode::kExclusive));
  CHECK(TransactionIdGetStatus(x1) == XidStatus::kInProgress);
  CommitTransaction();
  CHECK(TransactionIdGetStatus(x1) == XidStatus::kCommitted);
  CHECK(MyProc()->xid.load() == 0);
  CHECK(MyProc()->xmin.load() == 0);
  CHECK(hearth::storage::ProcArray()->latest_completed_xid.load() == x1);
  CHECK_FALSE(hearth::storage::LockHeldByMe(hearth::storage::LockTag::Transaction(x1), hearth::storage::LockMode::kExclusive));
  CHECK_FALSE(TransactionIdIsCurrentTransactionId(x1));

  StartTransaction();
  TransactionId x2 = GetCurrentTransactionId();
  CHECK(x2 == x1 + 1);
  AbortTransaction();
  AbortTransaction();  // idempotent
  CHECK(TransactionIdGetStatus(x2) == XidStatus::kAborted);
  CHECK(hearth::storage::GetLockStatus(hearth::storage::LockTag::Transaction(x2)).holders == 0);
}

TEST_CASE("Command ids advance only when used", "[xact]") {
  TransamCluster c;
  StartTransaction();
  CHECK(GetCurrentCommandId(false) == 0);
  CommandCounterIncrement();
  CHECK(GetCurrentCommandId(false) == 0);  // unused: not consumed
  CHECK(GetCurrentCommandId(true) == 0);
  CommandCounterIncrement();
  CHECK(GetCurrentCommandId(false) == 1);
  const Snapshot& s = GetTransactionSnapshot();
  CHECK(s.curcid == 1);
  GetCurrentCommandId(true);
  CommandCounterIncrement();
  CHECK(s.curcid == 2);  // the live snapshot follows
  CommitTransaction();
  StartTransaction();
  CHECK(GetCurrentCommandId(false) == 0);
  CommitTransaction();
}

TEST_CASE("Callbacks run at pre-commit, commit and abort; a failing pre-commit aborts", "[xact]") {
  TransamCluster c;
  g_events.clear();
  RegisterXactCallback(Record, nullptr);
  StartTransaction();
  CommitTransaction();
  StartTransaction();
  AbortTransaction();
  CHECK(g_events == std::vector<XactEvent>{XactEvent::kPreCommit, XactEvent::kCommit, XactEvent::kAbort});
  UnregisterXactCallback(Record, nullptr);

  int token = 1;
  RegisterXactCallback(Record, &token);
  g_events.clear();
  StartTransaction();
  TransactionId x = GetCurrentTransactionId();
  CHECK_THROWS_AS(CommitTransaction(), hearth::DbError);
  CHECK(IsTransactionInProgress());
  CHECK(TransactionIdGetStatus(x) == XidStatus::kInProgress);
  AbortTransaction();
  CHECK(TransactionIdGetStatus(x) == XidStatus::kAborted);
  CHECK(g_events == std::vector<XactEvent>{XactEvent::kPreCommit, XactEvent::kAbort});
  UnregisterXactCallback(Record, &token);
  g_events.clear();
  StartTransaction();
  CommitTransaction();
  CHECK(g_events.empty());
}

TEST_CASE("Read Committed takes a snapshot per statement, Repeatable Read one per transaction", "[xact]") {
  TransamCluster c;
  StartTransaction();  // read committed (default)
  CHECK(CurrentIsolationLevel() == IsolationLevel::kReadCommitted);
  TransactionId before = GetTransactionSnapshot().xmax;
  TransactionId other = CommitInChild(2);
  const Snapshot& rc = GetTransactionSnapshot();
  CHECK(rc.xmax == other + 1);
  CHECK_FALSE(rc.XidInProgress(other));
  CHECK(before <= other);
  CommitTransaction();

  StartTransaction();
  SetTransactionIsolation(IsolationLevel::kRepeatableRead);
  const Snapshot& rr = GetTransactionSnapshot();
  TransactionId xmax = rr.xmax;
  CHECK(MyProc()->xmin.load() == xmax);
  TransactionId other2 = CommitInChild(3);
  const Snapshot& rr2 = GetTransactionSnapshot();
  CHECK(rr2.xmax == xmax);
  CHECK(rr2.XidInProgress(other2));  // committed after our snapshot: invisible
  CHECK(GetLatestSnapshot().xmax == other2 + 1);
  CHECK(MyProc()->xmin.load() == xmax);  // still protecting the transaction snapshot
  CHECK_THROWS_AS(SetTransactionIsolation(IsolationLevel::kReadCommitted), hearth::DbError);
  CommitTransaction();
  CHECK(MyProc()->xmin.load() == 0);

  StartTransaction();
  try {
    SetTransactionIsolation(IsolationLevel::kSerializable);
    FAIL("serializable accepted");
  } catch (const hearth::DbError& e) {
    CHECK(e.sqlstate() == "0A000");
  }
  CommitTransaction();
  SetDefaultTransactionIsolation(IsolationLevel::kRepeatableRead);
  StartTransaction();
  CHECK(CurrentIsolationLevel() == IsolationLevel::kRepeatableRead);
  CommitTransaction();
  SetDefaultTransactionIsolation(IsolationLevel::kReadCommitted);
}

TEST_CASE("XactLockTableWait returns when a writing transaction commits", "[xact][fork]") {
  TransamCluster c;
  int go[2], ready[2];
  REQUIRE(pipe(go) == 0);
  REQUIRE(pipe(ready) == 0);
  pid_t pid = fork();
  if (pid == 0) {
    try {
      hearth::storage::ClaimProcSlot(2, hearth::storage::BackendType::kClient);
      StartTransaction();
      TransactionId x = GetCurrentTransactionId();
      if (write(ready[1], &x, sizeof(x)) != sizeof(x)) _exit(2);
      char b;
      if (read(go[0], &b, 1) != 1) _exit(3);
      usleep(150 * 1000);
      CommitTransaction();
    } catch (...) {
      _exit(4);
    }
    _exit(0);
  }
  close(ready[1]);
  close(go[0]);
  TransactionId x = 0;
  REQUIRE(read(ready[0], &x, sizeof(x)) == sizeof(x));
  CHECK(TransactionIdIsInProgress(x));
  CHECK_FALSE(hearth::storage::ConditionalXactLockTableWait(x));
  REQUIRE(write(go[1], "g", 1) == 1);
  hearth::storage::XactLockTableWait(x);
  // Woken only after the commit is in the clog and out of the proc array.
  CHECK_FALSE(TransactionIdIsInProgress(x));
  CHECK(TransactionIdGetStatus(x) == XidStatus::kCommitted);
  int status = 0;
  waitpid(pid, &status, 0);
  CHECK(WEXITSTATUS(status) == 0);
  close(go[1]);
  close(ready[0]);
}

TEST_CASE("Two transactions waiting for each other's xid: one fails with 40P01, the other proceeds", "[xact][fork]") {
  TransamCluster c;
  struct Shared {
    std::atomic<TransactionId> xid[2];
    std::atomic<int> result[2];
  };
  void* m = mmap(nullptr, sizeof(Shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  REQUIRE(m != MAP_FAILED);
  auto* sh = new (m) Shared();
  auto start = std::chrono::steady_clock::now();
  pid_t pids[2];
  for (int me = 0; me < 2; me++) {
    pids[me] = fork();
    if (pids[me] != 0) continue;
    int rc = 9;
    try {
      hearth::storage::ClaimProcSlot(2 + me, hearth::storage::BackendType::kClient);
      hearth::storage::SetLockTimeouts(200, 0);
      StartTransaction();
      sh->xid[me] = GetCurrentTransactionId();
      for (int i = 0; i < 5000 && sh->xid[1 - me].load() == 0; i++) usleep(1000);
      try {
        hearth::storage::XactLockTableWait(sh->xid[1 - me]);  // "row updated by the other"
        rc = 0;
        CommitTransaction();
      } catch (const hearth::DbError& e) {
        rc = e.sqlstate() == "40P01" && e.detail().find("on transaction") != std::string::npos ? 1 : 2;
        AbortTransaction();
      }
    } catch (...) {
      rc = 8;
    }
    _exit(rc);
  }
  int rcs[2];
  for (int i = 0; i < 2; i++) {
    int status = 0;
    waitpid(pids[i], &status, 0);
    rcs[i] = WIFEXITED(status) ? WEXITSTATUS(status) : 100;
  }
  auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
  INFO("results " << rcs[0] << " " << rcs[1]);
  CHECK(rcs[0] + rcs[1] == 1);  // one victim (1), one survivor (0)
  CHECK(elapsed < 2000);
  int victim = rcs[0] == 1 ? 0 : 1;
  CHECK(TransactionIdGetStatus(sh->xid[victim]) == XidStatus::kAborted);
  CHECK(TransactionIdGetStatus(sh->xid[1 - victim]) == XidStatus::kCommitted);
  munmap(m, sizeof(Shared));
}
