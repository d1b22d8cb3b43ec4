// The update path over the wire. HOT: an UPDATE that changes no indexed
// column and fits on the row's page adds no index entries; index scans
// reach the new version through the chain from the entry's root, pruning
// turns dead chain prefixes into redirects, and snapshots, unique checks,
// VACUUM and CREATE INDEX all keep seeing the right version.
// Page pruning on access: rows updated again and again
// without VACUUM stay on a few pages, because an updater (or a scan) that
// finds a page nearly full first removes the versions no snapshot can see;
// unique checks remove index entries of such versions, but never ones an
// open snapshot can still see. Index lookups, unique checks and a later
// VACUUM still agree with the table.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "test_server.h"

using namespace hearth::testing;

namespace {

bool Ok(const std::vector<RawMessage>& msgs) { return First(msgs, 'E') == nullptr && LastStatus(msgs) != 0; }

void Exec(RawConn& c, const std::string& sql) {
  auto msgs = c.Query(sql, 30000);
  INFO(sql << " -> " << FirstSqlstate(msgs));
  REQUIRE(Ok(msgs));
}

std::string Value(RawConn& c, const std::string& sql) {
  auto msgs = c.Query(sql, 30000);
  INFO(sql << " -> " << FirstSqlstate(msgs));
  REQUIRE(Ok(msgs));
  auto col = FirstColumn(msgs);
  REQUIRE(col.size() == 1);
  return col[0];
}

// Runs each statement as its own transaction, `batch` Query messages in
// flight at a time (one round trip per batch).
void ExecEach(RawConn& c, const std::vector<std::string>& sqls, size_t batch = 50) {
  for (size_t i = 0; i < sqls.size(); i += batch) {
    const size_t end = std::min(sqls.size(), i + batch);
    for (size_t j = i; j < end; ++j) REQUIRE(c.Send(QueryMsg(sqls[j])));
    for (size_t j = i; j < end; ++j) {
      auto msgs = c.ReadUntilReady(30000);
      INFO(sqls[j] << " -> " << FirstSqlstate(msgs));
      REQUIRE(Ok(msgs));
    }
  }
}

// INSERT of rows (k, 0, repeat(pad_char, 150)) for k in [first, last].
std::string InsertRows(const std::string& table, int first, int last, char pad_char) {
  std::string sql = "insert into " + table + " values ";
  for (int k = first; k <= last; ++k) {
    sql += (k == first ? "(" : ", (") + std::to_string(k) + ", 0, repeat('" + pad_char + "', 150))";
  }
  return sql;
}

int Pages(RawConn& c, const std::string& rel) {
  return std::stoi(Value(c, "select pg_relation_size('" + rel + "') / 8192"));
}

std::vector<std::string> Updates(int n, int rows, const std::string& set) {
  std::vector<std::string> v;
  for (int i = 0; i < n; ++i) v.push_back("update h set " + set + " where k = " + std::to_string(i % rows + 1));
  return v;
}

// A table h of `rows` rows with a primary key and a non-unique index on s.
void MakeTable(RawConn& c, int rows) {
  Exec(c, "create table h (k int primary key, v int, s text)");
  Exec(c, "create index h_s on h (s)");
  std::string sql = "insert into h values ";
  for (int k = 1; k <= rows; ++k) sql += (k == 1 ? "(" : ", (") + std::to_string(k) + ", 0, 's" + std::to_string(k) + "')";
  Exec(c, sql);
}

}  // namespace

TEST_CASE("prune: updates through an index keep a small table on a few pages without VACUUM", "[update_test]") {
  TestServer server(Settings{{"synchronous_commit", "off"}});
  RawConn c(server.port());
  REQUIRE(LastStatus(c.Startup()) == 'I');
  Exec(c, "create table p (k int primary key, v int, pad text)");
  Exec(c, InsertRows("p", 0, 19, 'x'));
  std::vector<std::string> updates;
  for (int i = 0; i < 2000; ++i) updates.push_back("update p set v = v + 1 where k = " + std::to_string(i % 20));
  ExecEach(c, updates);
  // 2020 versions of ~190 bytes would need about 50 pages; pruning keeps
  // the live rows plus 4-byte dead line pointers.
  const int pages = Pages(c, "p");
  INFO("relpages " << pages);
  CHECK(pages <= 6);
  CHECK(Value(c, "select sum(v) from p") == "2000");
  CHECK(Value(c, "select count(*) from p where k >= 0") == "20");
  CHECK(Value(c, "select v from p where k = 7") == "100");
  CHECK(Value(c, "select hearth_index_check('p_pkey')") == "ok");
  // Unique checks see pruned versions as gone, live ones as live.
  CHECK(FirstSqlstate(c.Query("insert into p values (7, 0, 'dup')")) == "23505");
  Exec(c, "delete from p where k = 7");
  ExecEach(c, std::vector<std::string>(200, "update p set v = v + 1 where k = 3"));
  Exec(c, "insert into p values (7, 1, 'again')");
  CHECK(Value(c, "select pad from p where k = 7") == "again");
  // VACUUM removes the index entries of pruned versions and reuses the slots.
  Exec(c, "vacuum p");
  CHECK(Value(c, "select hearth_index_check('p_pkey')") == "ok");
  CHECK(Value(c, "select count(*) from p") == "20");
  CHECK(Value(c, "select count(*) from p where k >= 0") == "20");
  CHECK(std::stoi(Value(c, "select pg_relation_size('public.p_pkey')")) % 8192 == 0);
  CHECK(FirstSqlstate(c.Query("select pg_relation_size('no_such_table')")) == "42P01");
}

