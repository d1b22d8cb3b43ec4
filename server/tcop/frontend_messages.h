// tcop/frontend_messages.h
//
// Decoders of the extended-protocol messages whose fields can be read
// before any session state is consulted: Parse, Describe, Close, Execute,
// and the simple Query's text. Each takes the message body (after type and
// length) and throws DbError FATAL 08P01 with PostgreSQL's message when the
// layout is broken. The results view into the body. Pure: safe from any
// thread. (Bind interleaves reading with statement lookup and value input;
// QueryProtocol::Bind reads it itself.)
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "utils/adt/type_oid.h"

namespace hearth::tcop {

// Throws the FATAL 08P01 `what` (a broken message ends the session).
[[noreturn]] void ProtocolViolation(const std::string& what);

struct ParseMessage {
  std::string_view name;
  std::string_view query;
  std::vector<types::Oid> param_types;
};
ParseMessage DecodeParse(std::string_view body);

// Describe and Close: 'S' (statement) or 'P' (portal) and a name. Another
// kind byte is left to the caller, whose message names the command.
struct TargetMessage {
  uint8_t kind = 0;
  std::string_view name;
};
TargetMessage DecodeDescribe(std::string_view body);
TargetMessage DecodeClose(std::string_view body);

struct ExecuteMessage {
  std::string_view portal;
  int32_t max_rows = 0;  // <= 0: all rows
};
ExecuteMessage DecodeExecute(std::string_view body);

// A simple Query's text (the body without its terminating NUL).
std::string_view DecodeQuery(std::string_view body);

}  // namespace hearth::tcop
