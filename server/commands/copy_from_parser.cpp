// commands/copy_from_parser.cpp
//
// Principal entry points: CopyFromParser::Feed, Finish, NextRow.
//
// Two stages per record, as in PostgreSQL: find where the record ends (line
// endings, the `\.` marker, CSV quotes that hide newlines), then split it
// into fields. The first stage resumes where it stopped when a chunk ends
// mid-record, so a long record fed in many chunks is scanned once.
#include "commands/copy_from_parser.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "commands/copy_util.h"
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"

namespace hearth::commands {

namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool IsOctal(char c) { return c >= '0' && c <= '7'; }

constexpr size_t kNone = SIZE_MAX;

// Position of the first `c` in d[from, to), or `to`: memchr, which looks at
// many bytes per step.
size_t FindByte(const char* d, size_t from, size_t to, char c) {
  const void* p = from < to ? std::memchr(d + from, c, to - from) : nullptr;
  return p != nullptr ? static_cast<size_t>(static_cast<const char*>(p) - d) : to;
}

// The first `c` in [p, end), or end. Fields are often short: the first 16
// bytes are looked at one by one (cheaper than a call), the rest by memchr.
const char* FindInField(const char* p, const char* end, char c) {
  const char* const stop = end - p > 16 ? p + 16 : end;
  for (; p < stop; ++p) {
    if (*p == c) return p;
  }
  if (p == end) return end;
  const void* hit = std::memchr(p, c, static_cast<size_t>(end - p));
  return hit != nullptr ? static_cast<const char*>(hit) : end;
}

// The next byte of text-format input that ends or escapes something ('\n',
// '\r', '\\') at or after a position. Each kind is found with memchr and
// kept until the scan passes it; '\r' and '\\' are looked for only up to the
// next newline. So a record costs O(its length), however many escapes it has.
class TextStops {
 public:
  TextStops(const char* d, size_t n) : d_(d), n_(n) {}
  size_t Next(size_t i) {
    if (nl_ == kNone || nl_ < i) nl_ = FindByte(d_, i, n_, '\n');
    if (bs_ == kNone || bs_ < i) bs_ = FindByte(d_, i, nl_, '\\');
    if (cr_ == kNone || cr_ < i) cr_ = FindByte(d_, i, nl_, '\r');
    return std::min({nl_, bs_, cr_});
  }

 private:
  const char* d_;
  size_t n_;
  size_t nl_ = kNone, bs_ = kNone, cr_ = kNone;
};

}  // namespace

CopyFromParser::CopyFromParser(const CopyOptions& opts, std::string relname, std::vector<std::string> columns,
                               CopyColumnFlags flags)
    : opts_(opts), relname_(std::move(relname)), columns_(std::move(columns)), flags_(std::move(flags)) {
  if (opts_.csv() && opts_.escape != opts_.quote) escape_ = static_cast<unsigned char>(opts_.escape);
  header_pending_ = opts_.header != CopyHeader::kNone;
  if (flags_.force_not_null.size() != columns_.size()) flags_.force_not_null.assign(columns_.size(), false);
  if (flags_.force_null.size() != columns_.size()) flags_.force_null.assign(columns_.size(), false);
  fields_.reserve(columns_.size() + 1);
}

void CopyFromParser::Feed(std::string_view chunk) {
  if (done_) return;  // after `\.` the rest of the data is ignored
  if (pos_ > 0) {
    // Drop consumed records; the partial one moves to the front.
    in_.erase(0, pos_);
    scan_ = scan_ > pos_ ? scan_ - pos_ : 0;  // only meaningful while a record is open
    pos_ = 0;
  }
  if (!opts_.binary() && in_.size() + chunk.size() > kMaxRecordBytes) CheckRecordLength(chunk);
  in_.append(chunk.data(), chunk.size());
}

