// More crash recovery end to end (see crash_test.cpp for the basic cases):
// kill -9 of everything while a CHECKPOINT runs, kill -9 in the middle of a
// big COPY, and a torn data page repaired from the full-page image in WAL.
#include <catch2/catch.hpp>

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "crash_util.h"
#include "test_server.h"

using namespace hearth::testing;

namespace {

void Connect(RawConn& c) { REQUIRE(LastStatus(c.Startup()) == 'I'); }

std::vector<std::string> Column(int port, const std::string& sql) {
  RawConn c(port);
  Connect(c);
  auto msgs = c.Query(sql, 30000);
  INFO(sql << " -> " << FirstSqlstate(msgs));
  REQUIRE(Ok(msgs));
  return FirstColumn(msgs);
}

int64_t Scalar(int port, const std::string& sql) {
  const auto col = Column(port, sql);
  REQUIRE(col.size() == 1);
  return std::stoll(col[0]);
}

std::set<int> Ids(int port, const std::string& table) {
  std::set<int> out;
  for (const std::string& v : Column(port, "select id from " + table)) out.insert(std::stoi(v));
  return out;
}

// Inserts ids [from, to) in multi-row statements of 500 rows.
void BulkInsert(RawConn& c, const std::string& table, int from, int to) {
  for (int base = from; base < to; base += 500) {
    std::string sql = "insert into " + table + " values ";
    for (int i = base; i < std::min(to, base + 500); ++i) {
      if (i != base) sql += ", ";
      sql += "(" + std::to_string(i) + ", repeat('p', 80))";
    }
    auto msgs = c.Query(sql, 30000);
    INFO(FirstSqlstate(msgs));
    REQUIRE(Ok(msgs));
  }
}

std::string CopyDataMsg(const std::string& data) {
  std::string m = "d";
  const uint32_t len = static_cast<uint32_t>(data.size() + 4);
  for (int shift = 24; shift >= 0; shift -= 8) m.push_back(static_cast<char>((len >> shift) & 0xff));
  return m + data;
}

// Plain data files under <datadir>/base (no _fsm/_vm/segment suffix).
std::set<std::string> BaseFiles(const std::string& datadir) {
  std::set<std::string> out;
  DIR* d = opendir((datadir + "/base/5").c_str());
  if (d == nullptr) return out;
  while (dirent* e = readdir(d)) {
    const std::string n = e->d_name;
    if (!n.empty() && n.find_first_not_of("0123456789") == std::string::npos) out.insert(n);
  }
  closedir(d);
  return out;
}

}  // namespace

TEST_CASE("crash2: kill -9 while a CHECKPOINT runs and another session commits", "[crash2_test]") {
  TestServer server(Settings{{"checkpoint_timeout", "300s"}});
  {
    RawConn c(server.port());
    Connect(c);
    REQUIRE(Ok(c.Query("create table ck (id int, pad text)")));
  }
  int expected_bulk = 0;
  int round = 0;
  for (int kill_after_ms : {2, 25, 120}) {
    INFO("round " << round << ": kill " << kill_after_ms << " ms after CHECKPOINT was sent");
    const std::string stream = "cks_" + std::to_string(round);
    {
      RawConn c(server.port());
      Connect(c);
      REQUIRE(Ok(c.Query("create table " + stream + " (id int)")));
      // Dirty a few hundred pages so the checkpoint has work to do.
      BulkInsert(c, "ck", expected_bulk, expected_bulk + 15000);
      expected_bulk += 15000;
    }
    std::vector<int> acked;
    std::atomic<bool> started{false};
    std::thread committer([&] {
      RawConn c(server.port());
      if (LastStatus(c.Startup()) != 'I') return;
      for (int i = 0;; ++i) {
        auto msgs = c.Query("insert into " + stream + " values (" + std::to_string(i) + ")", 5000);
        if (!Ok(msgs)) return;  // the crash
        acked.push_back(i);
        started = true;
      }
    });
    REQUIRE(WaitFor([&] { return started.load(); }, 10000));
    SleepMs(50);
    RawConn cp(server.port());
    Connect(cp);
    REQUIRE(cp.Send(QueryMsg("checkpoint")));
    SleepMs(kill_after_ms);
    CrashAndRestart(server);
    committer.join();
    REQUIRE(acked.size() > 3);
    const std::set<int> got = Ids(server.port(), stream);
    int missing = 0;
    for (int id : acked) missing += got.count(id) == 0 ? 1 : 0;
    CHECK(missing == 0);
    // At most the one statement in flight at the kill may be there unacknowledged.
    CHECK(got.size() <= acked.size() + 1);
    CHECK(Scalar(server.port(), "select count(*) from ck") == expected_bulk);
    round++;
  }
}

