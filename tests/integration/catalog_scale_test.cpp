// Catalogs and storage at scale, end to end on a real hearthd:
// - relations far outnumbering the shared relation-size cache keep exact
//   sizes (eviction, reload from the files), also after a restart;
// - one transaction creates 10,000 tables and another drops them with
//   default settings (lock table), surviving a crash in between, with the
//   catalog indexes sound after WAL replay;
// - DROP TABLE of hundreds of names in one statement: rollback keeps every
//   file, commit removes them, and the space returns while another session
//   that read the table stays connected (its descriptor is released at its
//   next statement; auxiliary processes release theirs on their own);
// - VACUUM without a table list processes the system catalogs.
#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <string>
#include <vector>

#include "raw_session.h"
#include "test_server.h"

using namespace hearth::testing;

namespace {

// Runs `stmt(i)` for i in [first, last], `per_message` statements a Query.
template <typename StmtFn>
bool ExecMany(RawConn& c, int first, int last, int per_message, StmtFn stmt) {
  for (int from = first; from <= last; from += per_message) {
    std::string sql;
    for (int i = from; i <= last && i < from + per_message; ++i) sql += stmt(i) + ";";
    if (!Exec(c, sql, 120000)) return false;
  }
  return true;
}

std::string Values(int first, int last) {
  std::string v;
  for (int i = first; i <= last; ++i)
    v += (i == first ? "(" : ", (") + std::to_string(i) + ", " + std::to_string(i * 7) + ")";
  return v;
}

// Files of user relations (relfilenode >= 16384) of the default database (<datadir>/base/5).
int CountRelationFiles(const std::string& datadir) {
  int n = 0;
  DIR* d = opendir((datadir + "/base/5").c_str());
  if (d == nullptr) return -1;
  while (dirent* e = readdir(d)) {
    if (std::atol(e->d_name) >= 16384) n++;
  }
  closedir(d);
  return n;
}

// The descriptors process `pid` holds on `path` (deleted or not): their sizes.
std::vector<off_t> OpenDescriptorSizes(pid_t pid, const std::string& path) {
  std::vector<off_t> sizes;
  std::string dir = "/proc/" + std::to_string(pid) + "/fd";
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return sizes;
  while (dirent* e = readdir(d)) {
    if (e->d_name[0] == '.') continue;
    std::string link = dir + "/" + e->d_name;
    char target[4096];
    ssize_t n = readlink(link.c_str(), target, sizeof(target) - 1);
    if (n <= 0) continue;
    target[n] = '\0';
    std::string t(target);
    if (t != path && t != path + " (deleted)") continue;
    struct stat st {};
    if (stat(link.c_str(), &st) == 0) sizes.push_back(st.st_size);
  }
  closedir(d);
  return sizes;
}

const char* const kCatalogIndexes[] = {"hearth_class_oid_index", "hearth_class_relname_nsp_index",
                                       "hearth_attribute_relid_attnum_index", "hearth_index_indrelid_index",
                                       "hearth_index_indname_nsp_index"};

}  // namespace

TEST_CASE("relation sizes stay exact when relations outnumber the size cache", "[catalog_scale_test]") {
  // 1024 forks cached at most; 400 tables with a primary key are 800
  // relations and 2,400 forks (the never-created ones are cached as absent).
  // (synchronous_commit off only to keep the test quick; a clean restart
  // flushes everything anyway.)
  TestServer server(
      Settings{{"relation_size_cache", "1024"}, {"shared_buffers", "1MB"}, {"synchronous_commit", "off"}});
  constexpr int kTables = 400;
  auto rows_of = [](int i) { return (i % 4) * 200; };  // 0..600 rows: 0 to 4 heap pages
  {
    RawConn c(server.port());
    REQUIRE(c.ok());
    c.Startup();
    REQUIRE(ExecMany(c, 1, kTables, 50,
                     [](int i) { return "create table t" + std::to_string(i) + " (id int primary key, v int)"; }));
    for (int i = 1; i <= kTables; ++i) {
      if (rows_of(i) > 0) REQUIRE(Exec(c, "insert into t" + std::to_string(i) + " values " + Values(1, rows_of(i))));
    }
  }
  // Per table: its row count, and the last row found through the index.
  auto check_all = [&](int extra) {
    RawConn c(server.port());
    REQUIRE(c.ok());
    c.Startup();
    for (int from = 1; from <= kTables; from += 50) {
      std::string sql;
      std::vector<std::string> want;
      for (int i = from; i < from + 50 && i <= kTables; ++i) {
        const int n = rows_of(i) + extra;
        sql += "select count(*) from t" + std::to_string(i) + "; select coalesce(max(v), 0) from t" +
               std::to_string(i) + " where id = " + std::to_string(n) + ";";
        want.push_back(std::to_string(n));
        want.push_back(std::to_string(n * 7));
      }
      auto msgs = c.Query(sql, 60000);
      INFO("tables from t" << from);
      REQUIRE(Ok(msgs));
      REQUIRE(FirstColumn(msgs) == want);
    }
  };
  check_all(0);
  REQUIRE(server.Stop(SIGTERM) == 0);
  server.Start();
  check_all(0);
  {
    RawConn c(server.port());
    REQUIRE(c.ok());
    c.Startup();
    // Extending after the restart (sizes re-read from the files, evicted again).
    REQUIRE(ExecMany(c, 1, kTables, 50, [&](int i) {
      const int n = rows_of(i) + 1;
      return "insert into t" + std::to_string(i) + " values (" + std::to_string(n) + ", " + std::to_string(n * 7) + ")";
    }));
  }
  check_all(1);
}

