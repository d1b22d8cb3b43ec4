// catalog/sequence_scan.h
//
// SELECT * FROM a sequence: one row (last_value bigint, log_cnt bigint,
// is_called boolean) read from its page, as PostgreSQL shows it. The
// HeapTableProvider opens it for relations of relkind 'S'.
// Process safety: per-backend.
#pragma once

#include <memory>

#include "catalog/relcache.h"
#include "executor/table_access.h"

namespace hearth::catalog {

std::unique_ptr<executor::TableScan> OpenSequenceScan(RelationRef seq);

}  // namespace hearth::catalog
