// catalog/pending_delete.h
//
// Transaction-end work of DDL, per backend:
//   - pending deletes: relation files to unlink at COMMIT (dropped tables,
//     the old file of a truncated table) or at ABORT (files created by the
//     transaction: CREATE TABLE, the new file of TRUNCATE). At transaction
//     end every file due is processed as ONE batch: their buffers are
//     invalidated without being written (storage::DropRelationsBuffers, one
//     pass over the pool or per-block lookups — bufmgr decides), then each
//     file (all forks) is unlinked and the heap's target-page cache forgets it.
//   - catalog invalidation: when the transaction changed the catalog, one
//     shared invalidation message per changed relation is sent at
//     pre-commit and again after the commit (each bumping the catalog
//     version), and this backend's entries of those relations are dropped
//     at commit and abort.
// Both run from one access::RegisterXactCallback, registered on first use.
//
// Process safety: per-backend lists; single-threaded.
#pragma once

#include <vector>

#include "catalog/catalog_defs.h"
#include "storage/smgr/relfile.h"

namespace hearth::catalog {

// Schedules the files of `rel` for unlinking when the current transaction
// commits (at_commit) or aborts (!at_commit). REQUIRES: a transaction in progress.
void RegisterPendingDelete(storage::RelFileLocator rel, bool at_commit);

// Records that the current transaction changed the catalog rows of these
// relations: drops this backend's relcache entries of them now, and at
// pre-commit and again after the commit sends them to every backend
// (SendRelationInvalidations); at abort drops the local entries again.
void MarkCatalogChanged(const std::vector<Oid>& relids);
inline void MarkCatalogChanged(Oid relid) { MarkCatalogChanged(std::vector<Oid>{relid}); }

// Unlinks the files of this backend's committed transactions whose commit
// record has become durable since (synchronous_commit off defers them). With
// `wait`, flushes the WAL first so that all of them go (backend exit). Never
// throws. Also called at every statement start (AcceptInvalidations) and at
// commit.
void FinishDeferredDeletes(bool wait) noexcept;

// Pending entries of the current transaction (tests, monitoring).
std::vector<storage::RelFileLocator> PendingDeletes(bool at_commit);

// What a cached plan was made against: moves when any transaction commits
// a catalog change (the shared CatalogVersion), and also when this backend
// changes the catalog in its open transaction or rolls such a change back,
// which the shared version does not show. Both parts only grow, so equal
// values mean no change.
uint64_t PlanCacheVersion();

// Counts transaction ends in this process (>= 1; changes at every
// commit/abort once the callback is registered, which this call ensures).
uint64_t XactGeneration();

// Registers the transaction callback if not yet done in this process.
void EnsureCatalogXactCallback();

}  // namespace hearth::catalog
