// access/transam/xlog_format.h
//
// The on-disk format of the write-ahead log (see wal_format.md for the
// picture): constants, the page header, the record header, LSN arithmetic and
// segment file naming. Header-only, no state: safe everywhere.
//
// The WAL is one logical byte stream. An LSN is a byte offset into it. The
// stream is cut into 8 KiB pages, each starting with an XLogPageHeader, and
// into segment files of `segment_size` bytes (16 MiB unless a test shrinks
// it). Records start on 8-byte boundaries, never inside a page header, and may
// continue over any number of pages and segments. LSN 0 is "invalid": the
// first record starts at LSN kXLogPageHeaderSize.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

namespace hearth::access {

using XLogRecPtr = uint64_t;
inline constexpr XLogRecPtr kInvalidXLogRecPtr = 0;

using RmgrId = uint8_t;

inline constexpr uint32_t kXLogPageSize = 8192;
inline constexpr uint64_t kDefaultWalSegmentSize = 16ull * 1024 * 1024;
inline constexpr uint64_t kMinWalSegmentSize = 64ull * 1024;  // test hook lower bound

// Page header, at the start of every 8 KiB WAL page.
inline constexpr uint32_t kXLogPageMagic = 0x484C5731;     // "1WLH" little-endian: Hearth WAL v1
inline constexpr uint16_t kXLogPageContinuation = 0x0001;  // page starts with the rest of a record
struct XLogPageHeader {
  uint32_t magic;       // kXLogPageMagic
  uint16_t flags;       // kXLogPageContinuation when rem_len > 0
  uint16_t version;     // 1
  uint64_t page_addr;   // LSN of this page's first byte: detects recycled/stale pages
  uint32_t rem_len;     // bytes of a record continued from the previous page (0: none)
  uint32_t segment_kb;  // segment size in KiB, so a reader can tell a mismatched cluster
};
static_assert(sizeof(XLogPageHeader) == 24);
inline constexpr uint32_t kXLogPageHeaderSize = sizeof(XLogPageHeader);
inline constexpr uint32_t kXLogUsablePerPage = kXLogPageSize - kXLogPageHeaderSize;  // 8168 = 8 * 1021

// Record header; the payload follows immediately (possibly on later pages).
struct XLogRecordHeader {
  uint32_t total_len;  // header + payload bytes (not counting alignment padding)
  uint32_t xid;        // transaction that wrote it, 0 when none
  uint64_t prev_lsn;   // start LSN of the previous record (0 for the first)
  RmgrId rmgr;         // resource manager (who redoes it)
  uint8_t info;        // rmgr-specific record kind and flags
  uint16_t reserved;   // 0
  uint32_t crc;        // CRC-32C of payload, then of this header up to `crc`
};
static_assert(sizeof(XLogRecordHeader) == 24);
inline constexpr uint32_t kXLogRecordHeaderSize = sizeof(XLogRecordHeader);
inline constexpr size_t kXLogRecordHeaderCrcOffset = offsetof(XLogRecordHeader, crc);
// Largest record accepted (header + payload); a reader treats larger lengths as garbage.
inline constexpr uint32_t kXLogMaxRecordSize = 256u * 1024 * 1024;
inline constexpr uint64_t kXLogRecordAlign = 8;

// Resource manager ids. The numbers are part of the format: never reuse one.
inline constexpr RmgrId kRmgrXLog = 0;  // checkpoint, noop/switch records
inline constexpr RmgrId kRmgrXact = 1;  // commit, abort
inline constexpr RmgrId kRmgrClog = 2;
inline constexpr RmgrId kRmgrStorage = 3;  // relation create/truncate/drop
inline constexpr RmgrId kRmgrHeap = 4;
inline constexpr RmgrId kRmgrBtree = 5;
inline constexpr RmgrId kRmgrTest = 127;  // unit tests
inline constexpr int kMaxRmgrId = 255;

// info values for kRmgrXLog.
inline constexpr uint8_t kXLogInfoCheckpoint = 0x10;
inline constexpr uint8_t kXLogInfoNoop = 0x20;

inline constexpr uint64_t XLogAlignUp(uint64_t n) { return (n + kXLogRecordAlign - 1) & ~(kXLogRecordAlign - 1); }

// "Usable byte positions" count only record bytes (page headers excluded).
// Space is reserved in usable bytes, which makes reservation one addition;
// these convert to and from LSNs.
inline constexpr XLogRecPtr BytePosToRecPtr(uint64_t pos) {
  return (pos / kXLogUsablePerPage) * kXLogPageSize + kXLogPageHeaderSize + pos % kXLogUsablePerPage;
}
// Like BytePosToRecPtr, but a position exactly at a page's end maps to the
// page boundary (the end of a record, not the start of the next one).
inline constexpr XLogRecPtr BytePosToEndRecPtr(uint64_t pos) {
  if (pos == 0) return 0;
  if (pos % kXLogUsablePerPage == 0) return (pos / kXLogUsablePerPage) * kXLogPageSize;
  return BytePosToRecPtr(pos);
}
// Inverse of both. REQUIRES: lsn is not strictly inside a page header.
inline constexpr uint64_t RecPtrToBytePos(XLogRecPtr lsn) {
  const uint64_t page = lsn / kXLogPageSize;
  const uint64_t off = lsn % kXLogPageSize;
  return page * kXLogUsablePerPage + (off == 0 ? 0 : off - kXLogPageHeaderSize);
}

inline constexpr uint64_t XLogSegNo(XLogRecPtr lsn, uint64_t seg_size) { return lsn / seg_size; }
inline constexpr XLogRecPtr XLogPageStart(XLogRecPtr lsn) { return lsn - lsn % kXLogPageSize; }

// Segment file names are PostgreSQL's (so pg_basebackup and pg_receivewal
// write files recovery can read): 24 upper-case hex digits, the timeline
// (xlog_timeline.h), then the segment number split
// into "log id" (the LSN's upper 32 bits) and the segment within it. The files
// live in <datadir>/pg_wal.
inline constexpr uint64_t XLogSegmentsPerXLogId(uint64_t seg_size) { return 0x100000000ull / seg_size; }
inline std::string XLogSegmentFileName(uint64_t segno, uint64_t seg_size, uint32_t tli) {
  char buf[25];
  const uint64_t per_id = XLogSegmentsPerXLogId(seg_size);
  std::snprintf(buf, sizeof(buf), "%08X%08X%08X", tli, static_cast<unsigned>(segno / per_id),
                static_cast<unsigned>(segno % per_id));
  return buf;
}
// Parses a segment file name into its segment number and timeline; false if
// `name` is not one.
inline bool XLogParseSegmentFileName(const std::string& name, uint64_t seg_size, uint64_t* segno, uint32_t* tli) {
  if (name.size() != 24) return false;
  uint64_t parts[3] = {0, 0, 0};
  for (size_t i = 0; i < 24; i++) {
    const char c = name[i];
    int d;
    if (c >= '0' && c <= '9')
      d = c - '0';
    else if (c >= 'A' && c <= 'F')
      d = c - 'A' + 10;
    else
      return false;
    parts[i / 8] = parts[i / 8] << 4 | static_cast<uint64_t>(d);
  }
  const uint64_t per_id = XLogSegmentsPerXLogId(seg_size);
  if (parts[0] == 0 || parts[2] >= per_id) return false;
  *segno = parts[1] * per_id + parts[2];
  *tli = static_cast<uint32_t>(parts[0]);
  return true;
}

}  // namespace hearth::access
