// fuzz_wal: the WAL reader recovery runs (page headers, continuations,
// record lengths, CRCs, prev-links) and the transaction record decoder, on
// segment files built from the input. Two modes, by the first byte:
//  - raw: the input bytes are the WAL as they are;
//  - built: the input describes records (rmgr, info, length, payload) that
//    are laid out as the server writes them, with valid page headers and
//    CRCs, then a few bytes are flipped. Unflipped, every record must read
//    back in order (the writer's and the reader's format must agree); flipped,
//    the reader must stop cleanly.
// A crash, sanitizer report or exception is a bug.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "access/transam/crc32c.h"
#include "access/transam/xlog_format.h"
#include "access/transam/xlog_reader.h"
#include "access/transam/xlog_xact_records.h"

namespace {

using namespace hearth::access;

constexpr uint64_t kSegSize = kMinWalSegmentSize;  // 64 KiB: records soon cross segments
constexpr uint64_t kMaxWal = 4 * kSegSize;

// Never destroyed: the atexit cleanup runs after static destructors.
const std::string& WalDir() {
  static const std::string* dir = [] {
    auto* d = new std::string((std::filesystem::exists("/dev/shm") ? "/dev/shm" : "/tmp") +
                              std::string("/hearth-fuzz-wal-") + std::to_string(getpid()));
    std::filesystem::create_directories(*d);
    std::atexit([] { std::filesystem::remove_all(WalDir()); });
    return d;
  }();
  return *dir;
}

void WriteSegments(const std::vector<uint8_t>& wal) {
  for (uint64_t seg = 0; seg * kSegSize < kMaxWal; seg++) {
    const std::string path = WalDir() + "/" + XLogSegmentFileName(seg, kSegSize, 1);
    if (seg * kSegSize >= wal.size()) {
      std::filesystem::remove(path);
      continue;
    }
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(wal.data() + seg * kSegSize),
            static_cast<std::streamsize>(std::min<uint64_t>(kSegSize, wal.size() - seg * kSegSize)));
  }
}

// Lays records out as XLogInsert does; returns their start LSNs.
struct Builder {
  std::vector<uint8_t> wal;
  std::vector<XLogRecPtr> starts;
  uint64_t pos = 0;  // usable byte position of the next record
  XLogRecPtr prev = 0;

  bool Add(uint8_t rmgr, uint8_t info, const std::vector<uint8_t>& payload) {
    XLogRecordHeader h{};
    h.total_len = static_cast<uint32_t>(kXLogRecordHeaderSize + payload.size());
    h.xid = 7;
    h.prev_lsn = prev;
    h.rmgr = rmgr;
    h.info = info;
    uint32_t crc = Crc32cUpdate(kCrc32cInit, payload.data(), payload.size());
    h.crc = Crc32cFinish(Crc32cUpdate(crc, &h, kXLogRecordHeaderCrcOffset));
    std::vector<uint8_t> bytes(sizeof(h));
    std::memcpy(bytes.data(), &h, sizeof(h));
    bytes.insert(bytes.end(), payload.begin(), payload.end());
    if (BytePosToRecPtr(pos + XLogAlignUp(bytes.size())) + kXLogPageSize > kMaxWal) return false;
    const XLogRecPtr start = BytePosToRecPtr(pos);
    for (size_t i = 0; i < bytes.size(); i++) {
      const XLogRecPtr lsn = BytePosToRecPtr(pos + i);
      Reserve(lsn);
      wal[lsn] = bytes[i];
      if (i > 0 && lsn % kXLogPageSize == kXLogPageHeaderSize) {
        XLogPageHeader ph = Header(lsn - kXLogPageHeaderSize);
        ph.flags = kXLogPageContinuation;
        ph.rem_len = static_cast<uint32_t>(bytes.size() - i);
        std::memcpy(&wal[lsn - kXLogPageHeaderSize], &ph, sizeof(ph));
      }
    }
    starts.push_back(start);
    prev = start;
    pos += XLogAlignUp(bytes.size());
    return true;
  }

  static XLogPageHeader Header(XLogRecPtr page) {
    XLogPageHeader ph{};
    ph.magic = kXLogPageMagic;
    ph.version = 1;
    ph.page_addr = page;
    ph.segment_kb = kSegSize / 1024;
    return ph;
  }

  // Grows the WAL to the page holding `lsn`, giving new pages a header.
  void Reserve(XLogRecPtr lsn) {
    while (wal.size() <= lsn) {
      const XLogRecPtr page = wal.size();
      wal.resize(page + kXLogPageSize);
      XLogPageHeader ph = Header(page);
      std::memcpy(&wal[page], &ph, sizeof(ph));
    }
  }
};

size_t ReadAll() {
  XLogReader reader(WalDir(), kSegSize);
  reader.Seek(kXLogPageHeaderSize);
  size_t n = 0;
  while (const XLogRecordView* rec = reader.ReadRecord()) {
    if (rec->header.rmgr == kRmgrXact) DecodeXactRecord(*rec);
    n++;
  }
  return n;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  if (data[0] & 0x80) {  // raw
    WriteSegments(std::vector<uint8_t>(data + 1, data + std::min<size_t>(size, kMaxWal)));
    ReadAll();
    return 0;
  }
  const size_t nflips = data[0] & 7;
  size_t at = 1;
  std::vector<std::pair<uint32_t, uint8_t>> flips;
  for (size_t i = 0; i < nflips && at + 4 <= size; i++, at += 4) {
    flips.push_back({uint32_t{data[at]} | uint32_t{data[at + 1]} << 8 | uint32_t{data[at + 2]} << 16, data[at + 3]});
  }
  Builder b;
  while (at + 4 <= size) {
    const uint8_t rmgr = data[at] % 6, info = data[at + 1];
    // The length's low byte comes from the input, the high one scaled, so
    // records of every size up to several pages appear.
    const size_t len = data[at + 2] + size_t{data[at + 3]} * 97;
    at += 4;
    std::vector<uint8_t> payload(len, 0x5a);
    const size_t given = std::min(len, size - at);
    if (given > 0) std::memcpy(payload.data(), data + at, given);
    at += given;
    if (!b.Add(rmgr, info, payload)) break;
  }
  if (b.wal.empty()) return 0;
  bool flipped = false;
  for (auto [off, x] : flips) {
    flipped |= x != 0;
    b.wal[off % b.wal.size()] ^= x;
  }
  WriteSegments(b.wal);
  const size_t read = ReadAll();
  if (!flipped && read != b.starts.size()) __builtin_trap();  // the format does not round-trip
  return 0;
}
