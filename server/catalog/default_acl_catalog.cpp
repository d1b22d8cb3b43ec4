// catalog/default_acl_catalog.cpp
//
// Principal entry points: DefaultAcls, DefaultAclCatalogExists,
// RenameRoleInDefaultAcls, DefaultAclDependencies, DropDefaultAclsOf, and
// the row writes ALTER DEFAULT PRIVILEGES uses (default_acl_internal.h).
#include <algorithm>

#include "access/heap/heapam.h"
#include "access/transam/xact.h"
#include "catalog/acl.h"
#include "catalog/catalog_rows.h"
#include "catalog/catalog_shared.h"
#include "catalog/ddl_internal.h"
#include "catalog/default_acl.h"
#include "catalog/default_acl_internal.h"
#include "catalog/pending_delete.h"
#include "catalog/privileges.h"
#include "catalog/table_stats_counts.h"
#include "storage/smgr/smgr.h"

namespace hearth::catalog {

using types::Value;

namespace {

struct DefaultAclCache {
  bool valid = false;
  uint64_t catalog_version = 0;
  uint64_t dirty_xact = 0;
  std::vector<DefaultAclEntry> rows;
};

DefaultAclCache& Cache() {
  static DefaultAclCache cache;
  return cache;
}

void Invalidate() {
  Cache().valid = false;
  Cache().dirty_xact = XactGeneration();
}

DefaultAclEntry EntryOf(const heap::Row& r) {
  DefaultAclEntry e;
  e.oid = internal::RowOid(r, kDefaclOid);
  e.role = internal::RowOid(r, kDefaclRole);
  e.ns = internal::RowOid(r, kDefaclNamespace);
  e.objtype = r[kDefaclObjtype].str.empty() ? 'r' : r[kDefaclObjtype].str[0];
  e.acl = r[kDefaclAcl].str;
  return e;
}

std::vector<internal::CatalogTuple> ScanWhere(const std::function<bool(const heap::Row&)>& match) {
  return internal::ScanCatalogWhere(CatalogRel(kHearthDefaultAclOid), DefaultAclTupleDesc(), match, false);
}

const char* KindWords(char objtype) {
  switch (objtype) {
    case 'S': return "new sequences";
    case 'f': return "new functions";
    case 'T': return "new types";
    case 'n': return "new schemas";
    default: return "new relations";
  }
}

}  // namespace

const heap::TupleDesc& DefaultAclTupleDesc() {
  using heap::ColumnDesc;
  // Order must match DefaultAclCol.
  static const heap::TupleDesc desc({
      ColumnDesc::ForType(types::kOidOid),   // oid
      ColumnDesc::ForType(types::kOidOid),   // defaclrole
      ColumnDesc::ForType(types::kOidOid),   // defaclnamespace
      ColumnDesc::ForType(types::kTextOid),  // defaclobjtype
      ColumnDesc::ForType(types::kTextOid),  // defaclacl
  });
  return desc;
}

bool DefaultAclCatalogExists() {
  return storage::SmgrExists(CatalogRel(kHearthDefaultAclOid), storage::ForkNumber::kMain);
}

const std::vector<DefaultAclEntry>& DefaultAcls() {
  DefaultAclCache& c = Cache();
  if (c.dirty_xact != 0 && c.dirty_xact != XactGeneration()) {
    c.valid = false;
    c.dirty_xact = 0;
  }
  const uint64_t version = CatalogVersion();
  if (c.valid && c.catalog_version == version) return c.rows;
  c.rows.clear();
  if (DefaultAclCatalogExists()) {
    for (const internal::CatalogTuple& t : ScanWhere([](const heap::Row&) { return true; })) {
      c.rows.push_back(EntryOf(t.row));
    }
  }
  c.valid = true;
  c.catalog_version = version;
  return c.rows;
}

std::string DefaultAclDescription(const DefaultAclEntry& e) {
  std::string out = std::string("default privileges on ") + KindWords(e.objtype) + " belonging to role " +
                    AclRoleName(e.role);
  if (e.ns != 0) out += " in schema " + NamespaceName(e.ns);
  return out;
}

namespace internal {

void DeleteDefaultAcl(Oid oid) {
  for (const CatalogTuple& t : ScanWhere([oid](const heap::Row& r) { return RowOid(r, kDefaclOid) == oid; })) {
    MarkCatalogChanged(kHearthDefaultAclOid);
    DdlDeleteCatalogTuple(CatalogRel(kHearthDefaultAclOid), t.tid, access::GetCurrentTransactionId(),
                          access::GetCurrentCommandId(true));
  }
  access::CommandCounterIncrement();
  Invalidate();
}

void WriteDefaultAcl(const DefaultAclEntry& e) {
  if (e.oid != 0) DeleteDefaultAcl(e.oid);
  heap::Row r(kDefaclNatts);
  r[kDefaclOid] = Value::Int(types::kOidOid, e.oid != 0 ? e.oid : GetNewObjectId());
  r[kDefaclRole] = Value::Int(types::kOidOid, e.role);
  r[kDefaclNamespace] = Value::Int(types::kOidOid, e.ns);
  r[kDefaclObjtype] = Value::Text(std::string(1, e.objtype));
  r[kDefaclAcl] = Value::Text(e.acl);
  MarkCatalogChanged(kHearthDefaultAclOid);
  heap::HeapInsert(CatalogRel(kHearthDefaultAclOid), DefaultAclTupleDesc(), r, access::GetCurrentTransactionId(),
                   access::GetCurrentCommandId(true));
  PendingCounts(kHearthDefaultAclOid).CountInsert();
  access::CommandCounterIncrement();
  Invalidate();
}

}  // namespace internal

void RenameRoleInDefaultAcls(Oid oid, const std::string& old_name, const std::string& new_name) {
  auto resolve = [&](const std::string& n) { return n == old_name ? oid : AclRoleOid(n); };
  auto name_of = [&](Oid o) { return o == oid ? new_name : AclRoleName(o); };
  const std::vector<DefaultAclEntry> entries = DefaultAcls();
  for (DefaultAclEntry e : entries) {
    auto acl = ParseAcl(e.acl, resolve);
    if (!acl || std::none_of(acl->begin(), acl->end(),
                             [&](const AclItem& it) { return it.grantee == oid || it.grantor == oid; })) {
      continue;
    }
    e.acl = FormatAcl(*acl, name_of);
    internal::WriteDefaultAcl(e);
  }
}

std::vector<std::string> DefaultAclDependencies(Oid role) {
  std::vector<std::string> out;
  for (const DefaultAclEntry& e : DefaultAcls()) {
    if (e.role == role) {
      out.push_back("owner of " + DefaultAclDescription(e));
      continue;
    }
    auto acl = ParseAcl(e.acl, AclRoleOid);
    if (acl && std::any_of(acl->begin(), acl->end(), [&](const AclItem& it) { return it.grantee == role; })) {
      out.push_back("privileges for " + DefaultAclDescription(e));
    }
  }
  return out;
}

void DropDefaultAclsOf(Oid role) {
  const std::vector<DefaultAclEntry> entries = DefaultAcls();
  for (DefaultAclEntry e : entries) {
    if (e.role == role) {
      internal::DeleteDefaultAcl(e.oid);
      continue;
    }
    auto acl = ParseAcl(e.acl, AclRoleOid);
    if (!acl) continue;
    const size_t before = acl->size();
    acl->erase(std::remove_if(acl->begin(), acl->end(), [&](const AclItem& it) { return it.grantee == role; }),
               acl->end());
    if (acl->size() == before) continue;
    if (acl->empty() && e.ns != 0) {
      internal::DeleteDefaultAcl(e.oid);
    } else {
      e.acl = FormatAcl(*acl, AclRoleName);
      internal::WriteDefaultAcl(e);
    }
  }
}

}  // namespace hearth::catalog
