// PostgreSQL 15's pg_dump, pg_restore and pg_dumpall, unmodified, against a
// real hearthd: every catalog query they send must be answered, and what
// they write must load back, into Hearth and into a real PostgreSQL 15.
//
// - plain dump of Hearth → fresh Hearth server: same dump text, same data,
//   same \d, sequences continue where they were;
// - custom (-Fc) and directory (-Fd) archives through pg_restore;
// - a dump written by PostgreSQL 15's pg_dump (tests/integration/data,
//   checked in) restored into Hearth with psql -v ON_ERROR_STOP=1;
// - Hearth's plain dump loaded into a scratch PostgreSQL 15 (initdb +
//   pg_ctl as a non-root user; skipped, with a warning, when there is none);
// - pg_dumpall --globals-only;
// - LOCK TABLE, which pg_dump takes on every table it dumps.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "scratch_postgres.h"
#include "session_helpers.h"
#include "test_server.h"

using hearth::testing::CommandResult;
using hearth::testing::FreePort;
using hearth::testing::RunCommand;
using hearth::testing::ScratchPostgres;
using hearth::testing::TestServer;

namespace {

// PostgreSQL 15's client programs (the tools under test), else PATH's.
std::string PgBin(const std::string& name) {
  const std::string path = "/usr/lib/postgresql/15/bin/" + name;
  return access(path.c_str(), X_OK) == 0 ? path : name;
}

std::vector<std::string> Conn(int port) {
  return {"-h", "127.0.0.1", "-p", std::to_string(port), "-U", "hearth", "-d", "hearth"};
}

std::vector<std::string> Cmd(const std::string& tool, int port, const std::vector<std::string>& args) {
  std::vector<std::string> argv{PgBin(tool)};
  for (const std::string& a : Conn(port)) argv.push_back(a);
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// A dump without its comments and psql's per-dump \restrict key: what two
// dumps of the same database must share line for line.
std::string DumpBody(const std::string& dump) {
  std::istringstream in(dump);
  std::string line;
  std::string out;
  while (std::getline(in, line)) {
    if (line.rfind("--", 0) == 0 || line.rfind("\\restrict", 0) == 0 || line.rfind("\\unrestrict", 0) == 0) continue;
    out += line + "\n";
  }
  return out;
}

// psql (with ON_ERROR_STOP) running `script` against any server on `port`.
CommandResult PsqlAt(int port, const std::string& script) {
  std::vector<std::string> argv{"psql", "-X", "-v", "ON_ERROR_STOP=1", "-q"};
  for (const std::string& a : Conn(port)) argv.push_back(a);
  argv.push_back("-f");
  argv.push_back("-");
  return RunCommand(argv, script);
}

// The schema Hearth dumps: what pg_dump covers today (tables, primary
// keys, unique constraints and indexes, a sequence as a column default,
// defaults, privileges, comments, data with every awkward byte COPY escapes).
// The roles kSchema's objects name (a restore needs them first).
const char* kRoles = "CREATE ROLE reader; CREATE ROLE owner1;";

const char* kSchema = R"sql(
CREATE ROLE reader;
CREATE ROLE owner1;
CREATE SEQUENCE invoice_no START 1000 INCREMENT 10;
CREATE TABLE customers (
  id integer PRIMARY KEY,
  email varchar(80) NOT NULL UNIQUE,
  name text DEFAULT 'anonymous',
  balance numeric(12,2) DEFAULT 0,
  active boolean DEFAULT true,
  created timestamptz DEFAULT now(),
  birthday date,
  score double precision,
  big bigint,
  small smallint,
  blob bytea
);
CREATE INDEX customers_name_idx ON customers (name);
CREATE INDEX customers_active_created_idx ON customers (active, created DESC);
CREATE TABLE orders (
  order_no bigint NOT NULL DEFAULT nextval('invoice_no'),
  customer_id integer NOT NULL,
  line smallint NOT NULL,
  amount numeric(10,2),
  status text NOT NULL DEFAULT 'new',
  PRIMARY KEY (order_no, line)
);
CREATE UNIQUE INDEX orders_customer_line_key ON orders (customer_id, order_no, line);
CREATE TABLE empty_table (a int, b text) WITH (fillfactor = 70, autovacuum_enabled = false);
INSERT INTO customers VALUES
 (1, 'a@example.com', 'Ann', 10.50, true, '2024-01-02 03:04:05+00', '1990-05-06', 1.5, 9000000000, 7, '\x00ff'),
 (2, 'b@example.com', NULL, -3.25, false, '2024-02-03 04:05:06.123456+00', NULL, NULL, NULL, NULL, NULL),
 (3, 'c@example.com', E'tab\there, newline\nand backslash \\ and quote '' "', 0, NULL, '2023-12-31 23:59:59+00',
  '2000-02-29', -0.000123, -1, -32768, '\x'),
 (4, 'd@example.com', 'Ünïcödé ✓', 99999.99, true, '2024-03-04 00:00:00+00', NULL, 1e300, 0, 0, NULL);
INSERT INTO orders (customer_id, line, amount, status) VALUES (1, 1, 3.50, 'paid'), (1, 1, NULL, 'new');
INSERT INTO orders (order_no, customer_id, line, amount) VALUES (5, 2, 2, 7.25);
GRANT SELECT ON customers TO reader;
GRANT SELECT, INSERT ON orders TO reader;
CREATE TABLE owned_t (a int, b text);
ALTER TABLE owned_t OWNER TO owner1;
GRANT SELECT (a), UPDATE (b) ON owned_t TO reader;
COMMENT ON TABLE customers IS 'who buys';
COMMENT ON COLUMN customers.email IS 'unique, it''s the login';
COMMENT ON INDEX customers_name_idx IS 'by name';
COMMENT ON SEQUENCE invoice_no IS 'order numbers';
COMMENT ON CONSTRAINT orders_pkey ON orders IS 'one row per line';
)sql";

// What must be the same after a restore: \d of each relation, the rows,
// and where the sequence is (read without advancing it).
std::string Snapshot(int port) {
  CommandResult r = PsqlAt(port, R"sql(
SET TimeZone = 'UTC';
\d customers
\d orders
\d empty_table
\d invoice_no
SELECT * FROM customers ORDER BY id;
SELECT * FROM orders ORDER BY order_no, line;
SELECT count(*) FROM empty_table;
SELECT last_value, is_called FROM invoice_no;
SELECT relname, reloptions FROM pg_class WHERE reloptions IS NOT NULL ORDER BY 1;
SELECT c.relname, d.objsubid, d.description FROM pg_description d JOIN pg_class c ON c.oid = d.objoid
  WHERE d.classoid = 'pg_class'::regclass ORDER BY 1, 2;
SELECT obj_description(oid, 'pg_constraint') FROM pg_constraint WHERE conname = 'orders_pkey';
SELECT has_table_privilege('reader', 'customers', 'SELECT'), has_table_privilege('reader', 'orders', 'INSERT'),
       has_table_privilege('reader', 'orders', 'UPDATE');
SELECT pg_get_userbyid(relowner), has_column_privilege('reader', 'owned_t', 'a', 'SELECT'),
       has_column_privilege('reader', 'owned_t', 'b', 'SELECT'), has_column_privilege('reader', 'owned_t', 'b', 'UPDATE')
  FROM pg_class WHERE relname = 'owned_t';
)sql");
  INFO(r.err);
  CHECK(r.exit_code == 0);
  return r.out;
}

void Populate(const TestServer& s) {
  CommandResult r = PsqlAt(s.port(), kSchema);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
}

CommandResult DumpPlain(int port) {
  CommandResult r = RunCommand(Cmd("pg_dump", port, {}));
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.err.empty());
  return r;
}

}  // namespace

