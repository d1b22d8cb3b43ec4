// Replication connections over the wire: the replication grammar on a raw
// walsender connection, walsender limits, and the real PostgreSQL 15
// pg_basebackup (-X fetch and -X stream) and pg_receivewal against hearthd
// while a writer keeps committing; the copy is started as a server of its
// own and must hold every row committed before the backup's end position,
// no uncommitted row, and indexes that agree with the table.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "crash_util.h"
#include "pg_tools.h"
#include "raw_session.h"
#include "test_server.h"

using namespace hearth::testing;
namespace fs = std::filesystem;

namespace {

uint64_t ParseLsn(const std::string& text) {
  const size_t slash = text.find('/');
  REQUIRE(slash != std::string::npos);
  return std::stoull(text.substr(0, slash), nullptr, 16) << 32 | std::stoull(text.substr(slash + 1), nullptr, 16);
}

// A walsender connection (replication=true, as pg_basebackup opens it).
std::unique_ptr<RawConn> ReplicationConn(int port, const std::string& mode = "true") {
  auto c = std::make_unique<RawConn>(port);
  REQUIRE(c->ok());
  REQUIRE(c->SendStartup({{"user", "hearth"}, {"database", "replication"}, {"replication", mode}}));
  return c;
}

// A fresh temporary directory; the backup goes to <it>/data.
std::string NewBackupParent() {
  char tmpl[] = "/tmp/hearth-backup-XXXXXX";
  REQUIRE(mkdtemp(tmpl) != nullptr);
  return tmpl;
}

// Commits single-row inserts (ids 1, 2, ...) until stopped, recording after
// each commit the server's WAL insert position: a row whose position is at
// or before a backup's end point was committed before it.
class Writer {
 public:
  explicit Writer(int port) : conn_(port) {
    REQUIRE(conn_.ok());
    conn_.Startup();
    thread_ = std::thread([this] { Run(); });
  }
  ~Writer() { Stop(); }
  void Stop() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
  }
  int64_t committed() const { return committed_.load(); }
  // Highest id whose commit ended at or before `lsn`.
  int64_t CommittedBy(uint64_t lsn) {
    std::lock_guard<std::mutex> g(mu_);
    int64_t best = 0;
    for (size_t i = 0; i < lsns_.size(); i++) {
      if (lsns_[i] <= lsn) best = static_cast<int64_t>(i) + 1;
    }
    return best;
  }
  bool failed() const { return failed_.load(); }

 private:
  void Run() {
    for (int64_t id = 1; !stop_; id++) {
      // The position is read after the commit returned, so it is at or
      // past the commit record's end.
      if (!Exec(conn_, "insert into t values (" + std::to_string(id) + ", repeat('x', 200))")) {
        failed_ = true;
        return;
      }
      const std::string v = QueryValue(conn_, "select pg_current_wal_lsn()");
      if (v.empty() || v[0] == '<') {
        failed_ = true;
        return;
      }
      {
        std::lock_guard<std::mutex> g(mu_);
        lsns_.push_back(std::stoull(v.substr(0, v.find('/')), nullptr, 16) << 32 |
                        std::stoull(v.substr(v.find('/') + 1), nullptr, 16));
      }
      committed_ = id;
    }
  }
  RawConn conn_;
  std::thread thread_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> failed_{false};
  std::atomic<int64_t> committed_{0};
  std::mutex mu_;
  std::vector<uint64_t> lsns_;
};

void WaitCommitted(const Writer& w, int64_t n) {
  for (int i = 0; i < 3000 && w.committed() < n && !w.failed(); i++) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  REQUIRE(w.committed() >= n);
}

