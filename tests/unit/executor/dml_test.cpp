// Planner + executor: INSERT/UPDATE/DELETE with defaults, RETURNING,
// assignment coercion, typmods, NOT NULL, command tags, prepared re-use.
#include "sql_harness.h"

using sqlh::Db;
using sqlh::V;
using hearth::types::Value;
using hearth::executor::InMemoryCatalog;
using hearth::executor::Row;

TEST_CASE("dml: insert with defaults, column lists, returning", "[planner][dml]") {
  Db db;
  db.Create("CREATE TABLE t (a int NOT NULL, b text DEFAULT 'dflt', c varchar(3), d numeric(5,2) DEFAULT 1.5)");
  auto r = db.Exec("INSERT INTO t VALUES (1, 'x', 'abc', 2), (2, DEFAULT, NULL, DEFAULT)");
  CHECK(r.tag == "INSERT 0 2");
  CHECK(r.rows.empty());
  CHECK(db.Exec("INSERT INTO t (c, a) VALUES ('zz', 3) RETURNING *").rows == V{"3|dflt|zz|1.50"});
  r = db.Exec("INSERT INTO t (a, d) VALUES (4, 3.14159) RETURNING a + 1 AS next, d");
  CHECK(r.rows == V{"5|3.14"});
  CHECK(r.names == V{"next", "d"});
  CHECK(db.Error("INSERT INTO t DEFAULT VALUES").sqlstate() == "23502");
  CHECK(db.Exec("INSERT INTO t (a) SELECT a + 10 FROM t WHERE a <= 2 RETURNING a, b").rows == V{"11|dflt", "12|dflt"});
  CHECK(db.Rows("SELECT count(*) FROM t") == V{"6"});
  // Unknown literals and ints are assignment-coerced ('7' → int, 5 → text).
  CHECK(db.Exec("INSERT INTO t VALUES ('7', 5, 1) RETURNING b, c").rows == V{"5|1"});
}

TEST_CASE("dml: insert errors", "[planner][dml]") {
  Db db;
  db.Create("CREATE TABLE t (a int NOT NULL, b text, c varchar(3), d numeric(5,2))");
  auto e = db.Error("INSERT INTO t VALUES (NULL, 'x')");
  CHECK(e.sqlstate() == "23502");
  CHECK(e.message() == "null value in column \"a\" of relation \"t\" violates not-null constraint");
  CHECK(e.detail() == "Failing row contains (null, x, null, null).");
  e = db.Error("INSERT INTO t (a) VALUES (true)");
  CHECK(e.sqlstate() == "42804");
  CHECK(e.message() == "column \"a\" is of type integer but expression is of type boolean");
  CHECK(e.position() == 27);
  e = db.Error("INSERT INTO t (a, c) VALUES (1, 'abcd')");
  CHECK(e.sqlstate() == "22001");
  CHECK(e.message() == "value too long for type character varying(3)");
  e = db.Error("INSERT INTO t (a, d) VALUES (1, 12345.6)");
  CHECK(e.sqlstate() == "22003");
  CHECK(e.message() == "numeric field overflow");
  e = db.Error("INSERT INTO nosuch VALUES (1)");
  CHECK(e.sqlstate() == "42P01");
  CHECK(e.message() == "relation \"nosuch\" does not exist");
  CHECK(e.position() == 13);
  e = db.Error("INSERT INTO t (a, zz) VALUES (1, 2)");
  CHECK(e.sqlstate() == "42703");
  CHECK(e.message() == "column \"zz\" of relation \"t\" does not exist");
  CHECK(db.Error("INSERT INTO t VALUES (1, 'a', 'b', 1, 5)").message() ==
        "INSERT has more expressions than target columns");
  CHECK(db.Error("INSERT INTO t (a, b) VALUES (1)").message() == "INSERT has more target columns than expressions");
  CHECK(db.Rows("SELECT count(*) FROM t") == V{"0"});
}

