// tcop/admin_callbacks.cpp
//
// Principal entry point: InstallAdminCallbacks.
#include "tcop/admin_callbacks.h"

#include "access/transam/xlog.h"
#include "catalog/relation_inspect.h"

namespace hearth::tcop {

namespace {

uint64_t CurrentWalPosition(types::WalPosition which) {
  if (!access::XLogIsStarted()) return 0;
  switch (which) {
    case types::WalPosition::kInsert:
      return access::XLogInsertEndPosition();
    case types::WalPosition::kWrite:
      return access::XLogWrittenUpTo();
    case types::WalPosition::kFlush:
      return access::XLogFlushedUpTo();
  }
  return 0;
}

}  // namespace

void InstallAdminCallbacks(types::SessionCallbacks& callbacks) {
  callbacks.relation_sizes = [](uint32_t relid, uint32_t fork_mask, bool with_indexes) {
    return catalog::RelationSizesByOid(relid, fork_mask, with_indexes);
  };
  callbacks.wal_position = CurrentWalPosition;
  catalog::InstallRegclassHooks();
}

}  // namespace hearth::tcop
