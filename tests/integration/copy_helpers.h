// tests/integration/copy_helpers.h
//
// COPY ... (FORMAT binary) over a raw protocol connection, for the tests
// that compare COPY bytes with PostgreSQL's.
#pragma once

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "test_server.h"

namespace hearth::testing {

inline std::string FromHex(std::string_view hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) out.push_back(static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
  return out;
}

// Runs sql, requiring it to succeed.
inline void RunOk(RawConn& c, const std::string& sql) {
  auto msgs = c.Query(sql);
  INFO(sql);
  REQUIRE(FirstSqlstate(msgs) == "");
}

// Runs a COPY ... TO STDOUT and returns the concatenated CopyData payloads;
// checks the CopyOutResponse says binary for every column.
inline std::string CopyOut(RawConn& c, const std::string& sql, size_t ncols) {
  REQUIRE(c.Send(QueryMsg(sql)));
  auto h = c.Read();
  REQUIRE(h.has_value());
  REQUIRE(h->type == 'H');
  REQUIRE(h->body.size() == 3 + 2 * ncols);
  CHECK(h->body[0] == 1);
  for (size_t i = 0; i < ncols; i++) CHECK(h->body[4 + 2 * i] == 1);
  std::string data;
  for (;;) {
    auto m = c.Read();
    REQUIRE(m.has_value());
    if (m->type == 'd') {
      data += m->body;
      continue;
    }
    REQUIRE(m->type == 'c');
    break;
  }
  auto rest = c.ReadUntilReady();
  REQUIRE(Types(rest) == "CZ");
  return data;
}

// Sends `data` to COPY ... FROM STDIN in CopyData chunks of `chunk` bytes
// and returns what the server answered after CopyDone.
inline std::vector<RawMessage> CopyIn(RawConn& c, const std::string& sql, const std::string& data, size_t chunk) {
  REQUIRE(c.Send(QueryMsg(sql)));
  auto g = c.Read();
  REQUIRE(g.has_value());
  REQUIRE(g->type == 'G');
  CHECK(g->body[0] == 1);
  std::string out;
  for (size_t at = 0; at < data.size(); at += chunk) out += CopyDataMsg(std::string_view(data).substr(at, chunk));
  out += CopyDoneMsg();
  REQUIRE(c.Send(out));
  return c.ReadUntilReady();
}

}  // namespace hearth::testing
