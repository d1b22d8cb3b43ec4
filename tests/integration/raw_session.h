// tests/integration/raw_session.h
//
// Catch2 helpers shared by the integration tests that drive a RawConn by
// hand and crash the server: statement success, one-value queries, and a
// kill -9 of the whole server followed by a restart (crash recovery).
// Header-only; include after catch.hpp and test_server.h.
#pragma once

#include <signal.h>

#include <cstdint>
#include <string>
#include <vector>

#include "test_server.h"

namespace hearth::testing {

inline bool Alive(pid_t p) { return kill(p, 0) == 0; }

// No ErrorResponse, and the exchange ended with ReadyForQuery.
inline bool Ok(const std::vector<RawMessage>& msgs) { return First(msgs, 'E') == nullptr && LastStatus(msgs) != 0; }

// Runs `sql`; on failure returns false after recording the error.
inline bool Exec(RawConn& c, const std::string& sql, int timeout_ms = 30000) {
  auto msgs = c.Query(sql, timeout_ms);
  if (Ok(msgs)) return true;
  const RawMessage* e = First(msgs, 'E');
  UNSCOPED_INFO(sql.substr(0, 200) << "\n  -> "
                                   << (e ? ErrorOf(*e).sqlstate + " " + ErrorOf(*e).message : "no answer"));
  return false;
}

// The single value of a one-row, one-column query ("<error SQLSTATE>" on
// failure, "<N rows>" for another row count).
inline std::string QueryValue(RawConn& c, const std::string& sql, int timeout_ms = 30000) {
  auto msgs = c.Query(sql, timeout_ms);
  if (!Ok(msgs)) return "<error " + FirstSqlstate(msgs) + ">";
  std::vector<std::string> col = FirstColumn(msgs);
  return col.size() == 1 ? col[0] : "<" + std::to_string(col.size()) + " rows>";
}

// Startup as hearth/hearth; the test stops unless the session is idle.
inline void RequireStartup(RawConn& c) { REQUIRE(LastStatus(c.Startup()) == 'I'); }

// The integer a one-value query returns; the test stops on anything else.
inline int64_t QueryNumber(RawConn& c, const std::string& sql) {
  const std::string v = QueryValue(c, sql);
  INFO(sql << " -> " << v);
  REQUIRE(!v.empty());
  REQUIRE(v.find_first_not_of("-0123456789") == std::string::npos);
  return std::stoll(v);
}

// kill -9 of the postmaster and all its children, then a restart on the same
// data directory (crash recovery runs before it accepts connections).
// `between` runs while nothing is up (to damage files).
template <typename Between>
void CrashAndRestart(TestServer& server, Between between) {
  REQUIRE(KillServerHard(server));
  between();
  REQUIRE_NOTHROW(server.Start());
}
inline void CrashAndRestart(TestServer& server) {
  CrashAndRestart(server, [] {});
}

}  // namespace hearth::testing
