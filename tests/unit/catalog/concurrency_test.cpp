// tests/unit/catalog/concurrency_test.cpp — a second backend (forked
// process): invalidation, lock conflicts with DROP, concurrent updates.
#include <chrono>

#include "catalog_test_util.h"

using namespace hearth;
using namespace hearth::catalog;
using namespace hearth::catalog::testing;
using executor::ModifyResult;
using executor::Row;
using types::Value;

namespace {

// A forked "backend" on proc slot `slot`, driven step by step over pipes.
// The body returns normally (exit 0) or throws (exit 3).
class Backend {
 public:
  template <typename Body>
  Backend(int slot, Body body) {
    REQUIRE(pipe(to_) == 0);
    REQUIRE(pipe(from_) == 0);
    pid_ = fork();
    if (pid_ == 0) {
      close(to_[1]);
      close(from_[0]);
      int code = 0;
      try {
        storage::ClaimProcSlot(slot, storage::BackendType::kClient);
        body(*this);
        storage::ReleaseProcSlot();
      } catch (...) {
        code = 3;
      }
      _exit(code);
    }
    close(to_[0]);
    close(from_[1]);
  }
  ~Backend() {
    if (pid_ > 0 && !waited_) Wait();
  }
  // Child side.
  char Recv() { return ReadByte(to_[0]); }
  void Send(char c) { WriteByte(from_[1], c); }
  // Parent side.
  void Tell(char c) { WriteByte(to_[1], c); }
  char Hear() { return ReadByte(from_[0]); }
  int Wait() {
    close(to_[1]);
    int status = 0;
    waitpid(pid_, &status, 0);
    waited_ = true;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 100;
  }

 private:
  static char ReadByte(int fd) {
    char c = 0;
    return read(fd, &c, 1) == 1 ? c : '?';
  }
  static void WriteByte(int fd, char c) {
    if (write(fd, &c, 1) != 1) _exit(9);
  }
  int to_[2];
  int from_[2];
  pid_t pid_ = -1;
  bool waited_ = false;
};

executor::RowId FirstRid(HeapTableProvider& prov, const std::string& table, Row* out) {
  prov.StartStatement();
  auto info = prov.Lookup("", table);
  auto scan = prov.OpenScan(*info, false);
  executor::RowId rid = executor::kInvalidRowId;
  if (!scan->Next(*out, &rid)) return executor::kInvalidRowId;
  return rid;
}

}  // namespace

TEST_CASE("Another backend sees a CREATE only after commit, and a DROP after AcceptInvalidations", "[catalog][fork]") {
  CatalogCluster c;
  Backend other(1, [](Backend& me) {
    me.Recv();
    access::StartTransaction();
    AcceptInvalidations();
    me.Send(LookupRelation("", "v") == nullptr ? 'N' : 'Y');  // uncommitted: invisible
    access::CommitTransaction();
    me.Recv();
    access::StartTransaction();
    bool changed = AcceptInvalidations();
    me.Send(changed && LookupRelation("", "v") != nullptr ? 'Y' : 'N');
    access::CommitTransaction();
    me.Recv();
    access::StartTransaction();
    me.Send(LookupRelation("", "v") != nullptr ? 'Y' : 'N');  // stale cache until...
    AcceptInvalidations();
    me.Send(LookupRelation("", "v") != nullptr ? 'Y' : 'N');  // ...invalidations are accepted
    access::CommitTransaction();
  });
  access::StartTransaction();
  Create("create table v (a int)");
  other.Tell('a');
  CHECK(other.Hear() == 'N');
  access::CommitTransaction();
  other.Tell('b');
  CHECK(other.Hear() == 'Y');
  InTransaction([&] { DropTables(Names({"v"}), false); });
  other.Tell('c');
  CHECK(other.Hear() == 'Y');
  CHECK(other.Hear() == 'N');
  CHECK(other.Wait() == 0);
}

TEST_CASE("DROP TABLE waits for a reader's transaction; a waiting reader then finds no table", "[catalog][fork][lock]") {
  CatalogCluster c;
  InTransaction([&] {
    Create("create table w (a int)");
    Create("create table w2 (a int)");
  });
  Oid w_oid = 0;
  InTransaction([&] { w_oid = LookupRelation("", "w")->oid; });

  Backend reader(1, [](Backend& me) {
    HeapTableProvider prov;
    me.Recv();
    access::StartTransaction();
    prov.StartStatement();
    me.Send(prov.Lookup("", "w").has_value() ? 'r' : '-');
    me.Recv();
    usleep(300 * 1000);
    access::CommitTransaction();
    // Second act: blocks on the parent's AccessExclusiveLock on w2.
    me.Recv();
    access::StartTransaction();
    prov.StartStatement();
    me.Send(prov.Lookup("", "w2").has_value() ? 'Y' : 'N');
    access::CommitTransaction();
  });
  reader.Tell('a');
  REQUIRE(reader.Hear() == 'r');
  access::StartTransaction();
  CHECK(storage::LockAcquire(RelationLockTag(w_oid), storage::LockMode::kAccessExclusive, /*dont_wait=*/true) ==
        storage::LockAcquireResult::kNotAvailable);
  reader.Tell('b');
  auto t0 = std::chrono::steady_clock::now();
  DropTables(Names({"w"}), false);  // waits for the reader's commit
  auto waited = std::chrono::steady_clock::now() - t0;
  CHECK(waited >= std::chrono::milliseconds(200));
  access::CommitTransaction();

  access::StartTransaction();
  DropTables(Names({"w2"}), false);
  reader.Tell('c');
  usleep(200 * 1000);  // the reader is now waiting for our lock
  access::CommitTransaction();
  CHECK(reader.Hear() == 'N');
  CHECK(reader.Wait() == 0);
}

