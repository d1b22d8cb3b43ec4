// catalog/inherit_catalog.cpp
//
// Principal entry points: FindInheritanceChildren, FindAllInheritors,
// WriteInheritance.
#include "catalog/inherit_catalog.h"

#include <algorithm>
#include <set>
#include <sstream>

#include "access/transam/xact.h"
#include "catalog/catalog_indexes.h"
#include "catalog/catalog_rows.h"
#include "catalog/pending_delete.h"
#include "catalog/relcache.h"
#include "common/error/db_error.h"

namespace hearth::catalog {

std::vector<Oid> ParentsInClassRow(const heap::Row& cls) {
  if (cls.size() <= kClassRelinherits || cls[kClassRelinherits].is_null) return {};
  return ParseOidList(cls[kClassRelinherits].str);
}

bool HasSubclassInClassRow(const heap::Row& cls) {
  return cls.size() > kClassRelhassubclass && !cls[kClassRelhassubclass].is_null && cls[kClassRelhassubclass].b;
}

std::string FormatOidList(const std::vector<Oid>& oids) {
  std::string out;
  for (Oid o : oids) {
    if (!out.empty()) out += ' ';
    out += std::to_string(o);
  }
  return out;
}

std::vector<Oid> ParseOidList(const std::string& text) {
  std::vector<Oid> out;
  std::istringstream in(text);
  Oid o = 0;
  while (in >> o) out.push_back(o);
  return out;
}

std::vector<Oid> FindInheritanceChildren(Oid parent) {
  std::vector<Oid> out;
  for (const internal::CatalogTuple& t : internal::ScanCatalogWhere(
           ClassRel(), ClassTupleDesc(),
           [](const heap::Row& r) { return r.size() > kClassRelinherits && !r[kClassRelinherits].is_null; }, false)) {
    const std::vector<Oid> parents = ParentsInClassRow(t.row);
    if (std::find(parents.begin(), parents.end(), parent) != parents.end()) {
      out.push_back(internal::RowOid(t.row, kClassOid));
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<Oid> FindAllInheritors(Oid root) {
  std::vector<Oid> out;
  std::set<Oid> seen{root};
  std::vector<Oid> level{root};
  while (!level.empty()) {
    std::vector<Oid> next;
    for (Oid o : level) {
      RelationRef e = LookupRelationByOid(o);
      if (e == nullptr) continue;
      for (Oid c : e->children) {
        if (seen.insert(c).second) next.push_back(c);
      }
    }
    out.insert(out.end(), next.begin(), next.end());
    level = std::move(next);
  }
  return out;
}

namespace {

void WriteParentsOf(Oid child, const std::vector<Oid>& parents, access::TransactionId xid) {
  auto cls = internal::FindClassByOid(child);
  if (!cls) throw DbError("XX000", "cache lookup failed for relation " + std::to_string(child));
  heap::Row row = cls->row;
  row.resize(kClassNatts, types::Value::Null(types::kTextOid));
  row[kClassRelinherits] =
      parents.empty() ? types::Value::Null(types::kTextOid) : types::Value::Text(FormatOidList(parents));
  if (row[kClassRelhassubclass].is_null) row[kClassRelhassubclass] = types::Value::Bool(false);
  internal::CatalogUpdate(kHearthClassOid, cls->tid, row, xid, access::GetCurrentCommandId(true));
}

void MarkHasSubclass(const std::vector<Oid>& parents, access::TransactionId xid) {
  for (Oid p : parents) {
    auto pc = internal::FindClassByOid(p);
    if (!pc) throw DbError("XX000", "cache lookup failed for relation " + std::to_string(p));
    if (HasSubclassInClassRow(pc->row)) continue;
    heap::Row prow = pc->row;
    prow.resize(kClassNatts, types::Value::Null(types::kTextOid));
    prow[kClassRelhassubclass] = types::Value::Bool(true);
    internal::CatalogUpdate(kHearthClassOid, pc->tid, prow, xid, access::GetCurrentCommandId(true));
  }
}

}  // namespace

void WriteInheritance(Oid child, const std::vector<Oid>& parents, bool child_row) {
  const access::TransactionId xid = access::GetCurrentTransactionId();
  std::vector<Oid> changed{child};
  changed.insert(changed.end(), parents.begin(), parents.end());
  MarkCatalogChanged(changed);
  if (child_row) WriteParentsOf(child, parents, xid);
  MarkHasSubclass(parents, xid);
  access::CommandCounterIncrement();
}

}  // namespace hearth::catalog
