// client/shell/error_format.cpp
//
// Principal entry points: FormatServerMessage, FormatErrorPosition.
// The LINE/caret layout follows the behaviour documented for libpq's error
// display: show the query line holding the error position; if that line is
// wider than 60 columns, cut it so the error stays visible, keeping up to 10
// columns to its right, and mark each cut with "...".
#include "client/shell/error_format.h"

#include <cstdlib>
#include <vector>

#include "client/shell/aligned_format.h"

namespace hearth::client {
namespace {

constexpr size_t kDisplaySize = 60;  // widest query excerpt shown
constexpr size_t kMinRightCut = 10;  // columns kept right of the error

// One character of the query: its byte range and whether it ends a line.
struct Char {
  size_t begin;
  size_t len;
  bool newline;
};

size_t Utf8Length(unsigned char b) {
  if (b < 0x80) return 1;
  if ((b >> 5) == 0x6) return 2;
  if ((b >> 4) == 0xe) return 3;
  if ((b >> 3) == 0x1e) return 4;
  return 1;
}

}  // namespace

std::string FormatErrorPosition(std::string_view query, int position) {
  if (position <= 0 || query.empty()) return "";
  std::vector<Char> chars;
  for (size_t i = 0; i < query.size();) {
    size_t len = Utf8Length(static_cast<unsigned char>(query[i]));
    if (i + len > query.size()) len = 1;
    chars.push_back({i, len, query[i] == '\n' || query[i] == '\r'});
    i += len;
  }
  const size_t loc = static_cast<size_t>(position - 1);
  if (loc > chars.size()) return "";

  // Find the line containing loc: [line_begin, line_end) in chars.
  size_t line_no = 1;
  size_t line_begin = 0;
  for (size_t i = 0; i < loc && i < chars.size(); ++i) {
    if (chars[i].newline) {
      // "\r\n" is one line break.
      if (query[chars[i].begin] == '\r' && i + 1 < chars.size() &&
          query[chars[i + 1].begin] == '\n') {
        if (i + 1 >= loc) break;
        ++i;
      }
      ++line_no;
      line_begin = i + 1;
    }
  }
  size_t line_end = line_begin;
  while (line_end < chars.size() && !chars[line_end].newline) ++line_end;

  // Display column of each char in the line; tabs show as one space.
  auto width_of = [&](size_t ci) -> size_t {
    std::string_view s = query.substr(chars[ci].begin, chars[ci].len);
    return s == "\t" ? 1 : DisplayWidth(s);
  };
  auto span_width = [&](size_t from, size_t to) {
    size_t w = 0;
    for (size_t i = from; i < to; ++i) w += width_of(i);
    return w;
  };

  size_t begin = line_begin;
  size_t end = line_end;
  bool cut_left = false;
  bool cut_right = false;
  const size_t loc_in_line = loc < line_end ? loc : line_end;
  if (span_width(begin, end) > kDisplaySize) {
    const size_t loc_col = span_width(begin, loc_in_line);
    if (loc_col + kMinRightCut < kDisplaySize) {
      // Error near the start: keep the first kDisplaySize columns.
      while (end > begin && span_width(begin, end) > kDisplaySize) --end;
      cut_right = true;
    } else {
      // Keep kMinRightCut columns to the right of the error, then trim the
      // left until the excerpt fits.
      size_t right_end = loc_in_line;
      size_t w = 0;
      while (right_end < end && w < kMinRightCut) w += width_of(right_end++);
      if (right_end < end) {
        end = right_end;
        cut_right = true;
      }
      while (begin < loc_in_line && span_width(begin, end) > kDisplaySize) {
        ++begin;
        cut_left = true;
      }
    }
  }

  const std::string head = "LINE " + std::to_string(line_no) + ": ";
  std::string out = head;
  if (cut_left) out += "...";
  for (size_t i = begin; i < end; ++i) {
    std::string_view s = query.substr(chars[i].begin, chars[i].len);
    out += s == "\t" ? std::string_view(" ") : s;
  }
  if (cut_right) out += "...";
  out += '\n';
  out.append(head.size() + (cut_left ? 3 : 0) + span_width(begin, loc_in_line), ' ');
  out += "^\n";
  return out;
}

std::string FormatServerMessage(const ErrorFields& e, std::string_view query,
                                std::string_view prefix, bool show_context) {
  std::string out(prefix);
  out += e.severity.empty() ? "ERROR" : e.severity;
  out += ":  ";
  out += e.message;
  out += '\n';
  if (!e.position.empty()) out += FormatErrorPosition(query, std::atoi(e.position.c_str()));
  if (!e.detail.empty()) out += "DETAIL:  " + e.detail + "\n";
  if (!e.hint.empty()) out += "HINT:  " + e.hint + "\n";
  if (show_context && !e.where.empty()) out += "CONTEXT:  " + e.where + "\n";
  return out;
}

}  // namespace hearth::client
