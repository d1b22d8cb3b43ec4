// access/transam/xlog_fpi.h
//
// Generic whole-page WAL records (rmgr kRmgrXLog, info kXLogInfoFpi): for
// access methods without their own redo (e.g. nbtree for now), each change
// may be logged as images of the pages it touched, taken after the change.
// Replay copies the images back (skipping pages whose LSN is already at or
// past the record). Heavier than logical records, but always correct.
//
// Usage, between MarkDirty and unlock, every page still exclusively locked:
//   PinnedBuffer* pages[] = {&leaf, &meta};
//   access::LogPageImages(pages, xid);   // stamps each page's LSN
// No-op (returns 0) when WAL is not running. Payload per page: u32 rel,
// u32 block, u16 fork, u16 hole_off, u16 hole_len, u16 reserved, then the
// page without the hole [lower, upper) (pd_lower/pd_upper of a standard page).
//
// Process safety: any process after XLogStartup; single-threaded callers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "access/transam/xlog_format.h"
#include "access/transam/xlog_reader.h"
#include "storage/buffer/bufmgr.h"

namespace hearth::access {

inline constexpr uint8_t kXLogInfoFpi = 0x30;

// Most pages one record may carry (a B-tree insert that splits every level
// of a deep tree logs about three pages per level, plus root and metapage).
inline constexpr size_t kMaxFpiPages = 64;

// Logs images of `pages` (at most kMaxFpiPages; each pinned and exclusively locked by
// the caller) in one record and sets their page LSN to its end. Returns the
// end LSN (0 without WAL).
XLogRecPtr LogPageImages(std::span<storage::PinnedBuffer* const> pages, uint32_t xid);

// Redo of a kXLogInfoFpi record (called by the kRmgrXLog redo function that
// StartupXLogRecovery registers). Throws std::runtime_error when malformed.
void XLogFpiRedo(const XLogRecordView& rec);

}  // namespace hearth::access
