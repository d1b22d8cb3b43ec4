// An application schema made and dumped by PostgreSQL 15 itself, restored
// into Hearth: data/app_schema.sql (serial, bigserial and identity keys,
// foreign keys with cascades, CHECKs, jsonb, text[], timestamptz, interval,
// a 10 MB text value) is loaded into a scratch PostgreSQL 15, dumped with
// its pg_dump, and the dump is loaded into a real hearthd with psql -v
// ON_ERROR_STOP=1. Then the same queries run against both servers and must
// answer identically: data/app_schema_queries.sql through psql (results,
// errors, cascades, sequences continuing past the restored keys), and
// node/app_schema.js through node-postgres (extended protocol, parameters,
// the driver's own type parsing). Skipped, with a warning, where there is
// no PostgreSQL 15 server to compare with.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "scratch_postgres.h"
#include "test_server.h"

using namespace hearth::testing;

namespace {

std::string DataFile(const std::string& name) {
  std::ifstream in(SourceDir() + "/tests/integration/data/" + name);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> PsqlArgs(int port, std::vector<std::string> extra) {
  std::vector<std::string> argv{"psql", "-X", "-h", "127.0.0.1", "-p", std::to_string(port), "-U", "hearth",
                                "-d", "hearth"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  return argv;
}

// The queries file echoed and answered, errors in place (psql -a, stderr
// merged in write order).
std::string Answers(int port) {
  CommandResult r = RunCommandMerged(PsqlArgs(port, {"-a", "-f", "-"}), DataFile("app_schema_queries.sql"), 120);
  CHECK(r.exit_code == 0);
  return r.out;
}

// Both outputs cut into statements (at the echoed lines psql -a prints), so
// that a failure names the first statement that differs.
void CheckSameAnswers(const std::string& pg, const std::string& hearth) {
  std::istringstream a(pg), b(hearth);
  std::string la, lb;
  int line = 0;
  while (true) {
    const bool more_a = static_cast<bool>(std::getline(a, la));
    const bool more_b = static_cast<bool>(std::getline(b, lb));
    ++line;
    if (!more_a && !more_b) break;
    INFO("output line " << line << "\nPostgreSQL: " << la << "\nHearth:     " << lb);
    REQUIRE(more_a == more_b);
    REQUIRE(la == lb);
  }
}

}  // namespace

TEST_CASE("app schema: a PostgreSQL 15 pg_dump restores into Hearth and answers identically", "[app_schema_test]") {
  ScratchPostgres pg;
  if (!pg.ready) {
    WARN("skipped: no scratch PostgreSQL 15 to compare with: " << pg.reason);
    return;
  }
  CommandResult made = RunCommand(PsqlArgs(pg.port(), {"-q", "-v", "ON_ERROR_STOP=1", "-f", "-"}),
                                  DataFile("app_schema.sql"), 120);
  INFO(made.err);
  REQUIRE(made.exit_code == 0);
  CommandResult dump = RunCommand({PgBin("pg_dump"), "-h", "127.0.0.1", "-p", std::to_string(pg.port()), "-U",
                                   "hearth", "hearth"},
                                  "", 120);
  INFO(dump.err);
  REQUIRE(dump.exit_code == 0);
  REQUIRE(Contains(dump.out, "ALTER TABLE public.orders ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY ("));
  REQUIRE(Contains(dump.out, "ON UPDATE CASCADE ON DELETE CASCADE"));
  REQUIRE(dump.out.size() > 10u * 1024 * 1024);

  TestServer hearth;
  CommandResult restore =
      RunCommand(PsqlArgs(hearth.port(), {"-q", "-v", "ON_ERROR_STOP=1", "-f", "-"}), dump.out, 300);
  INFO(restore.err);
  REQUIRE(restore.exit_code == 0);
  CHECK(hearth.PsqlValue("SELECT md5(body) = md5(repeat('0123456789abcdef', 655360)) FROM documents "
                         "WHERE title = 'big'") == "t");

  // Both servers change alike as the queries run (inserts, nextval), so the
  // driver's checks that follow start from the same state on each.
  {
    INFO("psql: the same answers");
    CheckSameAnswers(Answers(pg.port()), Answers(hearth.port()));
  }
  {
    INFO("node-postgres: the same rows through the extended protocol");
    const std::string dir = SourceDir() + "/tests/integration/node";
    REQUIRE(std::filesystem::exists(dir + "/node_modules/pg/package.json"));
    CommandResult r = RunCommand(
        {"node", dir + "/app_schema.js", std::to_string(pg.port()), std::to_string(hearth.port())}, "", 120);
    INFO("stdout:\n" << r.out << "\nstderr:\n" << r.err);
    CHECK(r.exit_code == 0);
    CHECK(Contains(r.out, "ALL OK"));
    CHECK(!Contains(r.out, "MISMATCH"));
    CHECK(Contains(r.out, "big value param: "));
  }
}
