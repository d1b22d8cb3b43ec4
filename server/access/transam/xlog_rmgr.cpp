// access/transam/xlog_rmgr.cpp
//
// Principal entry points: RegisterRmgr, XLogRedoRecord, XLogInsertCheckpoint.
#include "access/transam/xlog_rmgr.h"

#include <array>
#include <stdexcept>
#include <string>

#include "access/transam/xlog.h"

namespace hearth::access {

namespace {
std::array<RmgrEntry, kMaxRmgrId + 1> g_rmgrs{};
}  // namespace

void RegisterRmgr(RmgrId id, const char* name, RmgrRedoFn redo, RmgrDescFn desc) {
  g_rmgrs[id] = RmgrEntry{name, redo, desc};
}

const RmgrEntry& GetRmgr(RmgrId id) { return g_rmgrs[id]; }

void XLogRedoRecord(const XLogRecordView& record) {
  const RmgrEntry& e = g_rmgrs[record.header.rmgr];
  if (e.redo == nullptr) {
    throw std::runtime_error("WAL record at " + std::to_string(record.start_lsn) + " has resource manager " +
                             std::to_string(record.header.rmgr) + " with no redo function");
  }
  e.redo(record);
}

XLogRecPtr XLogInsertCheckpoint(const CheckpointRecord& ckpt, XLogRecPtr* start_lsn) {
  const XLogPart part{&ckpt, sizeof(ckpt)};
  return XLogInsert(kRmgrXLog, kXLogInfoCheckpoint, 0, std::span<const XLogPart>(&part, 1), start_lsn);
}

}  // namespace hearth::access
