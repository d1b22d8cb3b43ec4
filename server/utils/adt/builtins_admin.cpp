// server/utils/adt/builtins_admin.cpp
//
// Administration functions (PostgreSQL 15 "System Administration
// Functions"): database object sizes (pg_relation_size, pg_table_size,
// pg_indexes_size, pg_total_relation_size, pg_relation_filenode,
// pg_size_pretty) and WAL positions (pg_current_wal_lsn and friends,
// pg_wal_lsn_diff, pg_lsn - pg_lsn). Sizes and positions come from the
// server through SessionCallbacks; formatting and arithmetic live here.
#include <cstdlib>

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "utils/adt/builtins.h"
#include "utils/adt/numeric.h"
#include "utils/adt/pg_lsn.h"

namespace hearth::types::internal {
namespace {

constexpr FuncKind kFn = FuncKind::kFunction;

// pg_size_pretty's units: each holds values below `limit` in that unit; the
// last has no limit. All but "bytes" round half away from zero, so the value
// carried to a rounding unit keeps one extra bit.
struct SizeUnit {
  const char* name;
  int64_t limit;
  bool rounds;
};
constexpr SizeUnit kSizeUnits[] = {
    {"bytes", 10 * 1024, false}, {"kB", 20 * 1024 - 1, true}, {"MB", 20 * 1024 - 1, true},
    {"GB", 20 * 1024 - 1, true}, {"TB", 20 * 1024 - 1, true}, {"PB", 0, true},
};
constexpr size_t kNumSizeUnits = sizeof kSizeUnits / sizeof kSizeUnits[0];

// Bits to divide by when moving from unit u to unit u + 1 (10 bits per step,
// one fewer into the first rounding unit, which needs the half).
int StepBits(size_t u) { return 10 - (kSizeUnits[u + 1].rounds ? 1 : 0) + (kSizeUnits[u].rounds ? 1 : 0); }

Value SizePrettyInt8(const Value* a, int, FuncCallContext&) {
  int64_t size = a[0].i;
  for (size_t u = 0;; u++) {
    const SizeUnit& unit = kSizeUnits[u];
    if (u + 1 == kNumSizeUnits || std::llabs(size) < unit.limit) {
      if (unit.rounds) size = (size + (size < 0 ? -1 : 1)) / 2;
      return Value::Text(std::to_string(size) + " " + unit.name);
    }
    // Division, not a shift, so negative sizes round like positive ones.
    size /= int64_t{1} << StepBits(u);
  }
}

Value SizePrettyNumeric(const Value* a, int, FuncCallContext&) {
  Numeric size = Numeric::Parse(a[0].str);
  const Numeric one = Numeric::FromInt64(1), two = Numeric::FromInt64(2);
  for (size_t u = 0;; u++) {
    const SizeUnit& unit = kSizeUnits[u];
    if (u + 1 == kNumSizeUnits || Numeric::Compare(size.Abs(), Numeric::FromInt64(unit.limit)) < 0) {
      if (unit.rounds) {
        size = (size.is_negative() ? size.Sub(one) : size.Add(one)).DivTrunc(two);
      }
      return Value::Text(size.ToString() + " " + unit.name);
    }
    size = size.DivTrunc(Numeric::FromInt64(int64_t{1} << StepBits(u)));
  }
}

// ---- relation sizes ------------------------------------------------------------

const SessionCallbacks& Server(FuncCallContext& c, const char* fn) {
  if (c.session == nullptr || !c.session->relation_sizes) {
    throw DbError(sqlstate::kFeatureNotSupported, std::string(fn) + " is not available in this context");
  }
  return *c.session;
}

std::optional<RelationSizes> SizesOf(FuncCallContext& c, const Value& rel, uint32_t fork_mask, bool with_indexes,
                                     const char* fn) {
  return Server(c, fn).relation_sizes(static_cast<uint32_t>(rel.i), fork_mask, with_indexes);
}

// pg_table_size: every fork and the TOAST relation (with its index).
int64_t TableBytes(const RelationSizes& s) {
  return s.fork_bytes[0] + s.fork_bytes[1] + s.fork_bytes[2] + s.fork_bytes[3] + s.toast_bytes;
}

// PostgreSQL's forkname_to_number.
int ForkIndex(const std::string& name) {
  static const char* const kForks[] = {"main", "fsm", "vm", "init"};
  for (int i = 0; i < 4; i++) {
    if (name == kForks[i]) return i;
  }
  throw DbError(sqlstate::kInvalidParameterValue, "invalid fork name")
      .WithHint("Valid fork names are \"main\", \"fsm\", \"vm\", and \"init\".");
}

Value RelationSize(const Value* a, int n, FuncCallContext& c) {
  int fork = n > 1 ? ForkIndex(a[1].str) : 0;
  auto s = SizesOf(c, a[0], 1u << fork, false, "pg_relation_size");
  return s ? Value::Int8(s->fork_bytes[fork]) : Value::Null(kInt8Oid);
}

Value TableSize(const Value* a, int, FuncCallContext& c) {
  auto s = SizesOf(c, a[0], kAllForksMask, false, "pg_table_size");
  return s ? Value::Int8(TableBytes(*s)) : Value::Null(kInt8Oid);
}

Value IndexesSize(const Value* a, int, FuncCallContext& c) {
  auto s = SizesOf(c, a[0], 0, true, "pg_indexes_size");
  return s ? Value::Int8(s->indexes_bytes) : Value::Null(kInt8Oid);
}

Value TotalRelationSize(const Value* a, int, FuncCallContext& c) {
  auto s = SizesOf(c, a[0], kAllForksMask, true, "pg_total_relation_size");
  return s ? Value::Int8(TableBytes(*s) + s->indexes_bytes) : Value::Null(kInt8Oid);
}

Value RelationFilenode(const Value* a, int, FuncCallContext& c) {
  auto s = SizesOf(c, a[0], 0, false, "pg_relation_filenode");
  if (!s || s->filenode == 0) return Value::Null(kOidOid);
  return Value::Int(kOidOid, s->filenode);
}

// ---- WAL positions ---------------------------------------------------------------

Value WalPositionValue(FuncCallContext& c, WalPosition which) {
  if (c.session == nullptr || !c.session->wal_position) {
    throw DbError(sqlstate::kFeatureNotSupported, "WAL positions are not available in this context");
  }
  return LsnValue(c.session->wal_position(which));
}

Value CurrentWalLsn(const Value*, int, FuncCallContext& c) { return WalPositionValue(c, WalPosition::kWrite); }
Value CurrentWalInsertLsn(const Value*, int, FuncCallContext& c) { return WalPositionValue(c, WalPosition::kInsert); }
Value CurrentWalFlushLsn(const Value*, int, FuncCallContext& c) { return WalPositionValue(c, WalPosition::kFlush); }

Value LsnMinus(const Value* a, int, FuncCallContext&) {
  return Value::Bytes(kNumericOid, LsnDiff(LsnOf(a[0]), LsnOf(a[1])));
}

}  // namespace

void AddAdminBuiltins(std::vector<FuncSignature>* t) {
  auto vol = [&](const char* name, std::initializer_list<Oid> args, Oid result, BuiltinFn fn) {
    t->push_back(Row(name, kFn, args, result, fn, true, false, /*is_volatile=*/true));
  };
  t->push_back(Row("pg_size_pretty", kFn, {kInt8Oid}, kTextOid, SizePrettyInt8));
  t->push_back(Row("pg_size_pretty", kFn, {kNumericOid}, kTextOid, SizePrettyNumeric));
  vol("pg_relation_size", {kRegclassOid}, kInt8Oid, RelationSize);
  vol("pg_relation_size", {kRegclassOid, kTextOid}, kInt8Oid, RelationSize);
  vol("pg_table_size", {kRegclassOid}, kInt8Oid, TableSize);
  vol("pg_indexes_size", {kRegclassOid}, kInt8Oid, IndexesSize);
  vol("pg_total_relation_size", {kRegclassOid}, kInt8Oid, TotalRelationSize);
  // Stable in PostgreSQL; volatile here so it is never folded at bind time.
  vol("pg_relation_filenode", {kRegclassOid}, kOidOid, RelationFilenode);
  vol("pg_current_wal_lsn", {}, kPgLsnOid, CurrentWalLsn);
  vol("pg_current_wal_insert_lsn", {}, kPgLsnOid, CurrentWalInsertLsn);
  vol("pg_current_wal_flush_lsn", {}, kPgLsnOid, CurrentWalFlushLsn);
  t->push_back(Row("pg_wal_lsn_diff", kFn, {kPgLsnOid, kPgLsnOid}, kNumericOid, LsnMinus));
  t->push_back(Row("-", FuncKind::kOperator, {kPgLsnOid, kPgLsnOid}, kNumericOid, LsnMinus));
}

}  // namespace hearth::types::internal
