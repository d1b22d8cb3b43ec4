// tests/unit/catalog/provider_test.cpp — HeapTableProvider and BulkInserter.
#include "catalog_test_util.h"

using namespace hearth;
using namespace hearth::catalog;
using namespace hearth::catalog::testing;
using executor::ModifyResult;
using executor::Row;
using types::Value;

TEST_CASE("Provider: create, look up, insert, scan back, update and delete", "[catalog][provider]") {
  CatalogCluster c;
  HeapTableProvider prov;
  std::vector<executor::RowId> rids;
  InTransaction([&] {
    Create("create table p (id int not null, name text, score float8)");
    prov.StartStatement();
    auto info = prov.Lookup("", "p");
    REQUIRE(info.has_value());
    CHECK(info->name == "p");
    REQUIRE(info->columns.size() == 3);
    CHECK(storage::LockHeldByMe(RelationLockTag(info->oid), storage::LockMode::kAccessShare));
    auto mod = prov.OpenModifier(*info);
    CHECK(storage::LockHeldByMe(RelationLockTag(info->oid), storage::LockMode::kRowExclusive));
    Row row(3);
    for (int i = 1; i <= 5; ++i) {
      row[0] = Value::Int4(i);
      row[1] = i == 3 ? Value::Null(types::kTextOid) : Value::Text("name" + std::to_string(i));
      row[2] = Value::Float8(i * 1.5);
      rids.push_back(mod->Insert(row));
    }
  });

  InTransaction([&] {
    auto rows = ScanAll(prov, "p");
    REQUIRE(rows.size() == 5);
    for (int i = 0; i < 5; ++i) {
      CHECK(rows[static_cast<size_t>(i)][0].i == i + 1);
      CHECK(rows[static_cast<size_t>(i)][2].f == Approx((i + 1) * 1.5));
    }
    CHECK(rows[2][1].is_null);
    CHECK(rows[0][1].str == "name1");
    CHECK_FALSE(prov.Lookup("", "nosuch").has_value());
  });

  InTransaction([&] {
    prov.StartStatement();
    auto info = prov.Lookup("", "p");
    auto mod = prov.OpenModifier(*info);
    Row row(3);
    row[0] = Value::Int4(200);
    row[1] = Value::Text("two hundred");
    row[2] = Value::Float8(0);
    executor::RowId new_rid = executor::kInvalidRowId;
    CHECK(mod->Update(rids[1], row, &new_rid, true) == ModifyResult::kOk);
    CHECK(new_rid != executor::kInvalidRowId);
    CHECK(mod->Delete(rids[3]) == ModifyResult::kOk);
    // Already changed by this statement.
    CHECK(mod->Delete(rids[3]) == ModifyResult::kSelfModified);
    CHECK(mod->Delete(executor::RowId{(uint64_t{999} << 16) | 1}) == ModifyResult::kNotFound);
  });

  InTransaction([&] {
    auto rows = ScanAll(prov, "p");
    REQUIRE(rows.size() == 4);
    int64_t sum = 0;
    for (const Row& r : rows) sum += r[0].i;
    CHECK(sum == 1 + 200 + 3 + 5);
  });
}

TEST_CASE("Provider: a statement does not see its own inserts; the next one does", "[catalog][provider]") {
  CatalogCluster c;
  HeapTableProvider prov;
  InTransaction([&] {
    Create("create table h (a int)");
    prov.StartStatement();
    auto info = prov.Lookup("", "h");
    auto mod = prov.OpenModifier(*info);
    Row row{Value::Int4(1)};
    mod->Insert(row);
    auto scan = prov.OpenScan(*info, false);
    Row out;
    CHECK_FALSE(scan->Next(out, nullptr));  // same command: invisible
    access::CommandCounterIncrement();
    CHECK(ScanAll(prov, "h").size() == 1);
  });
}

TEST_CASE("BulkInserter loads many rows through HeapMultiInsert", "[catalog][provider][copy]") {
  CatalogCluster c;
  HeapTableProvider prov;
  InTransaction([&] {
    Create("create table bulk (a int, b text)");
    prov.StartStatement();
    auto info = prov.Lookup("", "bulk");
    auto ins = prov.OpenBulkInserter(*info);
    Row row(2);
    for (int i = 0; i < 5000; ++i) {
      row[0] = Value::Int4(i);
      row[1] = Value::Text("row " + std::to_string(i));
      ins->Insert(row, static_cast<uint64_t>(i));
    }
    ins->Finish();
    CHECK(storage::PrivatePinCount() == 0);
  });
  InTransaction([&] {
    auto rows = ScanAll(prov, "bulk");
    REQUIRE(rows.size() == 5000);
    int64_t sum = 0;
    for (const Row& r : rows) sum += r[0].i;
    CHECK(sum == 4999LL * 5000 / 2);
    CHECK(rows[4999][1].str == "row 4999");
  });
}

TEST_CASE("Provider: OpenScan of a dropped table fails with 42P01", "[catalog][provider][errors]") {
  CatalogCluster c;
  HeapTableProvider prov;
  executor::TableInfo info;
  InTransaction([&] {
    Create("create table x (a int)");
    info = *prov.Lookup("", "x");
  });
  InTransaction([&] { DropTables(Names({"x"}), false); });
  access::StartTransaction();
  prov.StartStatement();
  RequireDbError([&] { prov.OpenScan(info, false); }, "42P01", "relation \"x\" does not exist");
  access::AbortTransaction();
}
