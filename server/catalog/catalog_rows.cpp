// catalog/catalog_rows.cpp
//
// Principal entry points: FindClassByName, FindClassByOid, FindAttributes,
// FindIndexes, FindIndexByName (catalog index probes, sequential scans
// without catalog indexes), MakeClassRow, MakeAttributeRow.
#include "catalog/catalog_rows.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "access/heap/heapam.h"
#include "access/heap/heapscan.h"
#include "access/transam/snapshot.h"
#include "access/transam/xact.h"
#include "catalog/catalog_indexes.h"

namespace hearth::catalog::internal {

namespace {

using types::Value;

// A fresh snapshot that also sees the transaction's earlier commands. Does
// not move the proc slot's advertised xmin backwards or forwards if set.
const access::Snapshot& CatalogSnapshot() {
  static access::Snapshot snap;
  access::GetSnapshotData(&snap, /*replace_xmin=*/false);
  snap.curcid = access::GetCurrentCommandId(false);
  return snap;
}

template <typename Match>
std::vector<CatalogTuple> ScanCatalog(storage::RelFileLocator rel, const heap::TupleDesc& desc, Match match,
                                      bool first_only) {
  // Locks taken around catalog reads are released only at transaction end,
  // and the snapshot's command id is the transaction's.
  if (!access::IsTransactionInProgress()) throw std::logic_error("catalog read outside a transaction");
  std::vector<CatalogTuple> out;
  heap::HeapScanOptions opts;
  opts.allow_bulkread = false;
  heap::HeapScan scan(rel, desc, CatalogSnapshot(), access::GetCurrentTransactionIdIfAny(), opts);
  CatalogTuple t;
  while (scan.Next(&t.row, &t.tid)) {
    if (!match(t.row)) continue;
    out.push_back(t);
    if (first_only) break;
  }
  return out;
}

}  // namespace

namespace {

// The versions at `tids` visible to the catalog snapshot whose row matches
// (index entries are candidates only: dead versions keep theirs until VACUUM).
template <typename Match>
std::vector<CatalogTuple> FetchCandidates(Oid catalog, const heap::TupleDesc& desc,
                                          const std::vector<heap::ItemPointer>& tids, Match match, bool first_only) {
  if (!access::IsTransactionInProgress()) throw std::logic_error("catalog read outside a transaction");
  std::vector<CatalogTuple> out;
  if (tids.empty()) return out;
  const access::Snapshot& snap = CatalogSnapshot();
  const access::TransactionId me = access::GetCurrentTransactionIdIfAny();
  CatalogTuple t;
  size_t unusable = 0;
  for (heap::ItemPointer tid : tids) {
    if (!heap::HeapFetch(CatalogRel(catalog), desc, tid, snap, me, &t.row) || !match(t.row)) {
      unusable++;
      continue;
    }
    t.tid = tid;
    out.push_back(t);
    if (first_only) break;
  }
  NoteDeadCatalogCandidates(catalog, unusable);
  return out;
}

types::Value OidKey(Oid oid) { return Value::Int(types::kOidOid, oid); }
types::Value NameKey(const std::string& name) { return Value::Bytes(types::kNameOid, name); }

// Probes `index_oid` with `key` when the catalog indexes exist, else scans.
template <typename Match>
std::vector<CatalogTuple> Lookup(Oid catalog, const heap::TupleDesc& desc, Oid index_oid,
                                 std::vector<types::Value> key, Match match, bool first_only) {
  if (!CatalogIndexesUsable()) {
    return ScanCatalog(CatalogRel(catalog), desc, match, first_only);
  }
  return FetchCandidates(catalog, desc, CatalogIndexProbe(index_oid, std::move(key)), match, first_only);
}

std::optional<CatalogTuple> First(std::vector<CatalogTuple> rows) {
  if (rows.empty()) return std::nullopt;
  return std::move(rows[0]);
}

}  // namespace

std::optional<CatalogTuple> FindClassByName(Oid ns, const std::string& name) {
  return First(Lookup(
      kHearthClassOid, ClassTupleDesc(), kClassNameNspIndexOid, {NameKey(name), OidKey(ns)},
      [&](const heap::Row& r) { return RowOid(r, kClassRelnamespace) == ns && r[kClassRelname].str == name; }, true));
}

std::optional<CatalogTuple> FindClassByOid(Oid oid) {
  return First(Lookup(
      kHearthClassOid, ClassTupleDesc(), kClassOidIndexOid, {OidKey(oid)},
      [&](const heap::Row& r) { return RowOid(r, kClassOid) == oid; }, true));
}

std::vector<CatalogTuple> FindClassesInNamespace(Oid ns) {
  return ScanCatalog(
      ClassRel(), ClassTupleDesc(), [&](const heap::Row& r) { return ns == 0 || RowOid(r, kClassRelnamespace) == ns; },
      false);
}

std::vector<CatalogTuple> FindAttributes(Oid relid) {
  auto rows = Lookup(
      kHearthAttributeOid, AttributeTupleDesc(), kAttributeRelidAttnumIndexOid, {OidKey(relid)},
      [&](const heap::Row& r) { return RowOid(r, kAttAttrelid) == relid; }, false);
  std::sort(rows.begin(), rows.end(),
            [](const CatalogTuple& a, const CatalogTuple& b) { return a.row[kAttAttnum].i < b.row[kAttAttnum].i; });
  return rows;
}

std::vector<CatalogTuple> FindIndexes(Oid relid) {
  if (relid == 0) return ScanCatalog(IndexRel(), IndexTupleDesc(), [](const heap::Row&) { return true; }, false);
  return Lookup(
      kHearthIndexOid, IndexTupleDesc(), kIndexIndrelidIndexOid, {OidKey(relid)},
      [&](const heap::Row& r) { return RowOid(r, kIndIndrelid) == relid; }, false);
}

std::optional<CatalogTuple> FindIndexByName(Oid ns, const std::string& name) {
  return First(Lookup(
      kHearthIndexOid, IndexTupleDesc(), kIndexNameNspIndexOid, {NameKey(name), OidKey(ns)},
      [&](const heap::Row& r) { return RowOid(r, kIndNamespace) == ns && r[kIndName].str == name; }, true));
}

heap::Row MakeClassRow(const ClassFields& f) {
  heap::Row r(kClassNatts);
  r[kClassOid] = Value::Int(types::kOidOid, f.oid);
  r[kClassRelname] = Value::Bytes(types::kNameOid, f.relname);
  r[kClassRelnamespace] = Value::Int(types::kOidOid, f.relnamespace);
  r[kClassRelfilenode] = Value::Int(types::kOidOid, f.relfilenode);
  r[kClassRelkind] = Value::Text(std::string(1, f.relkind));
  r[kClassRelnatts] = Value::Int(types::kInt2Oid, f.relnatts);
  r[kClassRelpages] = Value::Int4(0);
  r[kClassReltuples] = Value::Float(types::kFloat4Oid, -1.0);
  r[kClassRelhasindex] = Value::Bool(false);
  r[kClassRelfillfactor] = Value::Int4(f.fillfactor);
  r[kClassReloptions] = f.reloptions.empty() ? Value::Null(types::kTextOid) : Value::Text(f.reloptions);
  r[kClassRelowner] = Value::Int(types::kOidOid, f.owner);
  r[kClassRelacl] = f.acl ? Value::Text(*f.acl) : Value::Null(types::kTextOid);
  r[kClassRelviewdef] = f.relkind == 'v' ? Value::Text(f.viewdef) : Value::Null(types::kTextOid);
  r[kClassRelviewdeps] = f.relkind == 'v' ? Value::Text(f.viewdeps) : Value::Null(types::kTextOid);
  r[kClassRelinherits] = f.inherits.empty() ? Value::Null(types::kTextOid) : Value::Text(f.inherits);
  r[kClassRelhassubclass] = Value::Bool(false);
  r[kClassRelpartkey] = f.partkey.empty() ? Value::Null(types::kTextOid) : Value::Text(f.partkey);
  r[kClassRelpartbound] = f.partbound.empty() ? Value::Null(types::kTextOid) : Value::Text(f.partbound);
  return r;
}

std::optional<bool> ParseBoolOption(std::string_view text) {
  std::string s;
  for (char c : text) s.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  if (s.empty()) return std::nullopt;
  auto prefix_of = [&s](std::string_view word, size_t min_len) { return s.size() >= min_len && word.starts_with(s); };
  if (prefix_of("true", 1) || prefix_of("yes", 1) || prefix_of("on", 2) || s == "1") return true;
  if (prefix_of("false", 1) || prefix_of("no", 1) || prefix_of("off", 2) || s == "0") return false;
  return std::nullopt;
}

heap::Row MakeAttributeRow(const AttributeFields& f) {
  heap::Row r(kAttNatts);
  r[kAttAttrelid] = Value::Int(types::kOidOid, f.attrelid);
  r[kAttAttname] = Value::Bytes(types::kNameOid, f.attname);
  r[kAttAtttypid] = Value::Int(types::kOidOid, f.atttypid);
  r[kAttAtttypmod] = Value::Int4(f.atttypmod);
  r[kAttAttnum] = Value::Int(types::kInt2Oid, f.attnum);
  r[kAttAttnotnull] = Value::Bool(f.attnotnull);
  r[kAttAtthasdef] = Value::Bool(!f.attdefault.empty());
  r[kAttAttdefault] = Value::Text(f.attdefault);
  r[kAttAttacl] = Value::Null(types::kTextOid);
  return r;
}

}  // namespace hearth::catalog::internal

