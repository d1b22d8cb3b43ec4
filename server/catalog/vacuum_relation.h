// catalog/vacuum_relation.h
//
// VACUUM and ANALYZE of one table, shared by the VACUUM/ANALYZE commands
// and autovacuum workers: the heap work, relpages/reltuples in hearth_class
// and the table's statistics (last_[auto]vacuum, n_live_tup, n_dead_tup,
// ...; storage/stats/table_stats.h).
//
// REQUIRES: a transaction in progress and ShareUpdateExclusiveLock (or
// stronger) on the relation; relkind 'r'. Interruptible (57014) between
// pages and rows.
#pragma once

#include "access/heap/vacuumlazy.h"
#include "catalog/relcache.h"

namespace hearth::catalog {

// Removes dead versions (index entries first), records the counts. With
// `also_analyze` the live count it found also stands for an ANALYZE.
heap::VacuumStats VacuumRelation(const RelationRef& rel, bool also_analyze, bool autovacuum);

// Counts the rows visible to the transaction snapshot and records them.
void AnalyzeRelation(const RelationRef& rel, bool autovacuum);

}  // namespace hearth::catalog