// Runs pg_basebackup with `wal_method` into <parent>/data while rows are
// being committed and an uncommitted transaction holds rows with negative
// ids; then starts the copy and checks it.
void BackupUnderLoadAndCheck(const std::string& wal_method) {
  TestServer primary;
  REQUIRE(primary.Psql({"-c", "create table t (id int primary key, v text)"}).exit_code == 0);
  RawConn open_tx(primary.port());
  open_tx.Startup();
  REQUIRE(Exec(open_tx, "begin"));
  std::string uncommitted = "insert into t values (-1, 'uncommitted')";
  for (int i = 2; i <= 50; i++) uncommitted += ", (-" + std::to_string(i) + ", 'uncommitted')";
  REQUIRE(Exec(open_tx, uncommitted));

  Writer writer(primary.port());
  WaitCommitted(writer, 50);
  const int64_t before_start = writer.committed();
  const std::string parent = NewBackupParent();
  const std::string copy = parent + "/data";
  CommandResult r = RunCommand({PgBin("pg_basebackup"), "-h", "127.0.0.1", "-p", std::to_string(primary.port()),
                                "-U", "hearth", "-D", copy, "-X", wal_method, "-c", "fast", "-v"});
  const int64_t after_end = writer.committed();
  writer.Stop();
  REQUIRE(Exec(open_tx, "rollback"));
  INFO(r.out << r.err << "\nprimary log:\n" << primary.log());
  REQUIRE(r.exit_code == 0);
  REQUIRE(!writer.failed());
  const size_t at = r.err.find("write-ahead log end point: ");
  REQUIRE(at != std::string::npos);
  const uint64_t end_lsn = ParseLsn(r.err.substr(at + 27, r.err.find(' ', at + 27) - at - 27));
  const int64_t required = writer.CommittedBy(end_lsn);
  CHECK(required >= before_start);
  CHECK(fs::exists(copy + "/backup_label"));
  CHECK(fs::exists(copy + "/backup_manifest"));
  CHECK_FALSE(fs::exists(copy + "/postmaster.pid"));
  // The segment holding the start, under PostgreSQL's name, full size.
  std::ifstream label_in(copy + "/backup_label");
  std::string first_line;
  std::getline(label_in, first_line);
  const size_t file_at = first_line.find("(file ");
  REQUIRE(file_at != std::string::npos);
  CHECK(fs::file_size(copy + "/pg_wal/" + first_line.substr(file_at + 6, 24)) == 16u * 1024 * 1024);

  // PostgreSQL's pg_verifybackup accepts the manifest and finds every file
  // as listed (-n: Hearth's WAL is not PostgreSQL's, pg_waldump cannot parse it).
  CommandResult verify = RunCommand({PgBin("pg_verifybackup"), "-n", copy});
  INFO(verify.out << verify.err);
  CHECK(verify.exit_code == 0);

  TestServer restored(TestServer::ExistingDataDir{copy}, {});
  INFO("restored log:\n" << restored.log());
  CHECK(fs::exists(copy + "/backup_label.old"));
  const int64_t n = PsqlInt(restored, "select count(*) from t where id > 0");
  // Every row committed before the backup's end, none that was not
  // committed, and no gap: the copy is one moment of the primary.
  CHECK(n >= required);
  CHECK(n <= after_end);
  CHECK(PsqlInt(restored, "select count(*) from t where id < 0") == 0);
  CHECK(PsqlInt(restored, "select coalesce(max(id), 0) from t") == n);
  CHECK(PsqlInt(restored, "select count(distinct id) from t") == n);
  // The primary key index agrees with the heap: point lookups find the
  // rows, a duplicate is refused, the next id is accepted.
  for (int64_t id : {int64_t{1}, n / 2 + 1, n}) {
    CHECK(PsqlInt(restored, "select count(*) from t where id = " + std::to_string(id)) == 1);
  }
  CommandResult dup = restored.Psql({"-c", "insert into t values (" + std::to_string(n) + ", 'dup')"});
  CHECK(dup.exit_code != 0);
  CHECK(Contains(dup.err, "duplicate key value violates unique constraint"));
  CHECK(restored.Psql({"-c", "insert into t values (" + std::to_string(n + 1) + ", 'next')"}).exit_code == 0);
  // The copy restarts from its own checkpoint now (the label is retired).
  REQUIRE(restored.Stop(SIGTERM) == 0);
  restored.Start();
  CHECK(PsqlInt(restored, "select count(*) from t where id > 0") == n + 1);
  fs::remove_all(parent);
}

}  // namespace

