// tests/unit/access/xlog_bench_test.cpp — hidden micro-benchmarks (tag
// [.xlogbench]; not run by default): insert throughput and single-client
// commit rate against the raw write+fdatasync rate of the same disk.
// Run: access_test "[.xlogbench]" -s
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <vector>

#include "access/transam/xlog.h"
#include "access/transam/xlog_stats.h"
#include "xlog_test_util.h"

using namespace hearth::access;
using hearth::access::testing::InsertBytes;
using hearth::access::testing::WalCluster;

namespace {
double Seconds(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

TEST_CASE("xlog bench: insert throughput", "[.xlogbench]") {
  WalCluster c(/*wal_buffers=*/256, /*segment_size=*/16 * 1024 * 1024, /*fsync=*/false);
  std::vector<uint8_t> p(100, 1);
  constexpr int kN = 500000;
  const auto t0 = std::chrono::steady_clock::now();
  XLogRecPtr end = 0;
  for (int i = 0; i < kN; i++) end = InsertBytes(p, kRmgrTest, 0, 5);
  XLogFlush(end);
  const double s = Seconds(t0);
  WARN("inserted " << kN << " x 124-byte records in " << s << " s: " << kN / s << " records/s, "
                   << GetWalStats().wal_buffers_full << " buffers-full writes");
  CHECK(GetWalStats().wal_records == kN);
}

TEST_CASE("xlog bench: one client's commits vs the raw fdatasync rate", "[.xlogbench]") {
  WalCluster c(/*wal_buffers=*/64, /*segment_size=*/16 * 1024 * 1024, /*fsync=*/true);
  std::vector<uint8_t> p(60, 1);
  auto t0 = std::chrono::steady_clock::now();
  int commits = 0;
  while (Seconds(t0) < 1.0) {
    XLogFlushCommit(InsertBytes(p, kRmgrXact, 0, 9), 0, 0);
    commits++;
  }
  const double commit_rate = commits / Seconds(t0);
  const std::string path = c.dir + "/raw_sync_probe";
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT, 0600);
  REQUIRE(fd >= 0);
  std::vector<uint8_t> page(8192, 0);
  REQUIRE(::pwrite(fd, page.data(), page.size(), 0) == 8192);
  REQUIRE(::fsync(fd) == 0);
  t0 = std::chrono::steady_clock::now();
  int syncs = 0;
  while (Seconds(t0) < 1.0) {
    REQUIRE(::pwrite(fd, page.data(), page.size(), 0) == 8192);
    REQUIRE(::fdatasync(fd) == 0);
    syncs++;
  }
  const double raw_rate = syncs / Seconds(t0);
  ::close(fd);
  WARN("one client: " << commit_rate << " commits/s, " << GetWalStats().wal_sync << " syncs for " << commits
                      << " commits; raw 8 KiB write+fdatasync: " << raw_rate << "/s");
  CHECK(GetWalStats().wal_sync == commits);
}
