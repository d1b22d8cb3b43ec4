// Bounded resources over the wire: statements that used to overflow the
// stack or allocate gigabytes end with an ERROR (54001, 42P02, ...) or work
// within small memory, the session goes on, and no crash reset happens.
// Memory is checked on the backend itself: its peak RSS (VmHWM).
#include <catch2/catch.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "common/protocol/wire.h"
#include "test_server.h"

using namespace hearth::testing;
namespace fs = std::filesystem;

namespace {

bool Ok(const std::vector<RawMessage>& msgs) { return First(msgs, 'E') == nullptr && LastStatus(msgs) != 0; }

// A field ("VmHWM:") of /proc/<pid>/status in kB, or -1.
long ProcStatusKb(pid_t pid, const std::string& field) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(field, 0) == 0) return std::stol(line.substr(field.size()));
  }
  return -1;
}

// Bytes waiting unread in the server's end of the loopback connection
// whose client end is `client_fd` (rx_queue in /proc/net/tcp), -1 if not
// found.
long ServerReceiveQueue(int client_fd, int server_port) {
  sockaddr_in local{};
  socklen_t len = sizeof local;
  getsockname(client_fd, reinterpret_cast<sockaddr*>(&local), &len);
  char want_local[16], want_remote[16];
  snprintf(want_local, sizeof want_local, ":%04X", server_port);
  snprintf(want_remote, sizeof want_remote, ":%04X", ntohs(local.sin_port));
  std::ifstream in("/proc/net/tcp");
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string slot, local_addr, remote_addr, state, queues;
    fields >> slot >> local_addr >> remote_addr >> state >> queues;
    if (local_addr.size() < 5 || remote_addr.size() < 5) continue;
    if (local_addr.substr(local_addr.size() - 5) != want_local) continue;
    if (remote_addr.substr(remote_addr.size() - 5) != want_remote) continue;
    return std::stol(queues.substr(queues.find(':') + 1), nullptr, 16);
  }
  return -1;
}

// Nothing in these tests may take the backend anywhere near this: the
// bombs they replay asked for 1 GiB and more.
constexpr long kPeakRssLimitKb = 256 * 1024;

std::string Chain(const std::string& term, const std::string& sep, int n) {
  std::string out;
  out.reserve(static_cast<size_t>(n) * (term.size() + sep.size()));
  for (int i = 0; i < n; i++) {
    if (i > 0) out += sep;
    out += term;
  }
  return out;
}

// "join t as j1 on true join t as j2 on true ...": a left-deep join tree.
std::string Joins(int n) {
  std::string out;
  for (int i = 1; i <= n; i++) out += " join t as j" + std::to_string(i) + " on true";
  return out;
}

// The statement fails with `sqlstate` and the same session still answers.
void ExpectErrorThenAlive(RawConn& c, const std::string& sql, const std::string& sqlstate) {
  auto msgs = c.Query(sql, 60000);
  CHECK(FirstSqlstate(msgs) == sqlstate);
  CHECK(LastStatus(msgs) == 'I');
  CHECK(FirstColumn(c.Query("select 41 + 1")) == std::vector<std::string>{"42"});
}

}  // namespace

TEST_CASE("limits: flat chains end with 54001 instead of overflowing the stack", "[limits_test]") {
  TestServer server;
  RawConn c(server.port());
  REQUIRE(LastStatus(c.Startup()) == 'I');
  const int32_t pid = c.backend_pid();
  REQUIRE(Ok(c.Query("create table t (a int, b text)")));
  REQUIRE(Ok(c.Query("insert into t values (1, 'x')")));

  ExpectErrorThenAlive(c, "select " + Chain("1", "+", 30000), "54001");
  ExpectErrorThenAlive(c, "select 1 where " + Chain("true", " and ", 20000), "54001");
  ExpectErrorThenAlive(c, "select count(*) from t where " + Chain("a = 1", " or ", 20000), "54001");
  ExpectErrorThenAlive(c, "select " + Chain("b", " || ", 20000) + " from t", "54001");
  ExpectErrorThenAlive(c, Chain("select 1", " union all ", 10000), "54001");
  ExpectErrorThenAlive(c, "select 1 from t " + Joins(20000), "54001");
  ExpectErrorThenAlive(c, "select 1 from t " + Joins(5000), "54001");
  // Chains that pass the parser but not the planner's stack check.
  ExpectErrorThenAlive(c, "select " + Chain("a", "+", 5000) + " from t", "54001");
  ExpectErrorThenAlive(c, "update t set a = 1 where " + Chain("b = b", " and ", 5000), "54001");
  ExpectErrorThenAlive(c, Chain("select 1", " union all ", 5000), "54001");
  // Through the extended protocol too.
  REQUIRE(c.Send(ParseMsg("", "select " + Chain("$1::int", "+", 5000)) + SyncMsg()));
  auto msgs = c.ReadUntilReady(60000);
  CHECK(FirstSqlstate(msgs) == "54001");
  // A modest chain works, as in PostgreSQL.
  CHECK(FirstColumn(c.Query("select " + Chain("1", "+", 500))) == std::vector<std::string>{"500"});
  CHECK(FirstColumn(c.Query("select count(*) from (" + Chain("select 1", " union all ", 300) + ") s")) ==
        std::vector<std::string>{"300"});

  // max_stack_depth is PostgreSQL's setting; a smaller one stops earlier.
  CHECK(FirstColumn(c.Query("show max_stack_depth")) == std::vector<std::string>{"2MB"});
  REQUIRE(Ok(c.Query("set max_stack_depth = '100kB'")));
  ExpectErrorThenAlive(c, "select " + Chain("1", "+", 400), "54001");
  REQUIRE(Ok(c.Query("reset max_stack_depth")));
  CHECK(FirstColumn(c.Query("select " + Chain("1", "+", 400))) == std::vector<std::string>{"400"});

  CHECK(c.backend_pid() == pid);
  CHECK(server.log().find("terminated by signal") == std::string::npos);
}

