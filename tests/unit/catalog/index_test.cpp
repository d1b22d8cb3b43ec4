// tests/unit/catalog/index_test.cpp
//
// B-tree indexes through the catalog: CREATE INDEX on existing rows,
// unique checks at build and at insert, PRIMARY KEY via ALTER TABLE and
// CREATE TABLE, maintenance on INSERT/UPDATE/COPY, index scans, DROP
// TABLE / DROP INDEX / TRUNCATE / rollback and the files they leave.
#include <algorithm>

#include "access/nbtree/nbtree.h"
#include "access/heap/vacuumlazy.h"
#include "access/transam/snapshot.h"
#include "catalog/index_ddl.h"
#include "catalog/index_maint.h"
#include "catalog_test_util.h"

namespace hearth::catalog::testing {
namespace {

using types::Value;

DdlResult Sql(const std::string& sql) {
  auto stmts = parser::ParseStatements(sql);
  REQUIRE(stmts.size() == 1);
  const parser::Statement& s = *stmts[0];
  switch (s.kind) {
    case parser::StmtKind::kCreateIndex: return CreateIndex(s.As<parser::CreateIndexStmt>());
    case parser::StmtKind::kCreateTable: return CreateTableWithConstraints(s.As<parser::CreateTableStmt>());
    default: FAIL("unexpected statement " << sql);
  }
  return {};
}

void Insert(const std::string& table, const std::vector<std::pair<int, std::string>>& rows) {
  HeapTableProvider prov;
  prov.StartStatement();
  auto info = prov.Lookup("", table);
  REQUIRE(info.has_value());
  auto mod = prov.OpenModifier(*info);
  executor::Row row(2);
  for (const auto& [a, b] : rows) {
    row[0] = Value::Int4(a);
    row[1] = b.empty() ? Value::Null(types::kTextOid) : Value::Text(b);
    mod->Insert(row);
  }
  access::CommandCounterIncrement();  // as between statements
}

const executor::IndexInfo& FindIndex(const executor::TableInfo& info, const std::string& name) {
  for (const executor::IndexInfo& ix : info.indexes) {
    if (ix.name == name) return ix;
  }
  FAIL("no index " << name);
  return info.indexes.front();
}

// Column `col` of the rows an index scan returns.
std::vector<int> IndexScanInts(const std::string& table, const std::string& index, executor::IndexScanRequest req,
                               int col = 0) {
  HeapTableProvider prov;
  prov.StartStatement();
  auto info = prov.Lookup("", table);
  REQUIRE(info.has_value());
  auto scan = prov.OpenIndexScan(*info, FindIndex(*info, index), req);
  std::vector<int> out;
  executor::Row row;
  while (scan->Next(row, nullptr)) out.push_back(static_cast<int>(row[static_cast<size_t>(col)].i));
  return out;
}

executor::IndexScanRequest Bound(executor::IndexScanOp op, int v) {
  executor::IndexScanRequest r;
  r.bounds.push_back({op, Value::Int4(v)});
  return r;
}

std::string Verify(const std::string& table, const std::string& index) {
  RelationRef e = LookupRelation("", table);
  REQUIRE(e != nullptr);
  for (const IndexEntry& ix : e->indexes) {
    if (ix.desc.name == index) return nbtree::BtVerify(ix.desc);
  }
  return "missing index";
}

storage::RelFileLocator IndexFile(const std::string& table, const std::string& index) {
  RelationRef e = LookupRelation("", table);
  REQUIRE(e != nullptr);
  for (const IndexEntry& ix : e->indexes) {
    if (ix.desc.name == index) return ix.desc.rel;
  }
  FAIL("no index " << index);
  return {};
}

TEST_CASE("CREATE INDEX builds from existing rows and scans agree with the data", "[catalog][index]") {
  CatalogCluster cluster;
  InTransaction([&] {
    Sql("create table t (a int, b text)");
    std::vector<std::pair<int, std::string>> rows;
    for (int i = 0; i < 3000; ++i) rows.push_back({(i * 7919) % 3000, "v" + std::to_string(i)});
    Insert("t", rows);
  });
  InTransaction([&] {
    DdlResult r = Sql("create index on t (a)");
    CHECK(r.count == 1);
    CHECK(Verify("t", "t_a_idx") == "");
    CHECK(LookupRelation("", "t")->info.indexes.size() == 1);
    CHECK(LookupRelation("", "t")->info.indexes[0].columns == std::vector<int>{0});
  });
  InTransaction([&] {
    CHECK(IndexScanInts("t", "t_a_idx", Bound(executor::IndexScanOp::kEq, 42)) == std::vector<int>{42});
    std::vector<int> lt = IndexScanInts("t", "t_a_idx", Bound(executor::IndexScanOp::kLt, 5));
    CHECK(lt == std::vector<int>{0, 1, 2, 3, 4});
    executor::IndexScanRequest back = Bound(executor::IndexScanOp::kGe, 2995);
    back.backward = true;
    CHECK(IndexScanInts("t", "t_a_idx", back) == std::vector<int>{2999, 2998, 2997, 2996, 2995});
    executor::IndexScanRequest in;
    in.has_in = true;
    in.in_values = {Value::Int4(9), Value::Int4(3), Value::Int4(9), Value::Null(types::kInt4Oid), Value::Int4(5000)};
    CHECK(IndexScanInts("t", "t_a_idx", in) == std::vector<int>{3, 9});
    // Whole index in order.
    std::vector<int> all = IndexScanInts("t", "t_a_idx", {});
    REQUIRE(all.size() == 3000);
    CHECK(std::is_sorted(all.begin(), all.end()));
  });
  // Name clash and IF NOT EXISTS; default names get a number when taken.
  InTransaction([&] {
    RequireDbError([] { Sql("create index t_a_idx on t (b)"); }, "42P07", "relation \"t_a_idx\" already exists");
  });
  InTransaction([&] {
    RequireDbError([] { Sql("create index x on t (nosuch)"); }, "42703", "column \"nosuch\" does not exist");
  });
  InTransaction([&] {
    DdlResult r = Sql("create index if not exists t_a_idx on t (b)");
    REQUIRE(r.notices.size() == 1);
    CHECK(r.notices[0].message == "relation \"t_a_idx\" already exists, skipping");
    Sql("create index on t (a)");
    CHECK(FindIndex(LookupRelation("", "t")->info, "t_a_idx1").columns == std::vector<int>{0});
    RequireDbError([] { Sql("create index t on t (a)"); }, "42P07", "relation \"t\" already exists");
  });
}

TEST_CASE("unique indexes: duplicates at build and at insert", "[catalog][index]") {
  CatalogCluster cluster;
  InTransaction([&] {
    Sql("create table u (a int, b text)");
    Insert("u", {{1, "x"}, {2, "y"}, {1, "z"}, {3, ""}});
  });
  InTransaction([&] {
    try {
      Sql("create unique index u_a on u (a)");
      FAIL("expected 23505");
    } catch (const DbError& e) {
      CHECK(e.sqlstate() == "23505");
      CHECK(e.message() == "could not create unique index \"u_a\"");
      CHECK(e.detail() == "Key (a)=(1) is duplicated.");
    }
  });
  // NULLs never conflict.
  InTransaction([&] {
    Insert("u", {{4, ""}});
    Sql("create unique index u_b on u (b)");
  });
  InTransaction([&] {
    try {
      Insert("u", {{7, "y"}});
      FAIL("expected 23505");
    } catch (const DbError& e) {
      CHECK(e.sqlstate() == "23505");
      CHECK(e.message() == "duplicate key value violates unique constraint \"u_b\"");
      CHECK(e.detail() == "Key (b)=(y) already exists.");
    }
  });
  // The failed insert's heap row vanished with the abort: b = 'w' is free.
  InTransaction([&] { Insert("u", {{7, "w"}}); });
  InTransaction([&] {
    executor::IndexScanRequest all;
    CHECK(IndexScanInts("u", "u_b", all).size() == 6);
    CHECK(Verify("u", "u_b") == "");
  });
}

TEST_CASE("ALTER TABLE ADD PRIMARY KEY and PRIMARY KEY in CREATE TABLE", "[catalog][index]") {
  CatalogCluster cluster;
  InTransaction([&] {
    Sql("create table p (a int, b text)");
    Insert("p", {{1, "x"}, {2, ""}});
  });
  parser::RangeVar p;
  p.name = "p";
  InTransaction([&] {
    DdlResult r = AlterTableAddPrimaryKey(p, {"a"});
    CHECK(r.count == 1);
    RelationRef e = LookupRelation("", "p");
    REQUIRE(e->info.indexes.size() == 1);
    CHECK(e->info.indexes[0].name == "p_pkey");
    CHECK(e->info.indexes[0].primary);
    CHECK(e->info.columns[0].not_null);
  });
  InTransaction([&] {
    RequireDbError([&] { AlterTableAddPrimaryKey(p, {"b"}); }, "42P16",
                   "multiple primary keys for table \"p\" are not allowed");
  });
  InTransaction([&] {
    try {
      Insert("p", {{2, "dup"}});
      FAIL("expected 23505");
    } catch (const DbError& e) {
      CHECK(e.message() == "duplicate key value violates unique constraint \"p_pkey\"");
      CHECK(e.detail() == "Key (a)=(2) already exists.");
    }
  });
  InTransaction([&] {
    Sql("create table q (a int, b text)");
    Insert("q", {{1, ""}});
  });
  parser::RangeVar q;
  q.name = "q";
  InTransaction([&] {
    RequireDbError([&] { AlterTableAddPrimaryKey(q, {"b"}); }, "23502",
                   "column \"b\" of relation \"q\" contains null values");
  });
  InTransaction([&] {
    Sql("create table c (id int primary key, k text unique)");
    RelationRef e = LookupRelation("", "c");
    REQUIRE(e->info.indexes.size() == 2);
    CHECK(e->info.indexes[0].name == "c_pkey");
    CHECK(e->info.indexes[1].name == "c_k_key");
    Insert("c", {{1, "a"}, {2, "b"}});
    RequireDbError([] { Insert("c", {{3, "a"}}); }, "23505", "duplicate key value violates unique constraint \"c_k_key\"");
  });
  parser::RangeVar pk;
  pk.name = "p_pkey";
  InTransaction([&] {
    RequireDbError([&] { DropIndexes({pk}, false); }, "2BP01",
                   "cannot drop index p_pkey because constraint p_pkey on table p requires it");
  });
}

TEST_CASE("index maintenance on UPDATE and bulk insert", "[catalog][index]") {
  CatalogCluster cluster;
  InTransaction([&] { Sql("create table m (a int primary key, b text)"); });
  InTransaction([&] {
    HeapTableProvider prov;
    prov.StartStatement();
    auto info = prov.Lookup("", "m");
    auto bulk = prov.OpenBulkInserter(*info);
    executor::Row row(2);
    for (int i = 0; i < 2500; ++i) {
      row[0] = Value::Int4(i);
      row[1] = Value::Text("r");
      bulk->Insert(row, static_cast<uint64_t>(i));
    }
    bulk->Finish();
  });
  InTransaction([&] {
    CHECK(IndexScanInts("m", "m_pkey", {}).size() == 2500);
    CHECK(Verify("m", "m_pkey") == "");
    // Update a = 5 to a = 10005 through the modifier.
    HeapTableProvider prov;
    prov.StartStatement();
    auto info = prov.Lookup("", "m");
    auto scan = prov.OpenIndexScan(*info, info->indexes[0], Bound(executor::IndexScanOp::kEq, 5));
    executor::Row row;
    executor::RowId rid = executor::kInvalidRowId;
    REQUIRE(scan->Next(row, &rid));
    scan.reset();
    auto mod = prov.OpenModifier(*info);
    row[0] = Value::Int4(10005);
    executor::RowId new_rid;
    CHECK(mod->Update(rid, row, &new_rid, true) == executor::ModifyResult::kOk);
  });
  InTransaction([&] {
    CHECK(IndexScanInts("m", "m_pkey", Bound(executor::IndexScanOp::kEq, 5)).empty());
    CHECK(IndexScanInts("m", "m_pkey", Bound(executor::IndexScanOp::kEq, 10005)) == std::vector<int>{10005});
    // 5 is free again; 6 is not.
    Insert("m", {{5, "again"}});
    RequireDbError([] { Insert("m", {{6, "dup"}}); }, "23505", "duplicate key value violates unique constraint \"m_pkey\"");
  });
}

TEST_CASE("DROP TABLE, DROP INDEX, TRUNCATE and rollback handle index files", "[catalog][index]") {
  CatalogCluster cluster;
  storage::RelFileLocator f1, f2;
  InTransaction([&] {
    Sql("create table d (a int primary key, b text)");
    Insert("d", {{1, "x"}, {2, "y"}});
    Sql("create index d_b on d (b)");
    f1 = IndexFile("d", "d_pkey");
    f2 = IndexFile("d", "d_b");
  });
  CHECK(cluster.FileExists(f1));
  // Rolled-back CREATE INDEX leaves neither row nor file.
  storage::RelFileLocator f3;
  access::StartTransaction();
  Sql("create index d_b2 on d (b)");
  f3 = IndexFile("d", "d_b2");
  CHECK(cluster.FileExists(f3));
  access::AbortTransaction();
  CHECK_FALSE(cluster.FileExists(f3));
  InTransaction([&] { CHECK(LookupRelation("", "d")->indexes.size() == 2); });
  // DROP INDEX.
  InTransaction([&] {
    DropIndexes({parser::RangeVar{"", "", "d_b", true, -1}}, false);
    CHECK(LookupRelation("", "d")->indexes.size() == 1);
    DdlResult r = DropIndexes({parser::RangeVar{"", "", "d_b", true, -1}}, true);
    REQUIRE(r.notices.size() == 1);
    CHECK(r.notices[0].message == "index \"d_b\" does not exist, skipping");
  });
  CHECK_FALSE(cluster.FileExists(f2));
  // TRUNCATE gives the index a new, empty file.
  InTransaction([&] { TruncateTablesWithIndexes(Names({"d"})); });
  InTransaction([&] {
    CHECK_FALSE(cluster.FileExists(f1));
    CHECK(IndexScanInts("d", "d_pkey", {}).empty());
    Insert("d", {{1, "x"}});
    CHECK(IndexScanInts("d", "d_pkey", {}) == std::vector<int>{1});
    f1 = IndexFile("d", "d_pkey");
    CHECK(Verify("d", "d_pkey") == "");
  });
  InTransaction([&] { DropTablesWithIndexes(Names({"d"}), false); });
  CHECK_FALSE(cluster.FileExists(f1));
  InTransaction([&] {
    Sql("create table d (a int)");
    CHECK(LookupRelation("", "d")->indexes.empty());
    Sql("create index d_pkey on d (a)");  // the old name is free again
  });
}

size_t IndexEntryCount(const std::string& table, const std::string& index) {
  RelationRef e = LookupRelation("", table);
  REQUIRE(e != nullptr);
  for (const IndexEntry& ix : e->indexes) {
    if (ix.desc.name != index) continue;
    nbtree::BtScan scan(ix.desc, {});
    size_t n = 0;
    heap::ItemPointer tid;
    while (scan.Next(&tid)) ++n;
    return n;
  }
  return 0;
}

TEST_CASE("VACUUM's index cleanup removes entries of dead rows", "[catalog][index]") {
  CatalogCluster cluster;
  InTransaction([&] {
    Sql("create table v (a int primary key, b text)");
    std::vector<std::pair<int, std::string>> rows;
    for (int i = 0; i < 500; ++i) rows.push_back({i, "x"});
    Insert("v", rows);
  });
  InTransaction([&] {
    HeapTableProvider prov;
    prov.StartStatement();
    auto info = prov.Lookup("", "v");
    auto mod = prov.OpenModifier(*info);
    for (int i = 0; i < 500; i += 2) {
      auto scan = prov.OpenIndexScan(*info, info->indexes[0], Bound(executor::IndexScanOp::kEq, i));
      executor::Row row;
      executor::RowId rid;
      REQUIRE(scan->Next(row, &rid));
      CHECK(mod->Delete(rid) == executor::ModifyResult::kOk);
    }
  });
  InTransaction([&] {
    CHECK(IndexEntryCount("v", "v_pkey") == 500);  // deletes leave entries
    RelationRef e = OpenRelation("", "v", storage::LockMode::kShareUpdateExclusive);
    heap::VacuumStats st = heap::HeapVacuumRelation(e->rel, access::GetOldestXmin(), IndexCleanupCallback(e));
    CHECK(st.tuples_removed == 250);
    CHECK(IndexEntryCount("v", "v_pkey") == 250);
    CHECK(Verify("v", "v_pkey") == "");
  });
  // The reclaimed slots are reused without stale entries pointing at them.
  InTransaction([&] {
    std::vector<std::pair<int, std::string>> rows;
    for (int i = 0; i < 500; i += 2) rows.push_back({i, "y"});
    Insert("v", rows);
    CHECK(IndexScanInts("v", "v_pkey", {}).size() == 500);
    CHECK(IndexEntryCount("v", "v_pkey") == 500);
  });
}

TEST_CASE("CREATE TABLE with an index's name is a clash", "[catalog][index]") {
  CatalogCluster cluster;
  InTransaction([&] { Sql("create table w (a int primary key)"); });
  InTransaction([&] {
    RequireDbError([] { Sql("create table w_pkey (a int)"); }, "42P07", "relation \"w_pkey\" already exists");
  });
}

}  // namespace
}  // namespace hearth::catalog::testing
