// commands/copy_binary_from.cpp
//
// Principal entry point: CopyFromParser::NextBinaryRow — COPY FROM's binary
// format as PostgreSQL 15 writes it: the 11-byte signature "PGCOPY\n\377\r\n\0",
// an int32 flags word, an int32 header-extension length and that many bytes;
// then per row an int16 field count and per field an int32 length (-1 for
// NULL) followed by the value's binary send bytes; an int16 -1 ends the data.
// All integers are in network byte order. A row is handed out only once all
// its bytes have arrived (CopyData chunks may split it anywhere); its fields
// are views into the input buffer, so no bytes are copied per row. Rows are
// counted as "lines" like PostgreSQL's cur_lineno, for CONTEXT.
#include <cstring>

#include "commands/copy_from_parser.h"
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"

namespace hearth::commands {

namespace {

constexpr char kSignature[] = "PGCOPY\n\377\r\n";  // + the terminating '\0': 11 bytes
constexpr size_t kSignatureLen = 11;

uint32_t GetUint32(const char* p) {
  const auto* u = reinterpret_cast<const unsigned char*>(p);
  return (uint32_t{u[0]} << 24) | (uint32_t{u[1]} << 16) | (uint32_t{u[2]} << 8) | uint32_t{u[3]};
}

int32_t GetInt32(const char* p) { return static_cast<int32_t>(GetUint32(p)); }

int16_t GetInt16(const char* p) {
  const auto* u = reinterpret_cast<const unsigned char*>(p);
  return static_cast<int16_t>((uint16_t{u[0]} << 8) | uint16_t{u[1]});
}

// Header errors carry no CONTEXT line: PostgreSQL reads the header before
// it starts counting rows.
[[noreturn]] void FailHeader(const char* msg) { throw DbError(sqlstate::kBadCopyFileFormat, msg); }

}  // namespace

bool CopyFromParser::ReadBinaryHeader() {
  const size_t avail = in_.size() - pos_;
  const char* p = in_.data() + pos_;
  if (avail < kSignatureLen && !eof_) return false;
  if (avail < kSignatureLen || std::memcmp(p, kSignature, kSignatureLen) != 0) {
    FailHeader("COPY file signature not recognized");
  }
  if (avail < kSignatureLen + 4) {
    if (eof_) FailHeader("invalid COPY file header (missing flags)");
    return false;
  }
  const uint32_t flags = GetUint32(p + kSignatureLen);
  if ((flags & (1u << 16)) != 0) FailHeader("invalid COPY file header (WITH OIDS)");
  if ((flags >> 16) != 0) FailHeader("unrecognized critical flags in COPY file header");
  if (avail < kSignatureLen + 8) {
    if (eof_) FailHeader("invalid COPY file header (missing length)");
    return false;
  }
  const int32_t ext = GetInt32(p + kSignatureLen + 4);
  if (ext < 0) FailHeader("invalid COPY file header (missing length)");
  const size_t header = kSignatureLen + 8 + static_cast<size_t>(ext);
  if (avail < header) {
    if (eof_) FailHeader("invalid COPY file header (wrong length)");
    return false;
  }
  pos_ += header;  // the extension area's contents are skipped, as PostgreSQL does
  binary_header_read_ = true;
  return true;
}

bool CopyFromParser::NextBinaryRow(CopyFields* out) {
  if (done_) return false;
  if (!binary_header_read_ && !ReadBinaryHeader()) return false;
  const size_t avail = in_.size() - pos_;
  const char* p = in_.data() + pos_;
  if (avail == 0 && eof_) {
    done_ = true;  // end of data without the trailer: accepted, as PostgreSQL does
    return false;
  }
  // Errors in this row name its number; lineno_ moves only once it is whole.
  const uint64_t row_line = lineno_ + 1;
  auto fail = [&](std::string msg) {
    lineno_ = row_line;
    FailAtLine(std::move(msg));
  };
  auto need_more = [&]() {
    if (eof_) fail("unexpected EOF in COPY data");
    return false;
  };
  if (avail < 2) return need_more();
  const int16_t count = GetInt16(p);
  if (count == -1) {
    lineno_ = row_line;
    done_ = true;  // the trailer; anything after it is ignored
    return false;
  }
  if (count != static_cast<int16_t>(columns_.size()) || count < 0) {
    fail("row field count is " + std::to_string(count) + ", expected " + std::to_string(columns_.size()));
  }
  // First make sure the whole row is here, then cut it into views.
  size_t off = 2;
  for (int16_t f = 0; f < count; f++) {
    if (avail - off < 4) return need_more();
    const int32_t len = GetInt32(p + off);
    off += 4;
    if (len < -1) fail("invalid field size");
    if (len > 0) {
      if (avail - off < static_cast<size_t>(len)) return need_more();
      off += static_cast<size_t>(len);
    }
  }
  fields_.clear();
  size_t at = 2;
  for (int16_t f = 0; f < count; f++) {
    const int32_t len = GetInt32(p + at);
    at += 4;
    if (len == -1) {
      fields_.emplace_back(std::nullopt);
      continue;
    }
    fields_.emplace_back(std::string_view(p + at, static_cast<size_t>(len)));
    at += static_cast<size_t>(len);
  }
  pos_ += off;
  lineno_ = row_line;
  *out = CopyFields(fields_);
  return true;
}

}  // namespace hearth::commands
