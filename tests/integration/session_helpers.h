// tests/integration/session_helpers.h
//
// Catch2 helpers for tests that drive several RawConn sessions against one
// server: start a session, run a statement that must succeed, read a single
// value, the last command tag, send a statement that must block on a lock.
// Each REQUIREs what it needs, so a failure names the statement.
// Header-only; include after catch.hpp.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "test_server.h"

namespace hearth::testing {

// A started session (fails the test case if startup failed).
inline std::unique_ptr<RawConn> StartedSession(const TestServer& server) {
  auto c = std::make_unique<RawConn>(server.port());
  REQUIRE(c->ok());
  auto msgs = c->Startup();
  REQUIRE(LastStatus(msgs) == 'I');
  return c;
}

// Runs sql and requires it to succeed (no ErrorResponse) within timeout_ms.
inline std::vector<RawMessage> QueryOk(RawConn& c, const std::string& sql, int timeout_ms) {
  auto msgs = c.Query(sql, timeout_ms);
  INFO("statement: " << sql << "  error: " << FirstSqlstate(msgs));
  REQUIRE(LastStatus(msgs) != 0);
  REQUIRE(First(msgs, 'E') == nullptr);
  return msgs;
}

// The single value of a one-row, one-column query.
inline std::string SingleValue(RawConn& c, const std::string& sql, int timeout_ms) {
  auto col = FirstColumn(QueryOk(c, sql, timeout_ms));
  INFO("statement: " << sql);
  REQUIRE(col.size() == 1);
  return col[0];
}

// Sends sql on `waiter` without reading its reply and waits (up to
// timeout_ms) until pg_locks, read through `observer`, shows that session
// waiting for a lock. Read the reply later with waiter.ReadUntilReady().
inline void SendAndAwaitBlocked(RawConn& waiter, RawConn& observer, const std::string& sql, int timeout_ms) {
  const std::string pid = SingleValue(waiter, "select pg_backend_pid()", timeout_ms);
  REQUIRE(waiter.Send(QueryMsg(sql)));
  const std::string probe = "select count(*) from pg_locks where not granted and pid = " + pid;
  INFO("waiting for: " << sql);
  REQUIRE(WaitFor([&] { return SingleValue(observer, probe, timeout_ms) != "0"; }, timeout_ms));
}

// The CommandComplete tag of the last command in msgs ("" when none).
inline std::string LastCommandTag(const std::vector<RawMessage>& msgs) {
  std::string tag;
  for (const auto& m : msgs)
    if (m.type == 'C') tag = CommandTag(m);
  return tag;
}

}  // namespace hearth::testing
