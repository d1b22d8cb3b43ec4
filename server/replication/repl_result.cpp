// replication/repl_result.cpp
//
// Principal entry points: SendRowDescription, SendDataRow, SendCopyData.
#include "replication/repl_result.h"

#include <chrono>

#include "common/protocol/wire.h"

namespace hearth::replication {

void SendRowDescription(tcop::ClientSocket& sock, const std::vector<ReplColumn>& cols) {
  protocol::MessageWriter w(protocol::be::kRowDescription);
  w.Int16(static_cast<int16_t>(cols.size()));
  for (const ReplColumn& c : cols) {
    w.CString(c.name).Int32(0).Int16(0).Int32(c.type_oid).Int16(c.typlen).Int32(c.typmod).Int16(0);
  }
  sock.Send(w.Finish());
}

void SendDataRow(tcop::ClientSocket& sock, const std::vector<std::optional<std::string>>& values) {
  protocol::MessageWriter w(protocol::be::kDataRow);
  w.Int16(static_cast<int16_t>(values.size()));
  for (const auto& v : values) {
    if (!v) {
      w.Int32(-1);
    } else {
      w.Int32(static_cast<int32_t>(v->size())).Bytes(*v);
    }
  }
  sock.Send(w.Finish());
}

void SendCommandComplete(tcop::ClientSocket& sock, const std::string& tag) {
  protocol::MessageWriter w(protocol::be::kCommandComplete);
  w.CString(tag);
  sock.Send(w.Finish());
}

void SendCopyStart(tcop::ClientSocket& sock, char type) {
  protocol::MessageWriter w(type);
  w.Byte(0).Int16(0);
  sock.Send(w.Finish());
}

void SendCopyData(tcop::ClientSocket& sock, char kind, const void* payload, size_t len) {
  std::string& out = sock.out();
  size_t at = 0;
  protocol::BeginMessage(out, protocol::be::kCopyData, &at);
  out.push_back(kind);
  out.append(static_cast<const char*>(payload), len);
  protocol::EndMessage(out, at);
  sock.MaybeFlush();
}

void SendCopyDone(tcop::ClientSocket& sock) {
  protocol::MessageWriter w(protocol::be::kCopyDone);
  sock.Send(w.Finish());
}

int64_t PgEpochMicrosNow() {
  constexpr int64_t kUnixToPgEpochMicros = 946684800LL * 1000000;
  const int64_t unix_us =
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count();
  return unix_us - kUnixToPgEpochMicros;
}

}  // namespace hearth::replication
