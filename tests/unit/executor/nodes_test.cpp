// Executor building blocks without the planner: row codec, hash keys, the
// in-memory table contract, spill files, and join nodes driven directly.
#include <filesystem>

#include "executor/nodes/join_nodes.h"
#include "executor/nodes/scan_nodes.h"
#include "executor/row_codec.h"
#include "executor/spill_file.h"
#include "sql_harness.h"

using hearth::executor::InMemoryCatalog;
using hearth::executor::ModifyResult;
using hearth::executor::OutputColumn;
using hearth::executor::Row;
using hearth::executor::RowId;
using hearth::types::Value;
namespace ty = hearth::types;

TEST_CASE("row codec: values round-trip", "[executor][codec]") {
  Row in = {Value::Int4(-7), Value::Null(ty::kTextOid), Value::Text(std::string(300, 'x')), Value::Bool(true),
            Value::Float8(-0.5), Value::Bytes(ty::kNumericOid, "12.50"), Value::Int(ty::kDateOid, 9000)};
  std::string buf;
  hearth::executor::EncodeValues(in.data(), in.size(), &buf);
  CHECK(buf.size() < 360);
  Row out(in.size());
  const char* p = buf.data();
  hearth::executor::DecodeValues(&p, out.data(), out.size());
  CHECK(p == buf.data() + buf.size());
  CHECK(sqlh::RowText(out) == sqlh::RowText(in));
  for (size_t i = 0; i < in.size(); ++i) CHECK(out[i].type == in[i].type);
}

TEST_CASE("hash keys: equal SQL values, equal keys", "[executor][codec]") {
  auto key = [](const Value& v) {
    std::string k;
    hearth::executor::AppendHashKey(v, &k);
    return k;
  };
  CHECK(key(Value::Int4(5)) == key(Value::Int8(5)));
  CHECK(key(Value::Bytes(ty::kNumericOid, "1.50")) == key(Value::Bytes(ty::kNumericOid, "1.5")));
  CHECK(key(Value::Bytes(ty::kNumericOid, "10")) != key(Value::Bytes(ty::kNumericOid, "1")));
  CHECK(key(Value::Bytes(ty::kBpcharOid, "ab  ")) == key(Value::Bytes(ty::kBpcharOid, "ab")));
  CHECK(key(Value::Float8(0.0)) == key(Value::Float8(-0.0)));
  CHECK(key(Value::Null(ty::kInt4Oid)) != key(Value::Int4(0)));
  CHECK(hearth::executor::HashClassOf(ty::kInt2Oid) == hearth::executor::HashClassOf(ty::kInt8Oid));
  CHECK(hearth::executor::HashClassOf(ty::kInt4Oid) != hearth::executor::HashClassOf(ty::kNumericOid));
}

TEST_CASE("in-memory catalog: scan, modify, halloween safety", "[executor][table]") {
  InMemoryCatalog cat;
  cat.CreateTable("", "t", {{"a", ty::kInt4Oid, -1, false, ""}});
  auto info = cat.Lookup("public", "t");
  REQUIRE(info);
  CHECK(info->oid >= 16384);
  CHECK_FALSE(cat.Lookup("", "nope"));
  CHECK_THROWS_AS(cat.CreateTable("", "t", {}), hearth::DbError);
  auto mod = cat.OpenModifier(*info);
  RowId r0 = mod->Insert({Value::Int4(1)});
  RowId r1 = mod->Insert({Value::Int4(2)});
  auto scan = cat.OpenScan(*info, true);
  mod->Insert({Value::Int4(3)});  // after the scan opened: not seen by it
  Row row;
  RowId rid;
  std::vector<int64_t> seen;
  while (scan->Next(row, &rid)) {
    seen.push_back(row[0].i);
    CHECK(mod->Update(rid, {Value::Int4(static_cast<int32_t>(row[0].i * 10))}, nullptr, true) == ModifyResult::kOk);
  }
  CHECK(seen == std::vector<int64_t>{1, 2});
  CHECK(mod->Delete(r0) == ModifyResult::kOk);
  CHECK(mod->Delete(r0) == ModifyResult::kNotFound);
  Row latest;
  RowId lr;
  CHECK(mod->FetchLatestVersion(r1, &latest, &lr));
  CHECK(latest[0].i == 20);
  CHECK(sqlh::RowText(cat.Rows("t")[0]) == "20");
  CHECK(cat.Rows("t").size() == 2);
}