TEST_CASE("limits: memory bombs stay small in the backend", "[limits_test]") {
  TestServer server;
  RawConn c(server.port());
  REQUIRE(LastStatus(c.Startup()) == 'I');
  const pid_t pid = c.backend_pid();
  REQUIRE(ProcStatusKb(pid, "VmHWM:") > 0);

  // $N far beyond what Bind could ever supply: no array sized by N.
  REQUIRE(c.Send(ParseMsg("", "select $2147483647") + SyncMsg()));
  CHECK(FirstSqlstate(c.ReadUntilReady()) == "42P02");
  // Bind counts parameters in an int16: PostgreSQL accepts $65536 here and
  // then cannot describe it; Hearth refuses it as a parameter that cannot exist.
  REQUIRE(c.Send(ParseMsg("", "select $65536") + SyncMsg()));
  CHECK(FirstSqlstate(c.ReadUntilReady()) == "42P02");
  CHECK(FirstSqlstate(c.Query("select $2147483647")) == "42P02");

  // round/trunc clamp their scale as PostgreSQL 15 does (16383 digits).
  auto msgs = c.Query("select length(round(1.5, 2147483647)::text), length(trunc(1.5, 2147483647)::text), "
                      "round(1.5, -2147483647)");
  REQUIRE(Ok(msgs));
  REQUIRE(!msgs.empty());
  CHECK(DataRowValues(*First(msgs, 'D')) ==
        std::vector<std::optional<std::string>>{"16385", "16385", "0"});
  CHECK(ProcStatusKb(pid, "VmHWM:") < kPeakRssLimitKb);
}

TEST_CASE("limits: a message header announcing 1 GiB does not allocate it up front", "[limits_test]") {
  TestServer server;
  RawConn c(server.port());
  REQUIRE(LastStatus(c.Startup()) == 'I');
  const pid_t pid = c.backend_pid();

  // 'Q', length 1 GiB - 1, then 15 bytes of the body.
  std::string frame = "Q";
  const int32_t len = (1 << 30) - 1;
  for (int shift = 24; shift >= 0; shift -= 8) frame += static_cast<char>((len >> shift) & 0xff);
  frame += "select";
  REQUIRE(c.Send(frame));
  // The backend reads the header, waits for the body, and reads each piece
  // as it comes: its buffer must grow with them, not with the header.
  for (const char* piece : {" 1 from x", " where 1=1 and"}) {
    REQUIRE(WaitFor([&] { return ServerReceiveQueue(c.fd(), server.port()) == 0; }, 10000));
    REQUIRE(c.Send(piece));
  }
  REQUIRE(WaitFor([&] { return ServerReceiveQueue(c.fd(), server.port()) == 0; }, 10000));
  CHECK(ProcStatusKb(pid, "VmHWM:") < kPeakRssLimitKb);
}

TEST_CASE("limits: temp_file_limit bounds the spill files of a sort", "[limits_test]") {
  TestServer server;
  RawConn c(server.port());
  REQUIRE(LastStatus(c.Startup()) == 'I');
  REQUIRE(Ok(c.Query("create table t (a int, pad text)")));
  std::string values;
  for (int i = 0; i < 3000; i++) {
    values += (i ? ",(" : "(") + std::to_string(i) + ", repeat('x', 200) || '" + std::to_string(i) + "')";
  }
  REQUIRE(Ok(c.Query("insert into t values " + values)));
  CHECK(FirstColumn(c.Query("show temp_file_limit")) == std::vector<std::string>{"-1"});
  REQUIRE(Ok(c.Query("set work_mem = '64kB'")));
  REQUIRE(Ok(c.Query("set temp_file_limit = '100kB'")));
  const std::string sort = "select a from t order by pad desc";
  auto msgs = c.Query(sort);
  REQUIRE(FirstSqlstate(msgs) == "53400");
  CHECK(ErrorOf(*First(msgs, 'E')).message == "temporary file size exceeds temp_file_limit (100kB)");
  CHECK(LastStatus(msgs) == 'I');
  // No limit: the same sort spills and completes; no temporary file stays.
  REQUIRE(Ok(c.Query("reset temp_file_limit")));
  msgs = c.Query(sort);
  REQUIRE(Ok(msgs));
  CHECK(FirstColumn(msgs).size() == 3000);
  const std::string tmp = server.datadir() + "/base/pgsql_tmp";
  CHECK((!fs::exists(tmp) || fs::is_empty(tmp)));
}
