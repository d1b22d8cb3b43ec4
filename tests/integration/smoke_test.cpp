// The first thing a user does: psql -c 'select 1+2' prints 3.
#include <catch2/catch.hpp>

#include "test_server.h"

using hearth::testing::TestServer;

TEST_CASE("psql select 1+2 prints 3", "[smoke_test]") {
  TestServer server;
  CHECK(server.PsqlValue("select 1+2") == "3");
  auto r = server.Psql({"-c", "select 1+2"});
  CHECK(r.exit_code == 0);
  CHECK(r.out.find(" ?column? \n----------\n        3\n(1 row)") != std::string::npos);
}
