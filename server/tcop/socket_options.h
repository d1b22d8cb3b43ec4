// tcop/socket_options.h
//
// Options of the client's TCP socket: TCP_NODELAY and SO_KEEPALIVE at
// connection start (replies are already batched by ClientSocket, so Nagle's
// algorithm would only add a delayed-ACK stall, up to 40 ms, whenever a
// reply spans more than one packet), and the tcp_keepalives_idle /
// _interval / _count and tcp_user_timeout settings, applied when they
// change. A setting of 0 means the system default; SHOW prints the value
// the socket really uses, as PostgreSQL does.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "config/session_settings.h"

namespace hearth::tcop {

class SocketOptions {
 public:
  // Sets TCP_NODELAY and SO_KEEPALIVE and remembers the system defaults of
  // the keepalive options. Failures (not a TCP socket) are logged once.
  explicit SocketOptions(int fd);

  // Applies the session's tcp_* settings when they differ from what the
  // socket has (a few integer compares when nothing changed).
  void Apply(const config::SessionHot& hot);

  // What SHOW prints for the tcp_* settings; nullopt for other names.
  std::optional<std::string> Show(std::string_view name, int64_t stored) const;

 private:
  struct Option {
    int level;
    int optname;
    int64_t system_default = 0;
    int64_t applied = 0;  // the setting last applied (0 = system default)
  };
  void ApplyOne(Option& opt, int64_t wanted);

  int fd_;
  bool tcp_ = false;
  Option idle_, interval_, count_, user_timeout_;
};

}  // namespace hearth::tcop