TEST_CASE("replication: the replication grammar on a walsender connection", "[replication_test]") {
  TestServer server;
  auto c = ReplicationConn(server.port());
  REQUIRE(LastStatus(c->ReadStartupReply()) == 'I');

  auto msgs = c->Query("IDENTIFY_SYSTEM");
  REQUIRE(Ok(msgs));
  auto row = DataRowValues(*First(msgs, 'D'));
  REQUIRE(row.size() == 4);
  CHECK(row[0].has_value());
  CHECK(row[1] == std::optional<std::string>("1"));
  CHECK(ParseLsn(*row[2]) > 0);
  CHECK_FALSE(row[3].has_value());
  CHECK(CommandTag(*First(msgs, 'C')) == "IDENTIFY_SYSTEM");

  CHECK(FirstColumn(c->Query("SHOW wal_segment_size")) == std::vector<std::string>{"16MB"});
  CHECK(FirstColumn(c->Query("SHOW data_directory_mode")) == std::vector<std::string>{"0700"});
  CHECK(FirstSqlstate(c->Query("SHOW no_such_setting")) == "42704");
  CHECK(FirstSqlstate(c->Query("TIMELINE_HISTORY 1")) == "58P01");

  msgs = c->Query("CREATE_REPLICATION_SLOT \"s_1\" TEMPORARY PHYSICAL ( RESERVE_WAL)");
  REQUIRE(Ok(msgs));
  CHECK(FirstColumn(msgs) == std::vector<std::string>{"s_1"});
  CHECK(FirstSqlstate(c->Query("CREATE_REPLICATION_SLOT s_1 PHYSICAL")) == "42710");
  CHECK(FirstSqlstate(c->Query("CREATE_REPLICATION_SLOT \"Bad-Name\" PHYSICAL")) == "42602");
  msgs = c->Query("READ_REPLICATION_SLOT s_1");
  row = DataRowValues(*First(msgs, 'D'));
  REQUIRE(row.size() == 3);
  CHECK(row[0] == std::optional<std::string>("physical"));
  CHECK(row[1].has_value());
  CHECK(Ok(c->Query("CREATE_REPLICATION_SLOT keep PHYSICAL RESERVE_WAL")));
  CHECK(Ok(c->Query("DROP_REPLICATION_SLOT keep")));
  CHECK(FirstSqlstate(c->Query("DROP_REPLICATION_SLOT keep")) == "42704");
  row = DataRowValues(*First(c->Query("READ_REPLICATION_SLOT keep"), 'D'));
  CHECK_FALSE(row[0].has_value());

  CHECK(FirstSqlstate(c->Query("SELECT 1")) == "0A000");
  CHECK(FirstSqlstate(c->Query("BASE_BACKUP ( LABEL 'x', CHECKPOINT 'sometimes')")) == "22023");
  CHECK(FirstSqlstate(c->Query("START_REPLICATION 0/1 TIMELINE")) == "42601");
  CHECK(FirstSqlstate(c->Query("START_REPLICATION FFFF/0 TIMELINE 1")) == "55000");
  // The session is still usable after the errors.
  CHECK(Ok(c->Query("IDENTIFY_SYSTEM")));

  // A temporary slot goes with its session.
  c.reset();
  auto c2 = ReplicationConn(server.port());
  REQUIRE(LastStatus(c2->ReadStartupReply()) == 'I');
  bool gone = false;
  for (int i = 0; i < 500 && !gone; i++) {
    auto r = DataRowValues(*First(c2->Query("READ_REPLICATION_SLOT s_1"), 'D'));
    gone = !r[0].has_value();
    if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  CHECK(gone);
}

TEST_CASE("replication: startup checks and max_wal_senders", "[replication_test]") {
  TestServer server(
      Settings{{"max_connections", "1"}, {"superuser_reserved_connections", "0"}, {"max_wal_senders", "1"},
               {"autovacuum", "off"}});
  auto bad = ReplicationConn(server.port(), "sometimes");
  auto reply = bad->ReadStartupReply();
  REQUIRE(First(reply, 'E') != nullptr);
  CHECK(ErrorOf(*First(reply, 'E')).sqlstate == "22023");

  // The refused connection's process may still hold its slot for a moment.
  bad.reset();
  for (int i = 0; i < 1000 && server.ChildPids().size() > 4; i++) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  REQUIRE(server.ChildPids().size() == 4);  // walwriter, bgwriter, checkpointer, autovacuum launcher
  // A walsender does not use up max_connections...
  RawConn client(server.port());
  client.Startup();
  REQUIRE(Ok(client.Query("select 1")));
  auto w1 = ReplicationConn(server.port());
  REQUIRE(LastStatus(w1->ReadStartupReply()) == 'I');
  // ... but counts against max_wal_senders.
  auto w2 = ReplicationConn(server.port());
  reply = w2->ReadStartupReply();
  REQUIRE(First(reply, 'E') != nullptr);
  CHECK(ErrorOf(*First(reply, 'E')).sqlstate == "53300");
  CHECK(Contains(ErrorOf(*First(reply, 'E')).message, "exceeds max_wal_senders (currently 1)"));
  // And a second client is still refused as before.
  RawConn client2(server.port());
  auto r2 = client2.Startup();
  REQUIRE(First(r2, 'E') != nullptr);
  CHECK(ErrorOf(*First(r2, 'E')).sqlstate == "53300");
}

TEST_CASE("replication: pg_basebackup -X fetch under load gives a consistent copy", "[replication_test]") {
  BackupUnderLoadAndCheck("fetch");
}

TEST_CASE("replication: pg_basebackup -X stream under load gives a consistent copy", "[replication_test]") {
  BackupUnderLoadAndCheck("stream");
}

TEST_CASE("replication: a copy without its WAL refuses to start", "[replication_test]") {
  TestServer primary;
  REQUIRE(primary.Psql({"-c", "create table t (id int); insert into t values (1)"}).exit_code == 0);
  const std::string parent = NewBackupParent();
  CommandResult r = RunCommand({PgBin("pg_basebackup"), "-h", "127.0.0.1", "-p", std::to_string(primary.port()),
                                "-U", "hearth", "-D", parent + "/data", "-X", "none"});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CommandResult start = RunCommand({HearthdPath(), "-D", parent + "/data", "-c", "port=" + std::to_string(FreePort()),
                                    "-c", "listen_addresses=127.0.0.1"},
                                   "", 60);
  INFO(start.out << start.err);
  CHECK(start.exit_code != 0);
  CHECK(Contains(start.out + start.err, "could not locate required checkpoint record"));
  fs::remove_all(parent);
}

TEST_CASE("replication: pg_receivewal streams WAL segments up to an end position", "[replication_test]") {
  TestServer server;
  REQUIRE(server.Psql({"-c", "create table t (id int, v text)"}).exit_code == 0);
  // The slot reserves WAL from now on (pg_receivewal --create-slot would not
  // reserve any): the segments written next stay until the client has them.
  const std::string dir = NewBackupParent();
  {
    auto c = ReplicationConn(server.port());
    REQUIRE(LastStatus(c->ReadStartupReply()) == 'I');
    REQUIRE(Ok(c->Query("CREATE_REPLICATION_SLOT recv PHYSICAL RESERVE_WAL")));
  }
  // Past at least one segment boundary.
  std::string copy = "copy t from stdin;\n";
  for (int i = 1; i <= 20000; i++) copy += std::to_string(i) + "\t" + std::string(1000, 'y') + "\n";
  REQUIRE(server.Psql({}, copy + "\\.\n").exit_code == 0);
  const std::string end = server.PsqlValue("select pg_current_wal_lsn()");
  REQUIRE(ParseLsn(end) > 16u * 1024 * 1024);
  // pg_receivewal -E stops once it has received WAL past the end position.
  REQUIRE(server.Psql({"-c", "insert into t values (0, 'after the end')"}).exit_code == 0);
  CommandResult r = RunCommand({PgBin("pg_receivewal"), "-h", "127.0.0.1", "-p", std::to_string(server.port()),
                                "-U", "hearth", "-D", dir, "-E", end, "-n", "--slot", "recv", "-v"});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  std::vector<std::string> complete;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    INFO(name);
    CHECK(name.rfind("00000001", 0) == 0);
    CHECK(fs::file_size(e.path()) == 16u * 1024 * 1024);
    if (name.size() == 24) complete.push_back(name);
  }
  REQUIRE(!complete.empty());
  // The received segments are the server's own bytes.
  for (const std::string& name : complete) {
    INFO(name);
    CHECK(RunCommand({"cmp", dir + "/" + name, server.datadir() + "/pg_wal/" + name}).exit_code == 0);
  }
  // The slot outlives the stream and still holds WAL (it moves with the
  // client's flush reports, which pg_receivewal sends every 10 s).
  auto c = ReplicationConn(server.port());
  REQUIRE(LastStatus(c->ReadStartupReply()) == 'I');
  auto row = DataRowValues(*First(c->Query("READ_REPLICATION_SLOT recv"), 'D'));
  CHECK(row[0] == std::optional<std::string>("physical"));
  CHECK(row[1].has_value());
  fs::remove_all(dir);
}

