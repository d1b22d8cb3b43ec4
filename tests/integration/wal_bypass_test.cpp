// wal_level = minimal's WAL bypass over the wire: a table created or
// truncated in the loading transaction is loaded without heap WAL and made
// durable at commit (fsynced, or logged whole below wal_skip_threshold);
// kill -9 before the commit leaves no table, after it all rows. Under
// replica the same load is logged. minimal refuses max_wal_senders > 0.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdint>
#include <string>

#include "crash_util.h"
#include "test_server.h"

using namespace hearth::testing;

namespace {

const Settings kMinimal{{"wal_level", "minimal"}, {"max_wal_senders", "0"}};

bool Contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

int64_t WalBytes(const TestServer& server) { return PsqlInt(server, "select wal_bytes from pg_stat_wal"); }

// COPY data lines: id, id * 7, 80 characters of padding (~130 bytes a row).
std::string Rows(int from, int to) {
  std::string data;
  const std::string pad(80, 'p');
  for (int i = from; i < to; ++i) data += std::to_string(i) + "\t" + std::to_string(i * 7) + "\t" + pad + "\n";
  return data + "\\.\n";
}

// Runs a psql script (statements and in-line COPY data) and requires success.
void Script(const TestServer& server, const std::string& script) {
  CommandResult r = server.Psql({}, script);
  INFO(script.substr(0, 300) << "\n" << r.out << r.err);
  REQUIRE(r.exit_code == 0);
}

constexpr int kBigRows = 40000;   // ~5 MB of heap: above wal_skip_threshold
constexpr int kSmallRows = 2000;  // ~250 kB: logged whole at commit

}  // namespace

TEST_CASE("wal_bypass: minimal refuses to start with WAL senders", "[wal_bypass_test]") {
  const std::string dir = "/tmp/hearth-walbypass-" + std::to_string(getpid());
  RunCommand({"rm", "-rf", dir});
  REQUIRE(RunCommand({HearthdPath(), "init", "-D", dir}).exit_code == 0);
  CommandResult r = RunCommand({HearthdPath(), "-D", dir, "-c", "wal_level=minimal", "-c",
                                "port=" + std::to_string(FreePort())}, "", 30);
  RunCommand({"rm", "-rf", dir});
  INFO(r.out << r.err);
  CHECK(r.exit_code != 0);
  CHECK(Contains(r.err, "WAL streaming (max_wal_senders > 0) requires wal_level \"replica\" or \"logical\""));
}

TEST_CASE("wal_bypass: a same-transaction load under minimal writes almost no WAL", "[wal_bypass_test]") {
  TestServer server(kMinimal);
  CHECK(server.PsqlValue("show wal_level") == "minimal");
  CHECK(server.PsqlValue("show wal_skip_threshold") == "2MB");
  const int64_t w0 = WalBytes(server);
  Script(server, "begin;\ncreate table big (id int, v int, pad text);\ncopy big from stdin;\n" + Rows(0, kBigRows) +
                     "commit;\n");
  const int64_t wal = WalBytes(server) - w0;
  const int64_t heap = LargestRelationFileBytes(server.datadir());
  INFO("wal " << wal << " heap " << heap);
  CHECK(heap > 4 * 1024 * 1024);
  CHECK(wal * 20 < heap);  // < 5%
  CHECK(PsqlInt(server, "select count(*) from big") == kBigRows);
  // A table from an earlier transaction is logged as usual.
  const int64_t w1 = WalBytes(server);
  Script(server, "copy big from stdin;\n" + Rows(kBigRows, 2 * kBigRows));
  CHECK((WalBytes(server) - w1) * 2 > heap);
  // TRUNCATE in the loading transaction makes a new file: bypassed again.
  const int64_t w2 = WalBytes(server);
  Script(server, "begin;\ntruncate big;\ncopy big from stdin;\n" + Rows(0, kBigRows) + "commit;\n");
  CHECK((WalBytes(server) - w2) * 20 < heap);
  CHECK(PsqlInt(server, "select count(*) from big") == kBigRows);
  // CREATE TABLE AS makes its file in the same statement: bypassed too.
  const int64_t w5 = WalBytes(server);
  Script(server, "create table big2 as select * from big;\n");
  CHECK((WalBytes(server) - w5) * 20 < heap);
  CHECK(PsqlInt(server, "select count(*) from big2 join big using (id, v, pad)") == kBigRows);
  // Below wal_skip_threshold the new file is logged whole at commit (~270 kB
  // of pages); with the threshold at 0 it is synced instead.
  const int64_t w3 = WalBytes(server);
  Script(server, "begin;\ncreate table small (id int, v int, pad text);\ncopy small from stdin;\n" +
                     Rows(0, kSmallRows) + "commit;\n");
  const int64_t small_wal = WalBytes(server) - w3;
  INFO("small table WAL " << small_wal);
  CHECK(small_wal > 200 * 1024);
  CHECK(small_wal < 600 * 1024);
  const int64_t w4 = WalBytes(server);
  Script(server, "set wal_skip_threshold = 0;\nbegin;\ncreate table small2 (id int, v int, pad text);\n"
                 "copy small2 from stdin;\n" + Rows(0, kSmallRows) + "commit;\n");
  CHECK(WalBytes(server) - w4 < 20 * 1024);
  CHECK(PsqlInt(server, "select count(*) from small2") == kSmallRows);
}

