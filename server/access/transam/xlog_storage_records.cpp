// access/transam/xlog_storage_records.cpp
//
// Principal entry points: XLogLogRelationCreate, SmgrRedo, RedoDropRelations.
#include "access/transam/xlog_storage_records.h"

#include <cstring>
#include <stdexcept>
#include <string>

#include "access/transam/xlog.h"
#include "storage/buffer/bufmgr.h"
#include "storage/smgr/smgr.h"

namespace hearth::access {

void XLogLogRelationCreate(storage::RelFileLocator rel) {
  if (!XLogIsStarted()) return;
  const XLogPart part{&rel, sizeof(rel)};
  XLogInsert(kRmgrStorage, kSmgrInfoCreate, 0, std::span<const XLogPart>(&part, 1));
}

void SmgrRedo(const XLogRecordView& rec) {
  if (rec.header.info != kSmgrInfoCreate || rec.payload.size() != sizeof(storage::RelFileLocator)) {
    throw std::runtime_error("malformed storage WAL record at " + std::to_string(rec.start_lsn));
  }
  storage::RelFileLocator rel;
  std::memcpy(&rel, rec.payload.data(), sizeof(rel));
  storage::Status st = storage::SmgrCreate(rel, storage::ForkNumber::kMain,
                                           /*ok_if_exists=*/true);
  if (!st.ok()) throw std::runtime_error("redo could not create relation file: " + st.ToString());
}

void RedoDropRelations(std::span<const storage::RelFileLocator> rels) {
  storage::DropRelationsBuffers(rels);
  (void)storage::SmgrUnlinkRelations(rels);
}

}  // namespace hearth::access