TEST_CASE("replication: a slot keeps the WAL segments it needs through checkpoints", "[replication_test]") {
  TestServer server;
  REQUIRE(server.Psql({"-c", "create table t (id int, v text)"}).exit_code == 0);
  auto c = ReplicationConn(server.port());
  REQUIRE(LastStatus(c->ReadStartupReply()) == 'I');
  REQUIRE(Ok(c->Query("CREATE_REPLICATION_SLOT keep PHYSICAL RESERVE_WAL")));
  auto row = DataRowValues(*First(c->Query("READ_REPLICATION_SLOT keep"), 'D'));
  REQUIRE(row[1].has_value());
  const uint64_t restart = ParseLsn(*row[1]);
  char name[32];
  std::snprintf(name, sizeof(name), "00000001%08X%08X", static_cast<unsigned>(restart >> 32),
                static_cast<unsigned>((restart & 0xFFFFFFFFu) >> 24));
  const std::string held = server.datadir() + "/pg_wal/" + name;
  REQUIRE(fs::exists(held));

  // More than two segments of WAL, then checkpoints: without the slot the
  // first segment would be recycled.
  std::string copy = "copy t from stdin;\n";
  for (int i = 1; i <= 40000; i++) copy += std::to_string(i) + "\t" + std::string(1000, 'z') + "\n";
  REQUIRE(server.Psql({}, copy + "\\.\n").exit_code == 0);
  REQUIRE(server.Psql({"-c", "checkpoint"}).exit_code == 0);
  REQUIRE(ParseLsn(server.PsqlValue("select pg_current_wal_lsn()")) >= restart + 2 * 16u * 1024 * 1024);
  CHECK(fs::exists(held));

  REQUIRE(Ok(c->Query("DROP_REPLICATION_SLOT keep")));
  REQUIRE(server.Psql({"-c", "checkpoint"}).exit_code == 0);
  CHECK_FALSE(fs::exists(held));
}