// What is buffered is the open record (the session consumes every complete
// one after each Feed). PostgreSQL's line buffer stops at 1 GB with 54000;
// so does this one, instead of growing with whatever a client sends.
void CopyFromParser::CheckRecordLength(std::string_view chunk) const {
  const size_t room = kMaxRecordBytes > in_.size() ? kMaxRecordBytes - in_.size() : 0;
  if (chunk.substr(0, room).find_first_of("\r\n") != std::string_view::npos) return;
  DbError e(sqlstate::kProgramLimitExceeded, "out of memory");
  e.WithDetail("Cannot enlarge string buffer containing " + std::to_string(in_.size()) + " bytes by " +
               std::to_string(chunk.size()) + " more bytes.");
  e.WithContext("COPY " + relname_ + ", line " + std::to_string(record_open_ ? lineno_ : lineno_ + 1));
  throw e;
}

void CopyFromParser::Finish() { eof_ = true; }

void CopyFromParser::FailAtLine(std::string msg, const char* hint) const {
  DbError e(sqlstate::kBadCopyFileFormat, std::move(msg));
  if (hint != nullptr) e.WithHint(hint);
  e.WithContext("COPY " + relname_ + ", line " + std::to_string(lineno_));
  throw e;
}

void CopyFromParser::FailWithLine(const char* state, std::string msg, std::string_view line) const {
  throw DbError(state, std::move(msg))
      .WithContext("COPY " + relname_ + ", line " + std::to_string(lineno_) + ": \"" + LimitPrintout(line) + "\"");
}

std::string CopyFromParser::ColumnContext(size_t col, std::optional<std::string_view> value) const {
  std::string out = "COPY " + relname_ + ", line " + std::to_string(lineno_) + ", column " + columns_.at(col);
  if (value) {
    out += ": \"" + LimitPrintout(*value) + "\"";
  } else {
    out += ": null input";
  }
  return out;
}

CopyFromParser::Scan CopyFromParser::CheckEndMarker(size_t i) {
  // in_[i] == '\\' and in_[i + 1] == '.'.
  const char* d = in_.data();
  const size_t n = in_.size();
  const bool csv = opts_.csv();
  size_t j = i + 2;
  if (j >= n && eof_) return Scan::kMarker;  // `\.` at the very end of the data
  char c;
  if (eol_ == Eol::kCrNl) {
    if (j >= n) return Scan::kNeedMore;
    c = d[j++];
    if (c == '\n') {
      if (!csv) FailAtLine("end-of-copy marker does not match previous newline style");
      return Scan::kLine;
    }
    if (c != '\r') {
      if (!csv) FailAtLine("end-of-copy marker corrupt");
      return Scan::kLine;
    }
  }
  if (j >= n && !eof_) return Scan::kNeedMore;
  c = j < n ? d[j] : '\0';
  if (c != '\r' && c != '\n') {
    if (!csv) FailAtLine("end-of-copy marker corrupt");
    return Scan::kLine;
  }
  if ((eol_ == Eol::kNl && c != '\n') || (eol_ == Eol::kCrNl && c != '\n') || (eol_ == Eol::kCr && c != '\r')) {
    FailAtLine("end-of-copy marker does not match previous newline style");
  }
  return Scan::kMarker;
}

