// catalog/sequence_wal.h
//
// The sequence page and its WAL record (resource manager 15, PostgreSQL's
// RM_SEQ_ID). A sequence relation has one block: a standard page whose
// special space holds SequencePageData. Every record carries the whole
// state and its redo re-formats the page unconditionally (whatever its
// LSN, like PostgreSQL's seq_redo): the page in the buffer pool runs ahead
// of its last record (values handed out without WAL), so an LSN test would
// keep a stale page written out by eviction.
//
// Process safety: LogSequencePage from any backend holding the page's
// exclusive content lock; RegisterSequenceRmgr once per process before
// recovery (the postmaster).
#pragma once

#include <cstdint>

#include "access/transam/xlog_format.h"
#include "storage/buffer/bufmgr.h"

namespace hearth::catalog {

inline constexpr access::RmgrId kRmgrSequence = 15;

inline constexpr uint32_t kSequencePageMagic = 0x1717;

struct SequencePageData {
  uint32_t magic = kSequencePageMagic;
  uint32_t is_called = 0;
  int64_t last_value = 0;
  int64_t log_cnt = 0;
};

// The data on a locked sequence page; nullptr when the page is not one.
SequencePageData* SequenceData(storage::Page page);
// Formats `page` as a sequence page holding `d`.
void FormatSequencePage(storage::Page page, const SequencePageData& d);

// Logs `d` as the state of the sequence page `buf` (exclusively locked by
// the caller, who marks it dirty) and stamps the page LSN. Returns the
// record's end LSN (0 without WAL).
access::XLogRecPtr LogSequencePage(storage::PinnedBuffer& buf, const SequencePageData& d);

void RegisterSequenceRmgr();

}  // namespace hearth::catalog