TEST_CASE("replication: slots survive a restart; temporary and dropped ones do not", "[replication_test]") {
  TestServer server;
  {
    auto c = ReplicationConn(server.port());
    REQUIRE(LastStatus(c->ReadStartupReply()) == 'I');
    REQUIRE(Ok(c->Query("CREATE_REPLICATION_SLOT kept PHYSICAL RESERVE_WAL")));
    REQUIRE(Ok(c->Query("CREATE_REPLICATION_SLOT gone PHYSICAL")));
    REQUIRE(Ok(c->Query("DROP_REPLICATION_SLOT gone")));
  }
  REQUIRE(server.Stop(SIGTERM) == 0);
  server.Start();
  auto c = ReplicationConn(server.port());
  REQUIRE(LastStatus(c->ReadStartupReply()) == 'I');
  auto row = DataRowValues(*First(c->Query("READ_REPLICATION_SLOT kept"), 'D'));
  CHECK(row[0] == std::optional<std::string>("physical"));
  CHECK(row[1].has_value());
  row = DataRowValues(*First(c->Query("READ_REPLICATION_SLOT gone"), 'D'));
  CHECK_FALSE(row[0].has_value());
  CHECK(FirstSqlstate(c->Query("CREATE_REPLICATION_SLOT kept PHYSICAL")) == "42710");
}
