// server/utils/adt/builtins_session.cpp
//
// Functions that read the session or the clock: now() and friends,
// current_user, current_database(), current_setting(), version(),
// pg_backend_pid(), random(). They are volatile (never folded at bind time).
#include <unistd.h>

#include "common/error/db_error.h"
#include "utils/adt/builtins.h"
#include "utils/adt/datetime_adt.h"
#include "utils/adt/time_adt.h"
#include "utils/adt/uuid.h"

namespace hearth::types::internal {
namespace {

constexpr FuncKind kFn = FuncKind::kFunction;

const SessionCallbacks* S(FuncCallContext& c) { return c.session; }

int64_t TxnTs(FuncCallContext& c) {
  if (S(c) && S(c)->transaction_timestamp) return S(c)->transaction_timestamp();
  return CurrentTimestampUsecs();
}

int64_t StmtTs(FuncCallContext& c) {
  if (S(c) && S(c)->statement_timestamp) return S(c)->statement_timestamp();
  return TxnTs(c);
}

std::string CurrentUser(FuncCallContext& c) {
  if (S(c) && S(c)->current_user) return S(c)->current_user();
  return "postgres";
}

Value Now(const Value*, int, FuncCallContext& c) { return Value::Int(kTimestampTzOid, TxnTs(c)); }
Value StatementTs(const Value*, int, FuncCallContext& c) {
  return Value::Int(kTimestampTzOid, StmtTs(c));
}
Value ClockTs(const Value*, int, FuncCallContext&) {
  return Value::Int(kTimestampTzOid, CurrentTimestampUsecs());
}
// localtimestamp and current_date read the clock in the session time zone.
Value LocalTs(const Value*, int, FuncCallContext& c) {
  return Value::Int(kTimestampOid, TimestampTzToTimestamp(TxnTs(c)));
}
// current_time: the transaction's start in the session zone, with its offset.
Value CurrentTime(const Value*, int, FuncCallContext& c) { return TimeTzValue(TimestampTzToTimeTz(TxnTs(c))); }
Value LocalTime(const Value*, int, FuncCallContext& c) {
  return Value::Int(kTimeOid, TimestampToTime(TimestampTzToTimestamp(TxnTs(c))));
}
Value CurrentDate(const Value*, int, FuncCallContext& c) {
  return Value::Int(kDateOid, TimestampToDate(TimestampTzToTimestamp(TxnTs(c))));
}

Value Version(const Value*, int, FuncCallContext&) {
  return Value::Text(
      "PostgreSQL 15.0 (Hearth 0.1.0) on x86_64-pc-linux-gnu, compiled by g++, 64-bit");
}

Value CurrentDatabase(const Value*, int, FuncCallContext& c) {
  if (S(c) && S(c)->database_name) return Value::Bytes(kNameOid, S(c)->database_name());
  return Value::Bytes(kNameOid, "postgres");
}
Value CurrentUserFn(const Value*, int, FuncCallContext& c) { return Value::Bytes(kNameOid, CurrentUser(c)); }
Value SessionUser(const Value*, int, FuncCallContext& c) {
  if (S(c) && S(c)->session_user) return Value::Bytes(kNameOid, S(c)->session_user());
  return Value::Bytes(kNameOid, CurrentUser(c));
}
Value CurrentSchema(const Value*, int, FuncCallContext& c) {
  if (S(c) && S(c)->current_schema) {
    // NULL when no schema of the search path exists, as PostgreSQL.
    std::string name = S(c)->current_schema();
    return name.empty() ? Value::Null(kNameOid) : Value::Bytes(kNameOid, std::move(name));
  }
  return Value::Bytes(kNameOid, "public");
}

Value CurrentSetting(const Value* a, int n, FuncCallContext& c) {
  std::optional<std::string> v;
  if (S(c) && S(c)->get_setting) v = S(c)->get_setting(a[0].str);
  if (!v) {
    // current_setting(name, missing_ok => true) returns NULL instead.
    if (n > 1 && !a[1].is_null && a[1].b) return Value::Null(kTextOid);
    throw DbError(sqlstate::kUndefinedObject,
                  "unrecognized configuration parameter \"" + a[0].str + "\"");
  }
  return Value::Text(*v);
}

Value SetConfig(const Value* a, int, FuncCallContext& c) {
  if (a[0].is_null) throw DbError(sqlstate::kNullValueNotAllowed, "SET requires parameter name");
  if (!S(c) || !S(c)->set_setting) {
    throw DbError(sqlstate::kFeatureNotSupported, "set_config is not available in this context");
  }
  // A NULL value resets the setting, as SET name TO DEFAULT.
  const bool is_local = !a[2].is_null && a[2].b;
  return Value::Text(S(c)->set_setting(a[0].str, a[1].is_null ? std::string_view() : a[1].str, is_local));
}

Value BackendPid(const Value*, int, FuncCallContext& c) {
  if (S(c) && S(c)->backend_pid) return Value::Int4(S(c)->backend_pid());
  return Value::Int4(static_cast<int32_t>(getpid()));
}

// xorshift64*: fast, good enough for random(); not cryptographic.
Value Random(const Value*, int, FuncCallContext& c) {
  if (c.random_state == 0) {
    c.random_state = static_cast<uint64_t>(CurrentTimestampUsecs()) ^ 0x9E3779B97F4A7C15ULL ^
                     (static_cast<uint64_t>(getpid()) << 32);
    if (c.random_state == 0) c.random_state = 1;
  }
  uint64_t x = c.random_state;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  c.random_state = x;
  uint64_t r = x * 0x2545F4914F6CDD1DULL;
  return Value::Float8(static_cast<double>(r >> 11) * (1.0 / 9007199254740992.0));
}

// pg_sleep(seconds): through the session so a cancel or statement_timeout
// ends it promptly.
Value PgSleep(const Value* a, int, FuncCallContext& c) {
  double secs = a[0].f;
  if (secs > 0) {
    auto usec = static_cast<int64_t>(secs * 1e6);
    if (S(c) && S(c)->sleep) {
      S(c)->sleep(usec);
    } else {
      usleep(static_cast<useconds_t>(usec));
    }
  }
  Value v = Value::Null(kVoidOid);
  v.is_null = false;
  return v;
}

// hearth_index_check(text): 'ok' when the index is structurally sound, else
// the first violated invariant (the server verifies it under a share lock).
Value IndexCheck(const Value* a, int, FuncCallContext& c) {
  if (!S(c) || !S(c)->index_check)
    throw DbError(sqlstate::kFeatureNotSupported, "hearth_index_check is not available in this context");
  std::optional<std::string> r = S(c)->index_check(a[0].str);
  if (!r) throw DbError(sqlstate::kUndefinedObject, "index \"" + a[0].str + "\" does not exist");
  return Value::Text(r->empty() ? std::string("ok") : *r);
}

// pg_cancel_backend(pid), pg_terminate_backend(pid [, timeout_ms]).
template <bool kTerminate>
Value SignalBackend(const Value* a, int n, FuncCallContext& c) {
  if (!S(c) || !S(c)->signal_backend) {
    throw DbError(sqlstate::kFeatureNotSupported, "signalling backends is not supported here");
  }
  const int64_t timeout = n > 1 ? a[1].i : 0;
  if (timeout < 0) throw DbError(sqlstate::kInvalidParameterValue, "\"timeout\" must not be negative");
  return Value::Bool(S(c)->signal_backend(static_cast<int32_t>(a[0].i), kTerminate, timeout));
}

Value HasTablePrivilegeFn(const Value* a, int n, FuncCallContext& c) {
  if (!S(c) || !S(c)->has_table_privilege) {
    throw DbError(sqlstate::kFeatureNotSupported, "has_table_privilege is not supported here");
  }
  if (n == 3) return Value::Bool(S(c)->has_table_privilege(a[0].str, a[1].str, a[2].str));
  return Value::Bool(S(c)->has_table_privilege(std::nullopt, a[0].str, a[1].str));
}
// has_sequence_privilege / has_column_privilege: `nargs` arguments without
// the role; one more when the role leads.
Value HasPrivilege(const char* kind, size_t nargs, const Value* a, int n, FuncCallContext& c) {
  if (!S(c) || !S(c)->has_privilege) {
    throw DbError(sqlstate::kFeatureNotSupported, std::string("has_") + kind + "_privilege is not supported here");
  }
  const bool with_role = static_cast<size_t>(n) > nargs;
  std::vector<std::string> args;
  for (int i = with_role ? 1 : 0; i < n; ++i) args.push_back(a[i].str);
  return Value::Bool(S(c)->has_privilege(kind, with_role ? std::optional<std::string>(a[0].str) : std::nullopt, args));
}
Value HasSequencePrivilegeFn(const Value* a, int n, FuncCallContext& c) { return HasPrivilege("sequence", 2, a, n, c); }
Value HasColumnPrivilegeFn(const Value* a, int n, FuncCallContext& c) { return HasPrivilege("column", 3, a, n, c); }
Value HasDatabasePrivilegeFn(const Value* a, int n, FuncCallContext& c) { return HasPrivilege("database", 2, a, n, c); }
Value HasSchemaPrivilegeFn(const Value* a, int n, FuncCallContext& c) { return HasPrivilege("schema", 2, a, n, c); }
Value GenRandomUuid(const Value*, int, FuncCallContext&) { return Value::Bytes(kUuidOid, RandomUuid()); }

}  // namespace

void AddSessionBuiltins(std::vector<FuncSignature>* t) {
  auto vol = [&](const char* name, std::initializer_list<Oid> args, Oid result, BuiltinFn fn,
                 bool strict = true) {
    t->push_back(Row(name, kFn, args, result, fn, strict, false, /*is_volatile=*/true));
  };
  vol("now", {}, kTimestampTzOid, Now);
  vol("transaction_timestamp", {}, kTimestampTzOid, Now);
  vol("current_timestamp", {}, kTimestampTzOid, Now);
  vol("statement_timestamp", {}, kTimestampTzOid, StatementTs);
  vol("clock_timestamp", {}, kTimestampTzOid, ClockTs);
  vol("localtimestamp", {}, kTimestampOid, LocalTs);
  vol("current_date", {}, kDateOid, CurrentDate);
  vol("current_time", {}, kTimeTzOid, CurrentTime);
  vol("localtime", {}, kTimeOid, LocalTime);
  vol("version", {}, kTextOid, Version);
  vol("current_database", {}, kNameOid, CurrentDatabase);
  vol("current_catalog", {}, kNameOid, CurrentDatabase);
  vol("current_user", {}, kNameOid, CurrentUserFn);
  vol("current_role", {}, kNameOid, CurrentUserFn);
  vol("user", {}, kNameOid, CurrentUserFn);
  vol("session_user", {}, kNameOid, SessionUser);
  vol("current_schema", {}, kNameOid, CurrentSchema);
  vol("current_setting", {kTextOid}, kTextOid, CurrentSetting);
  vol("current_setting", {kTextOid, kBoolOid}, kTextOid, CurrentSetting, false);
  vol("set_config", {kTextOid, kTextOid, kBoolOid}, kTextOid, SetConfig, false);
  vol("pg_backend_pid", {}, kInt4Oid, BackendPid);
  vol("random", {}, kFloat8Oid, Random);
  vol("gen_random_uuid", {}, kUuidOid, GenRandomUuid);
  vol("pg_sleep", {kFloat8Oid}, kVoidOid, PgSleep);
  vol("pg_cancel_backend", {kInt4Oid}, kBoolOid, SignalBackend<false>);
  vol("pg_terminate_backend", {kInt4Oid}, kBoolOid, SignalBackend<true>);
  vol("pg_terminate_backend", {kInt4Oid, kInt8Oid}, kBoolOid, SignalBackend<true>);
  vol("hearth_index_check", {kTextOid}, kTextOid, IndexCheck);
  vol("has_table_privilege", {kTextOid, kTextOid}, kBoolOid, HasTablePrivilegeFn);
  vol("has_table_privilege", {kNameOid, kTextOid, kTextOid}, kBoolOid, HasTablePrivilegeFn);
  vol("has_sequence_privilege", {kTextOid, kTextOid}, kBoolOid, HasSequencePrivilegeFn);
  vol("has_sequence_privilege", {kNameOid, kTextOid, kTextOid}, kBoolOid, HasSequencePrivilegeFn);
  vol("has_column_privilege", {kTextOid, kTextOid, kTextOid}, kBoolOid, HasColumnPrivilegeFn);
  vol("has_column_privilege", {kNameOid, kTextOid, kTextOid, kTextOid}, kBoolOid, HasColumnPrivilegeFn);
  vol("has_database_privilege", {kTextOid, kTextOid}, kBoolOid, HasDatabasePrivilegeFn);
  vol("has_database_privilege", {kNameOid, kTextOid, kTextOid}, kBoolOid, HasDatabasePrivilegeFn);
  vol("has_schema_privilege", {kTextOid, kTextOid}, kBoolOid, HasSchemaPrivilegeFn);
  vol("has_schema_privilege", {kNameOid, kTextOid, kTextOid}, kBoolOid, HasSchemaPrivilegeFn);
}

}  // namespace hearth::types::internal
