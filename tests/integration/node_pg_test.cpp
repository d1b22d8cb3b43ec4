// A second protocol implementation we did not write checks ours:
// node-postgres (npm `pg`, installed under tests/integration/node by
// scripts/install-deps.sh) runs node/pg_smoke.js against hearthd —
// parameterized recursive and data-modifying CTEs, window functions through
// a named statement bound three times, types as the driver parses them and
// SQLSTATEs, all through the extended protocol.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "test_server.h"

using namespace hearth::testing;

TEST_CASE("node-postgres: parameterized CTE and window queries, types and SQLSTATEs", "[node_pg_test]") {
  const std::string dir = SourceDir() + "/tests/integration/node";
  REQUIRE(std::filesystem::exists(dir + "/node_modules/pg/package.json"));

  TestServer server;
  CommandResult r = RunCommand({"node", dir + "/pg_smoke.js", std::to_string(server.port())}, "", 120);
  INFO("stdout:\n" << r.out << "\nstderr:\n" << r.err << "\nserver log:\n" << server.log());
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("ALL OK") != std::string::npos);
  CHECK(r.out.find("MISMATCH") == std::string::npos);
  CHECK(r.out.find("EXCEPTION") == std::string::npos);
  for (const char* line : {"recursive cte: {\"c\":10,\"s\":55}\n", "insert cte: \"21.75\"\n",
                           "window no rows: 0\n", "aborted txn: \"25P02\"\n", "int array: [1,2,3]\n"}) {
    INFO(line);
    CHECK(r.out.find(line) != std::string::npos);
  }
}
