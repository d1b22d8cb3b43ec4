// client/shell/error_format.h
//
// Renders a server ErrorResponse/NoticeResponse as psql 15 prints it with
// default verbosity:
//   ERROR:  message
//   LINE 2: ...the query line, cut to about 60 columns around the error...
//                  ^
//   DETAIL:  ...
//   HINT:  ...
//   CONTEXT:  ...        (errors only)
// Pure functions, thread-safe.
#pragma once

#include <string>
#include <string_view>

#include "client/result.h"

namespace hearth::client {

// `query` is the statement text the server saw (for the LINE/caret part; may
// be empty). `prefix` goes before the first line only (e.g. "hearth:f.sql:3: ").
std::string FormatServerMessage(const ErrorFields& e, std::string_view query,
                                std::string_view prefix = "", bool show_context = true);

// Just the "LINE n: ...\n<spaces>^\n" part, or "" when `position` (1-based,
// in characters) does not fall inside `query`.
std::string FormatErrorPosition(std::string_view query, int position);

}  // namespace hearth::client