TEST_CASE("pg_dump: a plain dump of Hearth restores into a fresh server, identically", "[pg_dump_test]") {
  TestServer a;
  Populate(a);
  const CommandResult dump = DumpPlain(a.port());
  CHECK(Contains(dump.out, "CREATE TABLE public.customers ("));
  CHECK(Contains(dump.out, "ALTER TABLE ONLY public.customers\n    ADD CONSTRAINT customers_pkey PRIMARY KEY (id);"));
  CHECK(Contains(dump.out, "SELECT pg_catalog.setval('public.invoice_no', 1010, true);"));
  CHECK(Contains(dump.out, "GRANT SELECT ON TABLE public.customers TO reader;"));
  CHECK(Contains(dump.out, "COMMENT ON TABLE public.customers IS 'who buys';"));
  CHECK(Contains(dump.out, "COMMENT ON COLUMN public.customers.email IS 'unique, it''s the login';"));
  CHECK(Contains(dump.out, "COMMENT ON CONSTRAINT orders_pkey ON public.orders IS 'one row per line';"));

  TestServer b;
  REQUIRE(PsqlAt(b.port(), kRoles).exit_code == 0);
  CommandResult restore = PsqlAt(b.port(), dump.out);
  INFO(restore.err);
  REQUIRE(restore.exit_code == 0);
  CHECK(Snapshot(b.port()) == Snapshot(a.port()));
  // The restored server dumps to the same text.
  CHECK(DumpBody(DumpPlain(b.port()).out) == DumpBody(dump.out));
  // Sequences continue where they were.
  CHECK(b.PsqlValue("SELECT nextval('invoice_no')") == a.PsqlValue("SELECT nextval('invoice_no')"));

  // INSERT statements instead of COPY load the same rows.
  const CommandResult inserts = RunCommand(Cmd("pg_dump", a.port(), {"--column-inserts"}));
  REQUIRE(inserts.exit_code == 0);
  CHECK(Contains(inserts.out, "INSERT INTO public.customers (id, email, name,"));
  TestServer c;
  REQUIRE(PsqlAt(c.port(), kRoles).exit_code == 0);
  CommandResult load = PsqlAt(c.port(), inserts.out);
  INFO(load.err);
  REQUIRE(load.exit_code == 0);
  CHECK(Snapshot(c.port()) == Snapshot(a.port()));
}

