// access/transam/xlog_storage_records.cpp
//
// Principal entry points: XLogLogRelationCreate, XLogLogDatabaseCreate,
// XLogLogDatabaseDrop, SmgrRedo, RedoDropRelations.
#include "access/transam/xlog_storage_records.h"

#include <cstring>
#include <stdexcept>
#include <string>

#include "access/transam/standby_conflicts.h"
#include "access/transam/xlog.h"
#include "storage/buffer/bufmgr.h"
#include "storage/smgr/smgr.h"

namespace hearth::access {

void XLogLogRelationCreate(storage::RelFileLocator rel) {
  if (!XLogIsStarted()) return;
  const XLogPart part{&rel, sizeof(rel)};
  XLogInsert(kRmgrStorage, kSmgrInfoCreate, 0, std::span<const XLogPart>(&part, 1));
}

namespace {

struct DatabaseCreatePayload {
  uint32_t template_db;
  uint32_t new_db;
};

[[noreturn]] void Malformed(const XLogRecordView& rec) {
  throw std::runtime_error("malformed storage WAL record at " + std::to_string(rec.start_lsn));
}

// The template's pages as replay left them (some only in buffers), then a
// fresh copy: a directory left by an earlier attempt is replaced whole.
void RedoDatabaseCreate(const XLogRecordView& rec) {
  if (rec.payload.size() != sizeof(DatabaseCreatePayload)) Malformed(rec);
  DatabaseCreatePayload p;
  std::memcpy(&p, rec.payload.data(), sizeof(p));
  storage::Status st = storage::FlushDatabaseBuffers(p.template_db);
  if (st.ok()) {
    storage::DropDatabaseBuffers(p.new_db);
    st = storage::SmgrRemoveDatabaseDirectory(p.new_db);
  }
  if (st.ok()) st = storage::SmgrCopyDatabaseDirectory(p.template_db, p.new_db);
  if (!st.ok()) throw std::runtime_error("redo could not copy database directory: " + st.ToString());
}

void RedoDatabaseDrop(const XLogRecordView& rec) {
  uint32_t db = 0;
  if (rec.payload.size() != sizeof(db)) Malformed(rec);
  std::memcpy(&db, rec.payload.data(), sizeof(db));
  ResolveDatabaseConflict(db);  // hot-standby sessions connected to it end first
  storage::DropDatabaseBuffers(db);
  storage::Status st = storage::SmgrRemoveDatabaseDirectory(db);
  if (!st.ok()) throw std::runtime_error("redo could not remove database directory: " + st.ToString());
}

}  // namespace

void XLogLogDatabaseDrop(uint32_t db) {
  if (!XLogIsStarted()) return;
  const XLogPart part{&db, sizeof(db)};
  XLogInsert(kRmgrStorage, kSmgrInfoDropDatabase, 0, std::span<const XLogPart>(&part, 1));
}

void XLogLogDatabaseCreate(uint32_t template_db, uint32_t new_db) {
  if (!XLogIsStarted()) return;
  const DatabaseCreatePayload p{template_db, new_db};
  const XLogPart part{&p, sizeof(p)};
  XLogFlush(XLogInsert(kRmgrStorage, kSmgrInfoCreateDatabase, 0, std::span<const XLogPart>(&part, 1)));
}

void SmgrRedo(const XLogRecordView& rec) {
  if (rec.header.info == kSmgrInfoCreateDatabase) return RedoDatabaseCreate(rec);
  if (rec.header.info == kSmgrInfoDropDatabase) return RedoDatabaseDrop(rec);
  if (rec.header.info != kSmgrInfoCreate || rec.payload.size() != sizeof(storage::RelFileLocator)) Malformed(rec);
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
