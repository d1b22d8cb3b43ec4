// server/utils/adt/builtins_overlaps.cpp
//
// (start1, end1) OVERLAPS (start2, end2), the SQL operator the parser turns
// into overlaps(a, b, c, d): for timestamp, timestamptz (dates coerce to
// timestamp) and time (a length wraps at midnight, as time + interval), each end given as an instant or as a length (interval).
// PostgreSQL's NULL rules: an unknown endpoint makes the answer NULL only
// when it matters.
#include <utility>

#include "utils/adt/builtins.h"
#include "utils/adt/datetime_adt.h"
#include "utils/adt/interval.h"
#include "utils/adt/time_adt.h"

namespace hearth::types::internal {
namespace {

// An endpoint that may be unknown (NULL).
struct Instant {
  bool known = false;
  int64_t at = 0;
};

Instant Known(int64_t at) { return {true, at}; }

// The start of a pair, and its end: the value itself, or start + length
// for an interval.
Instant StartOf(const Value& start) { return start.is_null ? Instant{} : Known(start.i); }
Instant EndOf(const Value& start, const Value& end) {
  if (end.is_null) return {};
  if (end.type != kIntervalOid) return Known(end.i);
  if (start.is_null) return {};
  Interval iv = DecodeInterval(end.str);
  if (start.type == kTimeOid) return Known(WrapTimeOfDay(start.i + iv.time % kUsecsPerDay));
  bool with_tz = start.type == kTimestampTzOid;
  return Known(with_tz ? TimestampTzPlusInterval(start.i, iv) : TimestampPlusInterval(start.i, iv));
}

// Makes s the lesser endpoint of a pair (or the only known one).
void Order(Instant& s, Instant& e) {
  if (!s.known || (e.known && s.at > e.at)) std::swap(s, e);
}

Value Overlaps(const Value* a, int, FuncCallContext&) {
  Instant s1 = StartOf(a[0]), e1 = EndOf(a[0], a[1]);
  Instant s2 = StartOf(a[2]), e2 = EndOf(a[2], a[3]);
  Order(s1, e1);
  Order(s2, e2);
  const Value unknown = Value::Null(kBoolOid);
  if (!s1.known || !s2.known) return unknown;
  if (s1.at > s2.at) {
    if (!e2.known) return unknown;
    if (s1.at < e2.at) return Value::Bool(true);
    return e1.known ? Value::Bool(false) : unknown;
  }
  if (s1.at < s2.at) {
    if (!e1.known) return unknown;
    if (s2.at < e1.at) return Value::Bool(true);
    return e2.known ? Value::Bool(false) : unknown;
  }
  return e1.known && e2.known ? Value::Bool(true) : unknown;
}

}  // namespace

void AddOverlapsBuiltins(std::vector<FuncSignature>* t) {
  for (Oid x : {kTimestampOid, kTimestampTzOid, kTimeOid}) {
    for (Oid end1 : {x, kIntervalOid}) {
      for (Oid end2 : {x, kIntervalOid}) {
        t->push_back(Row("overlaps", FuncKind::kFunction, {x, end1, x, end2}, kBoolOid, Overlaps, /*strict=*/false));
      }
    }
  }
}

}  // namespace hearth::types::internal
