// A protocol implementation we did not write checks ours: the PostgreSQL
// JDBC driver (Debian libpostgresql-jdbc-java) runs java/JdbcSmoke.java
// against hearthd, in extended mode (named server-side statements after five
// executions, binary transfer) and in simple mode.
//
// Needs `java` with the JDK compiler module (single-file source launcher,
// Java 11+) and /usr/share/java/postgresql.jar; scripts/install-deps.sh
// installs both.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "test_server.h"

using namespace hearth::testing;

namespace {

constexpr char kJdbcJar[] = "/usr/share/java/postgresql.jar";

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

}  // namespace

TEST_CASE("jdbc: pgjdbc connects, queries, binds parameters and reports SQLSTATEs", "[jdbc_test]") {
  REQUIRE(std::filesystem::exists(kJdbcJar));
  CommandResult version = RunCommand({"java", "-version"}, "", 60);
  REQUIRE(version.exit_code == 0);

  TestServer server;
  CommandResult r = RunCommand({"java", "-cp", kJdbcJar, SourceDir() + "/tests/integration/java/JdbcSmoke.java",
                                std::to_string(server.port())},
                               "", 120);
  INFO("stdout:\n" << r.out << "\nstderr:\n" << r.err << "\nserver log:\n" << server.log());
  CHECK(r.exit_code == 0);
  CHECK(Contains(r.out, "ALL OK"));
  CHECK_FALSE(Contains(r.out, "MISMATCH"));
  CHECK_FALSE(Contains(r.out, "EXCEPTION"));
  // Both modes ran every check.
  for (const char* line : {"select 1+2: 3\n", "prepared loop sum: 55\n", "text param: abx\n", "int8 param: 42\n",
                           "numeric: 1.5\n", "date: 2026-11-30\n", "timestamp: 2026-11-30 12:34:56\n",
                           "types: text,numeric,bool,date,float8,int2\n", "syntax error: 42601\n",
                           "division by zero: 22012\n", "unknown setting: 42704\n", "aborted txn: 25P02\n",
                           "show after set: 3MB\n", "cte window loop: 6962,11705,17659,24824,33200,42787,53585\n"}) {
    INFO(line);
    const size_t first = r.out.find(line);
    CHECK(first != std::string::npos);
    if (first != std::string::npos) CHECK(r.out.find(line, first + 1) != std::string::npos);
  }
  CHECK(Contains(r.out, "== extended (default)\n"));
  CHECK(Contains(r.out, "== simple\n"));
}
