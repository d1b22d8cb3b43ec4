// server/utils/adt/func_context.h
//
// What a built-in function may see of the session: callbacks the backend
// installs (database, user, settings, pid, transaction clock). Functions
// such as now(), current_user and current_setting() read them; everything
// else ignores them. One FuncCallContext belongs to one backend and is used
// by one thread at a time.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace hearth::types {

// Each callback is optional; unset ones fall back to the documented default.
struct SessionCallbacks {
  std::function<std::string()> database_name;       // default "postgres"
  std::function<std::string()> current_user;        // default "postgres"
  std::function<std::string()> session_user;        // default: current_user
  std::function<std::string()> current_schema;      // default "public"
  // Value of a setting, nullopt if there is no such setting (→ 42704).
  std::function<std::optional<std::string>(std::string_view)> get_setting;
  std::function<int32_t()> backend_pid;             // default getpid()
  // µs since 2000-01-01 UTC; default: the wall clock at call time.
  std::function<int64_t()> transaction_timestamp;
  std::function<int64_t()> statement_timestamp;
  // Sleeps `usec` microseconds and throws if the statement is cancelled
  // meanwhile (pg_sleep); default: an uninterruptible sleep.
  std::function<void(int64_t usec)> sleep;
  // hearth_index_check(name): verifies the B-tree index `name` ("idx" or
  // "schema.idx"); returns "" when sound, else the first violated invariant;
  // nullopt when there is no such index (→ 42704). Unset: 0A000.
  std::function<std::optional<std::string>(std::string_view)> index_check;
  // pg_relation_size(name): bytes in the main fork of the table or index
  // `name` ("t" or "schema.t"); nullopt when there is none (→ 42P01).
  // Unset: 0A000.
  std::function<std::optional<int64_t>(std::string_view)> relation_size;
};

struct FuncCallContext {
  const SessionCallbacks* session = nullptr;
  // State of random(); 0 means "seed from the clock on first use".
  uint64_t random_state = 0;
};

}  // namespace hearth::types