TEST_CASE("one transaction creates 10,000 tables and one drops them, default settings", "[catalog_scale_test]") {
  TestServer server;
  constexpr int kTables = 10000;
  const int files_before = CountRelationFiles(server.datadir());
  {
    RawConn c(server.port());
    REQUIRE(c.ok());
    c.Startup();
    CHECK(QueryValue(c, "show max_locks_per_transaction") == "64");
    REQUIRE(Exec(c, "begin"));
    REQUIRE(
        ExecMany(c, 1, kTables, 500, [](int i) { return "create table x" + std::to_string(i) + " (a int, b text)"; }));
    REQUIRE(Exec(c, "insert into x1 values (1, 'one'); insert into x10000 values (2, 'two')"));
    REQUIRE(Exec(c, "commit"));
    CHECK(QueryValue(c, "select b from x10000") == "two");
  }
  CHECK(CountRelationFiles(server.datadir()) == files_before + kTables);
  // Committed DDL survives a crash; the catalog indexes come back sound.
  CrashAndRestart(server);
  RawConn c(server.port());
  REQUIRE(c.ok());
  c.Startup();
  for (const char* ix : kCatalogIndexes) {
    INFO(ix);
    CHECK(QueryValue(c, std::string("select hearth_index_check('pg_catalog.") + ix + "')") == "ok");
  }
  CHECK(QueryValue(c, "select b from x1") == "one");
  CHECK(QueryValue(c, "select count(*) from x5000") == "0");
  REQUIRE(Exec(c, "begin"));
  REQUIRE(ExecMany(c, 1, kTables, 500, [](int i) { return "drop table x" + std::to_string(i); }));
  REQUIRE(Exec(c, "commit"));
  CHECK(FirstSqlstate(c.Query("select * from x5000")) == "42P01");
  CHECK(CountRelationFiles(server.datadir()) == files_before);
  // The names are free again.
  REQUIRE(Exec(c, "create table x5000 (a int)"));
}

TEST_CASE("DROP TABLE of many names: rollback keeps files, commit returns the space at once", "[catalog_scale_test]") {
  // A pool smaller than the table: the reader's backend reads big's file itself.
  TestServer server(Settings{{"shared_buffers", "128kB"}});
  RawConn reader(server.port());
  RawConn dropper(server.port());
  REQUIRE(reader.ok());
  REQUIRE(dropper.ok());
  reader.Startup();
  dropper.Startup();
  constexpr int kTables = 300;
  REQUIRE(Exec(dropper, "create table big (id int primary key, v int)"));
  for (int from = 1; from <= 4000; from += 500)
    REQUIRE(Exec(dropper, "insert into big values " + Values(from, from + 499)));
  REQUIRE(ExecMany(dropper, 1, kTables, 100, [](int i) { return "create table d" + std::to_string(i) + " (a int)"; }));
  REQUIRE(Exec(dropper, "checkpoint"));  // the checkpointer has written (and opened) big's files
  const std::string relfilenode =
      QueryValue(reader, "select relfilenode from pg_catalog.hearth_class where relname = 'big'");
  const std::string path = server.datadir() + "/base/5/" + relfilenode;
  REQUIRE(QueryValue(reader, "select count(*) from big") == "4000");  // the reader's backend opens the file
  REQUIRE(OpenDescriptorSizes(reader.backend_pid(), path).size() == 1);

  std::string drop_all = "drop table big";
  for (int i = 1; i <= kTables; ++i) drop_all += ", d" + std::to_string(i);
  const int files_with = CountRelationFiles(server.datadir());

  REQUIRE(Exec(dropper, "begin; " + drop_all + "; rollback"));
  CHECK(CountRelationFiles(server.datadir()) == files_with);
  CHECK(QueryValue(reader, "select count(*) from big") == "4000");
  CHECK(QueryValue(reader, "select count(*) from d300") == "0");

  REQUIRE(Exec(dropper, drop_all));
  // big, its primary key and the 300 tables: 302 files (the fsm/vm forks
  // of big are gone with them).
  struct stat st {};
  CHECK(stat(path.c_str(), &st) != 0);
  CHECK(CountRelationFiles(server.datadir()) <= files_with - (kTables + 2));
  // The idle reader still holds its descriptor, but the file is empty.
  std::vector<off_t> held = OpenDescriptorSizes(reader.backend_pid(), path);
  REQUIRE(held.size() == 1);
  CHECK(held[0] == 0);
  // Its next statement releases it; auxiliary processes release theirs.
  CHECK(FirstSqlstate(reader.Query("select count(*) from big")) == "42P01");
  CHECK(OpenDescriptorSizes(reader.backend_pid(), path).empty());
  CHECK(WaitFor(
      [&] {
        for (pid_t p : server.ChildPids()) {
          if (!OpenDescriptorSizes(p, path).empty()) return false;
        }
        return true;
      },
      10000));
}

