// tcop/copy_progress.cpp
//
// Principal entry point: CopyProgressReport.
#include "tcop/copy_progress.h"

#include "catalog/catalog_defs.h"
#include "tcop/session.h"

namespace hearth::tcop {

CopyProgressReport::CopyProgressReport(const Session& s, uint32_t relid, bool is_from, int64_t type,
                                       int64_t bytes_total)
    : report_(storage::ProgressCommand::kCopy, catalog::MyDatabaseId(), s.database, relid) {
  namespace cp = storage::copy_progress;
  report_.Update({{cp::kCommand, is_from ? cp::kCommandFrom : cp::kCommandTo},
                  {cp::kType, type},
                  {cp::kBytesTotal, bytes_total}});
}

void CopyProgressReport::Report(uint64_t bytes_processed, uint64_t tuples_processed) {
  namespace cp = storage::copy_progress;
  report_.Update({{cp::kBytesProcessed, static_cast<int64_t>(bytes_processed)},
                  {cp::kTuplesProcessed, static_cast<int64_t>(tuples_processed)}});
}

}  // namespace hearth::tcop
