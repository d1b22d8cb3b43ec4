// client/shell/aligned_format.cpp
//
// Principal entry points: FormatTable, DisplayWidth.
// Layout rules were read off psql 15's output (see README.md): every cell is
// framed by one space on each side, columns are joined by '|', the rule line
// is '-' × (width + 2) joined by '+', and the last column of a data line is
// not padded on the right unless it is right-aligned or continues.
#include "client/shell/aligned_format.h"

#include <algorithm>
#include <vector>

namespace hearth::client {
namespace {

// Decodes the code point at s[*i] and advances *i; invalid bytes decode as
// themselves, one byte each.
uint32_t NextCodePoint(std::string_view s, size_t* i) {
  const auto b0 = static_cast<unsigned char>(s[*i]);
  size_t len = b0 < 0x80 ? 1 : (b0 >> 5) == 0x6 ? 2 : (b0 >> 4) == 0xe ? 3 : (b0 >> 3) == 0x1e ? 4 : 0;
  if (len == 0 || *i + len > s.size()) {
    ++*i;
    return b0;
  }
  uint32_t cp = len == 1 ? b0 : len == 2 ? (b0 & 0x1f) : len == 3 ? (b0 & 0x0f) : (b0 & 0x07);
  for (size_t k = 1; k < len; ++k) {
    const auto b = static_cast<unsigned char>(s[*i + k]);
    if ((b & 0xc0) != 0x80) {
      ++*i;
      return b0;
    }
    cp = (cp << 6) | (b & 0x3f);
  }
  *i += len;
  return cp;
}

int CodePointWidth(uint32_t cp) {
  if ((cp >= 0x0300 && cp <= 0x036f) || (cp >= 0x200b && cp <= 0x200f)) return 0;
  if ((cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf && cp != 0x303f) ||
      (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0xf900 && cp <= 0xfaff) ||
      (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) ||
      (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x1f300 && cp <= 0x1f64f) ||
      (cp >= 0x1f900 && cp <= 0x1f9ff) || (cp >= 0x20000 && cp <= 0x3fffd)) {
    return 2;
  }
  return 1;
}

// Splits a cell into its lines (views into `text`).
void SplitLines(std::string_view text, std::vector<std::string_view>* lines) {
  lines->clear();
  size_t start = 0;
  for (;;) {
    size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) {
      lines->push_back(text.substr(start));
      return;
    }
    lines->push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
}

// Tabs show as spaces up to the next multiple of 8 columns, as in psql.
std::string_view ExpandTabs(std::string_view line, std::string* scratch) {
  scratch->clear();
  size_t col = 0;
  size_t i = 0;
  while (i < line.size()) {
    if (line[i] == '\t') {
      const size_t n = 8 - col % 8;
      scratch->append(n, ' ');
      col += n;
      ++i;
      continue;
    }
    const size_t start = i;
    const int w = CodePointWidth(NextCodePoint(line, &i));
    scratch->append(line.substr(start, i - start));
    col += static_cast<size_t>(w);
  }
  return *scratch;
}

void Pad(std::string* out, size_t n) { out->append(n, ' '); }

void AppendFooter(size_t rows, std::string* out) {
  *out += rows == 1 ? "(1 row)\n" : "(" + std::to_string(rows) + " rows)\n";
}

void FormatUnaligned(const Result& r, const PrintOptions& opts, std::string* out) {
  const size_t ncols = r.columns.size();
  if (!opts.tuples_only) {
    for (size_t c = 0; c < ncols; ++c) {
      if (c > 0) *out += opts.field_separator;
      *out += r.columns[c].name;
    }
    *out += '\n';
  }
  for (const Row& row : r.rows) {
    for (size_t c = 0; c < ncols; ++c) {
      if (c > 0) *out += opts.field_separator;
      const auto& v = c < row.size() ? row[c] : std::nullopt;
      *out += v ? *v : opts.null_display;
    }
    *out += '\n';
  }
  if (!opts.tuples_only) AppendFooter(r.rows.size(), out);
}

}  // namespace

size_t DisplayWidth(std::string_view text) {
  size_t width = 0;
  size_t i = 0;
  while (i < text.size()) width += static_cast<size_t>(CodePointWidth(NextCodePoint(text, &i)));
  return width;
}

void FormatTable(const Result& r, const PrintOptions& opts, std::string* out) {
  if (opts.format == PrintOptions::Format::kUnaligned) {
    FormatUnaligned(r, opts, out);
    return;
  }
  const size_t ncols = r.columns.size();
  std::vector<size_t> widths(ncols, 0);
  std::vector<bool> right(ncols, false);
  std::vector<std::string_view> lines;
  for (size_t c = 0; c < ncols; ++c) {
    right[c] = IsNumericTypeOid(r.columns[c].type_oid);
    // psql sizes columns by their headers even when -t hides them.
    widths[c] = DisplayWidth(r.columns[c].name);
  }
  std::string expanded;
  for (const Row& row : r.rows) {
    for (size_t c = 0; c < ncols && c < row.size(); ++c) {
      std::string_view v = row[c] ? std::string_view(*row[c]) : opts.null_display;
      SplitLines(v, &lines);
      for (auto line : lines) {
        if (line.find('\t') != std::string_view::npos) line = ExpandTabs(line, &expanded);
        widths[c] = std::max(widths[c], DisplayWidth(line));
      }
    }
  }

  if (!opts.tuples_only) {
    if (ncols > 0) {
      for (size_t c = 0; c < ncols; ++c) {
        *out += c == 0 ? " " : " | ";
        const size_t w = DisplayWidth(r.columns[c].name);
        const size_t extra = widths[c] - w;
        Pad(out, extra / 2);
        *out += r.columns[c].name;
        Pad(out, extra - extra / 2);
      }
      *out += " \n";
    }
    for (size_t c = 0; c < ncols; ++c) {
      if (c > 0) *out += '+';
      out->append(widths[c] + 2, '-');
    }
    if (ncols == 0) *out += "--";
    *out += '\n';
  }

  // One line of output per line of the tallest cell in the row.
  std::vector<std::vector<std::string_view>> cells(ncols);
  for (const Row& row : r.rows) {
    if (ncols == 0) continue;
    size_t height = 1;
    for (size_t c = 0; c < ncols; ++c) {
      std::string_view v =
          c < row.size() && row[c] ? std::string_view(*row[c]) : std::string_view(opts.null_display);
      SplitLines(v, &cells[c]);
      height = std::max(height, cells[c].size());
    }
    for (size_t l = 0; l < height; ++l) {
      *out += ' ';
      for (size_t c = 0; c < ncols; ++c) {
        const bool last = c + 1 == ncols;
        std::string_view text = l < cells[c].size() ? cells[c][l] : std::string_view();
        const bool continues = l + 1 < cells[c].size();
        if (last && l >= cells[c].size()) break;  // nothing left of this cell: no padding
        if (text.find('\t') != std::string_view::npos) text = ExpandTabs(text, &expanded);
        const size_t pad = widths[c] - DisplayWidth(text);
        if (right[c]) {
          Pad(out, pad);
          *out += text;
        } else {
          *out += text;
          if (!last || continues) Pad(out, pad);
        }
        if (!last) {
          *out += continues ? "+| " : " | ";
        } else if (continues) {
          *out += '+';
        }
      }
      *out += '\n';
    }
  }
  if (!opts.tuples_only) AppendFooter(r.rows.size(), out);
  *out += '\n';
}

}  // namespace hearth::client
