// A full disk over the wire: the data directory lives on a small tmpfs of
// the test's own, filled up by a file the test places beside it. A write
// that needs space fails with ERROR 53100 and PostgreSQL's hint, the session
// and the server live on, reads still work, writes resume once the filler is
// deleted, and a restart finds exactly the acknowledged rows. One test fills
// the disk with table data, one with WAL; the first also crashes a backend
// while the disk is full (the crash reset must not end the server).
// Skipped with a message when tmpfs cannot be mounted (not root).
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <string>
#include <vector>

#include "raw_session.h"
#include "test_server.h"

using namespace hearth::testing;

namespace {

// A tmpfs of `size_mb` mounted on a fresh directory for one test.
class SmallDisk {
 public:
  explicit SmallDisk(int size_mb) {
    char tmpl[] = "/tmp/hearth-disk-XXXXXX";
    if (mkdtemp(tmpl) == nullptr) return;
    dir_ = tmpl;
    const std::string opts = "size=" + std::to_string(size_mb) + "m,mode=0700";
    mounted_ = mount("tmpfs", dir_.c_str(), "tmpfs", 0, opts.c_str()) == 0;
    if (!mounted_) why_ = std::string("mount -t tmpfs: ") + strerror(errno);
  }
  ~SmallDisk() {
    if (mounted_) umount2(dir_.c_str(), MNT_DETACH);
    if (!dir_.empty()) rmdir(dir_.c_str());
  }
  SmallDisk(const SmallDisk&) = delete;
  SmallDisk& operator=(const SmallDisk&) = delete;

  bool mounted() const { return mounted_; }
  const std::string& why() const { return why_; }
  const std::string& dir() const { return dir_; }

  // Writes a filler file until the disk is full, except `leave_kb`: the
  // filler stops that much short of the free space it found.
  void Fill(int64_t leave_kb) {
    const std::string path = dir_ + "/filler";
    int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    REQUIRE(fd >= 0);
    static const std::vector<char> chunk(64 * 1024, 'f');
    int64_t written = 0;
    for (;;) {
      const ssize_t n = write(fd, chunk.data(), chunk.size());
      if (n <= 0) break;
      written += n;
    }
    close(fd);
    REQUIRE(truncate(path.c_str(), std::max<int64_t>(0, written - leave_kb * 1024)) == 0);
  }
  void FreeFiller() { REQUIRE(unlink((dir_ + "/filler").c_str()) == 0); }

 private:
  std::string dir_;
  std::string why_;
  bool mounted_ = false;
};

// Polls `pred` until it holds or `seconds` of wall time have passed.
template <typename Pred>
bool WaitSeconds(Pred pred, int seconds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  while (std::chrono::steady_clock::now() < deadline) {
    if (pred()) return true;
    SleepMs(100);
  }
  return pred();
}

// True (with a warning) when the test cannot have its own file system.
bool SkippedWithoutTmpfs(const SmallDisk& disk) {
  if (disk.mounted()) return false;
  WARN("disk full test skipped: cannot mount a tmpfs (" << disk.why() << ")");
  return true;
}

struct Failure {
  std::string sqlstate, message, hint;
};

// Runs `sql`: empty sqlstate on success.
Failure Run(RawConn& c, const std::string& sql) {
  auto msgs = c.Query(sql, 60000);
  REQUIRE(LastStatus(msgs) != 0);  // answered: the session is alive
  const RawMessage* e = First(msgs, 'E');
  if (e == nullptr) return {};
  const auto f = ErrorOf(*e);
  return {f.sqlstate, f.message, f.hint};
}

// "insert into t values (first, pad), ..." for `count` ids.
std::string InsertBatch(int first, int count) {
  std::string sql = "insert into t values ";
  for (int i = 0; i < count; i++) {
    if (i > 0) sql += ", ";
    sql += "(" + std::to_string(first + i) + ", repeat('x', 400))";
  }
  return sql;
}

void CheckDiskFull(const Failure& f, const std::string& what) {
  INFO(f.sqlstate << " " << f.message);
  CHECK(f.sqlstate == "53100");
  CHECK(f.message.find(what) != std::string::npos);
  CHECK(f.message.find("No space left on device") != std::string::npos);
  CHECK(f.hint == "Check free disk space.");
}

}  // namespace

