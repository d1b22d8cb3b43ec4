// catalog/catalog_defs.cpp
//
// Principal entry points: ClassTupleDesc, AttributeTupleDesc, NamespaceOid.
#include "catalog/catalog_defs.h"

#include "catalog/namespace_catalog.h"
#include "catalog/temp_namespace.h"

namespace hearth::catalog {

using heap::ColumnDesc;
using heap::TupleDesc;

const TupleDesc& ClassTupleDesc() {
  // Order must match ClassCol.
  static const TupleDesc desc({
      ColumnDesc::ForType(types::kOidOid),     // oid
      ColumnDesc::ForType(types::kNameOid),    // relname
      ColumnDesc::ForType(types::kOidOid),     // relnamespace
      ColumnDesc::ForType(types::kOidOid),     // relfilenode
      ColumnDesc::ForType(types::kTextOid),    // relkind
      ColumnDesc::ForType(types::kInt2Oid),    // relnatts
      ColumnDesc::ForType(types::kInt4Oid),    // relpages
      ColumnDesc::ForType(types::kFloat4Oid),  // reltuples
      ColumnDesc::ForType(types::kBoolOid),    // relhasindex
      ColumnDesc::ForType(types::kInt4Oid),    // relfillfactor
      ColumnDesc::ForType(types::kTextOid),    // reloptions
      ColumnDesc::ForType(types::kOidOid),     // relowner
      ColumnDesc::ForType(types::kTextOid),    // relacl
      ColumnDesc::ForType(types::kTextOid),    // relviewdef
      ColumnDesc::ForType(types::kTextOid),    // relviewdeps
      ColumnDesc::ForType(types::kTextOid),    // relinherits
      ColumnDesc::ForType(types::kBoolOid),    // relhassubclass
      ColumnDesc::ForType(types::kTextOid),    // relpartkey
      ColumnDesc::ForType(types::kTextOid),    // relpartbound
  });
  return desc;
}

const TupleDesc& AttributeTupleDesc() {
  // Order must match AttrCol.
  static const TupleDesc desc({
      ColumnDesc::ForType(types::kOidOid),   // attrelid
      ColumnDesc::ForType(types::kNameOid),  // attname
      ColumnDesc::ForType(types::kOidOid),   // atttypid
      ColumnDesc::ForType(types::kInt4Oid),  // atttypmod
      ColumnDesc::ForType(types::kInt2Oid),  // attnum
      ColumnDesc::ForType(types::kBoolOid),  // attnotnull
      ColumnDesc::ForType(types::kBoolOid),  // atthasdef
      ColumnDesc::ForType(types::kTextOid),  // attdefault
      ColumnDesc::ForType(types::kTextOid),  // attacl
  });
  return desc;
}

const TupleDesc& IndexTupleDesc() {
  // Order must match IndexCol.
  static const TupleDesc desc({
      ColumnDesc::ForType(types::kOidOid),   // indexrelid
      ColumnDesc::ForType(types::kOidOid),   // indrelid
      ColumnDesc::ForType(types::kNameOid),  // indname
      ColumnDesc::ForType(types::kOidOid),   // indnamespace
      ColumnDesc::ForType(types::kOidOid),   // indrelfilenode
      ColumnDesc::ForType(types::kBoolOid),  // indisunique
      ColumnDesc::ForType(types::kBoolOid),  // indisprimary
      ColumnDesc::ForType(types::kTextOid),  // indkey
      ColumnDesc::ForType(types::kTextOid),  // indoption
      ColumnDesc::ForType(types::kBoolOid),  // indisconstraint
  });
  return desc;
}

Oid g_my_database_oid = 0;

void SetMyDatabaseId(Oid db) { g_my_database_oid = db; }

Oid NamespaceOid(const std::string& schema) {
  const Oid ns = NamespaceOidUnchecked(schema);
  if (!schema.empty() && ns >= kFirstNormalObjectId && !IsTempNamespace(ns)) CheckSchemaUsage(ns);
  return ns;
}

Oid NamespaceOidUnchecked(const std::string& schema) {
  if (schema.empty()) {
    // The creation namespace; public when the path names no schema that
    // exists (callers that create check with CreationNamespace()).
    return CurrentSchemaOid().value_or(kPublicNamespace);
  }
  if (schema == "public") return kPublicNamespace;
  if (schema == "pg_catalog") return kPgCatalogNamespace;
  if (std::optional<Oid> temp = TempNamespaceByName(schema)) return *temp;
  if (std::optional<Oid> user = UserSchemaOid(schema)) return *user;
  return types::kInvalidOid;
}

std::string NamespaceName(Oid ns) {
  if (ns == kPublicNamespace) return "public";
  if (ns == kPgCatalogNamespace) return "pg_catalog";
  if (IsTempNamespace(ns)) return TempNamespaceName(ns);
  return UserSchemaName(ns);
}

}  // namespace hearth::catalog
