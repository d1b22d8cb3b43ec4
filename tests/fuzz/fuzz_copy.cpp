// fuzz_copy: COPY FROM's text, CSV and binary readers and the per-column
// conversion, on arbitrary CopyData. The first bytes choose the options
// (format, HEADER, delimiter, quote/escape, FORCE_NOT_NULL / FORCE_NULL),
// the column count and types, and how the data is cut into CopyData
// messages; the rest is the data. A DbError is the expected answer to bad
// input; a crash, sanitizer report or other exception is a bug.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "commands/copy_from_parser.h"
#include "commands/copy_options.h"
#include "commands/copy_row_converter.h"
#include "common/error/db_error.h"
#include "fuzz_types.h"

namespace {

using hearth::commands::CopyColumn;
using hearth::commands::CopyColumnFlags;
using hearth::commands::CopyFields;
using hearth::commands::CopyFormat;
using hearth::commands::CopyFromParser;
using hearth::commands::CopyHeader;
using hearth::commands::CopyOptions;
using hearth::commands::CopyRowConverter;

constexpr size_t kSetupBytes = 9;

CopyOptions OptionsFrom(const uint8_t* s) {
  CopyOptions o;
  o.format = s[0] % 3 == 0 ? CopyFormat::kText : s[0] % 3 == 1 ? CopyFormat::kCsv : CopyFormat::kBinary;
  if (o.csv()) {
    o.delimiter = ',';
    o.null_string = "";
  }
  if (!o.binary()) {
    o.header = (s[1] & 3) == 1 ? CopyHeader::kSkip : (s[1] & 3) == 2 ? CopyHeader::kMatch : CopyHeader::kNone;
    // Any delimiter ParseCopyOptions accepts: one byte, not CR/LF, not the quote.
    if (s[1] & 4) {
      char d = static_cast<char>(s[2]);
      if (d != '\r' && d != '\n' && d != '"' && d != '\\' && d != 0) o.delimiter = d;
    }
    if (s[1] & 8) o.null_string = std::string(1, static_cast<char>(s[3] | 0x20));
    if (o.csv() && (s[1] & 16)) o.escape = '\\';
  }
  return o;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < kSetupBytes) return 0;
  const uint8_t* s = data;
  CopyOptions opts = OptionsFrom(s);
  const size_t ncols = 1 + s[4] % 4;
  std::vector<CopyColumn> columns;
  for (size_t i = 0; i < ncols; i++) {
    const auto& t = hearth::fuzz::PickType(s[5 + i]);
    columns.push_back({"c" + std::to_string(i), t.oid, t.typmod});
  }
  CopyColumnFlags flags;
  if (opts.csv() && (s[1] & 32)) flags.force_not_null.assign(ncols, true);
  if (opts.csv() && (s[1] & 64)) flags.force_null.assign(ncols, true);
  const size_t chunk = s[1] & 128 ? size_t{1} + s[2] % 16 : SIZE_MAX;
  std::string_view input(reinterpret_cast<const char*>(data) + kSetupBytes, size - kSetupBytes);

  CopyRowConverter converter(columns);
  CopyFromParser parser(opts, "t", converter.Names(), flags);
  std::vector<hearth::types::Value> row;
  CopyFields fields;
  try {
    auto drain = [&] {
      while (parser.NextRow(&fields)) {
        // The parser promises exactly one field per column (else 22P04).
        if (fields.size() != ncols) __builtin_trap();
        converter.Convert(fields, parser, &row);
      }
    };
    for (size_t pos = 0; pos < input.size() && !parser.done(); pos += chunk) {
      parser.Feed(input.substr(pos, std::min(chunk, input.size() - pos)));
      drain();
    }
    if (!parser.done()) {
      parser.Finish();
      drain();
    }
  } catch (const hearth::DbError&) {
  }
  return 0;
}
