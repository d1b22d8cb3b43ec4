// server/catalog/temp_namespace.cpp
//
// Principal entry points: ClaimTempNamespace, DropTempRelationsAtExit.
#include "catalog/temp_namespace.h"

#include <spdlog/spdlog.h>

#include <vector>

#include "access/transam/xact.h"
#include "catalog/catalog_defs.h"
#include "catalog/catalog_rows.h"
#include "catalog/index_ddl.h"
#include "catalog/sequence_ddl.h"
#include "catalog/view_ddl.h"
#include "storage/lmgr/proc_array.h"

namespace hearth::catalog {

namespace {

bool g_claimed = false;

// Drops every relation in `ns`: tables with their indexes and owned
// sequences first, then sequences left on their own.
void DropAllIn(Oid ns) {
  const std::string schema = TempNamespaceName(ns);
  std::vector<parser::RangeVar> tables, sequences, views;
  for (const internal::CatalogTuple& t : internal::FindClassesInNamespace(ns)) {
    parser::RangeVar rv;
    rv.schema = schema;
    rv.name = t.row[kClassRelname].str;
    const std::string& kind = t.row[kClassRelkind].str;
    (kind == "S" ? sequences : kind == "v" ? views : tables).push_back(std::move(rv));
  }
  // Views first, with the views over them (only temporary views can be).
  if (!views.empty()) DropViews(views, /*if_exists=*/true, parser::DropBehavior::kCascade);
  if (!tables.empty()) {
    std::vector<RelationRef> refs;
    for (const parser::RangeVar& rv : tables) {
      if (RelationRef r = LookupRelation(rv.schema, rv.name)) refs.push_back(std::move(r));
    }
    DropDependentViews(refs, parser::DropBehavior::kCascade);
    DropTablesWithIndexes(tables, /*if_exists=*/true);
  }
  if (!sequences.empty()) DropSequences(sequences, /*if_exists=*/true, parser::DropBehavior::kRestrict);
}

}  // namespace

bool IsTempNamespace(Oid ns) { return ns >= kTempNamespaceBase; }

std::string TempNamespaceName(Oid ns) { return "pg_temp_" + std::to_string(ns - kTempNamespaceBase); }

std::optional<Oid> TempNamespaceByName(const std::string& name) {
  if (name == "pg_temp") return MyTempNamespaceOid();
  constexpr std::string_view kPrefix = "pg_temp_";
  if (name.size() <= kPrefix.size() || name.compare(0, kPrefix.size(), kPrefix) != 0) return std::nullopt;
  uint64_t n = 0;
  for (size_t i = kPrefix.size(); i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9' || n > 100000000) return std::nullopt;
    n = n * 10 + static_cast<uint64_t>(name[i] - '0');
  }
  if (n >= 0x0FFFFFFFu) return std::nullopt;
  return kTempNamespaceBase + static_cast<Oid>(n);
}

Oid MyTempNamespaceOid() { return kTempNamespaceBase + static_cast<Oid>(storage::MyProcNumber()); }

Oid ActiveTempNamespace() { return g_claimed ? MyTempNamespaceOid() : 0; }

Oid ClaimTempNamespace() {
  const Oid ns = MyTempNamespaceOid();
  if (!g_claimed) {
    DropAllIn(ns);  // a previous owner of this slot may have crashed
    g_claimed = true;
  }
  return ns;
}

void DropTempRelations() {
  if (g_claimed) DropAllIn(MyTempNamespaceOid());
}

void DropTempRelationsAtExit() {
  if (!g_claimed) return;
  try {
    access::StartTransaction();
    DropAllIn(MyTempNamespaceOid());
    access::CommitTransaction();
  } catch (const std::exception& e) {
    spdlog::warn("could not drop temporary relations at exit: {}", e.what());
    access::AbortTransaction();
  }
  g_claimed = false;
}

}  // namespace hearth::catalog