TEST_CASE("crash2: kill -9 in the middle of a big COPY leaves none of its rows", "[crash2_test]") {
  TestServer server;
  {
    RawConn c(server.port());
    Connect(c);
    REQUIRE(Ok(c.Query("create table cp (id int, pad text)")));
    BulkInsert(c, "cp", 0, 1000);
  }
  RawConn copy(server.port());
  Connect(copy);
  REQUIRE(copy.Send(QueryMsg("copy cp from stdin")));
  bool got_copy_in = false;
  for (int i = 0; i < 10 && !got_copy_in; ++i) {
    auto m = copy.Read(10000);
    REQUIRE(m.has_value());
    REQUIRE(m->type != 'E');
    got_copy_in = m->type == 'G';
  }
  REQUIRE(got_copy_in);
  // 200k rows are planned; the crash comes after ~100k have been sent.
  int sent = 0;
  for (int chunk = 0; chunk < 100; ++chunk) {
    std::string data;
    for (int i = 0; i < 1000; ++i) {
      data += std::to_string(1000000 + sent) + "\tcopied row with some padding text\n";
      sent++;
    }
    REQUIRE(copy.Send(CopyDataMsg(data)));
  }
  SleepMs(100);
  CrashAndRestart(server);
  CHECK(Scalar(server.port(), "select count(*) from cp") == 1000);
  CHECK(Scalar(server.port(), "select count(*) from cp where id >= 1000000") == 0);
  CHECK(Scalar(server.port(), "select sum(id) from cp") == 999 * 1000 / 2);
  // The table takes new rows normally after recovery.
  RawConn c(server.port());
  Connect(c);
  REQUIRE(Ok(c.Query("insert into cp values (5000, 'after')")));
  CHECK(Scalar(server.port(), "select count(*) from cp") == 1001);
}

TEST_CASE("crash2: a torn data page is restored from its full-page image", "[crash2_test]") {
  TestServer server(Settings{{"checkpoint_timeout", "300s"}});
  const std::set<std::string> before = BaseFiles(server.datadir());
  RawConn c(server.port());
  Connect(c);
  REQUIRE(Ok(c.Query("create table tp (id int, pad text)")));
  std::string sql = "insert into tp values ";
  for (int i = 1; i <= 40; ++i) sql += (i > 1 ? ", (" : "(") + std::to_string(i) + ", repeat('x', 100))";
  REQUIRE(Ok(c.Query(sql)));
  // The page reaches disk whole; its next change logs a full-page image.
  REQUIRE(Ok(c.Query("checkpoint")));
  std::set<std::string> created;
  for (const std::string& f : BaseFiles(server.datadir())) {
    if (before.count(f) == 0) created.insert(f);
  }
  INFO("new files under base/: " << created.size());
  REQUIRE(created.size() == 1);
  const std::string path = server.datadir() + "/base/5/" + *created.begin();
  struct stat st {};
  REQUIRE(stat(path.c_str(), &st) == 0);
  REQUIRE(st.st_size >= 8192);
  REQUIRE(Ok(c.Query("update tp set pad = repeat('y', 100) where id = 7")));
  CrashAndRestart(server, [&] {
    // Tear block 0: its second half becomes garbage.
    const int fd = open(path.c_str(), O_WRONLY);
    REQUIRE(fd >= 0);
    const std::string garbage(4096, '\xA5');
    REQUIRE(pwrite(fd, garbage.data(), garbage.size(), 4096) == 4096);
    REQUIRE(fsync(fd) == 0);
    close(fd);
  });
  CHECK(Scalar(server.port(), "select count(*) from tp") == 40);
  CHECK(Scalar(server.port(), "select sum(id) from tp") == 40 * 41 / 2);
  CHECK(Scalar(server.port(), "select count(*) from tp where pad = repeat('x', 100)") == 39);
  CHECK(Column(server.port(), "select id from tp where pad = repeat('y', 100)") == std::vector<std::string>{"7"});
}
