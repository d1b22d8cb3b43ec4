// The session TimeZone and DateStyle as clients set them at connection
// time: our client's startup options, and psql's PGTZ / PGDATESTYLE (which
// libpq sends as startup parameters). The values must reach timestamptz
// output and input and be reported back in ParameterStatus.
#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <vector>

#include "test_server.h"

#ifdef HEARTH_HAVE_CLIENT
#include "client/client.h"
#endif

using hearth::testing::CommandResult;
using hearth::testing::RunCommand;
using hearth::testing::TestServer;

namespace {

// psql -X -A -t -c SQL with extra environment variables.
CommandResult PsqlWithEnv(const TestServer& server, const std::vector<std::string>& env, const std::string& sql) {
  std::vector<std::string> argv = {"env", "-u", "PGTZ", "-u", "PGDATESTYLE", "-u", "PGOPTIONS"};
  argv.insert(argv.end(), env.begin(), env.end());
  for (const char* a : {"psql", "-X", "-A", "-t", "-h", "127.0.0.1", "-p"}) argv.push_back(a);
  argv.push_back(std::to_string(server.port()));
  for (const char* a : {"-U", "hearth", "-d", "hearth", "-c"}) argv.push_back(a);
  argv.push_back(sql);
  return RunCommand(argv);
}

}  // namespace

TEST_CASE("timezone: psql's PGTZ and PGDATESTYLE reach the session", "[timezone_test]") {
  TestServer server;
  CommandResult r = PsqlWithEnv(server, {"PGTZ=America/New_York"},
                                "show timezone; select '2000-07-01 12:00:00+00'::timestamptz");
  REQUIRE(r.exit_code == 0);
  CHECK(r.out == "America/New_York\n2000-07-01 08:00:00-04\n");

  // Input without a zone is read in the session zone.
  r = PsqlWithEnv(server, {"PGTZ=Asia/Kolkata"},
                  "select extract(epoch from '2000-01-01 05:30:00'::timestamptz)");
  REQUIRE(r.exit_code == 0);
  CHECK(r.out == "946684800.000000\n");

  r = PsqlWithEnv(server, {"PGTZ=PST8PDT", "PGDATESTYLE=Postgres, MDY"},
                  "show datestyle; select '2000-01-08 04:05:06+00'::timestamptz, '2000-01-08'::date");
  REQUIRE(r.exit_code == 0);
  CHECK(r.out == "Postgres, MDY\nFri Jan 07 20:05:06 2000 PST|01-08-2000\n");

  // A zone the tz database does not know is refused at connection time.
  r = PsqlWithEnv(server, {"PGTZ=Mars/Olympus"}, "select 1");
  CHECK(r.exit_code != 0);
  CHECK(r.err.find("invalid value for parameter \"TimeZone\": \"Mars/Olympus\"") != std::string::npos);
}

#ifdef HEARTH_HAVE_CLIENT
TEST_CASE("timezone: our client's TimeZone startup option", "[timezone_test]") {
  TestServer server;
  hearth::client::ConnectOptions o;
  o.port = static_cast<uint16_t>(server.port());
  o.user = "hearth";
  o.database = "hearth";
  o.options["TimeZone"] = "europe/paris";
  hearth::client::Connection c = hearth::client::Connection::Connect(o);
  // Reported in its canonical spelling, as PostgreSQL does.
  CHECK(c.parameter("TimeZone") == "Europe/Paris");
  std::vector<hearth::client::Result> rs =
      c.SimpleQuery("select '2000-01-01 00:00:00+00'::timestamptz, '2000-07-01 00:00'::timestamptz::text");
  REQUIRE(rs.size() == 1);
  REQUIRE(rs[0].ok());
  CHECK(rs[0].rows[0][0] == std::optional<std::string>("2000-01-01 01:00:00+01"));
  CHECK(rs[0].rows[0][1] == std::optional<std::string>("2000-07-01 00:00:00+02"));

  // SET TIME ZONE is reported back and applies from the next statement on.
  rs = c.SimpleQuery("set time zone 'Asia/Tokyo'");
  REQUIRE(rs[0].ok());
  CHECK(c.parameter("TimeZone") == "Asia/Tokyo");
  rs = c.SimpleQuery("select '2000-01-01 00:00:00+00'::timestamptz");
  CHECK(rs[0].rows[0][0] == std::optional<std::string>("2000-01-01 09:00:00+09"));
}
#endif
