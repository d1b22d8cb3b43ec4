// catalog/relation_inspect.cpp
//
// Principal entry points: RelationOidByName, RelationNameByOid,
// RelationSizesByOid, InstallRegclassHooks.
#include "catalog/relation_inspect.h"

#include "access/transam/xact.h"
#include "catalog/catalog_rows.h"
#include "catalog/proc_catalog.h"
#include "catalog/relcache.h"
#include "catalog/system_views.h"
#include "catalog/namespace_catalog.h"
#include "catalog/temp_namespace.h"
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "storage/smgr/smgr.h"

namespace hearth::catalog {

namespace {

using internal::FindIndexByName;
using internal::FindIndexByOid;

// Bytes of each fork in `mask` (a missing fork is 0). Hearth has no init
// forks (no unlogged relations).
void AddForkSizes(storage::RelFileLocator rel, uint32_t mask, types::RelationSizes* s) {
  for (int fork = 0; fork < storage::kNumForks; fork++) {
    if ((mask & (1u << fork)) == 0) continue;
    storage::BlockNumber blocks = storage::SmgrNblocks(rel, static_cast<storage::ForkNumber>(fork));
    s->fork_bytes[fork] = static_cast<int64_t>(blocks) * static_cast<int64_t>(storage::kBlockSize);
  }
}

int64_t AllForksBytes(storage::RelFileLocator rel) {
  types::RelationSizes s;
  AddForkSizes(rel, types::kAllForksMask, &s);
  return s.fork_bytes[0] + s.fork_bytes[1] + s.fork_bytes[2];
}

std::optional<Oid> LookupForRegclass(const std::string& schema, const std::string& name) {
  if (!access::IsTransactionInProgress()) {
    throw DbError(sqlstate::kNoActiveSqlTransaction, "cannot look up relation \"" + name + "\" outside a transaction");
  }
  if (!schema.empty() && NamespaceOid(schema) == 0) {
    throw DbError(sqlstate::kInvalidSchemaName, "schema \"" + schema + "\" does not exist");
  }
  return RelationOidByName(schema, name);
}

std::optional<types::RelationNameHooks::Name> NameForRegclass(Oid oid) {
  if (!access::IsTransactionInProgress()) return std::nullopt;
  try {
    return RelationNameByOid(oid);
  } catch (const std::exception&) {
    return std::nullopt;  // output must not fail: print the number
  }
}

}  // namespace

std::optional<Oid> RelationOidByName(const std::string& schema, const std::string& name) {
  std::vector<Oid> path;
  if (schema.empty()) {
    path = SearchPathNamespaces();
  } else if (Oid ns = NamespaceOid(schema); ns != 0) {
    path.push_back(ns);
  }
  for (Oid ns : path) {
    if (RelationRef r = LookupRelationIn(ns, name)) return r->oid;
    if (auto ix = internal::FindIndexByName(ns, name)) return internal::RowOid(ix->row, kIndIndexrelid);
  }
  // PostgreSQL's catalogs and views ('pg_catalog.pg_class'::regclass).
  if (schema.empty() || schema == "pg_catalog") return SystemViewOid(name);
  return std::nullopt;
}

namespace {

// Whether an unqualified `name` finds the relation in `ns`: the first
// namespace of the search path holding that name must be `ns` (another
// session's temporary namespace is never searched).
bool OnSearchPath(Oid ns, const std::string& name) {
  for (Oid p : SearchPathNamespaces()) {
    if (p == ns) return true;
    if (internal::FindClassByName(p, name) || FindIndexByName(p, name)) return false;
  }
  return false;
}

}  // namespace

std::optional<types::RelationNameHooks::Name> RelationNameByOid(Oid oid) {
  // A Hearth catalog standing behind a PostgreSQL one shares its oid
  // (hearth_class is 1259): such an oid prints as PostgreSQL's name.
  if (oid < kFirstNormalObjectId) {
    if (std::optional<std::string> view = SystemViewName(oid)) {
      return types::RelationNameHooks::Name{"pg_catalog", *view, true};
    }
  }
  if (RelationRef r = LookupRelationByOid(oid)) {
    return types::RelationNameHooks::Name{NamespaceName(r->namespace_oid), r->info.name,
                                          OnSearchPath(r->namespace_oid, r->info.name)};
  }
  if (auto ix = FindIndexByOid(oid)) {
    internal::IndexFields f = internal::ParseIndexRow(ix->row);
    return types::RelationNameHooks::Name{NamespaceName(f.ns), f.name, OnSearchPath(f.ns, f.name)};
  }
  if (std::optional<std::string> view = SystemViewName(oid)) {
    return types::RelationNameHooks::Name{"pg_catalog", *view, true};
  }
  return std::nullopt;
}

std::optional<types::RelationSizes> RelationSizesByOid(Oid oid, uint32_t fork_mask, bool with_indexes) {
  types::RelationSizes s;
  if (RelationRef r = LookupRelationByOid(oid)) {
    s.filenode = r->rel.number.value;
    if (r->relkind == 'v') return s;  // a view has no storage: 0 bytes
    AddForkSizes(r->rel, fork_mask, &s);
    if (r->has_toast && fork_mask == types::kAllForksMask) {
      for (storage::RelFileLocator t : {heap::ToastRelOf(r->rel), heap::ToastIndexOf(r->rel)}) {
        if (storage::SmgrExists(t, storage::ForkNumber::kMain)) s.toast_bytes += AllForksBytes(t);
      }
    }
    if (with_indexes) {
      for (const IndexEntry& ix : r->indexes) s.indexes_bytes += AllForksBytes(ix.desc.rel);
    }
    return s;
  }
  if (auto ix = FindIndexByOid(oid)) {
    const storage::RelFileLocator rel = DatabaseRel(internal::RowOid(ix->row, kIndRelfilenode));
    s.filenode = rel.number.value;
    AddForkSizes(rel, fork_mask, &s);
    return s;
  }
  return std::nullopt;
}

void InstallRegclassHooks() {
  types::RelationNameHooks hooks;
  hooks.lookup = LookupForRegclass;
  hooks.name_of = NameForRegclass;
  hooks.namespace_oid = [](const std::string& name) -> std::optional<Oid> {
    const Oid ns = NamespaceOid(name);
    return name.empty() || ns == 0 ? std::nullopt : std::optional<Oid>(ns);
  };
  hooks.namespace_name = [](Oid oid) -> std::optional<std::string> {
    std::string name = NamespaceName(oid);
    return name.empty() ? std::nullopt : std::optional<std::string>(name);
  };
  hooks.function_oids = [](const std::string& name) {
    std::vector<Oid> out;
    if (!access::IsTransactionInProgress()) return out;
    for (const ProcInfo& p : FindFunctionsByName(name)) out.push_back(p.oid);
    return out;
  };
  hooks.function_name = [](Oid oid) -> std::optional<std::string> {
    if (!access::IsTransactionInProgress()) return std::nullopt;
    try {
      std::optional<ProcInfo> p = FindFunctionByOid(oid);
      return p ? std::optional<std::string>(p->name) : std::nullopt;
    } catch (const DbError&) {
      return std::nullopt;
    }
  };
  types::SetRelationNameHooks(hooks);
}

}  // namespace hearth::catalog
