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
// - a schema with foreign keys, CHECK and UNIQUE constraints, identity
//   columns, a view and comments through custom archives from PostgreSQL 15
//   into Hearth and from Hearth into PostgreSQL 15: the same \d, rows and
//   dump text on both sides;
// - pgbench -i tables (and a run's history) through a directory archive;
// - pg_dumpall --globals-only;
// - LOCK TABLE, which pg_dump takes on every table it dumps.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "server_files.h"
#include "scratch_postgres.h"
#include "session_helpers.h"
#include "test_server.h"

using hearth::testing::CommandResult;
using hearth::testing::Contains;
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

std::vector<std::string> Conn(int port, const std::string& db = "hearth") {
  return {"-h", "127.0.0.1", "-p", std::to_string(port), "-U", "hearth", "-d", db};
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
CommandResult PsqlAt(int port, const std::string& script, const std::string& db = "hearth") {
  std::vector<std::string> argv{"psql", "-X", "-v", "ON_ERROR_STOP=1", "-q"};
  for (const std::string& a : Conn(port, db)) argv.push_back(a);
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
  // and ... ADD GENERATED ... AS IDENTITY, whose own errors are PostgreSQL's.
  CommandResult probe = PsqlAt(s.port(),
                               "CREATE TABLE probe (a int NOT NULL, b int, c text NOT NULL);"
                               "ALTER TABLE probe ALTER COLUMN a SET DEFAULT 1;");
  REQUIRE(probe.exit_code == 0);
  CHECK(Contains(s.PsqlValue("ALTER TABLE probe ALTER COLUMN a ADD GENERATED ALWAYS AS IDENTITY"),
                 "column \"a\" of relation \"probe\" already has a default value"));
  CHECK(Contains(s.PsqlValue("ALTER TABLE probe ALTER COLUMN b ADD GENERATED ALWAYS AS IDENTITY"),
                 "must be declared NOT NULL before identity can be added"));
  CHECK(Contains(s.PsqlValue("ALTER TABLE probe ALTER COLUMN c ADD GENERATED ALWAYS AS IDENTITY"),
                 "identity column type must be smallint, integer, or bigint"));
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

TEST_CASE("pg_dump: pg_dumpall --globals-only restores roles with passwords and memberships", "[pg_dump_test]") {
  TestServer s;
  REQUIRE(PsqlAt(s.port(),
                 "CREATE ROLE alice LOGIN CONNECTION LIMIT 3 PASSWORD 'alice pw'; CREATE ROLE staff;"
                 "GRANT staff TO alice; SET password_encryption = 'md5';"
                 "CREATE ROLE bob LOGIN CREATEDB PASSWORD 'bob pw' VALID UNTIL '2100-01-01 00:00:00+00';"
                 "GRANT staff TO bob WITH ADMIN OPTION;")
              .exit_code == 0);
  CommandResult r = RunCommand({PgBin("pg_dumpall"), "-h", "127.0.0.1", "-p", std::to_string(s.port()), "-U", "hearth",
                                "-l", "hearth", "--globals-only"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.err.empty());
  CHECK(Contains(r.out, "CREATE ROLE alice;"));
  CHECK(Contains(r.out, "ALTER ROLE alice WITH NOSUPERUSER INHERIT NOCREATEROLE NOCREATEDB LOGIN NOREPLICATION "
                        "NOBYPASSRLS CONNECTION LIMIT 3 PASSWORD 'SCRAM-SHA-256$4096:"));
  CHECK(Contains(r.out, "GRANT staff TO alice GRANTED BY hearth;"));
  CHECK(Contains(r.out, "GRANT staff TO bob WITH ADMIN OPTION GRANTED BY hearth;"));

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
  const std::string roles =
      "SELECT rolname, rolcanlogin, rolcreatedb, rolconnlimit, rolvaliduntil, rolpassword FROM pg_authid "
      "WHERE rolname IN ('alice', 'bob', 'staff') ORDER BY 1";
  CHECK(fresh.PsqlValue(roles) == s.PsqlValue(roles));
  const std::string members =
      "SELECT r.rolname || ' to ' || m.rolname || ' ' || a.admin_option FROM pg_auth_members a "
      "JOIN pg_roles r ON r.oid = a.roleid JOIN pg_roles m ON m.oid = a.member ORDER BY 1";
  CHECK(fresh.PsqlValue(members) == "staff to alice false\nstaff to bob true");

  // The passwords work there: both SCRAM and md5 logins.
  hearth::testing::ReloadServerConfig(
      fresh, "", "host all hearth 127.0.0.1/32 trust\nhost all all 127.0.0.1/32 md5\n");
  for (const auto& [user, password] : {std::pair{"alice", "alice pw"}, std::pair{"bob", "bob pw"}}) {
    auto ok = RunCommand({"env", std::string("PGPASSWORD=") + password, "psql", "-X", "-w", "-A", "-t", "-h",
                          "127.0.0.1", "-p", std::to_string(fresh.port()), "-U", user, "-d", "hearth", "-c",
                          "select current_user"});
    CHECK(ok.out == std::string(user) + "\n");
    auto bad = RunCommand({"env", "PGPASSWORD=nope", "psql", "-X", "-w", "-h", "127.0.0.1", "-p",
                           std::to_string(fresh.port()), "-U", user, "-d", "hearth", "-c", "select 1"});
    CHECK(Contains(bad.err, "password authentication failed for user \"" + std::string(user) + "\""));
  }
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

namespace {

// What pg_dump carries both ways between Hearth and PostgreSQL 15: foreign
// keys, CHECK and UNIQUE constraints, identity columns, a view, comments.
const char* kFullRoles = "CREATE ROLE lib_reader;";
const char* kFullSchema = R"sql(
CREATE TABLE authors (
  id int GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  name text NOT NULL,
  email varchar(80) UNIQUE,
  born date,
  CONSTRAINT authors_born_check CHECK (born > '1800-01-01')
);
CREATE TABLE books (
  isbn char(13) PRIMARY KEY,
  author_id int NOT NULL REFERENCES authors (id) ON DELETE CASCADE,
  title text NOT NULL DEFAULT 'untitled',
  price numeric(8,2) DEFAULT 0 CHECK (price >= 0),
  published timestamp,
  copies bigint GENERATED ALWAYS AS IDENTITY (START WITH 100 INCREMENT BY 5),
  UNIQUE (title, author_id)
);
CREATE INDEX books_author_published_idx ON books (author_id, published DESC);
CREATE SEQUENCE order_no START 1000 INCREMENT 10;
CREATE VIEW book_list AS SELECT b.title, a.name FROM books b JOIN authors a ON a.id = b.author_id;
INSERT INTO authors (name, email, born) VALUES ('Ann', 'ann@example.com', '1950-01-02'), ('Bo', NULL, NULL);
INSERT INTO books (isbn, author_id, title, price, published) VALUES
  ('9780000000001', 1, 'First', 10.5, '2001-02-03 04:05:06'), ('9780000000002', 1, 'Second', 0, NULL),
  ('9780000000003', 2, 'untitled', 7, '2020-01-01 00:00:00');
SELECT nextval('order_no'), nextval('order_no');
GRANT SELECT ON book_list TO lib_reader;
COMMENT ON TABLE authors IS 'who writes';
COMMENT ON COLUMN books.title IS 'as printed';
COMMENT ON VIEW book_list IS 'titles with authors';
)sql";

// (\d without + for the view: a view created with qualified names, as
// pg_restore creates it, prints them qualified in Hearth's definition.)
std::string FullSnapshot(int port, const std::string& db = "hearth") {
  CommandResult r = PsqlAt(port, R"sql(
\d authors
\d books
\d book_list
\d order_no
SELECT * FROM authors ORDER BY id;
SELECT * FROM books ORDER BY isbn;
SELECT * FROM book_list ORDER BY 1;
SELECT last_value, is_called FROM order_no;
SELECT conname, contype, pg_get_constraintdef(oid) FROM pg_constraint
  WHERE conrelid IN ('authors'::regclass, 'books'::regclass) ORDER BY 1;
INSERT INTO authors (name) VALUES ('next') RETURNING id;
)sql",
                           db);
  INFO(r.err);
  CHECK(r.exit_code == 0);
  return r.out;
}

std::string TempDir() {
  char tmpl[] = "/tmp/hearth-pgdump-XXXXXX";
  REQUIRE(mkdtemp(tmpl) != nullptr);
  return tmpl;
}

}  // namespace

TEST_CASE("pg_dump: custom archives of a full schema restore from PostgreSQL 15 into Hearth and back",
          "[pg_dump_test]") {
  ScratchPostgres pg;
  if (!pg.ready) {
    WARN("skipped: no scratch PostgreSQL 15: " << pg.reason);
    return;
  }
  REQUIRE(PsqlAt(pg.port(), std::string(kFullRoles) + kFullSchema).exit_code == 0);
  const std::string dir = TempDir();
  const CommandResult pg_archive = RunCommand(Cmd("pg_dump", pg.port(), {"-Fc", "-f", dir + "/pg.dump"}));
  REQUIRE(pg_archive.exit_code == 0);

  TestServer hearth;
  REQUIRE(PsqlAt(hearth.port(), kFullRoles).exit_code == 0);
  CommandResult restore = RunCommand(Cmd("pg_restore", hearth.port(), {"--exit-on-error", dir + "/pg.dump"}));
  INFO(restore.err);
  REQUIRE(restore.exit_code == 0);
  CHECK(restore.err.empty());
  // Snapshots before dumps: each ends by inserting one author on its side.
  CHECK(FullSnapshot(hearth.port()) == FullSnapshot(pg.port()));
  // Both dump the same text (the same statements in the same order).
  const CommandResult hearth_dump = DumpPlain(hearth.port());
  const CommandResult pg_dump = RunCommand(Cmd("pg_dump", pg.port(), {}));
  REQUIRE(pg_dump.exit_code == 0);
  CHECK(DumpBody(hearth_dump.out) == DumpBody(pg_dump.out));

  // Hearth's archive restores into a fresh PostgreSQL 15 database.
  const CommandResult hearth_archive = RunCommand(Cmd("pg_dump", hearth.port(), {"-Fc", "-f", dir + "/hearth.dump"}));
  REQUIRE(hearth_archive.exit_code == 0);
  REQUIRE(PsqlAt(pg.port(), "CREATE DATABASE back").exit_code == 0);
  std::vector<std::string> args{PgBin("pg_restore")};
  for (const std::string& a : Conn(pg.port(), "back")) args.push_back(a);
  args.insert(args.end(), {"--exit-on-error", dir + "/hearth.dump"});
  CommandResult back = RunCommand(args);
  INFO(back.err);
  REQUIRE(back.exit_code == 0);
  CHECK(back.err.empty());
  CHECK(FullSnapshot(pg.port(), "back") == FullSnapshot(hearth.port()));
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}

TEST_CASE("pg_dump: pgbench tables survive a directory dump and restore with equal balances", "[pg_dump_test]") {
  TestServer a;
  const std::vector<std::string> conn = {"-h", "127.0.0.1", "-p", std::to_string(a.port()), "-U", "hearth"};
  std::vector<std::string> init{PgBin("pgbench"), "-i", "-s", "1"};
  init.insert(init.end(), conn.begin(), conn.end());
  init.push_back("hearth");
  CommandResult i = RunCommand(init, "", 120);
  INFO(i.err);
  REQUIRE(i.exit_code == 0);
  // A fixed number of transactions (not a duration) fills pgbench_history.
  std::vector<std::string> run{PgBin("pgbench"), "-n", "-c", "2", "-t", "50"};
  run.insert(run.end(), conn.begin(), conn.end());
  run.push_back("hearth");
  CommandResult r = RunCommand(run, "", 120);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);

  const std::string dir = TempDir();
  CommandResult dump = RunCommand(Cmd("pg_dump", a.port(), {"-Fd", "-f", dir + "/bench"}));
  INFO(dump.err);
  REQUIRE(dump.exit_code == 0);
  TestServer b;
  CommandResult restore = RunCommand(Cmd("pg_restore", b.port(), {"--exit-on-error", "-j", "2", dir + "/bench"}));
  INFO(restore.err);
  REQUIRE(restore.exit_code == 0);

  const std::string sums =
      "SELECT (SELECT sum(abalance) FROM pgbench_accounts), (SELECT sum(bbalance) FROM pgbench_branches), "
      "(SELECT sum(tbalance) FROM pgbench_tellers), (SELECT sum(delta) FROM pgbench_history), "
      "(SELECT count(*) FROM pgbench_accounts), (SELECT count(*) FROM pgbench_history)";
  const std::string before = a.PsqlValue(sums);
  CHECK(b.PsqlValue(sums) == before);
  // The four balances agree, and the run left 100 history rows.
  const std::string balance = before.substr(0, before.find('|'));
  CHECK(before == balance + "|" + balance + "|" + balance + "|" + balance + "|100000|100");
  // Row for row, with the primary keys restored.
  CHECK(b.PsqlValue("SELECT md5(string_agg(aid || ':' || bid || ':' || abalance, ',' ORDER BY aid)) FROM pgbench_accounts") ==
        a.PsqlValue("SELECT md5(string_agg(aid || ':' || bid || ':' || abalance, ',' ORDER BY aid)) FROM pgbench_accounts"));
  CHECK(b.PsqlValue("SELECT count(*) FROM pg_constraint WHERE contype = 'p' AND conrelid::regclass::text LIKE 'pgbench_%'") ==
        "3");
  CHECK(DumpBody(DumpPlain(b.port()).out) == DumpBody(DumpPlain(a.port()).out));
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}

TEST_CASE("pg_dump: ALTER DEFAULT PRIVILEGES are dumped as PostgreSQL 15 dumps them and restore",
          "[pg_dump_test]") {
  const char* roles = "CREATE ROLE dp_owner; CREATE ROLE dp_reader;";
  const std::string setup = std::string(roles) +
                            "CREATE SCHEMA dp_s AUTHORIZATION dp_owner;"
                            "ALTER DEFAULT PRIVILEGES FOR ROLE dp_owner GRANT SELECT ON TABLES TO dp_reader;"
                            "ALTER DEFAULT PRIVILEGES FOR ROLE dp_owner IN SCHEMA dp_s GRANT INSERT, UPDATE ON TABLES "
                            "TO dp_reader WITH GRANT OPTION;"
                            "ALTER DEFAULT PRIVILEGES FOR ROLE dp_owner REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC;"
                            "ALTER DEFAULT PRIVILEGES FOR ROLE dp_owner GRANT USAGE ON SEQUENCES TO dp_reader;"
                            "ALTER DEFAULT PRIVILEGES FOR ROLE dp_owner GRANT CREATE ON SCHEMAS TO dp_reader;";
  auto default_privilege_lines = [](const std::string& dump) {
    std::istringstream in(dump);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) {
      if (line.rfind("ALTER DEFAULT PRIVILEGES", 0) == 0) lines.push_back(line);
    }
    std::sort(lines.begin(), lines.end());
    return lines;
  };
  TestServer hearth;
  REQUIRE(PsqlAt(hearth.port(), setup).exit_code == 0);
  const CommandResult dump = RunCommand(Cmd("pg_dump", hearth.port(), {}));
  INFO(dump.err);
  REQUIRE(dump.exit_code == 0);
  const std::vector<std::string> lines = default_privilege_lines(dump.out);
  CHECK(lines.size() == 5);
  // (pg_dump writes two spaces before TO / FROM.)
  CHECK(std::find(lines.begin(), lines.end(),
                  "ALTER DEFAULT PRIVILEGES FOR ROLE dp_owner IN SCHEMA dp_s GRANT INSERT,UPDATE ON TABLES  TO "
                  "dp_reader WITH GRANT OPTION;") != lines.end());
  CHECK(std::find(lines.begin(), lines.end(),
                  "ALTER DEFAULT PRIVILEGES FOR ROLE dp_owner REVOKE ALL ON FUNCTIONS  FROM PUBLIC;") != lines.end());

  // The same statements in PostgreSQL 15 dump to the same lines.
  ScratchPostgres pg;
  if (pg.ready) {
    REQUIRE(PsqlAt(pg.port(), setup).exit_code == 0);
    const CommandResult pg_dump = RunCommand(Cmd("pg_dump", pg.port(), {}));
    REQUIRE(pg_dump.exit_code == 0);
    CHECK(lines == default_privilege_lines(pg_dump.out));
  } else {
    WARN("no comparison with PostgreSQL 15: " << pg.reason);
  }

  // The dump restores them into a fresh server.
  TestServer fresh;
  REQUIRE(PsqlAt(fresh.port(), roles).exit_code == 0);
  CommandResult load = PsqlAt(fresh.port(), dump.out);
  INFO(load.err);
  REQUIRE(load.exit_code == 0);
  const std::string listing =
      "SELECT pg_get_userbyid(defaclrole), coalesce(n.nspname, '-'), defaclobjtype, defaclacl FROM pg_default_acl d "
      "LEFT JOIN pg_namespace n ON n.oid = d.defaclnamespace ORDER BY 1, 2, 3";
  CHECK(fresh.PsqlValue(listing) == hearth.PsqlValue(listing));
  CHECK(Contains(hearth.PsqlValue(listing), "dp_owner|dp_s|r|{dp_reader=a*w*/dp_owner}"));
}

