// catalog/vacuum_relation.cpp
//
// Principal entry points: VacuumRelation, AnalyzeRelation.
#include "catalog/vacuum_relation.h"

#include "access/heap/heap_toast.h"
#include "access/heap/heapscan.h"
#include "access/heap/vacuumlazy.h"
#include "access/transam/snapshot.h"
#include "access/transam/xact.h"
#include "catalog/ddl.h"
#include "catalog/index_maint.h"
#include "catalog/table_stats_counts.h"
#include "storage/ipc/interrupts.h"
#include "storage/smgr/smgr.h"

namespace hearth::catalog {

heap::VacuumStats VacuumRelation(const RelationRef& rel, bool also_analyze, bool autovacuum) {
  const access::TransactionId oldest_xmin = access::GetOldestXmin();
  heap::VacuumStats st = heap::HeapVacuumRelation(rel->rel, oldest_xmin, IndexCleanupCallback(rel));
  // Then its toast relation: the chunks of the versions just removed (and
  // of any other value whose deleter is old enough) go too.
  if (rel->has_toast) heap::HeapVacuumToast(rel->rel, oldest_xmin);
  UpdateRelationStats(rel->oid, static_cast<int32_t>(st.pages), static_cast<double>(st.tuples_live));
  // What stays dead is what some snapshot may still see.
  ReportVacuumCounts(rel->oid, static_cast<int64_t>(st.tuples_live), static_cast<int64_t>(st.tuples_recently_dead),
                     autovacuum);
  if (also_analyze) ReportAnalyzeCounts(rel->oid, static_cast<int64_t>(st.tuples_live), autovacuum);
  return st;
}

void AnalyzeRelation(const RelationRef& rel, bool autovacuum) {
  heap::HeapScan scan(rel->rel, rel->desc, access::GetTransactionSnapshot(), access::GetCurrentTransactionIdIfAny());
  heap::Row row;
  double tuples = 0;
  while (scan.Next(&row)) {
    tuples++;
    if ((static_cast<uint64_t>(tuples) & 1023) == 0) CheckForInterrupts();
  }
  auto pages = storage::SmgrNblocks(rel->rel, storage::ForkNumber::kMain);
  UpdateRelationStats(rel->oid, static_cast<int32_t>(pages), tuples);
  ReportAnalyzeCounts(rel->oid, static_cast<int64_t>(tuples), autovacuum);
}

}  // namespace hearth::catalog
