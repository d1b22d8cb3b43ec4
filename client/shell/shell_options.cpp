// client/shell/shell_options.cpp
//
// Principal entry points: ParseShellOptions, ShellUsage, ParseBoolValue.
#include "client/shell/shell_options.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace hearth::client {
namespace {

struct Spec {
  char short_name;
  const char* long_name;
  bool takes_value;
};

constexpr Spec kSpecs[] = {
    {'h', "host", true},          {'p', "port", true},       {'U', "username", true},
    {'d', "dbname", true},        {'c', "command", true},    {'f', "file", true},
    {'v', "set", true},           {'v', "variable", true},   {'X', "no-psqlrc", false},
    {'A', "no-align", false},     {'t', "tuples-only", false}, {'q', "quiet", false},
    {'a', "echo-all", false},     {'e', "echo-queries", false}, {'?', "help", false},
    {'V', "version", false},      {'w', "no-password", false},
};

const Spec* FindShort(char c) {
  for (const auto& s : kSpecs) {
    if (s.short_name == c) return &s;
  }
  return nullptr;
}

const Spec* FindLong(const std::string& name) {
  for (const auto& s : kSpecs) {
    if (name == s.long_name) return &s;
  }
  return nullptr;
}

std::string EnvOr(const EnvLookup& env, const char* name, const char* fallback) {
  const char* v = env ? env(name) : nullptr;
  return v != nullptr && *v != '\0' ? std::string(v) : std::string(fallback);
}

bool ParsePort(const std::string& s, uint16_t* port) {
  if (s.empty() || s.size() > 5) return false;
  if (!std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; })) return false;
  const long v = std::strtol(s.c_str(), nullptr, 10);
  if (v <= 0 || v > 65535) return false;
  *port = static_cast<uint16_t>(v);
  return true;
}

// Applies one option; returns false with *error set on a bad value.
bool Apply(const Spec& spec, const std::string& value, ShellOptions* o, std::string* error) {
  switch (spec.short_name) {
    case 'h': o->host = value; break;
    case 'p':
      if (!ParsePort(value, &o->port)) {
        *error = "invalid port number: \"" + value + "\"";
        return false;
      }
      break;
    case 'U': o->user = value; break;
    case 'd': o->dbname = value; break;
    case 'c': o->actions.push_back({ShellOptions::Action::Kind::kCommand, value}); break;
    case 'f': o->actions.push_back({ShellOptions::Action::Kind::kFile, value}); break;
    case 'v': {
      const size_t eq = value.find('=');
      if (eq == 0 || value.empty()) {
        *error = "invalid variable assignment: \"" + value + "\"";
        return false;
      }
      if (eq == std::string::npos) {
        o->variables[value] = "";
      } else {
        o->variables[value.substr(0, eq)] = value.substr(eq + 1);
      }
      break;
    }
    case 'X': o->no_rc = true; break;
    case 'A': o->unaligned = true; break;
    case 't': o->tuples_only = true; break;
    case 'q': o->quiet = true; break;
    case 'a': o->echo = ShellOptions::Echo::kAll; break;
    case 'e': o->echo = ShellOptions::Echo::kQueries; break;
    case '?': o->show_help = true; break;
    case 'V': o->show_version = true; break;
    case 'w': break;  // never prompts for a password anyway
    default: break;
  }
  return true;
}

}  // namespace