TEST_CASE("pg_dump: custom and directory archives restore through pg_restore", "[pg_dump_test]") {
  TestServer a;
  Populate(a);
  char tmpl[] = "/tmp/hearth-pgdump-XXXXXX";
  REQUIRE(mkdtemp(tmpl) != nullptr);
  const std::string dir = tmpl;

  for (const std::string format : {"c", "d"}) {
    INFO("format " << format);
    const std::string archive = dir + "/archive." + format;
    CommandResult dump = RunCommand(Cmd("pg_dump", a.port(), {"-F" + format, "-f", archive}));
    INFO(dump.err);
    REQUIRE(dump.exit_code == 0);
    CommandResult list = RunCommand({PgBin("pg_restore"), "--list", archive});
    CHECK(list.exit_code == 0);
    CHECK(Contains(list.out, "TABLE public customers hearth"));
    CHECK(Contains(list.out, "CONSTRAINT public customers customers_pkey hearth"));

    TestServer b;
    REQUIRE(PsqlAt(b.port(), kRoles).exit_code == 0);
    std::vector<std::string> args{"--exit-on-error"};
    if (format == "d") args.insert(args.end(), {"-j", "2"});
    args.push_back(archive);
    CommandResult restore = RunCommand(Cmd("pg_restore", b.port(), args));
    INFO(restore.err);
    REQUIRE(restore.exit_code == 0);
    CHECK(Snapshot(b.port()) == Snapshot(a.port()));
  }
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}