TEST_CASE("spill file: records round-trip and the file is removed", "[executor][sort]") {
  std::string dir = (std::filesystem::temp_directory_path() / "hearth_spill_test").string();
  std::string path;
  {
    hearth::executor::SpillFile f(dir);
    path = f.path();
    CHECK(std::filesystem::exists(path));
    f.Write("abc");
    f.Write("");
    f.Write(std::string(100000, 'z'));
    f.Rewind();
    std::string r;
    REQUIRE(f.Read(&r));
    CHECK(r == "abc");
    REQUIRE(f.Read(&r));
    CHECK(r.empty());
    REQUIRE(f.Read(&r));
    CHECK(r.size() == 100000);
    CHECK_FALSE(f.Read(&r));
  }
  CHECK_FALSE(std::filesystem::exists(path));
  std::filesystem::remove_all(dir);
}

TEST_CASE("join nodes: hash full join with NULL keys, driven directly", "[executor][join]") {
  using hearth::executor::BoundExpr;
  using hearth::executor::BoundKind;
  using hearth::executor::PlanExpr;
  auto col = [](int i) {
    auto e = std::make_unique<BoundExpr>(BoundKind::kColumn, ty::kInt4Oid);
    e->index = i;
    return e;
  };
  std::vector<OutputColumn> lc = {{"k", ty::kInt4Oid, -1}, {"l", ty::kTextOid, -1}};
  std::vector<OutputColumn> rc = {{"k", ty::kInt4Oid, -1}, {"r", ty::kTextOid, -1}};
  std::vector<Row> left = {{Value::Int4(1), Value::Text("l1")},
                           {Value::Null(ty::kInt4Oid), Value::Text("lnull")},
                           {Value::Int4(2), Value::Text("l2")}};
  std::vector<Row> right = {{Value::Int4(2), Value::Text("r2")},
                            {Value::Null(ty::kInt4Oid), Value::Text("rnull")},
                            {Value::Int4(2), Value::Text("r2b")}};
  std::vector<PlanExpr> lk, rk;
  lk.push_back(PlanExpr{col(0), ""});
  rk.push_back(PlanExpr{col(0), ""});
  hearth::executor::HashJoinNode j(hearth::executor::JoinKind::kFull,
                                   std::make_unique<hearth::executor::ValuesScanNode>(left, lc),
                                   std::make_unique<hearth::executor::ValuesScanNode>(right, rc), std::move(lk),
                                   std::move(rk), PlanExpr{}, "(l.k = r.k)");
  CHECK(j.columns().size() == 4);
  hearth::executor::ExecContext ctx;
  std::vector<std::string> out;
  for (int pass = 0; pass < 2; ++pass) {  // re-opening gives the same result
    out.clear();
    j.Open(ctx);
    Row r;
    while (j.Next(r)) out.push_back(sqlh::RowText(r));
    j.Close();
    CHECK(out == sqlh::V{"1|l1|NULL|NULL", "NULL|lnull|NULL|NULL", "2|l2|2|r2", "2|l2|2|r2b", "NULL|NULL|NULL|rnull"});
  }
  std::vector<std::string> lines;
  j.Explain(&lines, 0, false, nullptr);
  CHECK(lines == sqlh::V{"Hash Full Join", "  Hash Cond: (l.k = r.k)", "  ->  Values Scan on \"*VALUES*\"",
                         "  ->  Hash", "        ->  Values Scan on \"*VALUES*\""});
}
