// Owners and grant options over the wire, with several roles logged in at
// once: ALTER TABLE ... OWNER TO and its checks, a grant option passed on
// by its holder (who is recorded as grantor), and REVOKE ... CASCADE taking
// away what depended on it, seen by the other sessions at their next
// statement.
#include <catch2/catch.hpp>

#include <optional>
#include <string>

#include "client/client.h"
#include "role_sessions.h"
#include "test_server.h"

using namespace hearth::testing;
using hearth::client::Connection;

namespace {

// The first column of the first row of `sql`'s last result.
std::optional<std::string> ValueOf(Connection& c, const std::string& sql) {
  auto rs = c.SimpleQuery(sql);
  REQUIRE(!rs.empty());
  REQUIRE(rs.back().ok());
  REQUIRE(!rs.back().rows.empty());
  return rs.back().rows[0][0];
}

}  // namespace

TEST_CASE("ownership: grant options passed on and revoked with CASCADE", "[ownership_test]") {
  TestServer server;
  REQUIRE(server.Psql({"-c",
                       "create role alice login password 'pw';"
                       "create role bob login password 'pw';"
                       "create role carol login password 'pw';"})
              .exit_code == 0);
  Connection alice = Connection::Connect(LoginAs(server, "alice"));
  Connection bob = Connection::Connect(LoginAs(server, "bob"));
  Connection carol = Connection::Connect(LoginAs(server, "carol"));
  REQUIRE(StateOf(alice, "create table t (v int); insert into t values (7)") == "");

  // Without a grant option bob can pass nothing on.
  REQUIRE(StateOf(alice, "grant select on t to bob") == "");
  auto rs = bob.SimpleQuery("grant select on t to carol");
  REQUIRE(rs.size() == 1);
  CHECK(rs[0].ok());  // a warning only: no privileges were granted
  CHECK(StateOf(carol, "select v from t") == "42501");

  REQUIRE(StateOf(alice, "grant select on t to bob with grant option") == "");
  CHECK(StateOf(bob, "grant select on t to carol") == "");
  CHECK(ValueOf(carol, "select v from t") == std::optional<std::string>("7"));
  CHECK(ValueOf(alice, "select relacl from pg_class where relname = 't'") ==
        std::optional<std::string>("{alice=arwdDxt/alice,bob=r*/alice,carol=r/bob}"));

  // carol's privilege depends on bob's grant option.
  CHECK(StateOf(alice, "revoke select on t from bob") == "2BP01");
  CHECK(ValueOf(carol, "select v from t") == std::optional<std::string>("7"));
  CHECK(StateOf(alice, "revoke select on t from bob cascade") == "");
  CHECK(StateOf(carol, "select v from t") == "42501");
  CHECK(StateOf(bob, "select v from t") == "42501");
}

TEST_CASE("ownership: ALTER TABLE ... OWNER TO between logged-in roles", "[ownership_test]") {
  TestServer server;
  REQUIRE(server.Psql({"-c",
                       "create role alice login password 'pw';"
                       "create role bob login password 'pw';"})
              .exit_code == 0);
  Connection alice = Connection::Connect(LoginAs(server, "alice"));
  Connection bob = Connection::Connect(LoginAs(server, "bob"));
  REQUIRE(StateOf(alice, "create table t (id serial, v int); insert into t (v) values (7)") == "");

  // alice may not give it to a role she is not a member of; bob may not take it.
  CHECK(StateOf(alice, "alter table t owner to bob") == "42501");
  CHECK(StateOf(bob, "alter table t owner to bob") == "42501");
  CHECK(StateOf(bob, "select v from t") == "42501");

  REQUIRE(server.Psql({"-c", "grant bob to alice"}).exit_code == 0);
  CHECK(StateOf(alice, "alter table t owner to bob") == "");
  // bob owns it (and its sequence) now, at his next statement.
  CHECK(ValueOf(bob, "insert into t (v) values (8); select count(*) from t") == std::optional<std::string>("2"));
  CHECK(ValueOf(bob, "select relowner = (select oid from pg_roles where rolname = 'bob') from pg_class "
                     "where relname = 't_id_seq'") == std::optional<std::string>("t"));
  // alice acts with bob's privileges (she is a member that inherits).
  CHECK(StateOf(alice, "select v from t") == "");
  REQUIRE(server.Psql({"-c", "revoke bob from alice"}).exit_code == 0);
  CHECK(StateOf(alice, "select v from t") == "42501");
  CHECK(StateOf(alice, "drop table t") == "42501");
  CHECK(StateOf(bob, "drop table t") == "");
}
