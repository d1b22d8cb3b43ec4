// Input the server must refuse, with PostgreSQL's SQLSTATEs: malformed Bind
// messages (format codes, parameter lengths), DEFAULT expressions that can
// never be evaluated for a row; and what only the owner may touch (data
// directory, files, shared memory). Every refusal leaves the session usable.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "test_server.h"

using namespace hearth::testing;
namespace fs = std::filesystem;

namespace {

bool Ok(const std::vector<RawMessage>& msgs) { return First(msgs, 'E') == nullptr && LastStatus(msgs) != 0; }

std::string SessionAnswer(RawConn& c) {
  auto v = FirstColumn(c.Query("select 6 * 7"));
  return v.empty() ? "" : v[0];
}

// Bind with raw fields: `param_len` replaces the length word of the one
// parameter (the bytes sent are `value`).
std::string RawBind(int16_t param_format, int32_t param_len, const std::string& value, int16_t result_format) {
  hearth::protocol::MessageWriter w('B');
  w.CString("").CString("s").Int16(1).Int16(param_format).Int16(1).Int32(param_len).Bytes(value);
  w.Int16(1).Int16(result_format);
  return w.Finish();
}

// The ErrorResponse of a Parse/Bind/Execute/Sync round, and the session's
// state after it.
std::vector<RawMessage> BindRound(RawConn& c, const std::string& bind) {
  c.Send(bind + ExecuteMsg("") + SyncMsg());
  return c.ReadUntilReady();
}

}  // namespace

TEST_CASE("strictness: Bind refuses unknown format codes and negative lengths", "[strictness_test]") {
  TestServer server;
  RawConn c(server.port());
  REQUIRE(LastStatus(c.Startup()) == 'I');
  REQUIRE(c.Send(ParseMsg("s", "select $1::int4 + 1", {23}) + SyncMsg()));
  REQUIRE(Ok(c.ReadUntilReady()));

  // The baseline: text in, text out.
  auto msgs = BindRound(c, RawBind(0, 1, "4", 0));
  REQUIRE(Ok(msgs));
  CHECK(FirstColumn(msgs) == std::vector<std::string>{"5"});

  // Format codes other than text (0) and binary (1): 22023, as PostgreSQL.
  for (int16_t bad : {7, 9, -1}) {
    msgs = BindRound(c, RawBind(bad, 1, "4", 0));
    CHECK(FirstSqlstate(msgs) == "22023");
    CHECK(LastStatus(msgs) == 'I');
    msgs = BindRound(c, RawBind(0, 1, "4", bad));
    CHECK(FirstSqlstate(msgs) == "22023");
    CHECK(First(msgs, 'D') == nullptr);
    CHECK(LastStatus(msgs) == 'I');
  }
  // A negative length other than -1 (NULL): 08P01, and nothing is read
  // past it as if it were data.
  msgs = BindRound(c, RawBind(0, -7, "", 0));
  CHECK(FirstSqlstate(msgs) == "08P01");
  CHECK(LastStatus(msgs) == 'I');
  // NULL still works, and the session is intact.
  msgs = BindRound(c, RawBind(0, -1, "", 0));
  REQUIRE(Ok(msgs));
  CHECK(FirstColumn(msgs) == std::vector<std::string>{"NULL"});
  CHECK(SessionAnswer(c) == "42");
}

TEST_CASE("strictness: DEFAULT expressions are checked at CREATE TABLE", "[strictness_test]") {
  TestServer server;
  RawConn c(server.port());
  REQUIRE(LastStatus(c.Startup()) == 'I');
  struct Case {
    const char* ddl;
    const char* sqlstate;
    const char* message;
  };
  const Case cases[] = {
      {"create table d1 (a int default $1)", "42P02", "there is no parameter $1"},
      {"create table d2 (a int default (select 1))", "0A000", "cannot use subquery in DEFAULT expression"},
      {"create table d3 (a bool default exists (select 1))", "0A000", "cannot use subquery in DEFAULT expression"},
      {"create table d4 (a int default 1 + sum(1))", "42803",
       "aggregate functions are not allowed in DEFAULT expressions"},
      {"create table d5 (a int default row_number() over ())", "42P20",
       "window functions are not allowed in DEFAULT expressions"},
      {"create table d6 (a int, b int default a)", "0A000", "cannot use column reference in DEFAULT expression"},
  };
  for (const Case& k : cases) {
    INFO(k.ddl);
    auto msgs = c.Query(k.ddl);
    const RawMessage* e = First(msgs, 'E');
    REQUIRE(e != nullptr);
    CHECK(ErrorOf(*e).sqlstate == k.sqlstate);
    CHECK(ErrorOf(*e).message == k.message);
    CHECK(LastStatus(msgs) == 'I');
  }
  // Nothing was created; a valid default still works.
  CHECK(FirstSqlstate(c.Query("select * from d1")) == "42P01");
  REQUIRE(Ok(c.Query("create table d7 (a int, b text default 'x' || (1 + 2)::text)")));
  REQUIRE(Ok(c.Query("insert into d7 (a) values (1)")));
  CHECK(FirstColumn(c.Query("select b from d7")) == std::vector<std::string>{"x3"});
}

TEST_CASE("strictness: the data directory, its files and shared memory are the owner's only",
          "[strictness_test]") {
  TestServer server;
  REQUIRE(server.PsqlValue("select 1") == "1");
  const std::string dd = server.datadir();
  struct stat st{};
  REQUIRE(stat(dd.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0700);
  for (const auto& entry : fs::recursive_directory_iterator(dd)) {
    INFO(entry.path().string());
    REQUIRE(stat(entry.path().c_str(), &st) == 0);
    CHECK((st.st_mode & 077) == 0);
  }

  // The segment is unlinked after mapping; its mode shows through the
  // postmaster's mapping.
  const std::string proc = "/proc/" + std::to_string(server.pid());
  std::ifstream maps(proc + "/maps");
  std::string line, range;
  while (std::getline(maps, line)) {
    if (line.find("/dev/shm/hearth.") != std::string::npos) {
      range = line.substr(0, line.find(' '));
      break;
    }
  }
  REQUIRE(!range.empty());
  REQUIRE(stat((proc + "/map_files/" + range).c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);

  // A data directory others may write into is refused at start.
  server.Stop(SIGTERM);
  REQUIRE(chmod(dd.c_str(), 0777) == 0);
  CommandResult r = RunCommand({HearthdPath(), "-D", dd, "-c", "port=" + std::to_string(server.port())}, "", 15);
  CHECK(r.exit_code != 0);
  CHECK(r.err.find("invalid permissions") != std::string::npos);
  REQUIRE(chmod(dd.c_str(), 0700) == 0);
  REQUIRE_NOTHROW(server.Start());
  CHECK(server.PsqlValue("select 2") == "2");
}

TEST_CASE("strictness: an out-of-range precision is a syntax error, not a crash", "[strictness_test]") {
  TestServer server;
  RawConn c(server.port());
  REQUIRE(LastStatus(c.Startup()) == 'I');
  RawConn bystander(server.port());
  REQUIRE(LastStatus(bystander.Startup()) == 'I');
  for (const char* sql : {"select current_timestamp(99999999999)", "select localtime(99999999999999999999999)"}) {
    INFO(sql);
    auto msgs = c.Query(sql);
    CHECK(FirstSqlstate(msgs) == "42601");
    CHECK(LastStatus(msgs) == 'I');
  }
  CHECK(SessionAnswer(c) == "42");
  CHECK(SessionAnswer(bystander) == "42");  // no crash reset ended other sessions
}