CopyFromParser::Scan CopyFromParser::ScanRecord(size_t* line_end, size_t* next) {
  const char* d = in_.data();
  const size_t n = in_.size();
  const bool csv = opts_.csv();
  const char quote = opts_.quote;
  size_t i = scan_;
  TextStops stops(d, n);
  while (i < n) {
    if (!csv) {
      // Skip ordinary bytes.
      i = stops.Next(i);
      if (i >= n) break;
    }
    const char c = d[i];
    if (c == '\\' && (!csv || i == pos_)) {
      if (i + 1 >= n) {
        if (!eof_) {
          scan_ = i;
          return Scan::kNeedMore;
        }
        // A backslash as the last byte of the data ends the last line.
        i = n;
        break;
      }
      if (d[i + 1] == '.') {
        Scan s = CheckEndMarker(i);
        if (s == Scan::kNeedMore) {
          scan_ = i;
          return s;
        }
        if (s == Scan::kMarker) {
          *line_end = i;
          *next = n;
          return s;
        }
        // CSV: `\.` followed by more text is data.
      } else if (!csv) {
        i += 2;  // the escaped byte, even a newline, belongs to the line
        continue;
      }
    }
    if (c == '\r' && i + 1 >= n && !eof_ && (csv || eol_ == Eol::kUnknown || eol_ == Eol::kCrNl)) {
      // Need the next byte to tell CR from CRLF.
      scan_ = i;
      return Scan::kNeedMore;
    }
    if (csv) {
      if (in_quote_ && static_cast<unsigned char>(c) == escape_) last_was_esc_ = !last_was_esc_;
      if (c == quote && !last_was_esc_) in_quote_ = !in_quote_;
      if (static_cast<unsigned char>(c) != escape_) last_was_esc_ = false;
      // Newlines inside quotes count as lines, as PostgreSQL counts them.
      if (in_quote_ && c == (eol_ == Eol::kNl ? '\n' : '\r')) lineno_++;
      if (in_quote_) {
        i++;
        continue;
      }
    }
    if (c == '\r') {
      if (eol_ == Eol::kUnknown || eol_ == Eol::kCrNl) {
        char c2 = i + 1 < n ? d[i + 1] : '\0';
        if (c2 == '\n') {
          eol_ = Eol::kCrNl;
          *line_end = i;
          *next = i + 2;
          return Scan::kLine;
        }
        if (eol_ == Eol::kCrNl) {
          FailAtLine(csv ? "unquoted carriage return found in data" : "literal carriage return found in data",
                     csv ? "Use quoted CSV field to represent carriage return."
                         : "Use \"\\r\" to represent carriage return.");
        }
        eol_ = Eol::kCr;
      } else if (eol_ == Eol::kNl) {
        FailAtLine(csv ? "unquoted carriage return found in data" : "literal carriage return found in data",
                   csv ? "Use quoted CSV field to represent carriage return."
                       : "Use \"\\r\" to represent carriage return.");
      }
      *line_end = i;
      *next = i + 1;
      return Scan::kLine;
    }
    if (c == '\n') {
      if (eol_ == Eol::kCr || eol_ == Eol::kCrNl) {
        FailAtLine(csv ? "unquoted newline found in data" : "literal newline found in data",
                   csv ? "Use quoted CSV field to represent newline." : "Use \"\\n\" to represent newline.");
      }
      eol_ = Eol::kNl;
      *line_end = i;
      *next = i + 1;
      return Scan::kLine;
    }
    i++;
  }
  if (!eof_) {
    scan_ = n;
    return Scan::kNeedMore;
  }
  if (pos_ >= n) return Scan::kEndOfInput;
  *line_end = n;
  *next = n;
  return Scan::kLastLine;
}

bool CopyFromParser::NextRow(CopyFields* out) {
  if (opts_.binary()) return NextBinaryRow(out);
  for (;;) {
    if (done_) return false;
    if (!record_open_) {
      if (pos_ >= in_.size() && !eof_) return false;
      record_open_ = true;
      lineno_++;
      scan_ = pos_;
      in_quote_ = false;
      last_was_esc_ = false;
    }
    size_t line_end = 0, next = 0;
    Scan s = ScanRecord(&line_end, &next);
    if (s == Scan::kNeedMore) return false;
    record_open_ = false;
    if (s == Scan::kEndOfInput) {
      done_ = true;
      return false;
    }
    std::string_view line(in_.data() + pos_, line_end - pos_);
    pos_ = next;
    if (s == Scan::kMarker || s == Scan::kLastLine) {
      done_ = true;
      if (line.empty()) return false;
    }
    size_t ok = ValidUtf8Prefix(line);
    if (ok != line.size()) {
      try {
        ThrowInvalidUtf8(line, ok);
      } catch (DbError& e) {
        e.WithContext("COPY " + relname_ + ", line " + std::to_string(lineno_));
        throw;
      }
    }
    if (header_pending_) {
      header_pending_ = false;
      if (opts_.header == CopyHeader::kMatch) CheckHeader(line);
      continue;
    }
    const size_t ncols = columns_.size();
    if (ncols == 0) {
      // A zero-column COPY accepts only empty lines.
      if (!line.empty()) FailWithLine(sqlstate::kBadCopyFileFormat, "extra data after last expected column", line);
      fields_.clear();
      *out = CopyFields(fields_.data(), 0);
      return true;
    }
    Split(line);
    if (fields_.size() > ncols) {
      FailWithLine(sqlstate::kBadCopyFileFormat, "extra data after last expected column", line);
    }
    if (fields_.size() < ncols) {
      FailWithLine(sqlstate::kBadCopyFileFormat, "missing data for column \"" + columns_[fields_.size()] + "\"",
                   line);
    }
    if (opts_.csv()) {
      for (size_t m = 0; m < ncols; m++) {
        if (!fields_[m] && flags_.force_not_null[m]) {
          fields_[m] = std::string_view(opts_.null_string);
        } else if (fields_[m] && flags_.force_null[m] && *fields_[m] == opts_.null_string) {
          fields_[m] = std::nullopt;
        }
      }
    }
    *out = CopyFields(fields_.data(), fields_.size());
    return true;
  }
}

