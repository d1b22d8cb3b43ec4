// tcop/socket_options.cpp
//
// Principal entry points: SocketOptions (constructor), Apply, Show.
#include "tcop/socket_options.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstring>

#include <spdlog/spdlog.h>

namespace hearth::tcop {
namespace {

bool SetIntOption(int fd, int level, int optname, int value, const char* what) {
  if (setsockopt(fd, level, optname, &value, sizeof value) == 0) return true;
  spdlog::warn("setsockopt({}) failed: {}", what, strerror(errno));
  return false;
}

int64_t GetIntOption(int fd, int level, int optname) {
  int value = 0;
  socklen_t len = sizeof value;
  if (getsockopt(fd, level, optname, &value, &len) != 0) return 0;
  return value;
}

}  // namespace

SocketOptions::SocketOptions(int fd)
    : fd_(fd),
      idle_{IPPROTO_TCP, TCP_KEEPIDLE},
      interval_{IPPROTO_TCP, TCP_KEEPINTVL},
      count_{IPPROTO_TCP, TCP_KEEPCNT},
      user_timeout_{IPPROTO_TCP, TCP_USER_TIMEOUT} {
  sockaddr_storage addr{};
  socklen_t len = sizeof addr;
  if (getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) return;
  tcp_ = addr.ss_family == AF_INET || addr.ss_family == AF_INET6;
  if (!tcp_) return;
  SetIntOption(fd, IPPROTO_TCP, TCP_NODELAY, 1, "TCP_NODELAY");
  SetIntOption(fd, SOL_SOCKET, SO_KEEPALIVE, 1, "SO_KEEPALIVE");
  for (Option* opt : {&idle_, &interval_, &count_, &user_timeout_}) {
    opt->system_default = GetIntOption(fd, opt->level, opt->optname);
  }
}

void SocketOptions::ApplyOne(Option& opt, int64_t wanted) {
  if (wanted == opt.applied) return;
  int64_t value = wanted != 0 ? wanted : opt.system_default;
  // Remembered even when refused, so a failure is logged once per change.
  SetIntOption(fd_, opt.level, opt.optname, static_cast<int>(value), "tcp keepalive option");
  opt.applied = wanted;
}

void SocketOptions::Apply(const config::SessionHot& hot) {
  if (!tcp_) return;
  ApplyOne(idle_, hot.tcp_keepalives_idle_s);
  ApplyOne(interval_, hot.tcp_keepalives_interval_s);
  ApplyOne(count_, hot.tcp_keepalives_count);
  ApplyOne(user_timeout_, hot.tcp_user_timeout_ms);
}

std::optional<std::string> SocketOptions::Show(std::string_view name, int64_t stored) const {
  const Option* opt = name == "tcp_keepalives_idle"       ? &idle_
                      : name == "tcp_keepalives_interval" ? &interval_
                      : name == "tcp_keepalives_count"    ? &count_
                      : name == "tcp_user_timeout"        ? &user_timeout_
                                                          : nullptr;
  if (opt == nullptr) return std::nullopt;
  if (!tcp_) return std::string("0");
  // A set value is what the socket gets at the end of the statement; 0
  // stands for the system default, shown as its real number.
  return std::to_string(stored != 0 ? stored : opt->system_default);
}

}  // namespace hearth::tcop
