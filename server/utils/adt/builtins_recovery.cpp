// utils/adt/builtins_recovery.cpp
//
// Principal entry point: AddRecoveryBuiltins. PostgreSQL's recovery
// information and control functions, answered through the session's
// RecoveryCallbacks (a standby's shared state lives below this library).
#include "utils/adt/recovery_funcs.h"

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "utils/adt/builtins.h"
#include "utils/adt/pg_lsn.h"

namespace hearth::types {

namespace {
RecoveryCallbacks g_callbacks;
}  // namespace

void SetRecoveryCallbacks(RecoveryCallbacks callbacks) { g_callbacks = std::move(callbacks); }

namespace internal {

namespace {

const RecoveryCallbacks* Cb(FuncCallContext&) { return &g_callbacks; }

Value IsInRecovery(const Value*, int, FuncCallContext& c) {
  const RecoveryCallbacks* cb = Cb(c);
  return Value::Bool(cb != nullptr && cb->in_recovery && cb->in_recovery());
}

Value LsnOrNull(const std::function<uint64_t()>& fn) {
  const uint64_t lsn = fn ? fn() : 0;
  return lsn == 0 ? Value::Null(kPgLsnOid) : LsnValue(lsn);
}

Value LastWalReceiveLsn(const Value*, int, FuncCallContext& c) {
  return Cb(c) != nullptr ? LsnOrNull(Cb(c)->receive_lsn) : Value::Null(kPgLsnOid);
}

Value LastWalReplayLsn(const Value*, int, FuncCallContext& c) {
  return Cb(c) != nullptr ? LsnOrNull(Cb(c)->replay_lsn) : Value::Null(kPgLsnOid);
}

Value LastXactReplayTimestamp(const Value*, int, FuncCallContext& c) {
  const RecoveryCallbacks* cb = Cb(c);
  if (cb == nullptr || !cb->last_xact_replay_timestamp) return Value::Null(kTimestampTzOid);
  const std::optional<int64_t> ts = cb->last_xact_replay_timestamp();
  return ts ? Value::Int(kTimestampTzOid, *ts) : Value::Null(kTimestampTzOid);
}

// pg_promote([wait boolean [, wait_seconds integer]]), defaults true and 60.
Value Promote(const Value* a, int n, FuncCallContext& c) {
  const bool wait = n < 1 || a[0].b;
  const int32_t seconds = n < 2 ? 60 : static_cast<int32_t>(a[1].i);
  if (seconds <= 0) {
    throw DbError(sqlstate::kInvalidParameterValue, "\"wait_seconds\" must not be negative or zero");
  }
  const RecoveryCallbacks* cb = Cb(c);
  if (cb == nullptr || !cb->promote) {
    throw DbError(sqlstate::kObjectNotInPrerequisiteState, "recovery is not in progress")
        .WithHint("Recovery control functions can only be executed during recovery.");
  }
  return Value::Bool(cb->promote(wait, seconds));
}

}  // namespace

void AddRecoveryBuiltins(std::vector<FuncSignature>* t) {
  auto vol = [&](const char* name, std::initializer_list<Oid> args, Oid result, BuiltinFn fn) {
    t->push_back(Row(name, FuncKind::kFunction, args, result, fn, true, false, /*is_volatile=*/true));
  };
  vol("pg_is_in_recovery", {}, kBoolOid, IsInRecovery);
  vol("pg_last_wal_receive_lsn", {}, kPgLsnOid, LastWalReceiveLsn);
  vol("pg_last_wal_replay_lsn", {}, kPgLsnOid, LastWalReplayLsn);
  vol("pg_last_xact_replay_timestamp", {}, kTimestampTzOid, LastXactReplayTimestamp);
  vol("pg_promote", {}, kBoolOid, Promote);
  vol("pg_promote", {kBoolOid}, kBoolOid, Promote);
  vol("pg_promote", {kBoolOid, kInt4Oid}, kBoolOid, Promote);
}

}  // namespace internal
}  // namespace hearth::types
