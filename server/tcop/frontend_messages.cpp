// tcop/frontend_messages.cpp
//
// Principal entry points: DecodeParse, DecodeDescribe, DecodeClose,
// DecodeExecute, DecodeQuery.
#include "tcop/frontend_messages.h"

#include <string>

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "common/protocol/wire.h"

namespace hearth::tcop {

namespace {

TargetMessage DecodeTarget(std::string_view body, const char* what) {
  protocol::MessageReader r(body);
  auto kind = r.Byte();
  auto name = r.CString();
  if (!kind || !name) ProtocolViolation(std::string("invalid ") + what + " message");
  return {*kind, *name};
}

}  // namespace

void ProtocolViolation(const std::string& what) {
  throw DbError(sqlstate::kProtocolViolation, what, Severity::kFatal);
}

ParseMessage DecodeParse(std::string_view body) {
  protocol::MessageReader r(body);
  auto name = r.CString();
  auto query = r.CString();
  auto nparams = r.Int16();
  if (!name || !query || !nparams || *nparams < 0) ProtocolViolation("invalid Parse message");
  ParseMessage out{*name, *query, {}};
  out.param_types.reserve(static_cast<size_t>(*nparams));
  for (int i = 0; i < *nparams; i++) {
    auto oid = r.Int32();
    if (!oid) ProtocolViolation("invalid Parse message");
    out.param_types.push_back(static_cast<types::Oid>(*oid));
  }
  return out;
}

TargetMessage DecodeDescribe(std::string_view body) { return DecodeTarget(body, "Describe"); }
TargetMessage DecodeClose(std::string_view body) { return DecodeTarget(body, "Close"); }

ExecuteMessage DecodeExecute(std::string_view body) {
  protocol::MessageReader r(body);
  auto name = r.CString();
  auto max_rows = r.Int32();
  if (!name || !max_rows) ProtocolViolation("invalid Execute message");
  return {*name, *max_rows};
}

std::string_view DecodeQuery(std::string_view body) {
  if (body.empty() || body.back() != '\0') ProtocolViolation("invalid string in message");
  return body.substr(0, body.size() - 1);
}

}  // namespace hearth::tcop