TEST_CASE("disk full: data files — 53100, reads go on, a crash reset survives it, writes resume", "[disk_full_test]") {
  SmallDisk disk(72);
  if (SkippedWithoutTmpfs(disk)) return;
  TestServer server(Settings{}, {}, 0, disk.dir());
  RawConn c(server.port());
  REQUIRE(LastStatus(c.Startup()) == 'I');
  REQUIRE(Run(c, "create table t (id int, pad text)").sqlstate.empty());
  // WAL segments exist ahead (pre-allocated); a few MB is all the data gets.
  disk.Fill(4 * 1024);
  int acked = 0;
  Failure f;
  for (int round = 0; round < 1000; round++) {
    f = Run(c, InsertBatch(acked, 100));
    if (!f.sqlstate.empty()) break;
    acked += 100;
  }
  REQUIRE(acked > 0);
  CheckDiskFull(f, "could not extend file");

  // The session lives on and reads work, here and in a new session.
  CHECK(QueryValue(c, "select count(*) from t") == std::to_string(acked));
  {
    RawConn other(server.port());
    REQUIRE(LastStatus(other.Startup()) == 'I');
    CHECK(QueryValue(other, "select max(id) from t") == std::to_string(acked - 1));
  }

  // A backend dying on a full disk: the crash reset rebuilds shared memory
  // and recovers without new space (or retries until there is some).
  REQUIRE(kill(c.backend_pid(), SIGKILL) == 0);
  c.DrainUntilEof();
  CHECK(c.eof());
  std::string count_after_reset;
  REQUIRE(WaitSeconds([&] {
    RawConn again(server.port());
    if (!again.SendStartup({{"user", "hearth"}, {"database", "hearth"}})) return false;
    if (LastStatus(again.ReadStartupReply(1000)) != 'I') return false;
    // (A session accepted just before the reset began is ended by it.)
    count_after_reset = QueryValue(again, "select count(*) from t");
    return count_after_reset.rfind("<error", 0) != 0;
  }, 60));
  CHECK(count_after_reset == std::to_string(acked));
  CHECK(server.running());

  // Space returns: writes work again without a restart.
  disk.FreeFiller();
  RawConn d(server.port());
  REQUIRE(LastStatus(d.Startup()) == 'I');
  for (int round = 0; round < 5; round++) {
    REQUIRE(Run(d, InsertBatch(acked, 100)).sqlstate.empty());
    acked += 100;
  }
  REQUIRE(Run(d, "checkpoint").sqlstate.empty());

  // Every acknowledged row, and nothing else, after a clean restart.
  REQUIRE(server.Stop(SIGTERM) == 0);
  server.Start();
  RawConn e(server.port());
  REQUIRE(LastStatus(e.Startup()) == 'I');
  CHECK(QueryValue(e, "select count(*) from t") == std::to_string(acked));
  CHECK(QueryValue(e, "select count(distinct id) from t") == std::to_string(acked));
  CHECK(QueryValue(e, "select max(id) from t") == std::to_string(acked - 1));
}

TEST_CASE("disk full: WAL — writers get 53100 before changing anything, never a crash", "[disk_full_test]") {
  SmallDisk disk(72);
  if (SkippedWithoutTmpfs(disk)) return;
  TestServer server(Settings{}, {}, 0, disk.dir());
  const pid_t postmaster = server.pid();
  RawConn c(server.port());
  REQUIRE(LastStatus(c.Startup()) == 'I');
  REQUIRE(Run(c, "create table t (id int)").sqlstate.empty());
  REQUIRE(Run(c, "create table acked (round int)").sqlstate.empty());
  REQUIRE(Run(c, "insert into t values (0)").sqlstate.empty());
  for (int i = 0; i < 12; i++) {
    REQUIRE(Run(c, "insert into t select id + " + std::to_string(1 << i) + " from t").sqlstate.empty());
  }
  // Row locks write WAL and no table data: with the filler in place, the
  // WAL segments that exist fill up and the next one cannot be made.
  disk.Fill(2 * 1024);
  int rounds = 0;
  Failure f;
  for (; rounds < 5000; rounds++) {
    f = Run(c, "select id from t for update");
    if (!f.sqlstate.empty()) break;
    REQUIRE(Run(c, "insert into acked values (" + std::to_string(rounds) + ")").sqlstate.empty());
  }
  REQUIRE(rounds > 0);
  CheckDiskFull(f, "could not write to file");
  CHECK(f.message.find("wal/xlogtemp") != std::string::npos);

  // Alive and reading; still full, so still an ERROR (never a crash).
  CHECK(QueryValue(c, "select count(*) from acked") == std::to_string(rounds));
  CHECK(Run(c, "insert into acked values (-1)").sqlstate == "53100");
  CHECK(server.pid() == postmaster);
  CHECK(Alive(postmaster));

  disk.FreeFiller();
  for (int i = 0; i < 3; i++, rounds++) {
    REQUIRE(Run(c, "select id from t for update").sqlstate.empty());
    REQUIRE(Run(c, "insert into acked values (" + std::to_string(rounds) + ")").sqlstate.empty());
  }
  REQUIRE(server.Stop(SIGTERM) == 0);
  server.Start();
  RawConn e(server.port());
  REQUIRE(LastStatus(e.Startup()) == 'I');
  CHECK(QueryValue(e, "select count(*) from t") == "4096");
  CHECK(QueryValue(e, "select count(distinct round) || ' ' || min(round) || ' ' || max(round) from acked") ==
        std::to_string(rounds) + " 0 " + std::to_string(rounds - 1));
}
