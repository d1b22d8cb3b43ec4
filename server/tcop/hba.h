// tcop/hba.h
//
// pg_hba.conf: which client may connect as whom to which database, and how
// it must authenticate. PostgreSQL 15's syntax: one record per line,
//   TYPE  DATABASE  USER  [ADDRESS [MASK]]  METHOD  [OPTIONS]
// TYPE local | host | hostssl | hostnossl (by TLS) | hostgssenc (never
// matches) | hostnogssenc (as host); DATABASE all | sameuser | samerole | names (comma list,
// "quoted" to keep case/keywords); USER all | names | +role (members of
// role); ADDRESS a CIDR (127.0.0.1/32, ::1/128), an address plus a separate
// mask, or all; METHOD trust | reject | md5 | password | scram-sha-256;
// options are accepted and ignored. '#' starts a comment; a backslash at
// the end of a line continues it.
//
// The postmaster loads the file at start (an error there is fatal) and on
// SIGHUP (an error keeps the old rules and is logged, as PostgreSQL);
// backends inherit the parsed rules through fork and match them per
// connection. Pure data; not thread-safe to mutate.
#pragma once

#include <netinet/in.h>
#include <sys/socket.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace hearth::tcop {

enum class HbaConnType { kLocal, kHost, kHostSsl, kHostNoSsl, kHostGssEnc, kHostNoGssEnc };
enum class HbaMethod { kTrust, kReject, kMd5, kPassword, kScram };

struct HbaLine {
  int line_number = 0;
  std::string raw;  // the record as written (for logs)
  HbaConnType type = HbaConnType::kHost;
  std::vector<std::string> databases;  // "all", "sameuser", "samerole", names
  std::vector<std::string> users;      // "all", names, "+role"
  bool any_address = false;            // ADDRESS all
  int family = AF_UNSPEC;              // AF_INET or AF_INET6 for a CIDR
  uint8_t address[16] = {};
  uint8_t mask[16] = {};
  HbaMethod method = HbaMethod::kReject;
};

struct HbaRules {
  std::string path;
  std::vector<HbaLine> lines;
};

// Parses `path`. On an error returns nullopt and sets *error to
// PostgreSQL's style message ("invalid IP mask \"x\" ... line N of
// configuration file \"path\"").
std::optional<HbaRules> LoadHbaFile(const std::string& path, std::string* error);

// The hba file the settings name: hba_file, or <datadir>/pg_hba.conf.
std::string HbaFilePath(const std::string& hba_file_setting, const std::string& datadir);

// What a connection offers for matching. `is_member(role)` answers "+role"
// and samerole (the user belongs to role, directly or not).
struct HbaClient {
  sockaddr_storage addr{};
  bool ssl = false;  // the connection is encrypted (TLS)
  std::string database;
  std::string user;
  std::function<bool(const std::string& role)> is_member;
};

// The first matching record, or nullptr.
const HbaLine* MatchHba(const HbaRules& rules, const HbaClient& client);

// "127.0.0.1" / "::1" for error messages.
std::string ClientHostString(const sockaddr_storage& addr);

// The pg_hba.conf `hearthd init` writes (trust over loopback, like initdb
// for local connections; the server has no Unix socket).
std::string InitialHbaConf();

}  // namespace hearth::tcop
