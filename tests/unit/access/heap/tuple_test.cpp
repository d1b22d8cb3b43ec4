// Tuple forming/deforming: round trips for every type, NULLs, alignment,
// the size limit.
#include <cstring>

#include <catch2/catch.hpp>

#include "access/heap/heap_tuple.h"
#include "common/error/db_error.h"
#include "utils/adt/type_oid.h"

using namespace hearth;
using namespace hearth::heap;
using types::Value;

namespace {

const HeapTupleHeaderData* Hdr(const std::vector<char>& t) {
  return reinterpret_cast<const HeapTupleHeaderData*>(t.data());
}

TupleDesc AllTypes() {
  return TupleDesc::FromTypes({types::kBoolOid, types::kInt2Oid, types::kInt4Oid, types::kInt8Oid, types::kFloat4Oid,
                               types::kFloat8Oid, types::kTextOid, types::kVarcharOid, types::kBpcharOid,
                               types::kNumericOid, types::kDateOid, types::kTimestampOid, types::kNameOid});
}

Row AllValues() {
  return Row{Value::Bool(true),
             Value::Int(types::kInt2Oid, -1234),
             Value::Int4(-20000000),
             Value::Int8(-9000000000000LL),
             Value::Float(types::kFloat4Oid, 1.5),
             Value::Float8(-2.25e300),
             Value::Text("hello, heap"),
             Value::Bytes(types::kVarcharOid, ""),
             Value::Bytes(types::kBpcharOid, "ab  "),
             Value::Bytes(types::kNumericOid, "-12345.6789"),
             Value::Int(types::kDateOid, -730000),
             Value::Int(types::kTimestampOid, 789012345678901LL),
             Value::Bytes(types::kNameOid, "pg_class")};
}

}  // namespace

TEST_CASE("column descriptors align by type", "[heap][tuple]") {
  CHECK(ColumnDesc::ForType(types::kInt2Oid).align == 2);
  CHECK(ColumnDesc::ForType(types::kInt4Oid).align == 4);
  CHECK(ColumnDesc::ForType(types::kDateOid).typlen == 4);
  CHECK(ColumnDesc::ForType(types::kFloat4Oid).align == 4);
  CHECK(ColumnDesc::ForType(types::kInt8Oid).align == 8);
  CHECK(ColumnDesc::ForType(types::kTimestampOid).align == 8);
  CHECK(ColumnDesc::ForType(types::kFloat8Oid).typlen == 8);
  CHECK(ColumnDesc::ForType(types::kTextOid).typlen == -1);
  CHECK(ColumnDesc::ForType(types::kNumericOid).kind == AttrKind::kVarlena);
  CHECK(ColumnDesc::ForType(types::kBoolOid).typlen == 1);
}

TEST_CASE("form/deform round trip of every type", "[heap][tuple]") {
  TupleDesc desc = AllTypes();
  Row in = AllValues();
  std::vector<char> t;
  HeapFormTuple(desc, in, &t);
  REQUIRE(t.size() == HeapComputeTupleSize(desc, in));
  CHECK(Hdr(t)->natts() == 13);
  CHECK(Hdr(t)->t_hoff == 24);
  CHECK_FALSE(Hdr(t)->has_nulls());
  CHECK((Hdr(t)->t_infomask & access::kHeapHasVarWidth) != 0);
  Row out;
  HeapDeformTuple(desc, Hdr(t), t.size(), &out);
  REQUIRE(out.size() == 13);
  for (size_t i = 0; i < out.size(); ++i) {
    INFO("column " << i);
    CHECK_FALSE(out[i].is_null);
    CHECK(out[i].type == desc.col(static_cast<int>(i)).type);
  }
  CHECK(out[0].b == true);
  CHECK(out[1].i == -1234);
  CHECK(out[2].i == -20000000);
  CHECK(out[3].i == -9000000000000LL);
  CHECK(out[4].f == 1.5);
  CHECK(out[5].f == -2.25e300);
  CHECK(out[6].str == "hello, heap");
  CHECK(out[7].str.empty());
  CHECK(out[8].str == "ab  ");
  CHECK(out[9].str == "-12345.6789");
  CHECK(out[10].i == -730000);
  CHECK(out[11].i == 789012345678901LL);
  CHECK(out[12].str == "pg_class");
}