TEST_CASE("prune: whole-table updates through a sequential scan stay compact", "[update_test]") {
  TestServer server(Settings{{"synchronous_commit", "off"}});
  RawConn c(server.port());
  REQUIRE(LastStatus(c.Startup()) == 'I');
  Exec(c, "create table s (k int, v int, pad text)");
  Exec(c, InsertRows("s", 1, 30, 'y'));
  ExecEach(c, std::vector<std::string>(150, "update s set v = v + 1"));
  // 4530 versions would need over 100 pages.
  const int pages = Pages(c, "s");
  INFO("relpages " << pages);
  CHECK(pages <= 12);
  CHECK(Value(c, "select count(*) from s") == "30");
  CHECK(Value(c, "select min(v) || ' ' || max(v) from s") == "150 150");
}

TEST_CASE("prune: unique checks remove the entries of versions nobody can see", "[update_test]") {
  TestServer server(Settings{{"synchronous_commit", "off"}});
  RawConn c(server.port());
  REQUIRE(LastStatus(c.Startup()) == 'I');
  Exec(c, "create table u (k int primary key, v int)");
  Exec(c, "create index u_v on u (v)");  // v is indexed: its updates are not HOT and probe u_pkey
  Exec(c, "insert into u values (1, 0), (2, 0)");
  // A repeatable-read reader keeps its snapshot: the entries of versions it
  // can still see must stay, and its index scans must still find them.
  RawConn old(server.port());
  REQUIRE(LastStatus(old.Startup()) == 'I');
  Exec(old, "begin isolation level repeatable read");
  CHECK(Value(old, "select v from u where k = 1") == "0");
  ExecEach(c, std::vector<std::string>(300, "update u set v = v + 1 where k = 1"));
  CHECK(Value(old, "select v from u where k = 1") == "0");
  CHECK(Value(old, "select count(*) from u where k >= 1") == "2");
  Exec(old, "commit");
  // Without old snapshots every check removes the dead versions' entries:
  // 3000 more updates of one key leave the index a page or two, not the
  // ~25 pages of one entry per version.
  ExecEach(c, std::vector<std::string>(3000, "update u set v = v + 1 where k = 1"));
  const int index_pages = std::stoi(Value(c, "select pg_relation_size('u_pkey') / 8192"));
  INFO("u_pkey pages " << index_pages);
  CHECK(index_pages <= 4);
  CHECK(Value(c, "select v from u where k = 1") == "3300");
  CHECK(Value(c, "select count(*) from u where k >= 1") == "2");
  CHECK(Value(c, "select hearth_index_check('u_pkey')") == "ok");
  CHECK(FirstSqlstate(c.Query("insert into u values (1, 0)")) == "23505");
  Exec(c, "vacuum u");
  CHECK(Value(c, "select v from u where k = 1") == "3300");
  CHECK(Value(c, "select hearth_index_check('u_pkey')") == "ok");
}

TEST_CASE("hot: updates of unindexed columns add no index entries and stay on the page", "[update_test]") {
  TestServer server(Settings{{"synchronous_commit", "off"}});
  RawConn c(server.port());
  REQUIRE(LastStatus(c.Startup()) == 'I');
  MakeTable(c, 20);
  ExecEach(c, Updates(3000, 20, "v = v + 1"));
  // Cold updates would add 3000 entries to each index (several pages) and
  // leave a dead line pointer per version in the heap.
  // (One page, or two if the bgwriter happened to pin it just when it had
  // to be pruned: a cold update then moves one version out.)
  CHECK(Pages(c, "h") <= 2);
  CHECK(Pages(c, "h_s") <= 2);    // metapage + one leaf
  CHECK(Pages(c, "h_pkey") <= 2);
  CHECK(Value(c, "select v from h where k = 7") == "150");
  CHECK(Value(c, "select v from h where s = 's7'") == "150");
  CHECK(Value(c, "select count(*) from h where k >= 1") == "20");
  CHECK(Value(c, "select sum(v) from h") == "3000");
  CHECK(Value(c, "select hearth_index_check('h_pkey')") == "ok");
  CHECK(Value(c, "select hearth_index_check('h_s')") == "ok");
  // The unique check follows the chain from the old entry to the live version.
  CHECK(FirstSqlstate(c.Query("insert into h values (7, 0, 'dup')")) == "23505");
  // Deleting through the index reaches the newest version too.
  Exec(c, "delete from h where k = 7");
  CHECK(Value(c, "select count(*) from h where k = 7") == "0");
  Exec(c, "insert into h values (7, 1, 's7')");
  CHECK(Value(c, "select v from h where s = 's7'") == "1");
}