void CopyFromParser::CheckHeader(std::string_view line) {
  Split(line);
  if (fields_.size() != columns_.size()) {
    FailWithLine(sqlstate::kBadCopyFileFormat,
                 "wrong number of fields in header line: got " + std::to_string(fields_.size()) + ", expected " +
                     std::to_string(columns_.size()),
                 line);
  }
  for (size_t i = 0; i < columns_.size(); i++) {
    std::string field_no = std::to_string(i + 1);
    if (!fields_[i]) {
      FailWithLine(sqlstate::kBadCopyFileFormat,
                   "column name mismatch in header line field " + field_no + ": got null value (\"" +
                       opts_.null_string + "\"), expected \"" + columns_[i] + "\"",
                   line);
    }
    if (*fields_[i] != columns_[i]) {
      FailWithLine(sqlstate::kBadCopyFileFormat,
                   "column name mismatch in header line field " + field_no + ": got \"" + std::string(*fields_[i]) +
                       "\", expected \"" + columns_[i] + "\"",
                   line);
    }
  }
}

void CopyFromParser::SplitText(std::string_view line) {
  fields_.clear();
  // De-escaping never lengthens a field, so the whole line fits and the
  // buffer never moves while views into it are being made.
  if (fieldbuf_.size() < line.size()) fieldbuf_.resize(line.size());
  char* outp = fieldbuf_.data();
  const char delim = opts_.delimiter;
  const std::string_view null_str = opts_.null_string;
  const char* p = line.data();
  const char* const end = p + line.size();
  // The next backslash (memchr once per line, again only after passing it).
  const char* next_bs = nullptr;
  for (;;) {
    const char* start = p;
    if (next_bs == nullptr || next_bs < p) {
      const void* b = std::memchr(p, '\\', static_cast<size_t>(end - p));
      next_bs = b != nullptr ? static_cast<const char*>(b) : end;
    }
    const char* q = FindInField(p, next_bs, delim);  // a backslash first ends the plain part
    bool found_delim = false;
    std::string_view raw;
    std::string_view value;
    if (q == end || *q == delim) {
      // No escapes: the field is the input text itself.
      raw = std::string_view(start, static_cast<size_t>(q - start));
      value = raw;
      found_delim = q < end;
      p = found_delim ? q + 1 : q;
    } else {
      char* fstart = outp;
      std::memcpy(outp, start, static_cast<size_t>(q - start));
      outp += q - start;
      p = q;
      const char* raw_end = end;
      bool saw_non_ascii = false;
      for (;;) {
        if (p >= end) {
          raw_end = end;
          break;
        }
        char c = *p++;
        if (c == delim) {
          found_delim = true;
          raw_end = p - 1;
          break;
        }
        if (c == '\\') {
          if (p >= end) {
            raw_end = p - 1;  // a trailing backslash is dropped
            break;
          }
          c = *p++;
          switch (c) {
            case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': {
              int val = c - '0';
              if (p < end && IsOctal(*p)) {
                val = (val << 3) + (*p++ - '0');
                if (p < end && IsOctal(*p)) val = (val << 3) + (*p++ - '0');
              }
              c = static_cast<char>(val & 0xff);
              if (c == '\0' || (static_cast<unsigned char>(c) & 0x80) != 0) saw_non_ascii = true;
              break;
            }
            case 'x':
              if (p < end && HexValue(*p) >= 0) {
                int val = HexValue(*p++);
                if (p < end && HexValue(*p) >= 0) val = (val << 4) + HexValue(*p++);
                c = static_cast<char>(val & 0xff);
                if (c == '\0' || (static_cast<unsigned char>(c) & 0x80) != 0) saw_non_ascii = true;
              }
              break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case 'n': c = '\n'; break;
            case 'r': c = '\r'; break;
            case 't': c = '\t'; break;
            case 'v': c = '\v'; break;
            default: break;  // any other byte stands for itself
          }
        }
        *outp++ = c;
      }
      raw = std::string_view(start, static_cast<size_t>(raw_end - start));
      value = std::string_view(fstart, static_cast<size_t>(outp - fstart));
      if (saw_non_ascii) {
        size_t ok = ValidUtf8Prefix(value);
        if (ok != value.size()) {
          try {
            ThrowInvalidUtf8(value, ok);
          } catch (DbError& e) {
            e.WithContext("COPY " + relname_ + ", line " + std::to_string(lineno_) + ": \"" + LimitPrintout(line) +
                          "\"");
            throw;
          }
        }
      }
    }
    // NULL is decided on the raw text: `\N` is NULL, `\\N` is the text \N.
    if (raw == null_str) {
      fields_.emplace_back(std::nullopt);
    } else {
      fields_.emplace_back(value);
    }
    if (!found_delim) break;
  }
}

