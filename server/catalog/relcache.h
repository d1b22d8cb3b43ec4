// catalog/relcache.h
//
// The per-backend relation cache: relation name or OID → an immutable
// RelationEntry (the executor's TableInfo, the heap TupleDesc, the current
// relfilenode and fillfactor, its indexes), read from hearth_class /
// hearth_attribute / hearth_index. Index changes invalidate like any DDL.
//
// Invalidation: every transaction that changed the catalog sends one shared
// message per changed relation oid (catalog_shared.h), once just before it
// commits and once right after, each time bumping the catalog version.
// AcceptInvalidations() compares the version with the one this backend last
// saw and, when it moved, drops the entries of the relations named since
// (the whole cache only when the message ring overflowed). Call it at the
// start of every statement; OpenRelation also calls it after waiting for a
// relation lock (the lock holder may have dropped or truncated the table).
// A backend's own DDL drops its entries of the changed relations at once
// (and again at commit/abort).
//
// Entries are shared_ptr<const>: a scan keeps its entry (and TupleDesc)
// alive even when the cache is dropped meanwhile.
//
// Process safety: per-backend (process globals), single-threaded. REQUIRES:
// a transaction in progress for lookups (catalog reads are MVCC).
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "access/heap/heap_toast.h"
#include "access/heap/heap_tuple.h"
#include "access/nbtree/nbtree.h"
#include "catalog/catalog_defs.h"
#include "catalog/sequence_catalog.h"
#include "executor/table_access.h"
#include "storage/lmgr/lock.h"
#include "storage/smgr/relfile.h"

namespace hearth::catalog {

// One B-tree index of a relation (from hearth_index).
struct IndexEntry {
  Oid oid = 0;
  bool unique = false;
  bool primary = false;
  std::vector<int> columns;   // 0-based table column positions, key order
  nbtree::IndexDesc desc;     // file, name, key columns (types, DESC / NULLS FIRST)
};

struct PartitionKey;
struct PartitionBound;

struct RelationEntry {
  Oid oid = 0;
  Oid namespace_oid = 0;
  storage::RelFileLocator rel;  // current relfilenode
  int fillfactor = 100;
  executor::TableInfo info;     // what the planner sees
  heap::TupleDesc desc;         // how rows are stored
  std::vector<IndexEntry> indexes;  // also in info.indexes (planner view), same order
  char relkind = 'r';               // 'r' table, 'S' sequence
  bool autovacuum_enabled = true;   // WITH (autovacuum_enabled = false) turns it off
  Oid owner = kBootstrapSuperuserOid;  // relowner
  std::optional<std::string> acl;      // relacl (nullopt: the owner's default)
  // attacl of each column (index attnum - 1; nullopt: no column privileges).
  std::vector<std::optional<std::string>> column_acls;
  std::shared_ptr<const SequenceParams> sequence;  // relkind 'S': its hearth_sequence row
  // TOAST (heap_toast.h): user tables with a varlena column have a toast
  // relation (pg_toast.pg_toast_<oid>, pg_class oid ToastRelationOid(oid)).
  bool has_toast = false;
  heap::ToastOptions toast;
  const heap::ToastOptions* toast_options() const { return has_toast ? &toast : nullptr; }
  const heap::TupleDesc* toast_desc() const { return has_toast ? &desc : nullptr; }
  std::vector<Oid> parents;   // INHERITS (relinherits), inhseqno order
  std::vector<Oid> children;  // tables inheriting directly from this one, oid order
  // Declarative partitioning (partition_bound.h): the key of a partitioned
  // table and the bound of a partition (null when not one).
  std::shared_ptr<const PartitionKey> partition_key;
  std::shared_ptr<const PartitionBound> partition_bound;
};
using RelationRef = std::shared_ptr<const RelationEntry>;

// Statement start: drops this backend's cache when any transaction changed
// the catalog since the last call. Returns true when it dropped it. Cheap
// (one atomic load) when nothing changed. Any process with the segment.
bool AcceptInvalidations();

// Cached lookup without locking (nullptr when there is no such relation, or
// the schema is unknown). `schema` empty = search path (public).
// The relation `name` in namespace `ns` (cached), or null.
RelationRef LookupRelationIn(Oid ns, const std::string& name);
RelationRef LookupRelation(const std::string& schema, const std::string& name);
RelationRef LookupRelationByOid(Oid oid);

// Lookup + heavyweight lock on the relation (held to transaction end), then
// re-check: if the catalog changed while waiting, looks again (the table may
// be gone → nullptr, or have a new relfilenode). Skips LockAcquire when this
// backend already holds `mode` or stronger. Lock waits may throw (40P01, 55P03, 57014).
RelationRef OpenRelation(const std::string& schema, const std::string& name, storage::LockMode mode);
RelationRef OpenRelationByOid(Oid oid, storage::LockMode mode);
// Counts the OpenRelation calls that found the catalog changed once their
// lock was granted (another transaction committed DDL, e.g. an ALTER
// TABLE rewrite, while we waited): a statement whose snapshot predates
// the wait must take a new one to see that transaction's rows.
uint64_t CatalogChangesSeenAfterLock();

// The lock tag of a relation (this database).
inline storage::LockTag RelationLockTag(Oid oid) {
  return storage::LockTag::Relation(IsSharedRelation(oid) ? 0 : MyDatabaseId(), oid);
}

// Drops this backend's cache now.
void InvalidateLocalRelcache();
// Drops this backend's entries of these relations (by oid, and the name
// entry pointing at them).
void InvalidateRelcacheEntries(const std::vector<Oid>& relids);

}  // namespace hearth::catalog
