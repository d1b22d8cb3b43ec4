// Declarative partitioning over the wire: two sessions load one range-
// and list-partitioned table at the same time through COPY FROM (the bulk
// path), INSERT ... SELECT and multi-row INSERT; every row lands in the
// partition its key belongs to, none is lost or duplicated, and a row
// that fits no partition fails its statement with 23514 and leaves
// nothing of it behind.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <thread>

#include "crash_util.h"
#include "test_server.h"

using namespace hearth::testing;

namespace {

// COPY text rows (id, k) for ids [from, to): k = id % 300.
std::string CopyRows(int from, int to) {
  std::string data;
  for (int i = from; i < to; ++i) data += std::to_string(i) + "\t" + std::to_string(i % 300) + "\n";
  return data + "\\.\n";
}

// One session's load: COPY, INSERT ... SELECT and INSERT ... VALUES of its
// own id range (offset apart), all keys 0..299 spread over the partitions.
CommandResult Load(const TestServer& server, int offset) {
  std::string values;
  for (int i = 0; i < 300; ++i) {
    const int id = offset + 20000 + i;
    values += (i > 0 ? ", (" : "(") + std::to_string(id) + ", " + std::to_string(id % 300) + ")";
  }
  const std::string script = "copy pt from stdin;\n" + CopyRows(offset, offset + 6000) +
                             "insert into pt select g, g % 300 from generate_series(" + std::to_string(offset + 10000) +
                             ", " + std::to_string(offset + 13999) + ") g;\n" + "insert into pt values " + values + ";\n";
  return server.Psql({"-f", "-"}, script);
}

}  // namespace

TEST_CASE("partition: concurrent COPY and INSERT route rows to their partitions", "[partition_test]") {
  TestServer server;
  REQUIRE(server.Psql({"-c", "create table pt (id int, k int) partition by range (k)"}).exit_code == 0);
  REQUIRE(server.Psql({"-c", "create table pt_low partition of pt for values from (minvalue) to (100)"}).exit_code == 0);
  REQUIRE(server.Psql({"-c", "create table pt_mid partition of pt for values from (100) to (200)"}).exit_code == 0);
  REQUIRE(server.Psql({"-c", "create table pt_high partition of pt for values from (200) to (300) "
                             "partition by list (k)"}).exit_code == 0);
  REQUIRE(server.Psql({"-c", "create table pt_high_even partition of pt_high for values in (200, 202, 204)"})
              .exit_code == 0);
  REQUIRE(server.Psql({"-c", "create table pt_high_rest partition of pt_high default"}).exit_code == 0);

  CommandResult a, b;
  std::thread ta([&] { a = Load(server, 0); });
  std::thread tb([&] { b = Load(server, 100000); });
  ta.join();
  tb.join();
  INFO(a.out << a.err << b.out << b.err);
  REQUIRE(a.exit_code == 0);
  REQUIRE(b.exit_code == 0);

  // Each session: 6000 + 4000 + 300 rows, keys id % 300 uniformly spread.
  CHECK(PsqlInt(server, "select count(*) from pt") == 2 * 10300);
  CHECK(PsqlInt(server, "select count(distinct id) from pt") == 2 * 10300);
  const int64_t low = PsqlInt(server, "select count(*) from pt_low");
  const int64_t mid = PsqlInt(server, "select count(*) from pt_mid");
  const int64_t even = PsqlInt(server, "select count(*) from pt_high_even");
  const int64_t rest = PsqlInt(server, "select count(*) from pt_high_rest");
  CHECK(low + mid + even + rest == 2 * 10300);
  CHECK(low == PsqlInt(server, "select count(*) from pt where k < 100"));
  CHECK(mid == PsqlInt(server, "select count(*) from pt where k >= 100 and k < 200"));
  CHECK(even == PsqlInt(server, "select count(*) from pt where k in (200, 202, 204)"));
  // Nothing in a partition its bound excludes.
  CHECK(PsqlInt(server, "select count(*) from pt_low where k >= 100") == 0);
  CHECK(PsqlInt(server, "select count(*) from pt_mid where k < 100 or k >= 200") == 0);
  CHECK(PsqlInt(server, "select count(*) from pt_high_rest where k in (200, 202, 204) or k < 200") == 0);
  CHECK(PsqlInt(server, "select count(*) from only pt") == 0);
  // Per-partition counts computed from the ids the sessions sent.
  const std::string sent =
      "(select o + g as id from (values (0), (100000)) o(o), "
      "(select g from generate_series(0, 5999) g union all select g from generate_series(10000, 13999) g "
      "union all select g from generate_series(20000, 20299) g) s) ids";
  CHECK(low == PsqlInt(server, "select count(*) from " + sent + " where id % 300 < 100"));
  CHECK(rest == PsqlInt(server, "select count(*) from " + sent + " where id % 300 >= 200 and id % 300 not in (200, 202, 204)"));

  // A row no partition takes fails its whole COPY with 23514.
  CommandResult bad = server.Psql({"-v", "VERBOSITY=verbose", "-c", "copy pt from stdin"},
                                  "900001\t5\n900002\t-1\n900003\t300\n\\.\n");
  CHECK(bad.exit_code != 0);
  CHECK(bad.err.find("23514") != std::string::npos);
  CHECK(bad.err.find("no partition of relation \"pt\" found for row") != std::string::npos);
  CHECK(bad.err.find("Partition key of the failing row contains (k) = (300).") != std::string::npos);
  CHECK(PsqlInt(server, "select count(*) from pt where id > 900000") == 0);
}
