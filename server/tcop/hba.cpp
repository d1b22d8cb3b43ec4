// tcop/hba.cpp
//
// Principal entry points: LoadHbaFile, MatchHba, InitialHbaConf.
#include "tcop/hba.h"

#include <arpa/inet.h>

#include <cstring>
#include <fstream>
#include <sstream>

namespace hearth::tcop {

namespace {

// One field of a record: comma-separated items; `quoted` per item (a quoted
// "all" is a name, not the keyword).
struct Field {
  std::vector<std::string> items;
  std::vector<bool> quoted;
};

// Splits one logical line into fields (whitespace-separated, commas join
// items of one field, "..." quotes, '#' ends the line outside quotes).
std::vector<Field> Tokenize(const std::string& line, std::string* error) {
  std::vector<Field> fields;
  size_t i = 0;
  const size_t n = line.size();
  auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
  while (i < n) {
    while (i < n && is_space(line[i])) ++i;
    if (i >= n || line[i] == '#') break;
    Field f;
    for (;;) {
      std::string item;
      bool quoted = false;
      while (i < n && !is_space(line[i]) && line[i] != ',' && line[i] != '#') {
        if (line[i] == '"') {
          quoted = true;
          size_t close = line.find('"', i + 1);
          if (close == std::string::npos) {
            *error = "unterminated quoted string";
            return {};
          }
          item += line.substr(i + 1, close - i - 1);
          i = close + 1;
        } else {
          item += line[i++];
        }
      }
      f.items.push_back(item);
      f.quoted.push_back(quoted);
      if (i < n && line[i] == ',') {
        ++i;
        continue;
      }
      break;
    }
    fields.push_back(std::move(f));
  }
  return fields;
}

bool ParseAddress(const std::string& text, HbaLine* l) {
  if (inet_pton(AF_INET, text.c_str(), l->address) == 1) {
    l->family = AF_INET;
    return true;
  }
  if (inet_pton(AF_INET6, text.c_str(), l->address) == 1) {
    l->family = AF_INET6;
    return true;
  }
  return false;
}

bool SetMaskBits(HbaLine* l, int bits) {
  const int max = l->family == AF_INET ? 32 : 128;
  if (bits < 0 || bits > max) return false;
  std::memset(l->mask, 0, sizeof(l->mask));
  for (int b = 0; b < bits; ++b) l->mask[b / 8] |= static_cast<uint8_t>(0x80 >> (b % 8));
  return true;
}

std::optional<HbaMethod> ParseMethod(const std::string& m) {
  if (m == "trust") return HbaMethod::kTrust;
  if (m == "reject") return HbaMethod::kReject;
  if (m == "md5") return HbaMethod::kMd5;
  if (m == "password") return HbaMethod::kPassword;
  if (m == "scram-sha-256") return HbaMethod::kScram;
  return std::nullopt;
}

std::optional<HbaConnType> ParseType(const std::string& t) {
  if (t == "local") return HbaConnType::kLocal;
  if (t == "host") return HbaConnType::kHost;
  if (t == "hostssl") return HbaConnType::kHostSsl;
  if (t == "hostnossl") return HbaConnType::kHostNoSsl;
  if (t == "hostgssenc") return HbaConnType::kHostGssEnc;
  if (t == "hostnogssenc") return HbaConnType::kHostNoGssEnc;
  return std::nullopt;
}

// Keywords keep their meaning only unquoted: mark quoted items so that
// matching treats them as names.
std::vector<std::string> Items(const Field& f, std::initializer_list<const char*> keywords) {
  std::vector<std::string> out;
  for (size_t k = 0; k < f.items.size(); ++k) {
    bool keyword = false;
    for (const char* kw : keywords) keyword |= f.items[k] == kw;
    out.push_back(keyword && f.quoted[k] ? "\"" + f.items[k] : f.items[k]);
  }
  return out;
}

// Parses one record (fields of one line). Returns "" or an error message.
std::string ParseRecord(const std::vector<Field>& fields, HbaLine* l) {
  auto type = ParseType(fields[0].items[0]);
  if (!type) return "invalid connection type \"" + fields[0].items[0] + "\"";
  l->type = *type;
  if (fields.size() < 2) return "end-of-line before database specification";
  l->databases = Items(fields[1], {"all", "sameuser", "samerole", "samegroup", "replication"});
  if (fields.size() < 3) return "end-of-line before role specification";
  l->users = Items(fields[2], {"all"});
  size_t next = 3;
  if (l->type != HbaConnType::kLocal) {
    if (fields.size() <= next) return "end-of-line before IP address specification";
    const std::string& addr = fields[next].items[0];
    if (fields[next].items.size() > 1) return "multiple values specified for host address";
    ++next;
    if (addr == "all") {
      l->any_address = true;
    } else if (size_t slash = addr.find('/'); slash != std::string::npos) {
      if (!ParseAddress(addr.substr(0, slash), l)) return "invalid IP address \"" + addr + "\"";
      const std::string bits = addr.substr(slash + 1);
      char* end = nullptr;
      const long b = std::strtol(bits.c_str(), &end, 10);
      if (bits.empty() || *end != '\0' || !SetMaskBits(l, static_cast<int>(b))) {
        return "invalid CIDR mask in address \"" + addr + "\"";
      }
    } else if (ParseAddress(addr, l)) {
      if (fields.size() <= next) return "end-of-line before netmask specification";
      const std::string& mask = fields[next].items[0];
      ++next;
      HbaLine m;
      if (!ParseAddress(mask, &m)) return "invalid IP mask \"" + mask + "\"";
      if (m.family != l->family) return "IP address and mask do not match";
      std::memcpy(l->mask, m.address, sizeof(l->mask));
    } else {
      return "invalid IP address \"" + addr + "\": host names, samehost and samenet are not supported";
    }
  }
  if (fields.size() <= next) return "end-of-line before authentication method";
  const std::string& method = fields[next].items[0];
  auto m = ParseMethod(method);
  if (!m) return "invalid authentication method \"" + method + "\"";
  l->method = *m;
  return "";  // options after the method are accepted and ignored
}

bool DatabaseMatches(const HbaLine& l, const HbaClient& c) {
  for (const std::string& d : l.databases) {
    if (d == "all") return true;
    if (d == "sameuser" && c.database == c.user) return true;
    if ((d == "samerole" || d == "samegroup") && c.is_member && c.is_member(c.database)) return true;
    if (d == "replication") continue;  // no replication connections
    if ((d[0] == '"' ? d.substr(1) : d) == c.database) return true;
  }
  return false;
}

bool UserMatches(const HbaLine& l, const HbaClient& c) {
  for (const std::string& u : l.users) {
    if (u == "all") return true;
    if (u.size() > 1 && u[0] == '+') {
      if (c.is_member && c.is_member(u.substr(1))) return true;
      continue;
    }
    if ((u[0] == '"' ? u.substr(1) : u) == c.user) return true;
  }
  return false;
}

bool AddressMatches(const HbaLine& l, const sockaddr_storage& addr) {
  if (l.any_address) return true;
  const uint8_t* bytes = nullptr;
  size_t len = 0;
  if (addr.ss_family == AF_INET && l.family == AF_INET) {
    bytes = reinterpret_cast<const uint8_t*>(&reinterpret_cast<const sockaddr_in&>(addr).sin_addr);
    len = 4;
  } else if (addr.ss_family == AF_INET6 && l.family == AF_INET6) {
    bytes = reinterpret_cast<const uint8_t*>(&reinterpret_cast<const sockaddr_in6&>(addr).sin6_addr);
    len = 16;
  } else {
    return false;
  }
  for (size_t k = 0; k < len; ++k) {
    if ((bytes[k] & l.mask[k]) != (l.address[k] & l.mask[k])) return false;
  }
  return true;
}

}  // namespace

std::optional<HbaRules> LoadHbaFile(const std::string& path, std::string* error) {
  std::ifstream in(path);
  if (!in) {
    *error = "could not open configuration file \"" + path + "\": " + std::strerror(errno);
    return std::nullopt;
  }
  HbaRules rules;
  rules.path = path;
  std::string physical;
  std::string logical;
  int line_no = 0;
  int first_line = 0;
  while (std::getline(in, physical)) {
    ++line_no;
    if (logical.empty()) first_line = line_no;
    if (!physical.empty() && physical.back() == '\\') {
      logical += physical.substr(0, physical.size() - 1);
      continue;
    }
    logical += physical;
    std::string tok_error;
    std::vector<Field> fields = Tokenize(logical, &tok_error);
    const std::string raw = logical;
    logical.clear();
    std::string err = tok_error;
    HbaLine l;
    if (err.empty() && fields.empty()) continue;
    if (err.empty()) err = ParseRecord(fields, &l);
    if (!err.empty()) {
      *error = err + " on line " + std::to_string(first_line) + " of configuration file \"" + path + "\"";
      return std::nullopt;
    }
    l.line_number = first_line;
    l.raw = raw;
    rules.lines.push_back(std::move(l));
  }
  return rules;
}

std::string HbaFilePath(const std::string& hba_file_setting, const std::string& datadir) {
  if (hba_file_setting.empty()) return datadir + "/pg_hba.conf";
  if (hba_file_setting[0] == '/') return hba_file_setting;
  return datadir + "/" + hba_file_setting;
}

const HbaLine* MatchHba(const HbaRules& rules, const HbaClient& client) {
  for (const HbaLine& l : rules.lines) {
    switch (l.type) {
      case HbaConnType::kLocal:
      case HbaConnType::kHostGssEnc:
        continue;  // no Unix socket, no GSS encryption
      case HbaConnType::kHostSsl:
        if (!client.ssl) continue;
        break;
      case HbaConnType::kHostNoSsl:
        if (client.ssl) continue;
        break;
      case HbaConnType::kHost:
      case HbaConnType::kHostNoGssEnc:
        break;
    }
    if (!AddressMatches(l, client.addr)) continue;
    if (!DatabaseMatches(l, client)) continue;
    if (!UserMatches(l, client)) continue;
    return &l;
  }
  return nullptr;
}

std::string ClientHostString(const sockaddr_storage& addr) {
  char buf[INET6_ADDRSTRLEN] = "";
  if (addr.ss_family == AF_INET) {
    inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in&>(addr).sin_addr, buf, sizeof(buf));
  } else if (addr.ss_family == AF_INET6) {
    inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6&>(addr).sin6_addr, buf, sizeof(buf));
  }
  return buf;
}

std::string InitialHbaConf() {
  return "# Client authentication (PostgreSQL's pg_hba.conf syntax).\n"
         "#\n"
         "# TYPE  DATABASE  USER  ADDRESS  METHOD [OPTIONS]\n"
         "#   TYPE: local, host, hostssl, hostnossl; DATABASE: all, sameuser,\n"
         "#   samerole, names; USER: all, names, +role; ADDRESS: CIDR or address +\n"
         "#   mask; METHOD: trust, reject, md5, password, scram-sha-256.\n"
         "# The first matching line decides. Reloaded on SIGHUP (a bad file keeps\n"
         "# the previous rules). The server listens on TCP only, so \"local\" lines\n"
         "# never match.\n"
         "#\n"
         "# CAUTION: trust lets anyone on this machine connect as any role,\n"
         "# superusers included. Use scram-sha-256 and set passwords\n"
         "# (ALTER ROLE ... PASSWORD '...') before opening other addresses.\n"
         "\n"
         "# TYPE  DATABASE        USER            ADDRESS                 METHOD\n"
         "local   all             all                                     trust\n"
         "host    all             all             127.0.0.1/32            trust\n"
         "host    all             all             ::1/128                 trust\n";
}

}  // namespace hearth::tcop