TEST_CASE("dml: update and delete with returning; prepared re-execution", "[planner][dml]") {
  Db db;
  db.Create("CREATE TABLE acc (aid int NOT NULL, abalance int, filler char(4))");
  db.Exec("INSERT INTO acc VALUES (1, 100, 'x'), (2, 200, 'y'), (3, 300, 'z')");
  auto r = db.Exec("UPDATE acc SET abalance = abalance + -3861 WHERE aid = 2 RETURNING aid, abalance");
  CHECK(r.tag == "UPDATE 1");
  CHECK(r.rows == V{"2|-3661"});
  auto p = db.Plan("UPDATE acc SET abalance = abalance + $1 WHERE aid = $2");
  CHECK(p.param_types == std::vector<hearth::types::Oid>{hearth::types::kInt4Oid, hearth::types::kInt4Oid});
  CHECK(db.Run(p, {Value::Int4(5), Value::Int4(1)}).tag == "UPDATE 1");
  CHECK(db.Run(p, {Value::Int4(7), Value::Int4(1)}).tag == "UPDATE 1");
  CHECK(db.Run(p, {Value::Int4(7), Value::Int4(99)}).tag == "UPDATE 0");
  CHECK(db.Rows("SELECT abalance FROM acc WHERE aid = 1") == V{"112"});
  CHECK(db.Exec("UPDATE acc SET filler = 'q', abalance = DEFAULT").tag == "UPDATE 3");
  CHECK(db.Rows("SELECT aid, abalance, filler FROM acc") == V{"1|NULL|q   ", "2|NULL|q   ", "3|NULL|q   "});
  auto e = db.Error("UPDATE acc SET aid = NULL WHERE aid = 3");
  CHECK(e.sqlstate() == "23502");
  CHECK(e.detail() == "Failing row contains (null, null, q   ).");
  CHECK(db.Error("UPDATE acc SET nope = 1").message() == "column \"nope\" of relation \"acc\" does not exist");
  CHECK(db.Error("UPDATE acc SET abalance = 'x'").sqlstate() == "22P02");
  r = db.Exec("DELETE FROM acc WHERE aid >= 2 RETURNING aid");
  CHECK(r.tag == "DELETE 2");
  CHECK(r.rows == V{"2", "3"});
  CHECK(db.Exec("DELETE FROM acc WHERE false").tag == "DELETE 0");
  CHECK(db.Rows("SELECT aid FROM acc") == V{"1"});
  CHECK(db.Exec("DELETE FROM acc a WHERE a.aid = 1").tag == "DELETE 1");
  CHECK(db.Rows("SELECT count(*) FROM acc") == V{"0"});
}

TEST_CASE("dml: pgbench statements with inferred parameter types", "[planner][dml]") {
  Db db;
  db.Create("CREATE TABLE pgbench_accounts (aid int NOT NULL, bid int, abalance int, filler char(84))");
  db.Create("CREATE TABLE pgbench_history (tid int, bid int, aid int, delta int, mtime timestamp, filler char(22))");
  for (int i = 1; i <= 3; ++i) {
    db.Exec("INSERT INTO pgbench_accounts (aid, bid, abalance, filler) VALUES (" + std::to_string(i) + ", 1, 0, '')");
  }
  auto upd = db.Plan("UPDATE pgbench_accounts SET abalance = abalance + $1 WHERE aid = $2");
  auto sel = db.Plan("SELECT abalance FROM pgbench_accounts WHERE aid = $1");
  auto ins = db.Plan("INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES ($1, $2, $3, $4, CURRENT_TIMESTAMP)");
  CHECK(ins.param_types == std::vector<hearth::types::Oid>(4, hearth::types::kInt4Oid));
  CHECK(sel.columns.at(0).name == "abalance");
  for (int i = 0; i < 3; ++i) {
    CHECK(db.Run(upd, {Value::Int4(-10 * (i + 1)), Value::Int4(2)}).tag == "UPDATE 1");
    CHECK(db.Run(ins, {Value::Int4(1), Value::Int4(1), Value::Int4(2), Value::Int4(-10)}).tag == "INSERT 0 1");
  }
  CHECK(db.Run(sel, {Value::Int4(2)}).rows == V{"-60"});
  CHECK(db.Rows("SELECT count(*), sum(delta), count(mtime) FROM pgbench_history") == V{"3|-30|3"});
  CHECK(db.Rows("SELECT length(filler) FROM pgbench_accounts WHERE aid = 1") == V{"0"});
}