TEST_CASE("wal_bypass: replica logs the same-transaction load", "[wal_bypass_test]") {
  TestServer server;
  const int64_t w0 = WalBytes(server);
  Script(server, "begin;\ncreate table big (id int, v int, pad text);\ncopy big from stdin;\n" + Rows(0, kBigRows) +
                     "commit;\n");
  const int64_t heap = LargestRelationFileBytes(server.datadir());
  CHECK((WalBytes(server) - w0) * 2 > heap);
}

TEST_CASE("wal_bypass: kill -9 after the commit keeps every row, before it leaves no table", "[wal_bypass_test]") {
  TestServer server(kMinimal);
  // Committed: one big (fsynced) and one small (logged whole) table, and a
  // truncated-and-reloaded one with its index.
  Script(server, "create table re (id int primary key, v int, pad text);\ncopy re from stdin;\n" + Rows(0, 500));
  Script(server, "begin;\ncreate table big (id int, v int, pad text);\ncopy big from stdin;\n" + Rows(0, kBigRows) +
                     "create table small (id int, v int, pad text);\ncopy small from stdin;\n" +
                     Rows(0, kSmallRows) + "truncate re;\ncopy re from stdin;\n" + Rows(1000, 1000 + kSmallRows) +
                     "commit;\n");
  // Not committed: a session stays inside its transaction at the crash.
  RawConn open(server.port());
  REQUIRE(LastStatus(open.Startup()) == 'I');
  REQUIRE(First(open.Query("begin"), 'E') == nullptr);
  REQUIRE(First(open.Query("create table lost (id int, v int, pad text)"), 'E') == nullptr);
  REQUIRE(First(open.Query("insert into lost select id, v, pad from big"), 'E') == nullptr);
  CrashAndRestart(server);
  CHECK(PsqlInt(server, "select count(*) from big") == kBigRows);
  CHECK(PsqlInt(server, "select sum(v) from big") == int64_t{7} * kBigRows * (kBigRows - 1) / 2);
  CHECK(PsqlInt(server, "select count(*) from small") == kSmallRows);
  CHECK(PsqlInt(server, "select count(*) from re") == kSmallRows);
  CHECK(PsqlInt(server, "select count(*) from re where id = 1500") == 1);
  CHECK(PsqlInt(server, "select count(*) from re where id < 1000") == 0);
  // The reloaded index skipped WAL too (its file is new): synced whole at commit.
  CHECK(server.PsqlValue("select hearth_index_check('re_pkey')") == "ok");
  CommandResult lost = server.Psql({"-c", "select count(*) from lost"});
  CHECK(lost.exit_code != 0);
  CHECK(Contains(lost.err, "relation \"lost\" does not exist"));
  // Logged changes after the commit replay onto the synced files.
  Script(server, "update big set v = 0 where id < 100;\ndelete from small where id >= 1000;\n");
  CrashAndRestart(server);
  CHECK(PsqlInt(server, "select count(*) from big where v = 0") == 100);
  CHECK(PsqlInt(server, "select count(*) from small") == 1000);
  Script(server, "create table lost (id int);\n");
}
