// Column privileges over the wire: a role that logged in with privileges on
// some columns only reads and writes exactly those, a prepared statement is
// re-checked after the owner revokes in another session, and a table
// REVOKE takes the column privileges with it.
#include <catch2/catch.hpp>

#include <optional>
#include <string>

#include "client/client.h"
#include "role_sessions.h"
#include "test_server.h"

using namespace hearth::testing;
using hearth::client::Connection;

TEST_CASE("column privileges: checked per column for a logged-in role", "[column_privileges_test]") {
  TestServer server;
  REQUIRE(server.Psql({"-c",
                       "create role owner_r login password 'pw';"
                       "create role clerk login password 'pw';"})
              .exit_code == 0);
  Connection owner = Connection::Connect(LoginAs(server, "owner_r"));
  Connection clerk = Connection::Connect(LoginAs(server, "clerk"));
  REQUIRE(StateOf(owner, "create table staff (id int, name text, salary int);"
                         "insert into staff values (1, 'ann', 100);"
                         "grant select (id, name), update (name) on staff to clerk") == "");

  CHECK(StateOf(clerk, "select * from staff") == "42501");
  CHECK(StateOf(clerk, "select salary from staff") == "42501");
  CHECK(StateOf(clerk, "select id from staff where salary > 0") == "42501");
  auto rs = clerk.SimpleQuery("select name from staff where id = 1");
  REQUIRE(rs.size() == 1);
  REQUIRE(rs[0].ok());
  CHECK(rs[0].rows[0][0] == std::optional<std::string>("ann"));
  CHECK(StateOf(clerk, "update staff set name = upper(name) where id = 1") == "");
  CHECK(StateOf(clerk, "update staff set salary = 0") == "42501");
  CHECK(StateOf(clerk, "insert into staff (id) values (2)") == "42501");

  // A prepared statement sees the revoke committed by the owner.
  REQUIRE(StateOf(clerk, "prepare q as select name from staff") == "");
  CHECK(StateOf(clerk, "execute q") == "");
  REQUIRE(StateOf(owner, "revoke select on staff from clerk") == "");
  CHECK(StateOf(clerk, "execute q") == "42501");
  // UPDATE (name) is still there; it needs no SELECT when it reads nothing.
  CHECK(StateOf(clerk, "update staff set name = 'bob'") == "");
  CHECK(StateOf(clerk, "update staff set name = 'bob' where id = 1") == "42501");
}