TEST_CASE("pg_dump: a PostgreSQL 15 plain dump restores into Hearth with ON_ERROR_STOP", "[pg_dump_test]") {
  TestServer s;
  REQUIRE(PsqlAt(s.port(), "CREATE ROLE reader;").exit_code == 0);
  const std::string dump = ReadFile(std::string(HEARTH_SOURCE_DIR) + "/tests/integration/data/pg15_dump_core.sql");
  REQUIRE(Contains(dump, "Dumped by pg_dump version 15"));
  CommandResult r = PsqlAt(s.port(), dump);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);

  CHECK(s.PsqlValue("SELECT count(*) FROM customers") == "4");
  CHECK(s.PsqlValue("SELECT name FROM customers WHERE id = 3") ==
        "tab\there, newline\nand backslash \\ and quote ' \"");
  CHECK(s.PsqlValue("SELECT blob FROM customers WHERE id = 1") == "\\x00ff");
  CHECK(s.PsqlValue("SELECT name FROM customers WHERE id = 4") == "Ünïcödé ✓");
  CHECK(s.PsqlValue("SELECT string_agg(order_no || ':' || line, ',' ORDER BY order_no) FROM orders") ==
        "1010:2,1020:1,1030:1");
  CHECK(s.PsqlValue("SELECT nextval('invoice_no')") == "1040");
  CHECK(s.PsqlValue("INSERT INTO orders (customer_id, line) VALUES (4, 1) RETURNING order_no, status") == "1050|new");
  // Constraints and indexes are enforced.
  CHECK(Contains(s.PsqlValue("INSERT INTO customers (id, email) VALUES (1, 'x@example.com')"), "duplicate key value"));
  CHECK(Contains(s.PsqlValue("INSERT INTO customers (id, email) VALUES (9, 'a@example.com')"), "duplicate key value"));
  CommandResult d = s.Psql({"-c", "\\d customers"});
  CHECK(Contains(d.out, "\"customers_pkey\" PRIMARY KEY, btree (id)"));
  CHECK(Contains(d.out, "\"customers_country_created_idx\" btree (country, created DESC)"));
  CHECK(s.PsqlValue("SELECT has_table_privilege('reader', 'orders', 'INSERT')") == "t");
  CHECK(s.PsqlValue("SELECT pg_get_userbyid(relowner) FROM pg_class WHERE relname = 'orders'") == "hearth");
}

TEST_CASE("pg_dump: serial and identity columns in a PostgreSQL 15 dump", "[pg_dump_test]") {
  TestServer s;
  // pg_dump restores them through ALTER TABLE ... ALTER COLUMN ... SET DEFAULT
  // and ... ADD GENERATED ... AS IDENTITY (...).
  const std::string dump = ReadFile(std::string(HEARTH_SOURCE_DIR) + "/tests/integration/data/pg15_dump_serial.sql");
  CommandResult r = PsqlAt(s.port(), dump);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(s.PsqlValue("INSERT INTO tickets (title) VALUES ('third') RETURNING id, code") == "3|3");
  CHECK(s.PsqlValue("INSERT INTO events (kind) VALUES ('x') RETURNING id, seq") == "4|110");
  CHECK(Contains(s.PsqlValue("INSERT INTO events (id) VALUES (9)"), "cannot insert a non-DEFAULT value"));
  // And Hearth dumps them back the way PostgreSQL did.
  const std::string again = DumpPlain(s.port()).out;
  CHECK(Contains(again, "ALTER TABLE public.events ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY ("));
  CHECK(Contains(again, "ALTER SEQUENCE public.tickets_id_seq OWNED BY public.tickets.id;"));
  CHECK(Contains(again, "ALTER TABLE ONLY public.tickets ALTER COLUMN id SET DEFAULT "
                        "nextval('public.tickets_id_seq'::regclass);"));
}

TEST_CASE("pg_dump: a Hearth plain dump loads into PostgreSQL 15 and back", "[pg_dump_test]") {
  TestServer hearth;
  Populate(hearth);
  const std::string dump = DumpPlain(hearth.port()).out;

  ScratchPostgres pg;
  if (!pg.ready) {
    WARN("skipped: no scratch PostgreSQL 15: " << pg.reason);
    return;
  }
  REQUIRE(PsqlAt(pg.port(), kRoles).exit_code == 0);
  CommandResult load = PsqlAt(pg.port(), dump);
  INFO(load.err);
  REQUIRE(load.exit_code == 0);
  const std::string rows =
      "SET TimeZone = 'UTC'; SELECT * FROM customers ORDER BY id; SELECT * FROM orders ORDER BY 1, 2;"
      "SELECT last_value, is_called FROM invoice_no;";
  CHECK(PsqlAt(pg.port(), rows).out == PsqlAt(hearth.port(), rows).out);

  // PostgreSQL's dump of what it loaded comes back into a fresh Hearth.
  const CommandResult pg_dump = RunCommand(Cmd("pg_dump", pg.port(), {}));
  REQUIRE(pg_dump.exit_code == 0);
  TestServer again;
  REQUIRE(PsqlAt(again.port(), kRoles).exit_code == 0);
  CommandResult back = PsqlAt(again.port(), pg_dump.out);
  INFO(back.err);
  REQUIRE(back.exit_code == 0);
  CHECK(Snapshot(again.port()) == Snapshot(hearth.port()));
}

