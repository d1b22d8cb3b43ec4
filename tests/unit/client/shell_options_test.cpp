// Command-line parsing of the hearth shell.
#include <catch2/catch.hpp>

#include <map>

#include "client/shell/shell_options.h"

using hearth::client::ParseBoolValue;
using hearth::client::ParseShellOptions;
using hearth::client::ShellOptions;

namespace {

std::optional<ShellOptions> Parse(std::vector<std::string> args,
                                  std::map<std::string, std::string> env = {},
                                  std::string* error = nullptr) {
  std::string err;
  auto r = ParseShellOptions(
      args,
      [&env](const char* name) -> const char* {
        auto it = env.find(name);
        return it == env.end() ? nullptr : it->second.c_str();
      },
      &err);
  if (error != nullptr) *error = err;
  return r;
}

}  // namespace

TEST_CASE("defaults match the hearth server", "[client][options]") {
  auto o = Parse({});
  REQUIRE(o);
  CHECK(o->host == "127.0.0.1");
  CHECK(o->port == 5433);
  CHECK(o->user == "hearth");
  CHECK(o->dbname == "hearth");
  CHECK(o->actions.empty());
}

TEST_CASE("environment variables are honoured, options win", "[client][options]") {
  std::map<std::string, std::string> env{{"PGHOST", "db.example"}, {"PGPORT", "6000"},
                                         {"PGUSER", "alice"}, {"PGDATABASE", "shop"},
                                         {"PGPASSWORD", "pw"}};
  auto o = Parse({}, env);
  REQUIRE(o);
  CHECK(o->host == "db.example");
  CHECK(o->port == 6000);
  CHECK(o->user == "alice");
  CHECK(o->dbname == "shop");
  CHECK(o->password == "pw");
  auto p = Parse({"-h", "h2", "-p", "7000", "-U", "bob", "-d", "other"}, env);
  REQUIRE(p);
  CHECK(p->host == "h2");
  CHECK(p->port == 7000);
  CHECK(p->user == "bob");
  CHECK(p->dbname == "other");
}

TEST_CASE("option spellings and ordered -c/-f actions", "[client][options]") {
  auto o = Parse({"-p5434", "--username=u", "--host", "hh", "-Atc", "select 1", "-f", "a.sql",
                  "--command=select 2", "-X", "-v", "ON_ERROR_STOP=1", "--set=X=", "-q"});
  REQUIRE(o);
  CHECK(o->port == 5434);
  CHECK(o->user == "u");
  CHECK(o->host == "hh");
  CHECK(o->unaligned);
  CHECK(o->tuples_only);
  CHECK(o->no_rc);
  CHECK(o->quiet);
  REQUIRE(o->actions.size() == 3);
  CHECK(o->actions[0].kind == ShellOptions::Action::Kind::kCommand);
  CHECK(o->actions[0].value == "select 1");
  CHECK(o->actions[1].kind == ShellOptions::Action::Kind::kFile);
  CHECK(o->actions[1].value == "a.sql");
  CHECK(o->actions[2].value == "select 2");
  CHECK(o->variables.at("ON_ERROR_STOP") == "1");
  CHECK(o->variables.at("X").empty());
}

TEST_CASE("positional dbname and user; echo mode last wins", "[client][options]") {
  auto o = Parse({"mydb", "me", "-a", "-e"});
  REQUIRE(o);
  CHECK(o->dbname == "mydb");
  CHECK(o->user == "me");
  CHECK(o->echo == ShellOptions::Echo::kQueries);
}

TEST_CASE("bad usage is reported", "[client][options]") {
  std::string err;
  CHECK_FALSE(Parse({"-p", "notaport"}, {}, &err));
  CHECK(err == "invalid port number: \"notaport\"");
  CHECK_FALSE(Parse({"-p", "70000"}, {}, &err));
  CHECK_FALSE(Parse({"-Z"}, {}, &err));
  CHECK(err == "invalid option -- 'Z'");
  CHECK_FALSE(Parse({"-c"}, {}, &err));
  CHECK(err == "option requires an argument -- 'c'");
  CHECK_FALSE(Parse({"--bogus"}, {}, &err));
  CHECK_FALSE(Parse({"-v", "=1"}, {}, &err));
  CHECK_FALSE(Parse({"a", "b", "c"}, {}, &err));
}

TEST_CASE("psql boolean values", "[client][options]") {
  CHECK(ParseBoolValue("on") == true);
  CHECK(ParseBoolValue("1") == true);
  CHECK(ParseBoolValue("TRUE") == true);
  CHECK(ParseBoolValue("y") == true);
  CHECK(ParseBoolValue("off") == false);
  CHECK(ParseBoolValue("0") == false);
  CHECK(ParseBoolValue("f") == false);
  CHECK_FALSE(ParseBoolValue("o").has_value());
  CHECK_FALSE(ParseBoolValue("maybe").has_value());
}
