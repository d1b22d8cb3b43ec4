// catalog/catalog_indexes.h
//
// INTERNAL to server/catalog: the B-tree indexes on the system catalogs, so
// every catalog lookup by oid, by (name, namespace) or by owning relation is
// an index probe whose cost does not grow with the number of relations.
//
// Each index is an ordinary nbtree index with a fixed oid = relfilenode,
// created by `hearthd init` and described by a hearth_index row (so the
// relcache entry of a catalog lists it, VACUUM cleans it, the planner may use
// it). Entries are added by CatalogInsert/CatalogUpdate for every new row
// version, inside the writing transaction; deletes leave entries behind, as
// for user tables: readers re-check visibility (and the key) of every TID.
// Entries of dead versions go when VACUUM processes the catalog.
//
// A data directory made before catalog indexes existed has none: then
// CatalogIndexesUsable() is false and lookups fall back to sequential scans.
//
// Process safety: per-backend; REQUIRES a transaction in progress (except
// in bootstrap, see CreateCatalogIndexes).
#pragma once

#include <vector>

#include "access/heap/heap_tuple.h"
#include "access/heap/htup.h"
#include "access/nbtree/nbtree.h"
#include "access/transam/xact.h"
#include "catalog/catalog_defs.h"

namespace hearth::catalog::internal {

struct CatalogIndexDef {
  Oid oid = 0;  // = relfilenode
  const char* name = "";
  Oid catalog = 0;           // the catalog it indexes
  std::vector<int> columns;  // 0-based catalog columns, key order
  nbtree::IndexDesc desc;
};

// The five catalog indexes, in oid order.
const std::vector<CatalogIndexDef>& CatalogIndexDefs();
const CatalogIndexDef& CatalogIndex(Oid index_oid);

// True when this data directory has catalog indexes (checked once per
// process and data directory).
bool CatalogIndexesUsable();

// Bootstrap: creates every catalog index file, empty. The hearth_index rows
// describing them are inserted by the caller through CatalogInsert.
void CreateCatalogIndexes();

// Inserts `row` into `catalog` (hearth_class, hearth_attribute or
// hearth_index) and its entries into that catalog's indexes.
heap::ItemPointer CatalogInsert(Oid catalog, const heap::Row& row, access::TransactionId xid, access::CommandId cid);
// Replaces the version at `tid` by `row` (throws XX000 "tuple concurrently
// updated" when it cannot) and indexes the new version.
heap::ItemPointer CatalogUpdate(Oid catalog, heap::ItemPointer tid, const heap::Row& row, access::TransactionId xid,
                                access::CommandId cid);

// The heap TIDs an index holds for `key` (a prefix of its columns), in index
// order. Candidates only: the caller checks visibility and the key.
std::vector<heap::ItemPointer> CatalogIndexProbe(Oid index_oid, std::vector<types::Value> key);

// Dead versions of one key (a table created and dropped over and over) would
// make every probe of that key slower until the next VACUUM. So a probe that
// met at least kDeadCandidatesForVacuum candidates it could not use asks
// for the catalogs to be vacuumed (heaps and their indexes; all three, since
// the same churn left dead attribute and index rows) right after the
// transaction ends. Amortised: at most once per that many dead versions.
inline constexpr size_t kDeadCandidatesForVacuum = 64;
void NoteDeadCatalogCandidates(Oid catalog, size_t unusable);
// Transaction-end callback work: vacuums the noted catalogs, each unless
// another process holds a conflicting lock on it (it is then vacuuming it
// itself). Outside any transaction. Never throws.
void VacuumNotedCatalogs() noexcept;

}  // namespace hearth::catalog::internal