namespace {
// A provider whose modifier reports one concurrent update (or delete) of a
// row, as the heap does under Read Committed, with `latest` as the newest
// committed version.
class RacyProvider : public hearth::executor::TableProvider {
 public:
  RacyProvider(InMemoryCatalog& inner, hearth::executor::ModifyResult result, Row latest)
      : inner_(inner), result_(result), latest_(std::move(latest)) {}
  std::optional<hearth::executor::TableInfo> Lookup(const std::string& s, const std::string& n) override {
    return inner_.Lookup(s, n);
  }
  std::unique_ptr<hearth::executor::TableScan> OpenScan(const hearth::executor::TableInfo& t, bool b) override {
    return inner_.OpenScan(t, b);
  }
  std::unique_ptr<hearth::executor::TableRowLocker> OpenRowLocker(const hearth::executor::TableInfo& t,
                                                                  hearth::executor::RowLockStrength s,
                                                                  hearth::executor::RowLockPolicy w) override {
    return inner_.OpenRowLocker(t, s, w);
  }
  std::unique_ptr<hearth::executor::TableModifier> OpenModifier(const hearth::executor::TableInfo& t) override {
    struct Mod : hearth::executor::TableModifier {
      RacyProvider* p;
      std::unique_ptr<hearth::executor::TableModifier> in;
      hearth::executor::RowId Insert(const Row& r) override { return in->Insert(r); }
      hearth::executor::ModifyResult Delete(hearth::executor::RowId rid) override {
        if (rid == 0 && !p->raced_) {
          p->raced_ = true;
          return p->result_;
        }
        return in->Delete(rid);
      }
      hearth::executor::ModifyResult Update(hearth::executor::RowId rid, const Row& r, hearth::executor::RowId* nr,
                                            bool key_update) override {
        if (rid == 0 && !p->raced_) {
          p->raced_ = true;
          return p->result_;
        }
        return in->Update(rid, r, nr, key_update);
      }
      bool FetchLatestVersion(hearth::executor::RowId rid, Row* row, hearth::executor::RowId* latest) override {
        ++p->fetches_;
        *row = p->latest_;
        *latest = rid;
        return true;
      }
    };
    auto m = std::make_unique<Mod>();
    m->p = this;
    m->in = inner_.OpenModifier(t);
    return m;
  }
  int fetches_ = 0;
  bool raced_ = false;

 private:
  InMemoryCatalog& inner_;
  hearth::executor::ModifyResult result_;
  Row latest_;
};
}  // namespace

TEST_CASE("dml: read committed re-check of concurrently updated rows", "[planner][dml]") {
  using hearth::executor::ModifyResult;
  Db db;
  db.Create("CREATE TABLE acc (aid int, abalance int)");
  db.Exec("INSERT INTO acc VALUES (1, 100), (2, 200)");
  SECTION("newest version still matches: update applies on top of it") {
    RacyProvider racy(db.cat, ModifyResult::kConcurrentlyUpdated, {Value::Int4(1), Value::Int4(500)});
    db.ctx.tables = &racy;
    auto r = db.Exec("UPDATE acc SET abalance = abalance + 10 WHERE aid = 1 RETURNING abalance");
    CHECK(r.rows == V{"510"});
    CHECK(r.tag == "UPDATE 1");
    CHECK(racy.fetches_ == 1);
  }
  SECTION("newest version no longer matches WHERE: skipped") {
    RacyProvider racy(db.cat, ModifyResult::kConcurrentlyUpdated, {Value::Int4(7), Value::Int4(500)});
    db.ctx.tables = &racy;
    CHECK(db.Exec("DELETE FROM acc WHERE aid = 1").tag == "DELETE 0");
    db.ctx.tables = &db.cat;
    CHECK(db.Rows("SELECT aid FROM acc") == V{"1", "2"});
  }
  SECTION("concurrently deleted: skipped") {
    RacyProvider racy(db.cat, ModifyResult::kConcurrentlyDeleted, {});
    db.ctx.tables = &racy;
    CHECK(db.Exec("UPDATE acc SET abalance = 0").tag == "UPDATE 1");
    CHECK(racy.fetches_ == 0);
  }
}

TEST_CASE("dml: subqueries in UPDATE and INSERT", "[planner][dml]") {
  Db db;
  db.Create("CREATE TABLE t (k int, v int)");
  db.Create("CREATE TABLE u (k int, w int)");
  db.Exec("INSERT INTO t VALUES (1, 0), (2, 0), (3, 0)");
  db.Exec("INSERT INTO u VALUES (1, 5), (1, 6), (2, 7)");
  CHECK(db.Exec("UPDATE t SET v = (SELECT sum(w) FROM u WHERE u.k = t.k) WHERE k < 3").tag == "UPDATE 2");
  CHECK(db.Rows("SELECT k, v FROM t") == V{"1|11", "2|7", "3|0"});
  CHECK(db.Exec("DELETE FROM t WHERE NOT EXISTS (SELECT 1 FROM u WHERE u.k = t.k)").tag == "DELETE 1");
  CHECK(db.Exec("INSERT INTO t VALUES ((SELECT max(k) FROM t) + 1, 0) RETURNING k").rows == V{"3"});
}