namespace hearth::catalog::internal {

namespace {

std::string JoinInts(const std::vector<int>& v) {
  std::string out;
  for (int x : v) {
    if (!out.empty()) out += ' ';
    out += std::to_string(x);
  }
  return out;
}

std::vector<int> SplitInts(const std::string& s) {
  std::vector<int> out;
  size_t i = 0;
  while (i < s.size()) {
    size_t j = s.find(' ', i);
    if (j == std::string::npos) j = s.size();
    if (j > i) out.push_back(std::stoi(s.substr(i, j - i)));
    i = j + 1;
  }
  return out;
}

}  // namespace

heap::Row MakeIndexRow(const IndexFields& f) {
  heap::Row r(kIndNatts);
  r[kIndIndexrelid] = Value::Int(types::kOidOid, f.indexrelid);
  r[kIndIndrelid] = Value::Int(types::kOidOid, f.indrelid);
  r[kIndName] = Value::Bytes(types::kNameOid, f.name);
  r[kIndNamespace] = Value::Int(types::kOidOid, f.ns);
  r[kIndRelfilenode] = Value::Int(types::kOidOid, f.relfilenode);
  r[kIndIsunique] = Value::Bool(f.unique);
  r[kIndIsprimary] = Value::Bool(f.primary);
  r[kIndKey] = Value::Text(JoinInts(f.attnums));
  r[kIndOption] = Value::Text(JoinInts(f.options));
  r[kIndIsconstraint] = Value::Bool(f.constraint);
  return r;
}

IndexFields ParseIndexRow(const heap::Row& r) {
  IndexFields f;
  f.indexrelid = RowOid(r, kIndIndexrelid);
  f.indrelid = RowOid(r, kIndIndrelid);
  f.name = r[kIndName].str;
  f.ns = RowOid(r, kIndNamespace);
  f.relfilenode = RowOid(r, kIndRelfilenode);
  f.unique = r[kIndIsunique].b;
  f.primary = r[kIndIsprimary].b;
  f.attnums = SplitInts(r[kIndKey].str);
  f.options = SplitInts(r[kIndOption].str);
  f.constraint = IndexIsConstraint(r);
  f.options.resize(f.attnums.size(), 0);
  return f;
}

}  // namespace hearth::catalog::internal

namespace hearth::catalog::internal {

std::optional<CatalogTuple> FindIndexByOid(Oid oid) {
  auto rows = ScanCatalog(IndexRel(), IndexTupleDesc(),
                          [oid](const heap::Row& r) { return RowOid(r, kIndIndexrelid) == oid; }, true);
  if (rows.empty()) return std::nullopt;
  return std::move(rows.front());
}

std::vector<CatalogTuple> ScanCatalogWhere(storage::RelFileLocator rel, const heap::TupleDesc& desc,
                                           const std::function<bool(const heap::Row&)>& match, bool first_only) {
  return ScanCatalog(rel, desc, match, first_only);
}

}  // namespace hearth::catalog::internal