// Enum and domain types: pg_dump reads them from pg_type / pg_enum /
// pg_constraint (contypid), writes CREATE TYPE … AS ENUM and CREATE DOMAIN
// before the tables, and the dump restores into a fresh server with the
// same labels (in order), domain constraints and rows.
TEST_CASE("pg_dump: enum and domain columns dump and restore", "[pg_dump_test]") {
  using namespace hearth::testing;
  const char* schema = R"sql(
CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy');
ALTER TYPE mood ADD VALUE 'meh' BEFORE 'ok';
CREATE DOMAIN posint AS integer NOT NULL DEFAULT 1 CONSTRAINT positive CHECK (VALUE > 0);
CREATE TABLE feelings (id posint PRIMARY KEY, m mood, history mood[]);
INSERT INTO feelings VALUES (1, 'happy', '{sad,meh}'), (2, 'meh', NULL), (3, NULL, '{}');
)sql";
  const char* snapshot = R"sql(
SELECT enum_range(NULL::mood);
SELECT typname, typtype, typnotnull, typdefault, format_type(typbasetype, typtypmod) FROM pg_type
  WHERE typname IN ('mood', 'posint') ORDER BY 1;
SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint WHERE contypid = 'posint'::regtype;
SELECT * FROM feelings ORDER BY m, id;
SELECT attname, format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'feelings'::regclass AND attnum > 0;
)sql";
  TestServer a;
  CommandResult populate = PsqlAt(a.port(), schema);
  INFO(populate.err);
  REQUIRE(populate.exit_code == 0);
  const CommandResult dump = DumpPlain(a.port());
  CHECK(Contains(dump.out, "CREATE TYPE public.mood AS ENUM (\n    'sad',\n    'meh',\n    'ok',\n    'happy'\n);"));
  CHECK(Contains(dump.out, "CREATE DOMAIN public.posint AS integer NOT NULL DEFAULT 1\n"
                           "\tCONSTRAINT positive CHECK ((VALUE > 0));"));
  CHECK(Contains(dump.out, "    m public.mood,"));

  TestServer b;
  CommandResult restore = PsqlAt(b.port(), dump.out);
  INFO(restore.err);
  REQUIRE(restore.exit_code == 0);
  const CommandResult before = PsqlAt(a.port(), snapshot);
  const CommandResult after = PsqlAt(b.port(), snapshot);
  REQUIRE(before.exit_code == 0);
  CHECK(after.out == before.out);
  CHECK(DumpBody(DumpPlain(b.port()).out) == DumpBody(dump.out));
  CHECK(FirstSqlstate(StartedSession(b)->Query("INSERT INTO feelings VALUES (0, 'ok', NULL)", 10000)) == "23514");
}
