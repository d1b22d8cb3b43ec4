// catalog/description_views.cpp
//
// Principal entry point: internal::AddDescriptionViews — pg_description
// (2609) over hearth_description and pg_shdescription (2396) over
// hearth_shdescription, read with the statement's snapshot. A data
// directory made before the description catalogs shows only initdb's
// comment on schema public.
#include "catalog/description_catalog.h"
#include "catalog/pg_catalog_views.h"

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
              if (!DescriptionCatalogsExist()) {
                return std::vector<Row>{{OidValue(kPublicNamespace), OidValue(kPgNamespaceClassOid), Value::Int4(0),
                                         Value::Text(kPublicSchemaComment)}};
              }
              return ScanCatalog(p.wrapped(), kHearthDescriptionName);
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
