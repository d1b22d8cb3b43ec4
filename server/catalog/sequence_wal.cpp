// catalog/sequence_wal.cpp
//
// Principal entry points: LogSequencePage, RegisterSequenceRmgr.
#include "catalog/sequence_wal.h"

#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "access/transam/xact.h"
#include "access/transam/xlog.h"
#include "access/transam/xlog_rmgr.h"
#include "storage/smgr/smgr.h"

namespace hearth::catalog {

namespace {

constexpr uint8_t kInfoSetPage = 0x00;

// Record payload: the relation and the page data.
struct SequenceRecord {
  uint32_t rel = 0;
  uint32_t db = 0;  // RelFileLocator::db
  SequencePageData data;
};

void SequenceRedo(const access::XLogRecordView& rec) {
  SequenceRecord r;
  if (rec.payload.size() != sizeof(r)) {
    throw std::runtime_error("malformed sequence WAL record at " + std::to_string(rec.start_lsn));
  }
  std::memcpy(&r, rec.payload.data(), sizeof(r));
  const storage::RelFileLocator rel(r.db, r.rel);
  const auto fork = storage::ForkNumber::kMain;
  if (!storage::SmgrExists(rel, fork)) {
    storage::Status st = storage::SmgrCreate(rel, fork, /*ok_if_exists=*/true);
    if (!st.ok()) throw std::runtime_error("redo could not create sequence file: " + st.ToString());
  }
  if (storage::SmgrNblocks(rel, fork) == 0) {
    static const std::vector<char> zero(storage::kBlockSize, 0);
    storage::Status st = storage::SmgrExtend(rel, fork, 0, zero.data());
    if (!st.ok()) throw std::runtime_error("redo could not extend sequence file: " + st.ToString());
  }
  storage::PinnedBuffer buf = storage::ReadBuffer(rel, fork, 0, storage::ReadMode::kZeroAndLock);
  FormatSequencePage(buf.page(), r.data);
  buf.page().set_lsn(rec.end_lsn);
  buf.MarkDirty();
}

const char* SequenceDesc(uint8_t) { return "SET_PAGE"; }

}  // namespace

SequencePageData* SequenceData(storage::Page page) {
  if (page.IsNew() || page.Special().size() < sizeof(SequencePageData)) return nullptr;
  auto* d = reinterpret_cast<SequencePageData*>(page.Special().data());
  return d->magic == kSequencePageMagic ? d : nullptr;
}

void FormatSequencePage(storage::Page page, const SequencePageData& d) {
  page.Init(sizeof(SequencePageData));
  std::memcpy(page.Special().data(), &d, sizeof(d));
}

access::XLogRecPtr LogSequencePage(storage::PinnedBuffer& buf, const SequencePageData& d) {
  if (!access::XLogIsStarted()) return 0;
  SequenceRecord r;
  r.rel = buf.rel().number.value;
  r.db = buf.rel().db;
  r.data = d;
  const access::XLogPart part{&r, sizeof(r)};
  const access::XLogRecPtr end = access::XLogInsert(kRmgrSequence, kInfoSetPage, access::GetCurrentTransactionIdIfAny(),
                                                    std::span<const access::XLogPart>(&part, 1));
  buf.page().set_lsn(end);
  return end;
}

void RegisterSequenceRmgr() { access::RegisterRmgr(kRmgrSequence, "Sequence", SequenceRedo, SequenceDesc); }

}  // namespace hearth::catalog
