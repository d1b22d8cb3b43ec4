// Helpers for tests in which several roles log in over the wire.
#pragma once

#include <string>

#include "client/client.h"
#include "test_server.h"

namespace hearth::testing {

// Login options for `user` (password "pw") on database hearth.
inline client::ConnectOptions LoginAs(const TestServer& s, const std::string& user) {
  client::ConnectOptions o;
  o.port = static_cast<uint16_t>(s.port());
  o.user = user;
  o.database = "hearth";
  o.password = "pw";
  return o;
}

// The SQLSTATE of `sql`'s first error ("" when it succeeded).
inline std::string StateOf(client::Connection& c, const std::string& sql) {
  for (const auto& r : c.SimpleQuery(sql)) {
    if (!r.ok()) return r.error->sqlstate;
  }
  return "";
}

}  // namespace hearth::testing
