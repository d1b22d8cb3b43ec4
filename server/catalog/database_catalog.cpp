// catalog/database_catalog.cpp
//
// Principal entry points: FindDatabaseByName, FindDatabaseByOid,
// ListDatabaseRows, UpdateDatabaseRow, LockDatabaseCatalog,
// BootstrapDatabases.
#include "catalog/database_catalog.h"

#include <algorithm>
#include <sstream>

#include "access/heap/heapam.h"
#include "access/transam/transam.h"
#include "access/transam/xact.h"
#include "catalog/pending_delete.h"
#include "common/error/db_error.h"
#include "storage/lmgr/lock.h"
#include "storage/smgr/smgr.h"

namespace hearth::catalog {

using types::Value;

const heap::TupleDesc& DatabaseTupleDesc() {
  using heap::ColumnDesc;
  // Order must match DatabaseCol.
  static const heap::TupleDesc desc({
      ColumnDesc::ForType(types::kOidOid),   // oid
      ColumnDesc::ForType(types::kNameOid),  // datname
      ColumnDesc::ForType(types::kOidOid),   // datdba
      ColumnDesc::ForType(types::kInt4Oid),  // encoding
      ColumnDesc::ForType(types::kBoolOid),  // datistemplate
      ColumnDesc::ForType(types::kBoolOid),  // datallowconn
      ColumnDesc::ForType(types::kInt4Oid),  // datconnlimit
      ColumnDesc::ForType(types::kTextOid),  // datacl
      ColumnDesc::ForType(types::kTextOid),  // datconfig
  });
  return desc;
}

heap::Row MakeDatabaseRow(const DatabaseFields& f) {
  heap::Row r(kDatNatts);
  r[kDatOid] = Value::Int(types::kOidOid, f.oid);
  r[kDatName] = Value::Bytes(types::kNameOid, f.name);
  r[kDatDba] = Value::Int(types::kOidOid, f.owner);
  r[kDatEncoding] = Value::Int4(f.encoding);
  r[kDatIsTemplate] = Value::Bool(f.is_template);
  r[kDatAllowConn] = Value::Bool(f.allow_connections);
  r[kDatConnLimit] = Value::Int4(f.connection_limit);
  r[kDatAcl] = f.acl ? Value::Text(*f.acl) : Value::Null(types::kTextOid);
  if (f.settings.empty()) {
    r[kDatConfig] = Value::Null(types::kTextOid);
  } else {
    std::string config;
    for (const auto& [name, value] : f.settings) config += name + "=" + value + "\n";
    r[kDatConfig] = Value::Text(config);
  }
  return r;
}

DatabaseFields ParseDatabaseRow(const heap::Row& r) {
  DatabaseFields f;
  f.oid = internal::RowOid(r, kDatOid);
  f.name = r[kDatName].str;
  f.owner = internal::RowOid(r, kDatDba);
  f.encoding = static_cast<int32_t>(r[kDatEncoding].i);
  f.is_template = r[kDatIsTemplate].b;
  f.allow_connections = r[kDatAllowConn].b;
  f.connection_limit = static_cast<int32_t>(r[kDatConnLimit].i);
  if (!r[kDatAcl].is_null) f.acl = r[kDatAcl].str;
  if (!r[kDatConfig].is_null) {
    std::istringstream in(r[kDatConfig].str);
    std::string line;
    while (std::getline(in, line)) {
      const size_t eq = line.find('=');
      if (eq != std::string::npos) f.settings.emplace_back(line.substr(0, eq), line.substr(eq + 1));
    }
  }
  return f;
}

namespace {

std::optional<DatabaseTuple> FindDatabase(const std::function<bool(const heap::Row&)>& match) {
  auto rows = internal::ScanCatalogWhere(DatabaseCatalogRel(), DatabaseTupleDesc(), match, /*first_only=*/true);
  if (rows.empty()) return std::nullopt;
  return DatabaseTuple{rows[0].tid, ParseDatabaseRow(rows[0].row)};
}

}  // namespace

std::optional<DatabaseTuple> FindDatabaseByName(const std::string& name) {
  return FindDatabase([&](const heap::Row& r) { return r[kDatName].str == name; });
}

std::optional<DatabaseTuple> FindDatabaseByOid(Oid oid) {
  return FindDatabase([&](const heap::Row& r) { return internal::RowOid(r, kDatOid) == oid; });
}

std::vector<DatabaseFields> ListDatabaseRows() {
  std::vector<DatabaseFields> out;
  for (const auto& t : internal::ScanCatalogWhere(DatabaseCatalogRel(), DatabaseTupleDesc(),
                                                  [](const heap::Row&) { return true; }, false)) {
    out.push_back(ParseDatabaseRow(t.row));
  }
  std::sort(out.begin(), out.end(), [](const DatabaseFields& a, const DatabaseFields& b) { return a.oid < b.oid; });
  return out;
}

void UpdateDatabaseRow(const DatabaseTuple& t, const DatabaseFields& f) {
  heap::TmFailureData fd;
  heap::ItemPointer new_tid;
  if (heap::HeapUpdate(DatabaseCatalogRel(), t.tid, DatabaseTupleDesc(), MakeDatabaseRow(f),
                       access::GetCurrentTransactionId(), access::GetCurrentCommandId(true), nullptr, true, &fd,
                       &new_tid) != access::TmResult::kOk) {
    throw DbError("XX000", "tuple concurrently updated");
  }
  access::CommandCounterIncrement();
}

void LockDatabaseCatalog() {
  storage::LockAcquire(storage::LockTag::Object(kHearthDatabaseOid, 0), storage::LockMode::kExclusive);
  MarkCatalogChanged(kHearthDatabaseOid);
}

void BootstrapDatabases(const std::string& default_name, const std::string& superuser) {
  const storage::Status st = storage::SmgrCreate(DatabaseCatalogRel(), storage::ForkNumber::kMain);
  if (!st.ok()) throw std::runtime_error("could not create pg_database: " + st.message());
  DatabaseFields template1;
  template1.oid = kTemplate1DatabaseOid;
  template1.name = "template1";
  template1.is_template = true;
  // initdb's: PUBLIC may connect to the templates but not create temporary tables.
  template1.acl = "{=c/" + superuser + "," + superuser + "=CTc/" + superuser + "}";
  DatabaseFields template0 = template1;
  template0.oid = kTemplate0DatabaseOid;
  template0.name = "template0";
  template0.allow_connections = false;
  DatabaseFields def;
  def.oid = kDefaultDatabaseOid;
  def.name = default_name;
  for (DatabaseFields* f : {&template1, &template0, &def}) {
    heap::HeapInsert(DatabaseCatalogRel(), DatabaseTupleDesc(), MakeDatabaseRow(*f), access::kBootstrapTransactionId,
                     access::kFirstCommandId);
  }
}

std::string DefaultDatabaseAcl(const std::string& owner_name) {
  return "{=Tc/" + owner_name + "," + owner_name + "=CTc/" + owner_name + "}";
}

}  // namespace hearth::catalog