TEST_CASE("VACUUM without a table list includes the system catalogs", "[catalog_scale_test]") {
  TestServer server;
  RawConn c(server.port());
  REQUIRE(c.ok());
  c.Startup();
  REQUIRE(ExecMany(c, 1, 200, 50, [](int i) { return "create table v" + std::to_string(i) + " (a int primary key)"; }));
  REQUIRE(ExecMany(c, 1, 200, 50, [](int i) { return "drop table v" + std::to_string(i); }));
  const std::string stats = "select reltuples from pg_catalog.hearth_class where relname = 'hearth_attribute'";
  CHECK(QueryValue(c, stats) == "-1");
  REQUIRE(Exec(c, "vacuum"));
  // The catalogs were processed: counted, dead versions and their catalog
  // index entries removed, the indexes still sound and still used.
  CHECK(QueryValue(c, stats) != "-1");
  for (const char* ix : kCatalogIndexes) {
    INFO(ix);
    CHECK(QueryValue(c, std::string("select hearth_index_check('pg_catalog.") + ix + "')") == "ok");
  }
  REQUIRE(Exec(c, "create table v1 (a int primary key)"));
  REQUIRE(Exec(c, "insert into v1 values (1)"));
  CHECK(QueryValue(c, "select count(*) from v1") == "1");
}

TEST_CASE("DROP with synchronous_commit off: no fsync of its own, files go once the commit is durable",
          "[catalog_scale_test]") {
  // The walwriter flushes only every 10 s, so nothing else makes the commit
  // durable during the first part.
  TestServer server(Settings{{"synchronous_commit", "off"}, {"wal_writer_delay", "10s"}});
  RawConn c(server.port());
  REQUIRE(c.ok());
  c.Startup();
  REQUIRE(Exec(c, "create table gone (a int); insert into gone values (1), (2)"));
  REQUIRE(Exec(c, "checkpoint"));  // makes the CREATE durable (own statement: after its commit)
  const std::string path = server.datadir() + "/base/5/" +
                           QueryValue(c, "select relfilenode from pg_catalog.hearth_class where relname = 'gone'");
  struct stat st {};
  REQUIRE(stat(path.c_str(), &st) == 0);
  const std::string syncs_before = QueryValue(c, "select wal_sync from pg_stat_wal");
  REQUIRE(Exec(c, "drop table gone"));
  CHECK(QueryValue(c, "select wal_sync from pg_stat_wal") == syncs_before);
  // Not durable yet: the file stays (a crash now may bring the table back).
  CHECK(stat(path.c_str(), &st) == 0);
  CHECK(FirstSqlstate(c.Query("select * from gone")) == "42P01");
  // Another session's synchronous commit flushes the WAL, our commit too;
  // our next statement then unlinks.
  {
    RawConn other(server.port());
    REQUIRE(other.ok());
    other.Startup();
    REQUIRE(Exec(other, "set synchronous_commit = on; create table flusher (a int)"));
  }
  REQUIRE(QueryValue(c, "select 1") == "1");
  CHECK(stat(path.c_str(), &st) != 0);

  // A crash right after an asynchronous DROP: either the commit survived
  // (table and file gone) or it did not (table back with all its rows).
  REQUIRE(Exec(c, "create table maybe (a int); insert into maybe values (1), (2), (3)"));
  REQUIRE(Exec(c, "checkpoint"));
  const std::string maybe_path =
      server.datadir() + "/base/5/" +
      QueryValue(c, "select relfilenode from pg_catalog.hearth_class where relname = 'maybe'");
  REQUIRE(Exec(c, "drop table maybe"));
  CrashAndRestart(server);
  RawConn after(server.port());
  REQUIRE(after.ok());
  after.Startup();
  auto msgs = after.Query("select count(*) from maybe");
  if (Ok(msgs)) {
    CHECK(FirstColumn(msgs) == std::vector<std::string>{"3"});
  } else {
    CHECK(FirstSqlstate(msgs) == "42P01");
    CHECK(stat(maybe_path.c_str(), &st) != 0);
  }
}

