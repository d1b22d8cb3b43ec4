// access/transam/xlog_replay.cpp
//
// Principal entry point: XLogReplay.
#include "access/transam/xlog_replay.h"

#include <stdexcept>

#include "access/transam/xlog.h"
#include "access/transam/xlog_reader.h"
#include "access/transam/xlog_rmgr.h"

namespace hearth::access {

ReplayResult XLogReplay(XLogRecPtr redo_lsn) {
  ReplayResult result;
  result.start = redo_lsn;
  XLogReader reader(XLogWalDir(), XLogSegmentSize());
  reader.Seek(redo_lsn);
  while (const XLogRecordView* rec = reader.ReadRecord()) {
    try {
      XLogRedoRecord(*rec);
    } catch (const std::exception& e) {
      throw std::runtime_error("redo failed at WAL position " + std::to_string(rec->start_lsn) + ": " + e.what());
    }
    result.records++;
  }
  result.last_record = reader.LastRecordStart();
  result.end_of_wal = reader.EndOfWal();
  result.end_reason = reader.EndReason();
  return result;
}

}  // namespace hearth::access
