// catalog/object_definitions.cpp
//
// Principal entry points: IndexDefinition, ConstraintDefinition,
// InstallCatalogCallbacks.
#include "catalog/object_definitions.h"

#include "access/heap/heap_toast.h"
#include "catalog/catalog_rows.h"
#include "catalog/catalog_shared.h"
#include "catalog/cluster_catalog.h"
#include "catalog/constraint_catalog.h"
#include "catalog/trigger_catalog.h"
#include "catalog/partition_bound.h"
#include "catalog/relcache.h"
#include "catalog/description_catalog.h"
#include "catalog/privileges.h"
#include "catalog/proc_privileges.h"
#include "catalog/relation_inspect.h"
#include "catalog/role_ddl.h"
#include "catalog/temp_namespace.h"
#include "utils/adt/regclass.h"
#include "catalog/type_catalog_rows.h"

namespace hearth::catalog {

namespace {

std::optional<internal::IndexFields> FindIndexByOid(Oid oid) {
  std::optional<internal::CatalogTuple> row = internal::FindIndexByOid(oid);
  if (!row) return std::nullopt;
  return internal::ParseIndexRow(row->row);
}

std::vector<std::string> ColumnNames(Oid relid) {
  std::vector<std::string> names;
  for (const internal::CatalogTuple& a : internal::FindAttributes(relid)) names.push_back(a.row[kAttAttname].str);
  return names;
}

std::string ColumnName(const std::vector<std::string>& names, int attnum) {
  if (attnum < 1 || attnum > static_cast<int>(names.size())) return "?";
  return types::QuoteIdentifier(names[static_cast<size_t>(attnum - 1)]);
}

// The comment obj_description & co. return: `catalog` names the PostgreSQL
// catalog whose oid is the classoid ("" = any).
std::optional<std::string> DescriptionOf(Oid objoid, const std::string& catalog, int32_t objsubid) {
  if (catalog.empty()) return FindDescriptionAnyClass(objoid);
  std::optional<Oid> classoid = RelationOidByName("pg_catalog", catalog);
  if (!classoid) return std::nullopt;
  return FindDescription(objoid, *classoid, objsubid);
}

}  // namespace

namespace internal {

// PostgreSQL prints DESC without NULLS FIRST (its default) and the
// non-default null order otherwise.
std::string FormatIndexColumn(const std::string& column_name, int option) {
  const bool desc = (option & 1) != 0;
  const bool nulls_first = (option & 2) != 0;
  std::string out = column_name;
  if (desc) out += nulls_first ? " DESC" : " DESC NULLS LAST";
  else if (nulls_first) out += " NULLS FIRST";
  return out;
}

std::string FormatIndexDefinition(const std::string& index_name, const std::string& schema, const std::string& table,
                                  bool unique, const std::vector<int>& attnums, const std::vector<int>& options,
                                  const std::vector<std::string>& column_names) {
  std::string out = unique ? "CREATE UNIQUE INDEX " : "CREATE INDEX ";
  out += types::QuoteIdentifier(index_name) + " ON " + types::QuoteIdentifier(schema) + "." +
         types::QuoteIdentifier(table) + " USING btree (";
  for (size_t i = 0; i < attnums.size(); ++i) {
    if (i > 0) out += ", ";
    out += FormatIndexColumn(ColumnName(column_names, attnums[i]), i < options.size() ? options[i] : 0);
  }
  return out + ")";
}

}  // namespace internal

std::optional<std::string> IndexDefinition(Oid index_oid, int column) {
  std::optional<internal::IndexFields> ix = FindIndexByOid(index_oid);
  if (!ix) return std::nullopt;
  std::optional<internal::CatalogTuple> table = internal::FindClassByOid(ix->indrelid);
  if (!table) return std::nullopt;
  const std::vector<std::string> names = ColumnNames(ix->indrelid);
  if (column > 0) {
    if (column > static_cast<int>(ix->attnums.size())) return std::nullopt;
    // PostgreSQL's column form is the key alone, without DESC / NULLS.
    return ColumnName(names, ix->attnums[static_cast<size_t>(column - 1)]);
  }
  return internal::FormatIndexDefinition(ix->name, NamespaceName(internal::RowOid(table->row, kClassRelnamespace)),
                                         table->row[kClassRelname].str, ix->unique, ix->attnums, ix->options, names);
}

std::optional<std::string> ConstraintDefinition(Oid oid, bool pretty) {
  std::optional<internal::IndexFields> ix = FindIndexByOid(oid);
  if (!ix) {
    std::optional<internal::CatalogTuple> con = FindConstraintByOid(oid);
    if (!con) return DomainConstraintDefinition(oid, pretty);
    return FormatConstraintDefinition(ParseConstraintRow(con->row), pretty);
  }
  if (!ix->primary && !ix->constraint) return std::nullopt;
  const std::vector<std::string> names = ColumnNames(ix->indrelid);
  std::string out = ix->primary ? "PRIMARY KEY (" : "UNIQUE (";
  for (size_t i = 0; i < ix->attnums.size(); ++i) out += (i > 0 ? ", " : "") + ColumnName(names, ix->attnums[i]);
  return out + ")";
}

void InstallCatalogCallbacks(types::SessionCallbacks& callbacks, const std::string& datadir) {
  InstallUserTypeLoader();
  callbacks.catalog.role_name = [datadir](uint32_t oid) { return RoleNameByOid(datadir, oid); };
  callbacks.catalog.index_def = [](uint32_t oid, int column) { return IndexDefinition(oid, column); };
  callbacks.catalog.constraint_def = [](uint32_t oid, bool pretty) { return ConstraintDefinition(oid, pretty); };
  callbacks.catalog.function_def = [](uint32_t oid, int what) {
    if (what == kTriggerDefinition || what == kTriggerDefinitionPretty) {
      return TriggerDefinition(oid, what == kTriggerDefinitionPretty);
    }
    if (what == kFunctionExecutePrivilege) {  // has_function_privilege
      std::optional<ProcInfo> p = FindFunctionByOid(oid);
      if (!p) return std::optional<std::string>();
      return std::optional<std::string>(MayExecuteFunction(*p) ? "t" : "f");
    }
    return FunctionDefinition(oid, what);
  };
  callbacks.catalog.partkey_def = [](uint32_t oid) -> std::optional<std::string> {
    RelationRef e = LookupRelationByOid(oid);
    if (e == nullptr || e->partition_key == nullptr) return std::nullopt;
    return PartitionKeyDefinition(*e->partition_key);
  };
  // TOAST value ids (chunk_id) come from the OID counter, as PostgreSQL's.
  heap::SetToastValueIdAllocator([]() -> uint32_t { return GetNewObjectId(); });
  callbacks.catalog.description = [](uint32_t objoid, const std::string& catalog, int32_t objsubid) {
    return DescriptionOf(objoid, catalog, objsubid);
  };
  callbacks.catalog.relation_privilege = [](uint32_t relid, int32_t attnum, const std::string& privileges) {
    return HasRelationPrivilegeByOid(GetCurrentUserId(), relid, attnum, privileges);
  };
  callbacks.catalog.has_role = [](uint32_t role, const std::string& privilege) {
    const Oid me = GetCurrentUserId();
    if (CurrentUserIsSuperuser()) return true;
    std::string p;
    for (char ch : privilege) p += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return p.find("member") != std::string::npos ? IsMemberOfRole(me, role) : HasPrivsOfRole(me, role);
  };
  callbacks.catalog.is_other_temp_schema = [](uint32_t ns) {
    return IsTempNamespace(ns) && ns != ActiveTempNamespace();
  };
}

}  // namespace hearth::catalog