TEST_CASE("pg_dump: pg_dumpall --globals-only lists Hearth's roles", "[pg_dump_test]") {
  TestServer s;
  REQUIRE(PsqlAt(s.port(), "CREATE ROLE alice LOGIN CONNECTION LIMIT 3; CREATE ROLE staff; GRANT staff TO alice;")
              .exit_code == 0);
  CommandResult r = RunCommand({PgBin("pg_dumpall"), "-h", "127.0.0.1", "-p", std::to_string(s.port()), "-U", "hearth",
                                "-l", "hearth", "--globals-only"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.err.empty());
  CHECK(Contains(r.out, "CREATE ROLE alice;"));
  CHECK(Contains(r.out, "ALTER ROLE alice WITH NOSUPERUSER INHERIT NOCREATEROLE NOCREATEDB LOGIN NOREPLICATION "
                        "NOBYPASSRLS CONNECTION LIMIT 3;"));
  CHECK(Contains(r.out, "GRANT staff TO alice GRANTED BY hearth;"));

  // The roles (all but the one we run as) load into a fresh server.
  TestServer fresh;
  std::string script;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    if (line == "CREATE ROLE hearth;") continue;
    script += line + "\n";
  }
  CommandResult load = PsqlAt(fresh.port(), script);
  INFO(load.err);
  CHECK(load.exit_code == 0);
  CHECK(fresh.PsqlValue("SELECT rolconnlimit FROM pg_roles WHERE rolname = 'alice'") == "3");
}

TEST_CASE("pg_dump: LOCK TABLE holds its mode to transaction end", "[pg_dump_test]") {
  using namespace hearth::testing;
  TestServer s;
  auto a = StartedSession(s);
  auto b = StartedSession(s);
  QueryOk(*a, "CREATE TABLE t (a int)", 10000);
  // Outside a transaction block: 25P01, as PostgreSQL.
  CHECK(FirstSqlstate(a->Query("LOCK TABLE t IN ACCESS SHARE MODE", 10000)) == "25P01");
  CHECK(FirstSqlstate(a->Query("BEGIN; LOCK TABLE nosuch; COMMIT", 10000)) == "42P01");
  a->Query("ROLLBACK", 10000);
  CHECK(FirstSqlstate(a->Query("BEGIN; CREATE SEQUENCE s; LOCK TABLE s", 10000)) == "42809");
  a->Query("ROLLBACK", 10000);

  QueryOk(*a, "BEGIN; LOCK TABLE public.t IN ACCESS SHARE MODE", 10000);
  CHECK(SingleValue(*b, "SELECT mode FROM pg_locks WHERE relation = 't'::regclass AND granted", 10000) ==
        "AccessShareLock");
  // A reader is not blocked; ACCESS EXCLUSIVE NOWAIT fails at once (55P03).
  CHECK(SingleValue(*b, "SELECT count(*) FROM t", 10000) == "0");
  CHECK(FirstSqlstate(b->Query("BEGIN; LOCK TABLE t IN ACCESS EXCLUSIVE MODE NOWAIT", 10000)) == "55P03");
  b->Query("ROLLBACK", 10000);
  // DROP TABLE waits for the lock until the holder commits.
  SendAndAwaitBlocked(*b, *a, "DROP TABLE t", 10000);
  QueryOk(*a, "COMMIT", 10000);
  auto dropped = b->ReadUntilReady();
  CHECK(First(dropped, 'E') == nullptr);
  CHECK(LastCommandTag(dropped) == "DROP TABLE");
}
