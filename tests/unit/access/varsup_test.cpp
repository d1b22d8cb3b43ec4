#include <catch2/catch.hpp>
#include <fstream>
#include <set>
#include <string>

#include "access/transam/varsup.h"
#include "access_test_util.h"

using namespace hearth::access;
using hearth::access::testing::TransamCluster;

namespace {
unsigned long long StoredNext(const std::string& dir) {
  std::ifstream in(dir + "/global/xid_control");
  std::string magic;
  int version = 0;
  unsigned long long next = 0;
  in >> magic >> version >> next;
  return next;
}
}  // namespace

TEST_CASE("Xids increase and are never reused across crashes and restarts", "[varsup]") {
  TransamCluster c;
  std::set<TransactionId> seen;
  TransactionId first = GetNewTransactionId(nullptr);
  CHECK(first == kFirstNormalTransactionId);
  seen.insert(first);
  // The control file runs ahead of what was handed out.
  CHECK(StoredNext(c.dir) == first + kXidPrefetch);
  TransactionId last = first;
  for (int i = 0; i < 9000; i++) {  // crosses one prefetch boundary
    TransactionId x = GetNewTransactionId(nullptr);
    REQUIRE(x == last + 1);
    last = x;
    seen.insert(x);
  }
  CHECK(StoredNext(c.dir) == first + 2 * kXidPrefetch);
  CHECK(ReadNextTransactionId() == last + 1);

  c.Restart();  // crash: continue from the stored value, skipping the gap
  TransactionId after_crash = GetNewTransactionId(nullptr);
  CHECK(after_crash > last);
  CHECK(after_crash == first + 2 * kXidPrefetch);
  CHECK(seen.count(after_crash) == 0);

  // The xid lands in the proc slot when asked.
  TransactionId published = GetNewTransactionId(hearth::storage::MyProc());
  CHECK(hearth::storage::MyProc()->xid.load() == published);
  hearth::storage::MyProc()->xid = kInvalidTransactionId;

  TransamShutdown();  // clean: exact next xid, no gap
  CHECK(StoredNext(c.dir) == published + 1);
  c.Restart();
  CHECK(GetNewTransactionId(nullptr) == published + 1);
}

TEST_CASE("A corrupt xid control file is refused", "[varsup]") {
  TransamCluster c;
  {
    std::ofstream out(c.dir + "/global/xid_control");
    out << "garbage\n";
  }
  CHECK_THROWS_AS(c.Restart(), std::runtime_error);
  {
    std::ofstream out(c.dir + "/global/xid_control");
    out << "hearth-xid-control 1 500\n";
  }
  c.Restart();
  CHECK(GetNewTransactionId(nullptr) == 500);
}
