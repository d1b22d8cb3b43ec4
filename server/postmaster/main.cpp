// postmaster/main.cpp
//
// hearthd command line:
//   hearthd init -D DIR [--username NAME] [--dbname NAME]
//   hearthd -D DIR [-c name=value ...]
//   hearthd --version | --help
#include <signal.h>
#include <sys/stat.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "postmaster/datadir.h"
#include "postmaster/postmaster.h"

namespace {

void Usage(FILE* out) {
  fprintf(out,
          "hearthd is the Hearth database server.\n\n"
          "Usage:\n"
          "  hearthd init -D DATADIR [--username NAME] [--dbname NAME]\n"
          "  hearthd -D DATADIR [-c NAME=VALUE ...]\n"
          "  hearthd --version\n\n"
          "Options:\n"
          "  -D DATADIR        data directory\n"
          "  -c NAME=VALUE     set a run-time parameter (overrides hearth.conf)\n"
          "  --NAME=VALUE      same as -c NAME=VALUE\n"
          "  --username NAME   superuser name for init (default hearth)\n"
          "  --dbname NAME     first database for init (default hearth)\n");
}

bool SplitAssignment(const std::string& s, std::pair<std::string, std::string>* out) {
  auto eq = s.find('=');
  if (eq == std::string::npos || eq == 0) return false;
  out->first = s.substr(0, eq);
  out->second = s.substr(eq + 1);
  for (char& c : out->first) {
    if (c == '-') c = '_';
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  // Start from a clean signal state whatever the parent left us: a blocked
  // SIGTERM inherited from a launcher would make fast shutdown impossible.
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  // Everything the server creates (data directory, files, shared memory)
  // is for its owner only, as PostgreSQL's default.
  umask(0077);
  using hearth::postmaster::InitOptions;
  using hearth::postmaster::PostmasterOptions;
  bool init = false;
  InitOptions init_opts;
  PostmasterOptions opts;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    auto need_value = [&](const char* what) -> std::string {
      if (i + 1 >= argc) {
        fprintf(stderr, "hearthd: option %s needs a value\n", what);
        exit(2);
      }
      return argv[++i];
    };
    if (a == "init" && i == 1) {
      init = true;
    } else if (a == "-D") {
      opts.datadir = need_value("-D");
    } else if (a.rfind("-D", 0) == 0 && a.size() > 2) {
      opts.datadir = a.substr(2);
    } else if (a == "--username" || a == "-U") {
      init_opts.username = need_value("--username");
    } else if (a == "--dbname") {
      init_opts.dbname = need_value("--dbname");
    } else if (a == "-c") {
      std::pair<std::string, std::string> kv;
      if (!SplitAssignment(need_value("-c"), &kv)) {
        fprintf(stderr, "hearthd: -c needs NAME=VALUE\n");
        return 2;
      }
      opts.overrides.push_back(kv);
    } else if (a == "--version" || a == "-V") {
      printf("hearthd (Hearth) 0.1.0, PostgreSQL protocol 3.0, compatible with 15\n");
      return 0;
    } else if (a == "--help" || a == "-h" || a == "-?") {
      Usage(stdout);
      return 0;
    } else if (a.rfind("--", 0) == 0) {
      std::pair<std::string, std::string> kv;
      if (!SplitAssignment(a.substr(2), &kv)) {
        fprintf(stderr, "hearthd: unrecognized option \"%s\"\n", a.c_str());
        return 2;
      }
      opts.overrides.push_back(kv);
    } else {
      fprintf(stderr, "hearthd: unrecognized argument \"%s\"\n", a.c_str());
      Usage(stderr);
      return 2;
    }
  }
  if (opts.datadir.empty()) {
    const char* env = getenv("HEARTH_DATA");
    if (env != nullptr) opts.datadir = env;
  }
  if (opts.datadir.empty()) {
    fprintf(stderr, "hearthd: no data directory given (-D DATADIR or HEARTH_DATA)\n");
    return 2;
  }
  if (init) {
    init_opts.datadir = opts.datadir;
    std::string error;
    if (!hearth::postmaster::InitDataDirectory(init_opts, &error)) {
      fprintf(stderr, "hearthd init: %s\n", error.c_str());
      return 1;
    }
    printf("Created data directory \"%s\" with database \"%s\" and superuser \"%s\".\n", opts.datadir.c_str(),
           init_opts.dbname.c_str(), init_opts.username.c_str());
    printf("Start the server with: hearthd -D %s\n", opts.datadir.c_str());
    return 0;
  }
  return hearth::postmaster::PostmasterMain(opts);
}
