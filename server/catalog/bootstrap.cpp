// catalog/bootstrap.cpp
//
// Principal entry point: BootstrapCatalog.
#include "catalog/bootstrap.h"

#include <filesystem>
#include <stdexcept>
#include <vector>

#include "access/heap/heapam.h"
#include "access/heap/hio.h"
#include "access/transam/transam.h"
#include "access/transam/xact.h"
#include "catalog/catalog_defs.h"
#include "catalog/catalog_indexes.h"
#include "catalog/catalog_rows.h"
#include "catalog/catalog_shared.h"
#include "catalog/namespace_catalog.h"
#include "catalog/predefined_roles.h"
#include "catalog/proc_catalog.h"
#include "catalog/role_catalog.h"
#include "catalog/constraint_catalog.h"
#include "catalog/default_acl.h"
#include "catalog/description_catalog.h"
#include "catalog/database_catalog.h"
#include "catalog/sequence_catalog.h"
#include "catalog/trigger_catalog.h"
#include "catalog/type_catalog_rows.h"
#include "storage/buffer/bufmgr.h"
#include "storage/ipc/shmem_layout.h"
#include "storage/lmgr/proc_array.h"
#include "storage/smgr/smgr.h"

namespace hearth::catalog {

namespace {

struct ColumnSpec {
  const char* name;
  Oid type;
  bool nullable = false;
};

const std::vector<ColumnSpec> kClassColumns = {
    {"oid", types::kOidOid},          {"relname", types::kNameOid},     {"relnamespace", types::kOidOid},
    {"relfilenode", types::kOidOid},  {"relkind", types::kTextOid},     {"relnatts", types::kInt2Oid},
    {"relpages", types::kInt4Oid},    {"reltuples", types::kFloat4Oid}, {"relhasindex", types::kBoolOid},
    {"relfillfactor", types::kInt4Oid}, {"reloptions", types::kTextOid},
    {"relowner", types::kOidOid},     {"relacl", types::kTextOid, true},
    {"relviewdef", types::kTextOid, true}, {"relviewdeps", types::kTextOid, true},
    {"relinherits", types::kTextOid, true}, {"relhassubclass", types::kBoolOid, true},
    {"relpartkey", types::kTextOid, true}, {"relpartbound", types::kTextOid, true},
};
const std::vector<ColumnSpec> kAttributeColumns = {
    {"attrelid", types::kOidOid},  {"attname", types::kNameOid},    {"atttypid", types::kOidOid},
    {"atttypmod", types::kInt4Oid}, {"attnum", types::kInt2Oid},     {"attnotnull", types::kBoolOid},
    {"atthasdef", types::kBoolOid}, {"attdefault", types::kTextOid}, {"attacl", types::kTextOid, true},
};

const std::vector<ColumnSpec> kIndexColumns = {
    {"indexrelid", types::kOidOid},    {"indrelid", types::kOidOid},   {"indname", types::kNameOid},
    {"indnamespace", types::kOidOid},  {"indrelfilenode", types::kOidOid}, {"indisunique", types::kBoolOid},
    {"indisprimary", types::kBoolOid}, {"indkey", types::kTextOid},    {"indoption", types::kTextOid},
    {"indisconstraint", types::kBoolOid},
};

const std::vector<ColumnSpec> kSequenceColumns = {
    {"seqrelid", types::kOidOid},     {"seqtypid", types::kOidOid},    {"seqstart", types::kInt8Oid},
    {"seqincrement", types::kInt8Oid}, {"seqmax", types::kInt8Oid},     {"seqmin", types::kInt8Oid},
    {"seqcache", types::kInt8Oid},    {"seqcycle", types::kBoolOid},   {"seqownerrel", types::kOidOid},
    {"seqownercol", types::kInt2Oid}, {"seqidentity", types::kTextOid},
};

const std::vector<ColumnSpec> kConstraintColumns = {
    {"oid", types::kOidOid},          {"conname", types::kNameOid},     {"connamespace", types::kOidOid},
    {"contype", types::kTextOid},     {"conrelid", types::kOidOid},     {"confrelid", types::kOidOid},
    {"conindid", types::kOidOid},     {"conkey", types::kTextOid},      {"confkey", types::kTextOid},
    {"confupdtype", types::kTextOid}, {"confdeltype", types::kTextOid}, {"convalidated", types::kBoolOid},
    {"conbin", types::kTextOid},
};

// hearth_trigger (trigger_catalog.h).
const std::vector<ColumnSpec> kTriggerColumns = {
    {"oid", types::kOidOid},      {"tgrelid", types::kOidOid},  {"tgname", types::kNameOid},
    {"tgfoid", types::kOidOid},   {"tgtype", types::kInt4Oid},  {"tgenabled", types::kTextOid},
    {"tgattr", types::kTextOid},  {"tgargs", types::kTextOid},  {"tgqual", types::kTextOid, true},
};

// hearth_type and hearth_enum (type_catalog_rows.h).
const std::vector<ColumnSpec> kTypeColumns = {
    {"oid", types::kOidOid},         {"typname", types::kNameOid},     {"typnamespace", types::kOidOid},
    {"typowner", types::kOidOid},    {"typtype", types::kTextOid},     {"typarray", types::kOidOid},
    {"typbasetype", types::kOidOid}, {"typtypmod", types::kInt4Oid},   {"typnotnull", types::kBoolOid},
    {"typdefault", types::kTextOid, true}, {"typconstraints", types::kTextOid, true},
};
const std::vector<ColumnSpec> kEnumColumns = {
    {"oid", types::kOidOid},
    {"enumtypid", types::kOidOid},
    {"enumsortorder", types::kFloat8Oid},
    {"enumlabel", types::kNameOid},
};

// hearth_proc (proc_catalog.h).
const std::vector<ColumnSpec> kProcColumns = {
    {"oid", types::kOidOid},          {"proname", types::kNameOid},       {"pronamespace", types::kOidOid},
    {"proowner", types::kOidOid},     {"prolang", types::kOidOid},        {"prokind", types::kTextOid},
    {"prosecdef", types::kBoolOid},   {"proisstrict", types::kBoolOid},   {"proretset", types::kBoolOid},
    {"provolatile", types::kTextOid}, {"prorettype", types::kOidOid},     {"proargtypes", types::kTextOid},
    {"proallargtypes", types::kTextOid}, {"proargmodes", types::kTextOid}, {"proargnames", types::kTextOid},
    {"proargdefaults", types::kTextOid}, {"prosrc", types::kTextOid},      {"prosqlbody", types::kTextOid, true},
    {"proacl", types::kTextOid, true},
};

// hearth_description and hearth_shdescription (description_catalog.h).
const std::vector<ColumnSpec> kDescriptionColumns = {
    {"objoid", types::kOidOid},
    {"classoid", types::kOidOid},
    {"objsubid", types::kInt4Oid},
    {"description", types::kTextOid},
};

// hearth_default_acl (default_acl.h).
const std::vector<ColumnSpec> kDefaultAclColumns = {
    {"oid", types::kOidOid},          {"defaclrole", types::kOidOid}, {"defaclnamespace", types::kOidOid},
    {"defaclobjtype", types::kTextOid}, {"defaclacl", types::kTextOid},
};

const std::vector<ColumnSpec> kAuthidColumns = {
    {"oid", types::kOidOid},           {"rolname", types::kNameOid},        {"rolsuper", types::kBoolOid},
    {"rolinherit", types::kBoolOid},   {"rolcreaterole", types::kBoolOid},  {"rolcreatedb", types::kBoolOid},
    {"rolcanlogin", types::kBoolOid},  {"rolreplication", types::kBoolOid}, {"rolbypassrls", types::kBoolOid},
    {"rolconnlimit", types::kInt4Oid}, {"rolpassword", types::kTextOid, true},
    {"rolvaliduntil", types::kTimestampTzOid, true},
};

const std::vector<ColumnSpec> kNamespaceColumns = {
    {"oid", types::kOidOid},
    {"nspname", types::kNameOid},
    {"nspowner", types::kOidOid},
    {"nspacl", types::kTextOid, true},
};

const std::vector<ColumnSpec> kDatabaseColumns = {
    {"oid", types::kOidOid},           {"datname", types::kNameOid},       {"datdba", types::kOidOid},
    {"encoding", types::kInt4Oid},     {"datistemplate", types::kBoolOid}, {"datallowconn", types::kBoolOid},
    {"datconnlimit", types::kInt4Oid}, {"datacl", types::kTextOid, true},  {"datconfig", types::kTextOid, true},
};

const std::vector<ColumnSpec> kAuthMembersColumns = {
    {"roleid", types::kOidOid},
    {"member", types::kOidOid},
    {"grantor", types::kOidOid},
    {"admin_option", types::kBoolOid},
};

void InsertCatalogRelation(Oid oid, const char* name, const std::vector<ColumnSpec>& cols) {
  const access::TransactionId xid = access::kBootstrapTransactionId;
  internal::ClassFields cf;
  cf.oid = oid;
  cf.relname = name;
  cf.relnamespace = kPgCatalogNamespace;
  cf.relfilenode = oid;
  cf.relnatts = static_cast<int>(cols.size());
  internal::CatalogInsert(kHearthClassOid, internal::MakeClassRow(cf), xid, access::kFirstCommandId);
  int attnum = 0;
  for (const ColumnSpec& c : cols) {
    internal::AttributeFields a;
    a.attrelid = oid;
    a.attname = c.name;
    a.atttypid = c.type;
    a.attnum = ++attnum;
    a.attnotnull = !c.nullable;
    internal::CatalogInsert(kHearthAttributeOid, internal::MakeAttributeRow(a), xid, access::kFirstCommandId);
  }
}

// One hearth_index row per catalog index (not unique: uniqueness of catalog
// keys is kept by the DDL's object locks).
void DescribeCatalogIndexes() {
  for (const internal::CatalogIndexDef& d : internal::CatalogIndexDefs()) {
    internal::IndexFields f;
    f.indexrelid = d.oid;
    f.indrelid = d.catalog;
    f.name = d.name;
    f.ns = kPgCatalogNamespace;
    f.relfilenode = d.oid;
    for (int c : d.columns) f.attnums.push_back(c + 1);
    f.options.assign(d.columns.size(), 0);
    internal::CatalogInsert(kHearthIndexOid, internal::MakeIndexRow(f), access::kBootstrapTransactionId,
                            access::kFirstCommandId);
  }
}

void Check(const storage::Status& st, const char* what) {
  if (!st.ok()) throw std::runtime_error(std::string(what) + ": " + st.message());
}

}  // namespace

void BootstrapCatalog(const std::string& datadir, const std::string& superuser, const std::string& dbname) {
  storage::ShmemParams p;
  p.max_connections = 1;
  p.max_aux_processes = 1;
  p.nbuffers = 64;
  p.wal_buffers = 8;
  p.relation_size_cache = 64;
  auto seg = storage::CreateSharedMemory(p);
  storage::SmgrInit(datadir);
  access::TransamStartup(datadir);
  storage::ClaimProcSlot(0, storage::BackendType::kStartup);
  SetMyDatabaseId(kTemplate1DatabaseOid);
  try {
    std::error_code ec;
    std::filesystem::create_directories(datadir + "/" + storage::DatabaseDirectory(kTemplate1DatabaseOid), ec);
    if (ec) throw std::runtime_error("could not create template1's directory: " + ec.message());
    for (Oid oid : {kHearthClassOid, kHearthAttributeOid, kHearthIndexOid, kHearthSequenceOid, kHearthConstraintOid,
                    kPgAuthidOid, kPgAuthMembersOid, kHearthNamespaceOid, kHearthProcOid, kHearthTriggerOid,
                    kHearthDescriptionOid, kHearthShdescriptionOid, kHearthDefaultAclOid, kHearthTypeOid,
                    kHearthEnumOid}) {
      const storage::RelFileLocator rel = CatalogRel(oid);
      if (storage::SmgrExists(rel, storage::ForkNumber::kMain)) {
        throw std::runtime_error("system catalogs already exist in \"" + datadir + "\"");
      }
      Check(storage::SmgrCreate(rel, storage::ForkNumber::kMain), "could not create system catalog");
    }
    internal::CreateCatalogIndexes();
    InsertCatalogRelation(kHearthClassOid, kHearthClassName, kClassColumns);
    InsertCatalogRelation(kHearthAttributeOid, kHearthAttributeName, kAttributeColumns);
    InsertCatalogRelation(kHearthIndexOid, kHearthIndexName, kIndexColumns);
    InsertCatalogRelation(kHearthSequenceOid, kHearthSequenceName, kSequenceColumns);
    InsertCatalogRelation(kHearthConstraintOid, kHearthConstraintName, kConstraintColumns);
    InsertCatalogRelation(kPgAuthidOid, kPgAuthidName, kAuthidColumns);
    InsertCatalogRelation(kPgAuthMembersOid, kPgAuthMembersName, kAuthMembersColumns);
    InsertCatalogRelation(kHearthNamespaceOid, kHearthNamespaceName, kNamespaceColumns);
    InsertCatalogRelation(kHearthProcOid, kHearthProcName, kProcColumns);
    InsertCatalogRelation(kHearthTriggerOid, kHearthTriggerName, kTriggerColumns);
    InsertCatalogRelation(kHearthDescriptionOid, kHearthDescriptionName, kDescriptionColumns);
    InsertCatalogRelation(kHearthShdescriptionOid, kHearthShdescriptionName, kDescriptionColumns);
    InsertCatalogRelation(kHearthDatabaseOid, kHearthDatabaseName, kDatabaseColumns);
    InsertCatalogRelation(kHearthDefaultAclOid, kHearthDefaultAclName, kDefaultAclColumns);
    InsertCatalogRelation(kHearthTypeOid, kHearthTypeName, kTypeColumns);
    InsertCatalogRelation(kHearthEnumOid, kHearthEnumName, kEnumColumns);
    BootstrapDatabases(dbname, superuser);
    heap::HeapInsert(AuthidRel(), AuthidTupleDesc(), MakeRoleRow(BootstrapSuperuser(superuser)),
                     access::kBootstrapTransactionId, access::kFirstCommandId);
    for (const PredefinedRole& r : kPredefinedRoles) {
      RoleFields f;  // defaults: no login, inherit, not superuser
      f.oid = r.oid;
      f.name = r.name;
      heap::HeapInsert(AuthidRel(), AuthidTupleDesc(), MakeRoleRow(f), access::kBootstrapTransactionId,
                       access::kFirstCommandId);
    }
    DescribeCatalogIndexes();
    heap::HeapInsert(CatalogRel(kHearthDescriptionOid), DescriptionTupleDesc(),
                     {types::Value::Int(types::kOidOid, kPublicNamespace),
                      types::Value::Int(types::kOidOid, kPgNamespaceClassOid), types::Value::Int4(0),
                      types::Value::Text(kPublicSchemaComment)},
                     access::kBootstrapTransactionId, access::kFirstCommandId);
    WriteOidControlFile(datadir, kFirstNormalObjectId);
    heap::ForgetAllTargetBlocks();
    Check(storage::FlushAllBuffers(), "could not write system catalogs");
    Check(storage::SmgrImmedSync(ClassRel(), storage::ForkNumber::kMain), "could not sync hearth_class");
    Check(storage::SmgrImmedSync(AttributeRel(), storage::ForkNumber::kMain), "could not sync hearth_attribute");
    Check(storage::SmgrImmedSync(IndexRel(), storage::ForkNumber::kMain), "could not sync hearth_index");
    Check(storage::SmgrImmedSync(SequenceCatalogRel(), storage::ForkNumber::kMain), "could not sync hearth_sequence");
    Check(storage::SmgrImmedSync(ConstraintCatalogRel(), storage::ForkNumber::kMain),
          "could not sync hearth_constraint");
    Check(storage::SmgrImmedSync(AuthidRel(), storage::ForkNumber::kMain), "could not sync pg_authid");
    Check(storage::SmgrImmedSync(AuthMembersRel(), storage::ForkNumber::kMain), "could not sync pg_auth_members");
    Check(storage::SmgrImmedSync(NamespaceCatalogRel(), storage::ForkNumber::kMain), "could not sync hearth_namespace");
    Check(storage::SmgrImmedSync(ProcCatalogRel(), storage::ForkNumber::kMain), "could not sync hearth_proc");
    Check(storage::SmgrImmedSync(TriggerCatalogRel(), storage::ForkNumber::kMain), "could not sync hearth_trigger");
    for (Oid oid : {kHearthDescriptionOid, kHearthShdescriptionOid, kHearthDefaultAclOid}) {
      Check(storage::SmgrImmedSync(CatalogRel(oid), storage::ForkNumber::kMain), "could not sync a system catalog");
    }
    for (Oid oid : {kHearthTypeOid, kHearthEnumOid}) {
      Check(storage::SmgrImmedSync(CatalogRel(oid), storage::ForkNumber::kMain), "could not sync a type catalog");
    }
    Check(storage::SmgrImmedSync(DatabaseCatalogRel(), storage::ForkNumber::kMain), "could not sync hearth_database");
    for (const internal::CatalogIndexDef& d : internal::CatalogIndexDefs()) {
      Check(storage::SmgrImmedSync(d.desc.rel, storage::ForkNumber::kMain), "could not sync a catalog index");
    }
    // template0 and the default database start as copies of template1.
    Check(storage::SmgrCopyDatabaseDirectory(kTemplate1DatabaseOid, kTemplate0DatabaseOid), "could not create template0");
    Check(storage::SmgrCopyDatabaseDirectory(kTemplate1DatabaseOid, kDefaultDatabaseOid),
          "could not create the default database");
    SetMyDatabaseId(kDefaultDatabaseOid);
  } catch (...) {
    storage::ReleaseProcSlot();
    storage::SmgrCloseAll();
    throw;
  }
  storage::ReleaseProcSlot();
  access::TransamShutdown();
  storage::SmgrCloseAll();
}

}  // namespace hearth::catalog
