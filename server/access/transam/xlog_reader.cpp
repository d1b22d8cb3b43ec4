// access/transam/xlog_reader.cpp
//
// Principal entry points: XLogReader::Seek, XLogReader::ReadRecord.
#include "access/transam/xlog_reader.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include "access/transam/crc32c.h"
#include "access/transam/xlog_timeline.h"

namespace hearth::access {

XLogReader::XLogReader(std::string wal_dir, uint64_t segment_size)
    : wal_dir_(std::move(wal_dir)), segment_size_(segment_size), page_(kXLogPageSize) {}

XLogReader::~XLogReader() {
  if (fd_ >= 0) ::close(fd_);
}

void XLogReader::Seek(XLogRecPtr start, XLogRecPtr expected_prev) {
  next_ = start;
  expected_prev_ = expected_prev;
  page_lsn_ = UINT64_MAX;  // the files may have grown since (a standby re-reads)
  last_start_ = 0;
  ended_ = false;
  end_of_wal_ = 0;
  end_reason_.clear();
}

const XLogRecordView* XLogReader::Stop(XLogRecPtr at, std::string reason) {
  ended_ = true;
  end_of_wal_ = at;
  end_reason_ = std::move(reason);
  return nullptr;
}

bool XLogReader::LoadPage(XLogRecPtr page_lsn) {
  if (page_lsn == page_lsn_) return true;
  page_lsn_ = UINT64_MAX;
  const uint64_t segno = page_lsn / segment_size_;
  const uint32_t tli = XLogTimelineOfSegment(segno, segment_size_);
  if (fd_ < 0 || fd_segno_ != segno || fd_tli_ != tli) {
    if (fd_ >= 0) ::close(fd_);
    const std::string name = XLogSegmentFileName(segno, segment_size_, tli);
    fd_ = ::open((wal_dir_ + "/" + name).c_str(), O_RDONLY | O_CLOEXEC);
    fd_segno_ = segno;
    fd_tli_ = tli;
    if (fd_ < 0) {
      end_reason_ = "segment " + name + " missing";
      return false;
    }
  }
  size_t got = 0;
  while (got < kXLogPageSize) {
    ssize_t n =
        ::pread(fd_, page_.data() + got, kXLogPageSize - got, static_cast<off_t>(page_lsn % segment_size_ + got));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      end_reason_ = "segment " + std::to_string(segno) + " ends before the page";
      return false;
    }
    got += static_cast<size_t>(n);
  }
  XLogPageHeader h;
  std::memcpy(&h, page_.data(), sizeof(h));
  if (h.magic != kXLogPageMagic) {
    end_reason_ = h.magic == 0 ? "zeroed page" : "bad page magic";
    return false;
  }
  if (h.page_addr != page_lsn) {
    end_reason_ = "page address mismatch (stale or recycled page)";
    return false;
  }
  if (h.version != 1 || static_cast<uint64_t>(h.segment_kb) * 1024 != segment_size_) {
    end_reason_ = "page header version or segment size mismatch";
    return false;
  }
  page_lsn_ = page_lsn;
  return true;
}

bool XLogReader::CopyRecordBytes(XLogRecPtr* pos, uint8_t* dst, uint32_t n, uint32_t remaining) {
  while (n > 0) {
    if (*pos % kXLogPageSize == 0) {
      if (!LoadPage(*pos)) return false;
      XLogPageHeader h;
      std::memcpy(&h, page_.data(), sizeof(h));
      if ((h.flags & kXLogPageContinuation) == 0 || h.rem_len != remaining) {
        end_reason_ = "continuation header does not match the record";
        return false;
      }
      *pos += kXLogPageHeaderSize;
    } else if (!LoadPage(XLogPageStart(*pos))) {
      return false;
    }
    const uint32_t off = static_cast<uint32_t>(*pos % kXLogPageSize);
    const uint32_t chunk = std::min(n, kXLogPageSize - off);
    std::memcpy(dst, page_.data() + off, chunk);
    dst += chunk;
    n -= chunk;
    remaining -= chunk;
    *pos += chunk;
  }
  return true;
}

const XLogRecordView* XLogReader::ReadRecord() {
  if (ended_) return nullptr;
  XLogRecPtr pos = next_;
  if (pos % kXLogPageSize == 0) pos += kXLogPageHeaderSize;
  const XLogRecPtr start = pos;
  if (pos % kXLogRecordAlign != 0 || pos % kXLogPageSize < kXLogPageHeaderSize) {
    return Stop(start, "misaligned record start");
  }
  if (!LoadPage(XLogPageStart(pos))) return Stop(start, end_reason_);
  {
    // A record cannot start inside the continuation of an earlier one.
    XLogPageHeader h;
    std::memcpy(&h, page_.data(), sizeof(h));
    const uint64_t used = XLogAlignUp(h.rem_len);
    if ((h.flags & kXLogPageContinuation) != 0 &&
        pos % kXLogPageSize < kXLogPageHeaderSize + std::min<uint64_t>(used, kXLogUsablePerPage)) {
      return Stop(start, "record start inside a continuation");
    }
  }
  // The first 8 header bytes are always on this page (records start 8-aligned
  // and the usable part of a page is a multiple of 8).
  XLogRecordHeader hdr;
  std::memcpy(&hdr, page_.data() + pos % kXLogPageSize, 8);
  if (hdr.total_len == 0) return Stop(start, "zeroed record header");
  if (hdr.total_len < kXLogRecordHeaderSize || hdr.total_len > kXLogMaxRecordSize) {
    return Stop(start, "invalid record length " + std::to_string(hdr.total_len));
  }
  pos += 8;
  if (!CopyRecordBytes(&pos, reinterpret_cast<uint8_t*>(&hdr) + 8, kXLogRecordHeaderSize - 8, hdr.total_len - 8)) {
    return Stop(start, end_reason_);
  }
  const uint32_t payload_len = hdr.total_len - kXLogRecordHeaderSize;
  payload_.resize(payload_len);
  if (!CopyRecordBytes(&pos, payload_.data(), payload_len, payload_len)) return Stop(start, end_reason_);
  uint32_t crc = Crc32cUpdate(kCrc32cInit, payload_.data(), payload_len);
  crc = Crc32cFinish(Crc32cUpdate(crc, &hdr, kXLogRecordHeaderCrcOffset));
  if (crc != hdr.crc) return Stop(start, "record CRC mismatch");
  const XLogRecPtr want_prev = last_start_ != 0 ? last_start_ : expected_prev_;
  if (want_prev != 0 && hdr.prev_lsn != want_prev) return Stop(start, "record prev-link mismatch");

  const uint64_t end_pos = RecPtrToBytePos(start) + XLogAlignUp(hdr.total_len);
  view_.start_lsn = start;
  view_.end_lsn = BytePosToEndRecPtr(end_pos);
  view_.header = hdr;
  view_.payload = std::span<const uint8_t>(payload_.data(), payload_len);
  last_start_ = start;
  next_ = BytePosToRecPtr(end_pos);
  return &view_;
}

}  // namespace hearth::access
