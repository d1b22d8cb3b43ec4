// client/shell/aligned_format.h
//
// Renders a row-returning Result the way psql 15 does: "aligned" (header
// centered, "-+-" rule, numeric type OIDs right-aligned, "(N rows)" footer
// and a blank line, '+' markers for values containing newlines) or
// "unaligned" (-A: fields joined by a separator). Pure functions, thread-safe.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "client/result.h"

namespace hearth::client {

struct PrintOptions {
  enum class Format { kAligned, kUnaligned };
  Format format = Format::kAligned;
  bool tuples_only = false;        // -t: no header, no footer
  std::string field_separator = "|";  // unaligned only
  std::string null_display;        // what NULL prints as (psql default: empty)
};

// Appends the rendering of `result` (which has columns) to *out.
void FormatTable(const Result& result, const PrintOptions& opts, std::string* out);

// Columns a terminal uses for UTF-8 text: one per code point, two for East
// Asian wide/fullwidth characters, zero for combining marks. Invalid bytes
// count one each.
size_t DisplayWidth(std::string_view text);

}  // namespace hearth::client