TEST_CASE("attributes are aligned from the tuple start", "[heap][tuple]") {
  // bool (1) then int8: the int8 starts at t_hoff + 8, padding zero.
  TupleDesc desc = TupleDesc::FromTypes({types::kBoolOid, types::kInt8Oid, types::kInt2Oid, types::kInt4Oid});
  Row in{Value::Bool(false), Value::Int8(0x0102030405060708LL), Value::Int(types::kInt2Oid, 7), Value::Int4(9)};
  std::vector<char> t;
  HeapFormTuple(desc, in, &t);
  // 24 header + bool@24 + pad to 32 + int8@32..40 + int2@40..42 + pad + int4@44..48
  REQUIRE(t.size() == 48);
  int64_t v8;
  std::memcpy(&v8, t.data() + 32, 8);
  CHECK(v8 == 0x0102030405060708LL);
  int16_t v2;
  std::memcpy(&v2, t.data() + 40, 2);
  CHECK(v2 == 7);
  int32_t v4;
  std::memcpy(&v4, t.data() + 44, 4);
  CHECK(v4 == 9);
  for (int i = 25; i < 32; ++i) CHECK(t[static_cast<size_t>(i)] == 0);
  // varlena: 4-byte aligned length header counting itself.
  TupleDesc d2 = TupleDesc::FromTypes({types::kBoolOid, types::kTextOid});
  std::vector<char> t2;
  HeapFormTuple(d2, Row{Value::Bool(true), Value::Text("xyz")}, &t2);
  REQUIRE(t2.size() == 24 + 4 + 4 + 3);
  uint32_t vl;
  std::memcpy(&vl, t2.data() + 28, 4);
  CHECK(vl == 7);
}

TEST_CASE("NULLs use the bitmap and take no data space", "[heap][tuple]") {
  TupleDesc desc = AllTypes();
  for (int nullcol = 0; nullcol < desc.natts(); ++nullcol) {
    Row in = AllValues();
    in[static_cast<size_t>(nullcol)] = Value::Null(desc.col(nullcol).type);
    std::vector<char> t;
    HeapFormTuple(desc, in, &t);
    CHECK(Hdr(t)->has_nulls());
    CHECK(Hdr(t)->t_hoff == 32);  // 23 + 2 bitmap bytes → 25 → MaxAlign 32
    Row out;
    HeapDeformTuple(desc, Hdr(t), t.size(), &out);
    for (int i = 0; i < desc.natts(); ++i) {
      INFO("null column " << nullcol << ", column " << i);
      CHECK(out[static_cast<size_t>(i)].is_null == (i == nullcol));
    }
    CHECK(out[6].is_null == (nullcol == 6));
    if (nullcol != 9) CHECK(out[9].str == "-12345.6789");
    if (nullcol != 3) CHECK(out[3].i == -9000000000000LL);
  }
  // All NULL.
  Row nulls;
  for (int i = 0; i < desc.natts(); ++i) nulls.push_back(Value::Null(desc.col(i).type));
  std::vector<char> t;
  HeapFormTuple(desc, nulls, &t);
  CHECK(t.size() == 32);
  Row out;
  HeapDeformTuple(desc, Hdr(t), t.size(), &out);
  for (const Value& v : out) CHECK(v.is_null);
}

TEST_CASE("deform reuses the row and reads missing trailing columns as NULL", "[heap][tuple]") {
  TupleDesc narrow = TupleDesc::FromTypes({types::kInt4Oid, types::kTextOid});
  TupleDesc wide = TupleDesc::FromTypes({types::kInt4Oid, types::kTextOid, types::kInt8Oid});
  std::vector<char> t;
  HeapFormTuple(narrow, Row{Value::Int4(5), Value::Text("a fairly long string value to hold capacity")}, &t);
  Row out;
  HeapDeformTuple(wide, Hdr(t), t.size(), &out);
  REQUIRE(out.size() == 3);
  CHECK(out[0].i == 5);
  CHECK(out[2].is_null);
  CHECK(out[2].type == types::kInt8Oid);
  const char* before = out[1].str.data();
  HeapFormTuple(narrow, Row{Value::Int4(6), Value::Text("short")}, &t);
  HeapDeformTuple(wide, Hdr(t), t.size(), &out);
  CHECK(out[0].i == 6);
  CHECK(out[1].str == "short");
  CHECK(out[1].str.data() == before);  // capacity reused, no reallocation
}

TEST_CASE("a row too big for a page is refused with 54000", "[heap][tuple]") {
  TupleDesc desc = TupleDesc::FromTypes({types::kInt4Oid, types::kTextOid});
  std::vector<char> t;
  // 24 header + 4 int4 + 4 length = 32; 8128 bytes of text → 8160 exactly: fits.
  HeapFormTuple(desc, Row{Value::Int4(1), Value::Text(std::string(8128, 'x'))}, &t);
  CHECK(t.size() == kMaxHeapTupleSize);
  try {
    HeapFormTuple(desc, Row{Value::Int4(1), Value::Text(std::string(8129, 'x'))}, &t);
    FAIL("expected 54000");
  } catch (const DbError& e) {
    CHECK(e.sqlstate() == "54000");
    CHECK(e.message() == "row is too big: size 8161, maximum size 8160");
  }
  CHECK_THROWS_AS(HeapFormTuple(desc, Row{Value::Int4(1)}, &t), std::invalid_argument);
}
