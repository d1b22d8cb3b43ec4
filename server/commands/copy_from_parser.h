// commands/copy_from_parser.h
//
// CopyFromParser: the streaming reader of COPY FROM's text and CSV formats.
// It is fed the CopyData payloads exactly as they arrive (chunks need not
// end on a line: psql sends arbitrary chunks, pgbench one row per message
// and the legacy `\.` marker as a message of its own) and hands out one row
// at a time as field texts, NULL as std::nullopt. Behaviour follows
// PostgreSQL 15's COPY: escapes, NULL string, `\.` end marker, LF / CRLF /
// CR line endings (fixed by the first line), CSV quoting and escaping,
// HEADER (skip or MATCH), FORCE_NOT_NULL / FORCE_NULL, UTF-8 validation,
// and the same 22P04 / 22021 errors with a CONTEXT of `COPY t, line N`.
//
// No allocation per row in steady state: the input buffer, the de-escaped
// field buffer and the field vector are reused. One parser per COPY; not
// thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "commands/copy_options.h"

namespace hearth::commands {

// One row's field texts in column order; std::nullopt is SQL NULL.
using CopyFields = std::span<const std::optional<std::string_view>>;

class CopyFromParser {
 public:
  // `relname` names the table in CONTEXT lines; `columns` are the copied
  // columns' names (their count is the expected field count; names appear
  // in "missing data for column" and HEADER MATCH). `flags` may be empty
  // (no FORCE_* flags).
  // Binary format (PGCOPY): fields are the raw bytes of each value's
  // binary send format (see copy_binary_from.cpp).
  CopyFromParser(const CopyOptions& opts, std::string relname, std::vector<std::string> columns,
                 CopyColumnFlags flags = {});
  CopyFromParser(const CopyFromParser&) = delete;
  CopyFromParser& operator=(const CopyFromParser&) = delete;

  // Appends one chunk of COPY data. Data after the end marker is ignored.
  // Invalidates the fields last returned by NextRow.
  // REQUIRES: Finish() not called yet.
  // Throws 54000 when the open record would grow past kMaxRecordBytes.
  void Feed(std::string_view chunk);

  // Declares the end of input (CopyDone): a last line without a newline is
  // then a row. Invalidates the fields last returned by NextRow.
  void Finish();

  // Produces the next complete row into *fields and returns true; returns
  // false when more input is needed (or everything is done: see done()).
  // The views stay valid until the next NextRow, Feed or Finish call.
  // Throws DbError (22P04, 22021) with CONTEXT set; after an error the
  // parser must not be used again.
  bool NextRow(CopyFields* fields);

  // True once the end marker was seen, or Finish() was called and every row
  // has been returned.
  bool done() const { return done_; }

  // 1-based line number of the row last returned (or of the line where an
  // error was found). A CSV row with quoted newlines counts each line.
  uint64_t line_number() const { return lineno_; }
  const std::string& relname() const { return relname_; }
  bool binary() const { return opts_.binary(); }
  const std::vector<std::string>& columns() const { return columns_; }

  // CONTEXT text for an error about column `col` of the row last returned:
  // `COPY t, line N, column c: "value"` (value shortened to 100 bytes) or
  // `..., column c: null input`.
  std::string ColumnContext(size_t col, std::optional<std::string_view> value) const;

 private:
  enum class Eol { kUnknown, kNl, kCr, kCrNl };
  enum class Scan { kNeedMore, kLine, kLastLine, kMarker, kEndOfInput };

  // Finds the end of the record starting at pos_, resuming at scan_.
  Scan ScanRecord(size_t* line_end, size_t* next);
  // Checks a `\.` at in_[i]; returns kMarker, kNeedMore or kLine (= not a
  // marker, CSV only). Throws for a corrupt marker in text mode.
  Scan CheckEndMarker(size_t i);
  // Splits one record into fields_ (views into the line or fieldbuf_).
  void SplitText(std::string_view line);
  void SplitCsv(std::string_view line);
  void Split(std::string_view line) { opts_.csv() ? SplitCsv(line) : SplitText(line); }
  void CheckHeader(std::string_view line);
  // Binary format: NextRow's work (copy_binary_from.cpp).
  bool NextBinaryRow(CopyFields* fields);
  // Reads the PGCOPY file header; false when more input is needed.
  bool ReadBinaryHeader();
  // Throws 22P04 `msg` with the plain `COPY t, line N` context.
  [[noreturn]] void FailAtLine(std::string msg, const char* hint = nullptr) const;
  // 54000 unless `chunk` ends the open record within kMaxRecordBytes.
  void CheckRecordLength(std::string_view chunk) const;
  // PostgreSQL's MaxAllocSize: the longest COPY line it buffers.
  static constexpr size_t kMaxRecordBytes = (size_t{1} << 30) - 1;
  // Throws `state`/`msg` with `COPY t, line N: "line"` context.
  [[noreturn]] void FailWithLine(const char* state, std::string msg, std::string_view line) const;

  CopyOptions opts_;
  std::string relname_;
  std::vector<std::string> columns_;
  CopyColumnFlags flags_;
  int escape_ = -1;  // CSV escape byte when it differs from the quote, else -1

  std::string in_;     // unconsumed input; the current record starts at pos_
  size_t pos_ = 0;
  size_t scan_ = 0;    // where ScanRecord resumes
  bool eof_ = false;   // Finish() called
  bool done_ = false;  // nothing more will be returned
  Eol eol_ = Eol::kUnknown;
  bool record_open_ = false;  // lineno_ already counts the record being scanned
  bool in_quote_ = false;     // CSV scan state, valid while a record is open
  bool last_was_esc_ = false;
  bool header_pending_ = false;
  bool binary_header_read_ = false;
  uint64_t lineno_ = 0;

  std::string fieldbuf_;  // de-escaped field bytes of the current row
  std::vector<std::optional<std::string_view>> fields_;
};

}  // namespace hearth::commands