std::optional<ShellOptions> ParseShellOptions(const std::vector<std::string>& args,
                                              const EnvLookup& env, std::string* error) {
  ShellOptions o;
  std::vector<std::string> positional;
  bool port_set = false;
  bool only_positional = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (only_positional || a.size() < 2 || a[0] != '-') {
      positional.push_back(a);
      continue;
    }
    if (a == "--") {
      only_positional = true;
      continue;
    }
    if (a[1] == '-') {
      std::string name = a.substr(2);
      std::optional<std::string> value;
      const size_t eq = name.find('=');
      if (eq != std::string::npos) {
        value = name.substr(eq + 1);
        name.resize(eq);
      }
      const Spec* spec = FindLong(name);
      if (spec == nullptr) {
        *error = "unrecognized option '" + a + "'";
        return std::nullopt;
      }
      if (spec->takes_value && !value) {
        if (i + 1 >= args.size()) {
          *error = "option '--" + name + "' requires an argument";
          return std::nullopt;
        }
        value = args[++i];
      } else if (!spec->takes_value && value) {
        *error = "option '--" + name + "' doesn't allow an argument";
        return std::nullopt;
      }
      if (spec->short_name == 'p') port_set = true;
      if (!Apply(*spec, value.value_or(""), &o, error)) return std::nullopt;
      continue;
    }
    // A cluster of short options: "-At", "-p5433", "-Atc 'select 1'".
    for (size_t k = 1; k < a.size(); ++k) {
      const Spec* spec = FindShort(a[k]);
      if (spec == nullptr) {
        *error = std::string("invalid option -- '") + a[k] + "'";
        return std::nullopt;
      }
      if (!spec->takes_value) {
        if (!Apply(*spec, "", &o, error)) return std::nullopt;
        continue;
      }
      std::string value;
      if (k + 1 < a.size()) {
        value = a.substr(k + 1);
      } else if (i + 1 < args.size()) {
        value = args[++i];
      } else {
        *error = std::string("option requires an argument -- '") + a[k] + "'";
        return std::nullopt;
      }
      if (spec->short_name == 'p') port_set = true;
      if (!Apply(*spec, value, &o, error)) return std::nullopt;
      break;
    }
  }
  if (positional.size() > 2) {
    *error = "extra command-line argument \"" + positional[2] + "\" ignored";
    return std::nullopt;
  }
  if (!positional.empty() && o.dbname.empty()) o.dbname = positional[0];
  if (positional.size() > 1 && o.user.empty()) o.user = positional[1];

  if (o.host.empty()) o.host = EnvOr(env, "PGHOST", "127.0.0.1");
  if (!port_set) {
    const std::string p = EnvOr(env, "PGPORT", "5433");
    if (!ParsePort(p, &o.port)) {
      *error = "invalid port number: \"" + p + "\"";
      return std::nullopt;
    }
  }
  if (o.user.empty()) o.user = EnvOr(env, "PGUSER", "hearth");
  if (o.dbname.empty()) o.dbname = EnvOr(env, "PGDATABASE", "hearth");
  o.password = EnvOr(env, "PGPASSWORD", "");
  return o;
}

std::optional<bool> ParseBoolValue(const std::string& value) {
  std::string v;
  for (char c : value) v.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  if (v.empty()) return std::nullopt;
  auto prefix_of = [&v](const char* word) { return std::string(word).rfind(v, 0) == 0; };
  if (v == "1") return true;
  if (v == "0") return false;
  if (prefix_of("true") || prefix_of("yes")) return true;
  if (prefix_of("false") || prefix_of("no")) return false;
  // "o" alone is ambiguous between on and off.
  if (v.size() >= 2 && prefix_of("on")) return true;
  if (v.size() >= 2 && prefix_of("off")) return false;
  return std::nullopt;
}

std::string ShellUsage() {
  return "hearth is the interactive terminal for Hearth (psql-compatible subset).\n"
         "\n"
         "Usage:\n"
         "  hearth [OPTION]... [DBNAME [USERNAME]]\n"
         "\n"
         "General options:\n"
         "  -c, --command=COMMAND    run only single command (SQL or internal) and exit\n"
         "  -d, --dbname=DBNAME      database name to connect to (default: \"hearth\")\n"
         "  -f, --file=FILENAME      execute commands from file, then exit\n"
         "  -v, --set=, --variable=NAME=VALUE\n"
         "                           set variable NAME to VALUE (e.g. -v ON_ERROR_STOP=1)\n"
         "  -X, --no-psqlrc          do not read startup file (accepted; there is none)\n"
         "  -V, --version            output version information, then exit\n"
         "  -?, --help               show this help, then exit\n"
         "\n"
         "Input and output options:\n"
         "  -a, --echo-all           echo all input from script\n"
         "  -e, --echo-queries       echo commands sent to server\n"
         "  -q, --quiet              run quietly (no messages, only query output)\n"
         "  -A, --no-align           unaligned table output mode\n"
         "  -t, --tuples-only        print rows only\n"
         "\n"
         "Connection options:\n"
         "  -h, --host=HOSTNAME      database server host (default: \"127.0.0.1\", or PGHOST)\n"
         "  -p, --port=PORT          database server port (default: \"5433\", or PGPORT)\n"
         "  -U, --username=USERNAME  database user name (default: \"hearth\", or PGUSER)\n"
         "  -w, --no-password        never prompt for password (the default)\n"
         "Passwords come from PGPASSWORD.\n";
}

}  // namespace hearth::client
