// tests/unit/catalog/index_concurrency_test.cpp — unique checks across
// backends: an insert of a key another running transaction inserted waits
// for it, then fails (it committed) or succeeds (it aborted).
#include <chrono>
#include <thread>

#include "catalog/index_ddl.h"
#include "catalog_test_util.h"

using namespace hearth;
using namespace hearth::catalog;
using namespace hearth::catalog::testing;
using types::Value;

namespace {

// A forked backend on proc slot `slot`: inserts `key` into k, reports 'i',
// waits for the parent's verdict, sleeps (so the parent is already waiting
// on it), then commits ('c') or aborts.
pid_t ForkInserter(int slot, int key, int to_child[2], int from_child[2]) {
  REQUIRE(pipe(to_child) == 0);
  REQUIRE(pipe(from_child) == 0);
  pid_t pid = fork();
  if (pid == 0) {
    close(to_child[1]);
    close(from_child[0]);
    int code = 0;
    try {
      storage::ClaimProcSlot(slot, storage::BackendType::kClient);
      access::StartTransaction();
      {
        HeapTableProvider prov;
        prov.StartStatement();
        auto info = prov.Lookup("", "k");
        auto mod = prov.OpenModifier(*info);
        executor::Row row{Value::Int4(key)};
        mod->Insert(row);
      }
      char c = 'i';
      if (write(from_child[1], &c, 1) != 1) _exit(9);
      if (read(to_child[0], &c, 1) != 1) _exit(8);
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      if (c == 'c') {
        access::CommitTransaction();
      } else {
        access::AbortTransaction();
      }
      storage::ReleaseProcSlot();
    } catch (...) {
      code = 3;
    }
    _exit(code);
  }
  close(to_child[0]);
  close(from_child[1]);
  return pid;
}

int WaitChild(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 100;
}

void InsertKey(int key) {
  HeapTableProvider prov;
  prov.StartStatement();
  auto info = prov.Lookup("", "k");
  auto mod = prov.OpenModifier(*info);
  executor::Row row{Value::Int4(key)};
  mod->Insert(row);
}

}  // namespace

TEST_CASE("a unique insert waits for a running inserter of the same key", "[catalog][index]") {
  CatalogCluster cluster;
  InTransaction([] {
    auto stmts = parser::ParseStatements("create table k (a int primary key)");
    CreateTableWithConstraints(stmts[0]->As<parser::CreateTableStmt>());
  });
  for (char verdict : {'c', 'a'}) {
    int to_child[2], from_child[2];
    const int key = verdict == 'c' ? 1 : 2;
    pid_t pid = ForkInserter(1, key, to_child, from_child);
    char c = 0;
    REQUIRE(read(from_child[0], &c, 1) == 1);
    REQUIRE(c == 'i');
    REQUIRE(write(to_child[1], &verdict, 1) == 1);
    const auto start = std::chrono::steady_clock::now();
    access::StartTransaction();
    bool failed = false;
    try {
      InsertKey(key);
    } catch (const DbError& e) {
      failed = true;
      CHECK(e.sqlstate() == "23505");
      CHECK(e.message() == "duplicate key value violates unique constraint \"k_pkey\"");
    }
    const auto waited = std::chrono::steady_clock::now() - start;
    if (failed) {
      access::AbortTransaction();
    } else {
      access::CommitTransaction();
    }
    CHECK(waited >= std::chrono::milliseconds(200));  // it waited for the other transaction
    CHECK(failed == (verdict == 'c'));
    CHECK(WaitChild(pid) == 0);
    close(to_child[1]);
    close(from_child[0]);
  }
  InTransaction([] {
    HeapTableProvider prov;
    CHECK(ScanAll(prov, "k").size() == 2);  // 1 from the child, 2 from us
  });
}
