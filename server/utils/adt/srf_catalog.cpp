// server/utils/adt/srf_catalog.cpp
//
// pg_partition_ancestors(regclass): a partition's ancestors. Hearth has no
// partitioned tables, and PostgreSQL answers no rows for a relation that is
// neither a partition nor partitioned, so the set is always empty. psql's
// \d asks for it whenever a table has foreign keys.
#include <memory>

#include "utils/adt/builtins.h"
#include "utils/adt/srf_registry.h"

namespace hearth::types {
namespace {

class EmptyCall : public SrfCall {
 public:
  bool Next(Value*) override { return false; }
};

std::unique_ptr<SrfCall> StartPartitionAncestors(const Value*, int, FuncCallContext&) {
  return std::make_unique<EmptyCall>();
}

}  // namespace

namespace internal {

void AddCatalogSrfs(std::vector<SrfDef>* defs) {
  defs->push_back(SrfDef{Row("pg_partition_ancestors", FuncKind::kSetReturning, {kRegclassOid}, kRegclassOid, nullptr),
                         &StartPartitionAncestors});
}

}  // namespace internal
}  // namespace hearth::types
