// tcop/startup_packet.h
//
// DecodeStartupPacket: the body of the untyped first packet a client sends
// (after its length word): an SSL or GSS encryption request, a cancel
// request, or a v3 startup message with its key/value parameters. Pure: no
// I/O, safe from any thread; ProcessStartup acts on the result.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace hearth::tcop {

struct StartupPacket {
  enum class Kind { kEncryptionRequest, kCancel, kStartup };
  Kind kind = Kind::kStartup;
  // kEncryptionRequest: SSLRequest (true) or GSSENCRequest (false).
  bool ssl_request = false;
  // kCancel: the target's pid and key (has_cancel_key false when missing).
  bool has_cancel_key = false;
  int32_t cancel_pid = 0;
  int32_t cancel_key = 0;
  // kStartup:
  int minor = 0;                                // requested 3.minor
  std::map<std::string, std::string> params;    // every key/value but _pq_.*
  std::vector<std::string> unknown_options;     // _pq_.* keys, to list back
};

// Throws DbError (FATAL) 0A000 for a protocol major version other than 3
// and 08P01 for a parameter list without its terminator.
StartupPacket DecodeStartupPacket(std::string_view body);

}  // namespace hearth::tcop
