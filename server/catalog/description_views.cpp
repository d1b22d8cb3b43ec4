// catalog/description_views.cpp
//
// Principal entry point: internal::AddDescriptionViews — pg_description
// (2609) over hearth_description and pg_shdescription (2396) over
// hearth_shdescription, read with the statement's snapshot. A data
// directory made before the description catalogs shows only initdb's
// comment on schema public.
#include "catalog/description_catalog.h"
#include "catalog/pg_catalog_views.h"
#include "catalog/proc_catalog.h"

namespace hearth::catalog::internal {

using executor::Row;
using types::Value;

void AddDescriptionViews(SystemViewProvider& p) {
  p.AddView(PgViewInfo(kPgDescriptionOid, "pg_description",
                       {{"objoid", types::kOidOid},
                        {"classoid", types::kOidOid},
                        {"objsubid", types::kInt4Oid},
                        {"description", types::kTextOid}}),
            [&p] {
              std::vector<Row> out;
              if (!DescriptionCatalogsExist()) {
                out.push_back({OidValue(kPublicNamespace), OidValue(kPgNamespaceClassOid), Value::Int4(0),
                               Value::Text(kPublicSchemaComment)});
              } else {
                out = ScanCatalog(p.wrapped(), kHearthDescriptionName);
              }
              // The built-in plpgsql extension's comment (pg_extension's only row).
              out.push_back({OidValue(kPlpgsqlExtensionOid), OidValue(kPgExtensionOid), Value::Int4(0),
                             Value::Text(kPlpgsqlExtensionComment)});
              return out;
            });
  p.AddView(PgViewInfo(kPgShdescriptionOid, "pg_shdescription",
                       {{"objoid", types::kOidOid}, {"classoid", types::kOidOid}, {"description", types::kTextOid}}),
            [&p] {
              std::vector<Row> out;
              for (Row& r : ScanCatalog(p.wrapped(), kHearthShdescriptionName)) {
                out.push_back({r[kDescObjoid], r[kDescClassoid], r[kDescDescription]});
              }
              return out;
            });
}

}  // namespace hearth::catalog::internal
