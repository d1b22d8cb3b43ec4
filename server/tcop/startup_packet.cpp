// tcop/startup_packet.cpp
//
// Principal entry point: DecodeStartupPacket.
#include "tcop/startup_packet.h"

#include "common/error/db_error.h"
#include "common/protocol/wire.h"

namespace hearth::tcop {

namespace {

[[noreturn]] void Fatal(const char* sqlstate, std::string message) {
  throw DbError(sqlstate, std::move(message), Severity::kFatal);
}

}  // namespace

StartupPacket DecodeStartupPacket(std::string_view body) {
  StartupPacket out;
  protocol::MessageReader r(body);
  int32_t code = r.Int32().value_or(0);
  if (code == protocol::kSslRequestCode || code == protocol::kGssEncRequestCode) {
    out.kind = StartupPacket::Kind::kEncryptionRequest;
    out.ssl_request = code == protocol::kSslRequestCode;
    return out;
  }
  if (code == protocol::kCancelRequestCode) {
    out.kind = StartupPacket::Kind::kCancel;
    auto pid = r.Int32();
    auto key = r.Int32();
    if (pid && key) {
      out.has_cancel_key = true;
      out.cancel_pid = *pid;
      out.cancel_key = *key;
    }
    return out;
  }
  int major = code >> 16;
  out.minor = code & 0xffff;
  if (major != 3) {
    Fatal(sqlstate::kFeatureNotSupported, "unsupported frontend protocol " + std::to_string(major) + "." +
                                              std::to_string(out.minor) + ": server supports 3.0 to 3.0");
  }
  for (;;) {
    auto key = r.CString();
    if (!key) Fatal(sqlstate::kProtocolViolation, "invalid startup packet layout: expected terminator as last byte");
    if (key->empty()) break;
    auto value = r.CString();
    if (!value) Fatal(sqlstate::kProtocolViolation, "invalid startup packet layout: expected terminator as last byte");
    std::string k(*key);
    if (k.rfind("_pq_.", 0) == 0) {
      out.unknown_options.push_back(k);
      continue;
    }
    out.params[k] = std::string(*value);
  }
  return out;
}

}  // namespace hearth::tcop
