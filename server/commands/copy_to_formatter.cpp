// commands/copy_to_formatter.cpp
//
// Principal entry points: CopyToFormatter::AppendRow, AppendHeader.
// Each value's output text is appended straight to the output buffer; only
// when it holds a byte that needs escaping or quoting is it copied aside and
// rewritten, so numbers and plain strings cost one append.
#include "commands/copy_to_formatter.h"

#include "common/protocol/wire.h"
#include "utils/adt/binary_io.h"
#include "utils/adt/text_io.h"

namespace hearth::commands {

CopyToFormatter::CopyToFormatter(const CopyOptions& opts, std::vector<bool> force_quote)
    : opts_(opts), force_quote_(std::move(force_quote)) {
  auto mark = [this](char c) { special_[static_cast<unsigned char>(c)] = true; };
  mark(opts_.delimiter);
  mark('\n');
  mark('\r');
  if (opts_.csv()) {
    mark(opts_.quote);
  } else {
    for (char c : {'\\', '\b', '\f', '\t', '\v'}) mark(c);
  }
}

void CopyToFormatter::FinishField(std::string* out, size_t start, size_t column, size_t ncolumns) {
  std::string_view text(out->data() + start, out->size() - start);
  size_t k = 0;
  while (k < text.size() && !special_[static_cast<unsigned char>(text[k])]) k++;
  if (!opts_.csv()) {
    if (k == text.size()) return;
    scratch_.assign(text.data() + k, text.size() - k);
    out->resize(start + k);
    for (char c : scratch_) {
      switch (c) {
        case '\b': out->append("\\b"); break;
        case '\f': out->append("\\f"); break;
        case '\n': out->append("\\n"); break;
        case '\r': out->append("\\r"); break;
        case '\t': out->append("\\t"); break;
        case '\v': out->append("\\v"); break;
        default:
          // Backslash and the delimiter.
          if (c == '\\' || c == opts_.delimiter) out->push_back('\\');
          out->push_back(c);
          break;
      }
    }
    return;
  }
  bool quote = k < text.size() || text == opts_.null_string ||
               (column < force_quote_.size() && force_quote_[column]) || (ncolumns == 1 && text == "\\.");
  if (!quote) return;
  scratch_.assign(text.data(), text.size());
  out->resize(start);
  out->push_back(opts_.quote);
  for (char c : scratch_) {
    if (c == opts_.quote || c == opts_.escape) out->push_back(opts_.escape);
    out->push_back(c);
  }
  out->push_back(opts_.quote);
}

void CopyToFormatter::AppendBinaryRow(const std::vector<types::Value>& row, std::string* out) {
  protocol::PutInt16(*out, static_cast<int16_t>(row.size()));
  for (const types::Value& v : row) {
    if (v.is_null) {
      protocol::PutInt32(*out, -1);
      continue;
    }
    // The length word is patched once the value's bytes are appended.
    const size_t at = out->size();
    protocol::PutInt32(*out, 0);
    types::AppendBinary(v, out);
    const uint32_t len = static_cast<uint32_t>(out->size() - at - 4);
    for (int b = 0; b < 4; b++) (*out)[at + b] = static_cast<char>(len >> (24 - 8 * b));
  }
}

void CopyToFormatter::AppendBinaryHeader(std::string* out) {
  // Signature, flags (no OIDs), header-extension length 0.
  out->append("PGCOPY\n\377\r\n", 10);
  out->push_back('\0');
  protocol::PutInt32(*out, 0);
  protocol::PutInt32(*out, 0);
}

void CopyToFormatter::AppendBinaryTrailer(std::string* out) { protocol::PutInt16(*out, -1); }

void CopyToFormatter::AppendRow(const std::vector<types::Value>& row, std::string* out) {
  if (opts_.binary()) return AppendBinaryRow(row, out);
  for (size_t i = 0; i < row.size(); i++) {
    if (i > 0) out->push_back(opts_.delimiter);
    const types::Value& v = row[i];
    if (v.is_null) {
      out->append(opts_.null_string);
      continue;
    }
    size_t start = out->size();
    types::AppendOutput(v, out);
    FinishField(out, start, i, row.size());
  }
  out->push_back('\n');
}

void CopyToFormatter::AppendHeader(const std::vector<std::string>& names, std::string* out) {
  for (size_t i = 0; i < names.size(); i++) {
    if (i > 0) out->push_back(opts_.delimiter);
    size_t start = out->size();
    out->append(names[i]);
    // Header names are never force-quoted; pass a column past the flags.
    FinishField(out, start, force_quote_.size(), names.size());
  }
  out->push_back('\n');
}

}  // namespace hearth::commands