TEST_CASE("Concurrent update: Read Committed gets kConcurrentlyUpdated, Repeatable Read 40001", "[catalog][fork][mvcc]") {
  CatalogCluster c;
  InTransaction([&] {
    Create("create table cu (a int)");
    HeapTableProvider prov;
    prov.StartStatement();
    prov.OpenModifier(*prov.Lookup("", "cu"))->Insert(Row{Value::Int4(1)});
  });
  // The other backend adds 10 to the row each time it is told to.
  Backend updater(1, [](Backend& me) {
    HeapTableProvider prov;
    while (me.Recv() == 'u') {
      access::StartTransaction();
      Row row;
      executor::RowId rid = FirstRid(prov, "cu", &row);
      row[0].i += 10;
      auto mod = prov.OpenModifier(*prov.Lookup("", "cu"));
      me.Send(mod->Update(rid, row, nullptr, true) == ModifyResult::kOk ? 'k' : 'x');
      access::CommitTransaction();
    }
  });

  HeapTableProvider prov;
  // Repeatable Read: the snapshot predates the other update → 40001.
  access::StartTransaction();
  access::SetTransactionIsolation(access::IsolationLevel::kRepeatableRead);
  Row row;
  executor::RowId rid = FirstRid(prov, "cu", &row);
  CHECK(row[0].i == 1);
  updater.Tell('u');
  REQUIRE(updater.Hear() == 'k');
  prov.StartStatement();
  {
    auto mod = prov.OpenModifier(*prov.Lookup("", "cu"));
    RequireDbError([&] { mod->Update(rid, Row{Value::Int4(5)}, nullptr, true); }, "40001",
                   "could not serialize access due to concurrent update");
  }
  access::AbortTransaction();

  // Read Committed: told, then follows to the newest version.
  access::StartTransaction();
  rid = FirstRid(prov, "cu", &row);
  CHECK(row[0].i == 11);
  updater.Tell('u');
  REQUIRE(updater.Hear() == 'k');
  prov.StartStatement();
  auto mod = prov.OpenModifier(*prov.Lookup("", "cu"));
  CHECK(mod->Update(rid, Row{Value::Int4(5)}, nullptr, true) == ModifyResult::kConcurrentlyUpdated);
  Row latest_row;
  executor::RowId latest = executor::kInvalidRowId;
  REQUIRE(mod->FetchLatestVersion(rid, &latest_row, &latest));
  CHECK(latest_row[0].i == 21);
  CHECK(latest != rid);
  CHECK(mod->Update(latest, Row{Value::Int4(5)}, nullptr, true) == ModifyResult::kOk);
  mod.reset();
  access::CommitTransaction();
  updater.Tell('q');
  CHECK(updater.Wait() == 0);
  InTransaction([&] {
    auto rows = ScanAll(prov, "cu");
    REQUIRE(rows.size() == 1);
    CHECK(rows[0][0].i == 5);
  });
}

TEST_CASE("A writer that waited for TRUNCATE's lock writes into the new file", "[catalog][fork][lock]") {
  CatalogCluster c;
  InTransaction([&] {
    Create("create table tw (a int)");
    HeapTableProvider prov;
    prov.StartStatement();
    prov.OpenModifier(*prov.Lookup("", "tw"))->Insert(Row{Value::Int4(1)});
  });
  Backend writer(1, [](Backend& me) {
    HeapTableProvider prov;
    executor::TableInfo info;
    access::StartTransaction();
    prov.StartStatement();
    info = *prov.Lookup("", "tw");  // cached: the old relfilenode
    access::CommitTransaction();
    me.Send('c');
    me.Recv();
    access::StartTransaction();
    prov.StartStatement();
    auto mod = prov.OpenModifier(info);  // waits for the TRUNCATE to commit
    mod->Insert(Row{Value::Int4(2)});
    mod.reset();
    access::CommitTransaction();
    me.Send('k');
  });
  REQUIRE(writer.Hear() == 'c');
  access::StartTransaction();
  TruncateTables(Names({"tw"}));
  writer.Tell('g');
  usleep(200 * 1000);
  access::CommitTransaction();
  CHECK(writer.Hear() == 'k');
  CHECK(writer.Wait() == 0);
  HeapTableProvider prov;
  InTransaction([&] {
    auto rows = ScanAll(prov, "tw");
    REQUIRE(rows.size() == 1);
    CHECK(rows[0][0].i == 2);
  });
}
