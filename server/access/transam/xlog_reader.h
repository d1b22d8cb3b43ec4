// access/transam/xlog_reader.h
//
// Sequential reader of WAL records from the segment files, for recovery,
// startup's end-of-WAL scan and tests. Validates page headers (magic, page
// address, segment size), continuation lengths, record lengths, the
// prev-record link and each record's CRC-32C. At the first record that fails
// any check it stops cleanly — no exception — and reports where (the start
// LSN of that record) and why: that point is the end of valid WAL.
//
// Reads files directly (pread), independent of shared memory. One reader
// object per thread; not thread-safe.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "access/transam/xlog_format.h"

namespace hearth::access {

// A decoded record; valid until the next ReadRecord call.
struct XLogRecordView {
  XLogRecPtr start_lsn = 0;
  XLogRecPtr end_lsn = 0;  // as XLogInsert returned it
  XLogRecordHeader header{};
  std::span<const uint8_t> payload;
};

class XLogReader {
 public:
  XLogReader(std::string wal_dir, uint64_t segment_size);
  ~XLogReader();
  XLogReader(const XLogReader&) = delete;
  XLogReader& operator=(const XLogReader&) = delete;

  // Positions at `start`, which must be a record start (e.g. a redo point or
  // kXLogPageHeaderSize for the very beginning). `expected_prev`, if nonzero,
  // must match the first record's prev_lsn.
  void Seek(XLogRecPtr start, XLogRecPtr expected_prev = kInvalidXLogRecPtr);

  // The next record, or nullptr at the end of valid WAL (then EndOfWal and
  // EndReason say where and why; further calls keep returning nullptr).
  const XLogRecordView* ReadRecord();

  // Start LSN of the first record that could not be read (= where the next
  // record would be inserted). Meaningful after ReadRecord returned nullptr.
  XLogRecPtr EndOfWal() const { return end_of_wal_; }
  const std::string& EndReason() const { return end_reason_; }
  // Start of the last record returned (0: none yet).
  XLogRecPtr LastRecordStart() const { return last_start_; }
  // Where the next ReadRecord begins.
  XLogRecPtr NextRecordStart() const { return next_; }

 private:
  bool LoadPage(XLogRecPtr page_lsn);
  // Copies `n` record bytes starting at *pos into dst, crossing page
  // boundaries (validating continuation headers against `remaining`, the
  // bytes of the record still unread at *pos). Advances *pos.
  bool CopyRecordBytes(XLogRecPtr* pos, uint8_t* dst, uint32_t n, uint32_t remaining);
  const XLogRecordView* Stop(XLogRecPtr at, std::string reason);

  std::string wal_dir_;
  uint64_t segment_size_;
  int fd_ = -1;
  uint64_t fd_segno_ = 0;
  uint32_t fd_tli_ = 0;  // the timeline of the file open (a standby may switch timelines)
  XLogRecPtr page_lsn_ = UINT64_MAX;  // page in page_
  std::vector<uint8_t> page_;
  std::vector<uint8_t> payload_;
  XLogRecPtr next_ = 0;
  XLogRecPtr expected_prev_ = 0;
  XLogRecPtr last_start_ = 0;
  bool ended_ = false;
  XLogRecPtr end_of_wal_ = 0;
  std::string end_reason_;
  XLogRecordView view_;
};

}  // namespace hearth::access
