// catalog/relation_inspect.h
//
// Relations seen from SQL administration functions: the regclass type's
// name <-> OID mapping and the on-disk sizes behind pg_relation_size and
// friends. Tables come from the relcache, indexes from hearth_index (they
// share the table namespace, as in pg_class).
//
// Process safety: per-backend; REQUIRES a transaction in progress (catalog
// reads are MVCC). No relation lock is taken: a relation dropped meanwhile
// reads as missing or as size 0, never as an error.
#pragma once

#include <optional>
#include <string>

#include "catalog/catalog_defs.h"
#include "utils/adt/func_context.h"
#include "utils/adt/regclass.h"

namespace hearth::catalog {

// The table or index `name` in `schema` ("" = search path: pg_catalog, then
// public), or nullopt.
std::optional<Oid> RelationOidByName(const std::string& schema, const std::string& name);

// Schema and name of the table or index `oid`, or nullopt.
std::optional<types::RelationNameHooks::Name> RelationNameByOid(Oid oid);

// Sizes of the forks in `fork_mask` of table or index `oid` (smgr's shared
// size cache: no file access once a fork's size is cached), and with
// `with_indexes` the total of all forks of its indexes. nullopt when there is
// no such relation.
std::optional<types::RelationSizes> RelationSizesByOid(Oid oid, uint32_t fork_mask, bool with_indexes);

// Installs RelationOidByName/RelationNameByOid as the regclass I/O hooks of
// this process (backend start).
void InstallRegclassHooks();

}  // namespace hearth::catalog