TEST_CASE("hot: changing an indexed column makes new entries; the old key no longer finds the row",
          "[update_test]") {
  TestServer server(Settings{{"synchronous_commit", "off"}});
  RawConn c(server.port());
  REQUIRE(LastStatus(c.Startup()) == 'I');
  MakeTable(c, 5);
  ExecEach(c, Updates(50, 5, "v = v + 1"));  // HOT
  Exec(c, "update h set s = 'moved' where k = 3");  // not HOT: s is indexed
  CHECK(Value(c, "select k from h where s = 'moved'") == "3");
  CHECK(Value(c, "select count(*) from h where s = 's3'") == "0");
  ExecEach(c, Updates(50, 5, "v = v + 1"));  // HOT again, on the new chain
  CHECK(Value(c, "select v from h where s = 'moved'") == "20");
  CHECK(Value(c, "select v from h where k = 3") == "20");
  CHECK(Value(c, "select hearth_index_check('h_s')") == "ok");
}

TEST_CASE("hot: an open snapshot keeps reading its version through the index", "[update_test]") {
  TestServer server(Settings{{"synchronous_commit", "off"}});
  RawConn c(server.port());
  REQUIRE(LastStatus(c.Startup()) == 'I');
  MakeTable(c, 10);
  RawConn old(server.port());
  REQUIRE(LastStatus(old.Startup()) == 'I');
  Exec(old, "begin isolation level repeatable read");
  CHECK(Value(old, "select v from h where k = 4") == "0");
  ExecEach(c, Updates(2000, 10, "v = v + 1"));  // fills the page: pruning must spare what `old` sees
  CHECK(Value(old, "select v from h where k = 4") == "0");
  CHECK(Value(old, "select v from h where s = 's4'") == "0");
  CHECK(Value(old, "select sum(v) from h") == "0");
  CHECK(Value(c, "select v from h where k = 4") == "200");
  Exec(old, "commit");
  // The table grew while the snapshot pinned every version; now the old
  // versions go and further updates reuse that space.
  const int pages = Pages(c, "h");
  ExecEach(c, Updates(2000, 10, "v = v + 1"));
  CHECK(Value(c, "select v from h where k = 4") == "400");
  CHECK(Pages(c, "h") <= pages + 1);
  CHECK(Value(c, "select hearth_index_check('h_pkey')") == "ok");
}

TEST_CASE("hot: VACUUM and CREATE INDEX keep HOT chains reachable", "[update_test]") {
  TestServer server(Settings{{"synchronous_commit", "off"}});
  RawConn c(server.port());
  REQUIRE(LastStatus(c.Startup()) == 'I');
  MakeTable(c, 10);
  ExecEach(c, Updates(500, 10, "v = v + 1"));
  Exec(c, "vacuum h");
  CHECK(Value(c, "select count(*) from h where k >= 1") == "10");
  CHECK(Value(c, "select v from h where k = 5") == "50");
  CHECK(Value(c, "select hearth_index_check('h_pkey')") == "ok");
  // The new index points at the chains' roots, like the old ones.
  Exec(c, "create index h_v on h (v)");
  CHECK(Value(c, "select count(*) from h where v = 50") == "10");
  CHECK(Value(c, "select hearth_index_check('h_v')") == "ok");
  ExecEach(c, Updates(500, 10, "s = s"));  // HOT (s unchanged), pruning the old chains
  CHECK(Value(c, "select count(*) from h where v = 50") == "10");
  CHECK(Value(c, "select count(*) from h where k >= 1") == "10");
  ExecEach(c, Updates(10, 10, "v = v + 1"));  // v is indexed now: cold updates
  CHECK(Value(c, "select count(*) from h where v = 51") == "10");
  CHECK(Value(c, "select count(*) from h where v = 50") == "0");
  Exec(c, "vacuum h");
  CHECK(Value(c, "select count(*) from h where v = 51") == "10");
  CHECK(Value(c, "select hearth_index_check('h_v')") == "ok");
  CHECK(Value(c, "select hearth_index_check('h_s')") == "ok");
}