TEST_CASE("a crash between a DROP's durable commit and its unlink: recovery removes the files",
          "[catalog_scale_test]") {
  // With synchronous_commit off the dropping backend unlinks only at its
  // next statement once the commit is durable; here another session makes
  // it durable and the server dies before that next statement.
  TestServer server(Settings{{"synchronous_commit", "off"}, {"wal_writer_delay", "10s"}});
  RawConn c(server.port());
  REQUIRE(c.ok());
  c.Startup();
  REQUIRE(Exec(c, "create table doomed (a int primary key); insert into doomed values (1), (2)"));
  REQUIRE(Exec(c, "checkpoint"));
  const std::string path = server.datadir() + "/base/5/" +
                           QueryValue(c, "select relfilenode from pg_catalog.hearth_class where relname = 'doomed'");
  REQUIRE(Exec(c, "drop table doomed"));
  {
    RawConn other(server.port());
    REQUIRE(other.ok());
    other.Startup();
    REQUIRE(Exec(other, "set synchronous_commit = on; create table flusher (a int)"));
  }
  struct stat st {};
  REQUIRE(stat(path.c_str(), &st) == 0);  // durable commit, files not yet unlinked
  CrashAndRestart(server);
  RawConn after(server.port());
  REQUIRE(after.ok());
  after.Startup();
  CHECK(FirstSqlstate(after.Query("select * from doomed")) == "42P01");
  CHECK(stat(path.c_str(), &st) != 0);
  CHECK(QueryValue(after, "select count(*) from flusher") == "0");
}

TEST_CASE("creating and dropping one name over and over keeps the catalogs small", "[catalog_scale_test]") {
  // Probes of that name meet its dead versions; past a threshold the
  // backend vacuums the catalogs after its transaction, so they stay a few
  // pages (1,500 cycles would otherwise leave ~200 kB in each).
  TestServer server(Settings{{"synchronous_commit", "off"}});
  RawConn c(server.port());
  REQUIRE(c.ok());
  c.Startup();
  for (int batch = 0; batch < 15; ++batch) {
    std::string sql = "begin;";
    for (int i = 0; i < 100; ++i) sql += "create table churn (id int primary key, v text); drop table churn;";
    REQUIRE(Exec(c, sql + "commit"));
  }
  REQUIRE(Exec(c, "create table churn (id int primary key, v text); insert into churn values (1, 'kept')"));
  CHECK(QueryValue(c, "select v from churn where id = 1") == "kept");
  for (const char* catalog : {"1259", "1249", "2610"}) {
    struct stat st {};
    REQUIRE(stat((server.datadir() + "/base/5/" + catalog).c_str(), &st) == 0);
    INFO("catalog file " << catalog);
    CHECK(st.st_size <= 80 * 1024);
  }
  for (const char* ix : kCatalogIndexes) {
    INFO(ix);
    CHECK(QueryValue(c, std::string("select hearth_index_check('pg_catalog.") + ix + "')") == "ok");
  }
}

TEST_CASE("another session's DDL reaches the relation cache: by relation, and after a ring overflow",
          "[catalog_scale_test]") {
  TestServer server(Settings{{"synchronous_commit", "off"}});
  RawConn a(server.port());
  RawConn b(server.port());
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  a.Startup();
  b.Startup();
  REQUIRE(Exec(
      b, "create table t1 (a int); insert into t1 values (1); create table t2 (a int); insert into t2 values (2)"));
  REQUIRE(QueryValue(a, "select a from t1") == "1");  // cached by a
  REQUIRE(QueryValue(a, "select a from t2") == "2");
  // Replaced and truncated by b: a must see the new definitions.
  REQUIRE(Exec(b, "drop table t1; create table t1 (x text); insert into t1 values ('new'); truncate t2"));
  CHECK(QueryValue(a, "select x from t1") == "new");
  CHECK(QueryValue(a, "select count(*) from t2") == "0");
  // More messages than the shared ring holds (4096): a drops its whole cache.
  REQUIRE(ExecMany(b, 1, 2100, 300, [](int i) { return "create table r" + std::to_string(i) + " (a int)"; }));
  REQUIRE(Exec(b, "drop table t2; create table t2 (y text); insert into t2 values ('again')"));
  REQUIRE(ExecMany(b, 1, 2100, 300, [](int i) { return "drop table r" + std::to_string(i); }));
  CHECK(QueryValue(a, "select y from t2") == "again");
  CHECK(QueryValue(a, "select x from t1") == "new");
}
