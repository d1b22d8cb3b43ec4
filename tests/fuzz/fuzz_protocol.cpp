// fuzz_protocol: what a backend reads from an untrusted client before any
// table is touched, fed through a real socket into ClientSocket: the startup
// packet (its framing, DecodeStartupPacket, each parameter applied to a
// session's settings as BackendMain does, "options" included), then the
// message stream (framing with a size limit, the Query/Parse/Describe/
// Close/Execute decoders with the SQL parser behind Query and Parse, and
// each Bind parameter through the type's text input or binary receive
// function). A DbError is the expected answer to bad input; a crash,
// sanitizer report or other exception is a bug.
#include <sys/socket.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/error/db_error.h"
#include "common/error/stack_depth.h"
#include "common/protocol/wire.h"
#include "config/session_settings.h"
#include "config/settings.h"
#include "fuzz_types.h"
#include "parser/parser.h"
#include "tcop/frontend_messages.h"
#include "tcop/pqcomm.h"
#include "tcop/startup_packet.h"
#include "utils/adt/binary_io.h"
#include "utils/adt/text_io.h"

namespace {

using namespace hearth;

constexpr size_t kMaxInput = 64 * 1024;  // stays within the socket buffer

void Startup(std::string_view body) {
  static const config::Settings base;
  tcop::StartupPacket packet = tcop::DecodeStartupPacket(body);
  config::SessionSettings settings(base);
  for (const auto& [k, v] : packet.params) {
    try {
      settings.ApplyStartupOption(k, v);
    } catch (const DbError&) {
    }
  }
}

// Bind's parameters as QueryProtocol::Bind reads them; each value's type is
// picked by its first byte, so every input/receive function is reached.
void Bind(std::string_view body) {
  protocol::MessageReader r(body);
  if (!r.CString() || !r.CString()) return;
  auto nformats = r.Int16();
  if (!nformats || *nformats < 0) return;
  int16_t format = 0;
  for (int i = 0; i < *nformats; i++) format = r.Int16().value_or(0);
  auto nparams = r.Int16();
  for (int i = 0; nparams && i < *nparams; i++) {
    auto len = r.Int32();
    if (!len || *len < 0) return;
    auto bytes = r.Bytes(static_cast<size_t>(*len));
    if (!bytes || bytes->empty()) return;
    const auto& t = fuzz::PickType(static_cast<uint8_t>((*bytes)[0]));
    std::string_view value = bytes->substr(1);
    try {
      if (format == 1) {
        types::ReceiveBinary(t.oid, t.typmod, value);
      } else {
        types::InputValue(t.oid, t.typmod, value);
      }
    } catch (const DbError&) {
    }
  }
}

void Message(char type, std::string_view body) {
  switch (type) {
    case protocol::fe::kQuery: parser::ParseStatements(tcop::DecodeQuery(body)); break;
    case protocol::fe::kParse: parser::ParseStatements(tcop::DecodeParse(body).query); break;
    case protocol::fe::kBind: Bind(body); break;
    case protocol::fe::kDescribe: tcop::DecodeDescribe(body); break;
    case protocol::fe::kClose: tcop::DecodeClose(body); break;
    case protocol::fe::kExecute: tcop::DecodeExecute(body); break;
    default: break;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  SetStackBase();
  if (size > kMaxInput) return 0;
  int fds[2];
  if (socketpair(AF_UNIX, SOCK_STREAM, 0, fds) != 0) return 0;
  int buf = static_cast<int>(2 * kMaxInput);
  setsockopt(fds[1], SOL_SOCKET, SO_SNDBUF, &buf, sizeof(buf));
  setsockopt(fds[0], SOL_SOCKET, SO_RCVBUF, &buf, sizeof(buf));
  size_t sent = 0;
  while (sent < size) {
    ssize_t n = write(fds[1], data + sent, size - sent);
    if (n <= 0) break;
    sent += static_cast<size_t>(n);
  }
  close(fds[1]);
  tcop::ClientSocket sock(fds[0]);  // closes fds[0]
  std::string body;
  try {
    if (sock.ReadStartupPacket(&body) != tcop::ReadStatus::kOk) return 0;
    Startup(body);
    char type;
    while (sock.ReadMessage(&type, &body, 1 << 20) == tcop::ReadStatus::kOk) {
      try {
        Message(type, body);
      } catch (const DbError& e) {
        if (e.severity() >= Severity::kFatal) break;  // the session would end here
      }
    }
  } catch (const DbError&) {
  }
  return 0;
}
