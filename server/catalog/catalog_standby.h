// catalog/catalog_standby.h
//
// What a standby's startup process asks of the catalog's shared state
// (implemented in catalog_shared.cpp): dropping every backend's cached
// catalog data after a replayed catalog change, and moving the OID counter
// past the old primary's at promotion.
#pragma once

#include "catalog/catalog_defs.h"

namespace hearth::catalog {

// Every backend drops its whole relation cache before its next statement
// (a standby replayed a commit that changed the catalog).
void SendFullInvalidation();
// A promoted standby: OIDs up to `limit` may be in use on the old primary
// (its logged OID limits): hand out none below it from now on.
void AdvanceOidCounter(Oid limit);

}  // namespace hearth::catalog
