// server/utils/adt/srf_catalog.cpp
//
// pg_partition_ancestors(regclass): a partition's ancestors. No rows yet
// (PostgreSQL's answer for a relation that is neither a partition nor
// partitioned; partitioned tables have no foreign keys here, which is what
// psql's \d looks for through it). Its column is named `relid` in FROM
// (planner/select_function.cpp), as PostgreSQL's OUT parameter.
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