void CopyFromParser::SplitCsv(std::string_view line) {
  fields_.clear();
  if (fieldbuf_.size() < line.size()) fieldbuf_.resize(line.size());
  char* outp = fieldbuf_.data();
  const char delim = opts_.delimiter;
  const char quote = opts_.quote;
  const char escape = opts_.escape;
  const std::string_view null_str = opts_.null_string;
  const char* p = line.data();
  const char* const end = p + line.size();
  for (;;) {
    const char* start = p;
    const char* q = p;
    while (q < end && *q != delim && *q != quote) q++;
    bool found_delim = false;
    bool saw_quote = false;
    std::string_view raw;
    std::string_view value;
    if (q == end || *q == delim) {
      raw = std::string_view(start, static_cast<size_t>(q - start));
      value = raw;
      found_delim = q < end;
      p = found_delim ? q + 1 : q;
    } else {
      // A field may mix unquoted and quoted parts: abc"d,e"f is `abcd,ef`.
      char* fstart = outp;
      std::memcpy(outp, start, static_cast<size_t>(q - start));
      outp += q - start;
      p = q;
      const char* raw_end = end;
      for (;;) {
        // Outside quotes.
        bool ended = false;
        for (;;) {
          if (p >= end) {
            raw_end = end;
            ended = true;
            break;
          }
          char c = *p++;
          if (c == delim) {
            found_delim = true;
            raw_end = p - 1;
            ended = true;
            break;
          }
          if (c == quote) {
            saw_quote = true;
            break;
          }
          *outp++ = c;
        }
        if (ended) break;
        // Inside quotes.
        for (;;) {
          if (p >= end) FailWithLine(sqlstate::kBadCopyFileFormat, "unterminated CSV quoted field", line);
          char c = *p++;
          // The escape counts only before a quote or another escape; test
          // it before the closing quote since both are usually `"`.
          if (c == escape && p < end && (*p == escape || *p == quote)) {
            *outp++ = *p++;
            continue;
          }
          if (c == quote) break;
          *outp++ = c;
        }
      }
      raw = std::string_view(start, static_cast<size_t>(raw_end - start));
      value = std::string_view(fstart, static_cast<size_t>(outp - fstart));
    }
    if (!saw_quote && raw == null_str) {
      fields_.emplace_back(std::nullopt);
    } else {
      fields_.emplace_back(value);
    }
    if (!found_delim) break;
  }
}

}  // namespace hearth::commands
