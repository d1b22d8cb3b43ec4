// catalog/sequence_catalog.cpp
//
// Principal entry points: MakeSequenceRow, ParseSequenceRow, FindSequenceRow,
// FindSequencesOwnedBy.
#include "catalog/sequence_catalog.h"

namespace hearth::catalog {

using types::Value;

const heap::TupleDesc& SequenceCatalogTupleDesc() {
  using heap::ColumnDesc;
  // Order must match SequenceCol.
  static const heap::TupleDesc desc({
      ColumnDesc::ForType(types::kOidOid),   // seqrelid
      ColumnDesc::ForType(types::kOidOid),   // seqtypid
      ColumnDesc::ForType(types::kInt8Oid),  // seqstart
      ColumnDesc::ForType(types::kInt8Oid),  // seqincrement
      ColumnDesc::ForType(types::kInt8Oid),  // seqmax
      ColumnDesc::ForType(types::kInt8Oid),  // seqmin
      ColumnDesc::ForType(types::kInt8Oid),  // seqcache
      ColumnDesc::ForType(types::kBoolOid),  // seqcycle
      ColumnDesc::ForType(types::kOidOid),   // seqownerrel
      ColumnDesc::ForType(types::kInt2Oid),  // seqownercol
      ColumnDesc::ForType(types::kTextOid),  // seqidentity
  });
  return desc;
}

heap::Row MakeSequenceRow(const SequenceParams& p) {
  heap::Row r(kSeqNatts);
  r[kSeqRelid] = Value::Int(types::kOidOid, p.relid);
  r[kSeqTypid] = Value::Int(types::kOidOid, p.type);
  r[kSeqStart] = Value::Int(types::kInt8Oid, p.start);
  r[kSeqIncrement] = Value::Int(types::kInt8Oid, p.increment);
  r[kSeqMax] = Value::Int(types::kInt8Oid, p.max);
  r[kSeqMin] = Value::Int(types::kInt8Oid, p.min);
  r[kSeqCache] = Value::Int(types::kInt8Oid, p.cache);
  r[kSeqCycle] = Value::Bool(p.cycle);
  r[kSeqOwnerRel] = Value::Int(types::kOidOid, p.owner_rel);
  r[kSeqOwnerCol] = Value::Int(types::kInt2Oid, p.owner_col);
  r[kSeqIdentity] = Value::Text(p.identity == 0 ? std::string() : std::string(1, p.identity));
  return r;
}

SequenceParams ParseSequenceRow(const heap::Row& r) {
  SequenceParams p;
  p.relid = internal::RowOid(r, kSeqRelid);
  p.type = internal::RowOid(r, kSeqTypid);
  p.start = r[kSeqStart].i;
  p.increment = r[kSeqIncrement].i;
  p.max = r[kSeqMax].i;
  p.min = r[kSeqMin].i;
  p.cache = r[kSeqCache].i;
  p.cycle = r[kSeqCycle].b;
  p.owner_rel = internal::RowOid(r, kSeqOwnerRel);
  p.owner_col = static_cast<int>(r[kSeqOwnerCol].i);
  p.identity = r[kSeqIdentity].is_null || r[kSeqIdentity].str.empty() ? 0 : r[kSeqIdentity].str[0];
  return p;
}

std::optional<internal::CatalogTuple> FindSequenceRow(Oid relid) {
  auto rows = internal::ScanCatalogWhere(
      SequenceCatalogRel(), SequenceCatalogTupleDesc(),
      [&](const heap::Row& r) { return internal::RowOid(r, kSeqRelid) == relid; }, true);
  if (rows.empty()) return std::nullopt;
  return std::move(rows[0]);
}

std::vector<internal::CatalogTuple> FindSequencesOwnedBy(Oid relid) {
  return internal::ScanCatalogWhere(
      SequenceCatalogRel(), SequenceCatalogTupleDesc(),
      [&](const heap::Row& r) { return internal::RowOid(r, kSeqOwnerRel) == relid; }, false);
}

}  // namespace hearth::catalog
