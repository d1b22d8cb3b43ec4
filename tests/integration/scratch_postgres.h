// A scratch PostgreSQL 15 server for tests that compare Hearth with the
// real thing (pg_dump_test, app_schema_test): initdb + pg_ctl on a free
// port, superuser and database "hearth", trust authentication, run as the
// invoking user or as "postgres" when that is root. `ready` is false, with
// `reason`, when there is none (no binaries, no postgres user): callers
// skip with a warning.
#pragma once

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "pg_tools.h"
#include "test_server.h"

namespace hearth::testing {

// A scratch PostgreSQL 15 (initdb, pg_ctl) on a free port with superuser
// and database "hearth", run as the invoking user, or as "postgres" when
// that is root. `reason` says why there is none.
class ScratchPostgres {
 public:
  ScratchPostgres() {
    if (access(PgBin("initdb").c_str(), X_OK) != 0 || access(PgBin("pg_ctl").c_str(), X_OK) != 0) {
      reason = "no PostgreSQL 15 server binaries under /usr/lib/postgresql/15/bin";
      return;
    }
    char tmpl[] = "/tmp/hearth-pg15-XXXXXX";
    if (mkdtemp(tmpl) == nullptr) {
      reason = "mkdtemp failed";
      return;
    }
    dir_ = tmpl;
    if (geteuid() == 0) {
      const passwd* pw = getpwnam("postgres");
      if (pw == nullptr) {
        reason = "running as root and there is no postgres user to run PostgreSQL as";
        return;
      }
      if (chown(dir_.c_str(), pw->pw_uid, pw->pw_gid) != 0) {
        reason = "cannot hand the scratch directory to postgres";
        return;
      }
      as_user_ = {access("/usr/sbin/runuser", X_OK) == 0 ? "/usr/sbin/runuser" : "runuser", "-u", "postgres", "--"};
    }
    port_ = FreePort();
    CommandResult init = Run({PgBin("initdb"), "-D", dir_ + "/data", "-U", "hearth", "--auth=trust", "--no-sync",
                              "-E", "UTF8", "--locale=C"});
    if (init.exit_code != 0) {
      reason = "initdb failed: " + init.err;
      return;
    }
    CommandResult start = Run({PgBin("pg_ctl"), "-D", dir_ + "/data", "-w", "-t", "60", "-l", dir_ + "/log", "-o",
                                "-p " + std::to_string(port_) + " -k " + dir_ +
                                    " -c listen_addresses=127.0.0.1 -c fsync=off -c TimeZone=UTC",
                                "start"});
    if (start.exit_code != 0) {
      reason = "pg_ctl start failed: " + start.err + LogText();
      return;
    }
    started_ = true;
    CommandResult db = RunCommand({"psql", "-X", "-h", "127.0.0.1", "-p", std::to_string(port_), "-U", "hearth", "-d",
                                   "postgres", "-c", "CREATE DATABASE hearth"});
    if (db.exit_code != 0) {
      reason = "CREATE DATABASE failed: " + db.err;
      return;
    }
    ready = true;
  }
  ~ScratchPostgres() {
    if (started_) Run({PgBin("pg_ctl"), "-D", dir_ + "/data", "-m", "immediate", "-w", "stop"});
    if (!dir_.empty()) {
      std::error_code ec;
      std::filesystem::remove_all(dir_, ec);
    }
  }
  int port() const { return port_; }

  bool ready = false;
  std::string reason;

 private:
  std::string LogText() const {
    std::ifstream in(dir_ + "/log");
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  CommandResult Run(std::vector<std::string> argv) const {
    argv.insert(argv.begin(), as_user_.begin(), as_user_.end());
    return RunCommand(argv);
  }

  std::string dir_;
  std::vector<std::string> as_user_;
  int port_ = 0;
  bool started_ = false;
};

}  // namespace hearth::testing
