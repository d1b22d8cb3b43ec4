// catalog/pg_catalog_system_views.cpp
//
// Principal entry point: AddPgCatalogSystemViews — PostgreSQL's views over
// the catalogs that need no session state: pg_tables, pg_indexes,
// pg_sequences and pg_views, computed
// from hearth_class / hearth_index / hearth_attribute / hearth_sequence.
#include <map>
#include <set>

#include "catalog/catalog_defs.h"
#include "catalog/catalog_rows.h"
#include "catalog/cluster_catalog.h"
#include "catalog/object_definitions.h"
#include "catalog/pg_catalog_views.h"
#include "catalog/privileges.h"
#include "catalog/view_ddl.h"
#include "catalog/sequence_catalog.h"
#include "storage/smgr/smgr.h"
#include "utils/adt/type_catalog.h"

namespace hearth::catalog::internal {

namespace {

using executor::Row;
using types::Value;
using namespace types;

void AddPgTables(SystemViewProvider& p) {
  executor::TableInfo info = PgViewInfo(
      kPgTablesOid, "pg_tables",
      {{"schemaname", kNameOid}, {"tablename", kNameOid}, {"tableowner", kNameOid}, {"tablespace", kNameOid},
       {"hasindexes", kBoolOid}, {"hasrules", kBoolOid}, {"hastriggers", kBoolOid}, {"rowsecurity", kBoolOid}});
  p.AddView(std::move(info), [&p] {
    executor::TableProvider& tables = p.wrapped();
    std::set<Oid> indexed;
    for (const Row& i : ScanCatalog(tables, kHearthIndexName)) indexed.insert(static_cast<Oid>(i[kIndIndrelid].i));
    const std::string owner = RoleNameByOid(storage::SmgrDataDir(), kBootstrapSuperuserOid);
    std::vector<Row> out;
    for (const Row& c : ScanCatalog(tables, kHearthClassName)) {
      if (c[kClassRelkind].str != "r") continue;
      out.push_back({NameValue(NamespaceName(static_cast<Oid>(c[kClassRelnamespace].i))), NameValue(c[kClassRelname].str),
                     NameValue(owner), Value::Null(kNameOid),
                     Value::Bool(indexed.count(static_cast<Oid>(c[kClassOid].i)) != 0), Value::Bool(false),
                     Value::Bool(false), Value::Bool(false)});
    }
    return out;
  });
}

void AddPgIndexes(SystemViewProvider& p) {
  executor::TableInfo info = PgViewInfo(kPgIndexesOid, "pg_indexes",
                                        {{"schemaname", kNameOid}, {"tablename", kNameOid}, {"indexname", kNameOid},
                                         {"tablespace", kNameOid}, {"indexdef", kTextOid}});
  p.AddView(std::move(info), [&p] {
    executor::TableProvider& tables = p.wrapped();
    std::map<Oid, std::pair<Oid, std::string>> table_names;  // oid → (namespace, name)
    for (const Row& c : ScanCatalog(tables, kHearthClassName)) {
      table_names[static_cast<Oid>(c[kClassOid].i)] = {static_cast<Oid>(c[kClassRelnamespace].i), c[kClassRelname].str};
    }
    std::map<Oid, std::vector<std::string>> columns;
    for (const Row& a : ScanCatalog(tables, kHearthAttributeName)) {
      auto& names = columns[static_cast<Oid>(a[kAttAttrelid].i)];
      const auto attnum = static_cast<size_t>(a[kAttAttnum].i);
      if (names.size() < attnum) names.resize(attnum);
      names[attnum - 1] = a[kAttAttname].str;
    }
    std::vector<Row> out;
    for (const Row& i : ScanCatalog(tables, kHearthIndexName)) {
      const Oid relid = static_cast<Oid>(i[kIndIndrelid].i);
      auto t = table_names.find(relid);
      if (t == table_names.end()) continue;
      const std::string schema = NamespaceName(t->second.first);
      const IndexFields ix = ParseIndexRow(i);
      out.push_back({NameValue(schema), NameValue(t->second.second), NameValue(ix.name), Value::Null(kNameOid),
                     Value::Text(FormatIndexDefinition(ix.name, schema, t->second.second, ix.unique, ix.attnums,
                                                       ix.options, columns[relid]))});
    }
    return out;
  });
}

void AddPgViews(SystemViewProvider& p) {
  p.AddView(PgViewInfo(kPgViewsOid, "pg_views",
                       {{"schemaname", kNameOid}, {"viewname", kNameOid}, {"viewowner", kNameOid},
                        {"definition", kTextOid}}),
            [&p] {
              std::vector<Row> out;
              for (const Row& c : ScanCatalog(p.wrapped(), kHearthClassName)) {
                if (c[kClassRelkind].str != "v") continue;
                RelationRef e = LookupRelationByOid(static_cast<Oid>(c[kClassOid].i));
                if (e == nullptr) continue;
                out.push_back({NameValue(NamespaceName(e->namespace_oid)), NameValue(e->info.name),
                               NameValue(AclRoleName(e->owner)), Value::Text(PrintViewDefinition(e->info, false))});
              }
              return out;
            });
}

}  // namespace

void AddPgCatalogSystemViews(SystemViewProvider& p) {
  AddPgTables(p);
  AddPgIndexes(p);
  AddPgViews(p);
}

}  // namespace hearth::catalog::internal
