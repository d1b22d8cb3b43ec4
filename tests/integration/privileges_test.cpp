// Table privileges over the wire: ACLs stored in PostgreSQL's aclitem text
// form (what pg_class.relacl shows in PostgreSQL 15 for the same grants),
// checks for a role that logged in (not only through SET ROLE),
// and a session seeing a grant or revoke committed by another one at its
// next statement.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "client/client.h"
#include "role_sessions.h"
#include "test_server.h"

using namespace hearth::testing;
using hearth::client::ClientError;
using hearth::client::Connection;

TEST_CASE("privileges: relacl in PostgreSQL's aclitem form", "[privileges_test]") {
  TestServer server;
  auto r = server.PsqlScript(
      "create role \"Mixed Case\";\n"
      "create role acl_o;\n"
      "set role acl_o;\n"
      "create table acl_t (a int);\n"
      "select relacl is null as default_acl from pg_catalog.hearth_class where relname = 'acl_t';\n"
      "grant select on acl_t to public;\n"
      "grant insert, update on acl_t to \"Mixed Case\" with grant option;\n"
      "select relacl from pg_catalog.hearth_class where relname = 'acl_t';\n"
      "revoke insert on acl_t from \"Mixed Case\";\n"
      "revoke all on acl_t from acl_o;\n"
      "select relacl from pg_catalog.hearth_class where relname = 'acl_t';\n",
      {"-A", "-t", "-q"});
  CHECK(r.out ==
        "t\n"
        "{acl_o=arwdDxt/acl_o,=r/acl_o,\"\\\"Mixed Case\\\"=a*w*/acl_o\"}\n"
        "{=r/acl_o,\"\\\"Mixed Case\\\"=w*/acl_o\"}\n");
  // A superuser renames it: the ACL follows the new name.
  CHECK(server.PsqlValue("alter role \"Mixed Case\" rename to mixed; "
                         "select relacl from pg_catalog.hearth_class where relname = 'acl_t'") ==
        "{=r/acl_o,mixed=w*/acl_o}");
}

TEST_CASE("privileges: a role that logged in is checked, and sees grants of other sessions", "[privileges_test]") {
  TestServer server;
  REQUIRE(server.Psql({"-c",
                       "create role app login password 'pw';"
                       "create table secret (v int); insert into secret values (42);"})
              .exit_code == 0);
  Connection app = Connection::Connect(LoginAs(server, "app"));
  CHECK(StateOf(app, "select v from secret") == "42501");
  CHECK(StateOf(app, "insert into secret values (1)") == "42501");
  CHECK(StateOf(app, "copy secret from stdin") == "42501");
  CHECK(StateOf(app, "create table secret_copy as select * from secret") == "42501");
  CHECK(StateOf(app, "drop table secret") == "42501");
  // Its own table is its own.
  CHECK(StateOf(app, "create table mine (x int); insert into mine values (1); drop table mine") == "");

  REQUIRE(server.Psql({"-c", "grant select on secret to app"}).exit_code == 0);
  auto rs = app.SimpleQuery("select v from secret");
  REQUIRE(rs.size() == 1);
  REQUIRE(rs[0].ok());
  CHECK(rs[0].rows[0][0] == std::optional<std::string>("42"));

  REQUIRE(server.Psql({"-c", "revoke select on secret from app"}).exit_code == 0);
  CHECK(StateOf(app, "select v from secret") == "42501");
  // Made superuser by another session: every check passes at once.
  REQUIRE(server.Psql({"-c", "alter role app superuser"}).exit_code == 0);
  CHECK(StateOf(app, "select v from secret") == "");
}
