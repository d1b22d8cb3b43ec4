// server/utils/adt/builtins.h
//
// Internal to hearth_types: each builtins_*.cpp appends its rows to the
// registry table. Called once while building the table (func_registry.cpp).
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "utils/adt/func_registry.h"

namespace hearth::types::internal {

void AddMathBuiltins(std::vector<FuncSignature>* table);
void AddMathFunctionBuiltins(std::vector<FuncSignature>* table);
void AddTextBuiltins(std::vector<FuncSignature>* table);
void AddTextFunctionBuiltins(std::vector<FuncSignature>* table);
void AddRegexBuiltins(std::vector<FuncSignature>* table);
void AddByteaBuiltins(std::vector<FuncSignature>* table);
void AddDatetimeBuiltins(std::vector<FuncSignature>* table);
void AddIntervalBuiltins(std::vector<FuncSignature>* table);
void AddToCharBuiltins(std::vector<FuncSignature>* table);
void AddTimezoneBuiltins(std::vector<FuncSignature>* table);
void AddToTimestampBuiltins(std::vector<FuncSignature>* table);
void AddOverlapsBuiltins(std::vector<FuncSignature>* table);
void AddAggregateBuiltins(std::vector<FuncSignature>* table);
// anyenum's operators, enum_first/last/range (builtins_enum.cpp).
void AddEnumBuiltins(std::vector<FuncSignature>* table);

// substr(s, start [, count])'s window as 1-based positions [from, end)
// before clipping to the value's length: from = max(start, 1), end =
// start + count (INT64_MAX without a count). Throws 22011 for count < 0.
struct SubstrWindow {
  int64_t from;
  int64_t end;
};
SubstrWindow SubstrWindowOf(const Value* args, int nargs);

// A timestamp (µs since 2000-01-01) split into calendar fields.
struct CalendarFields {
  int64_t year;  // astronomical: 0 is 1 BC
  int month, day;
  int64_t usec_of_day;
  int64_t days;  // since 2000-01-01
};
CalendarFields SplitTimestamp(int64_t usecs);
// ISO day of the week (Monday 1 .. Sunday 7) and ISO 8601 week-numbering
// year and week of a day number.
int IsoDow(int64_t days);
void IsoWeek(int64_t days, int64_t* iso_year, int64_t* week);
// make_timestamp(y, m, d, h, mi, s) (22008 for invalid fields).
Value MakeTimestampValue(const Value* args, int nargs, FuncCallContext& ctx);
// µs since midnight of make_time/make_timestamp's fields; 22008 `time
// field value out of range: 25:00:00` outside 00:00:00 ..= 24:00:00.
int64_t TimeOfDayUsecs(int64_t hour, int64_t minute, double sec);
// extract/date_part helpers: PostgreSQL's unit name for an alias
// ("secs" → "second"), whether it is a unit of any date/time type, and a
// value scaled by 10^scale as numeric text ("25.575401").
std::string CanonicalDateUnit(std::string_view raw);
bool IsKnownDateUnit(const std::string& unit);
std::string ScaledDecimalText(int64_t value, int scale);
void AddTimeBuiltins(std::vector<FuncSignature>* table);
void AddToCharNumberBuiltins(std::vector<FuncSignature>* table);
void AddSessionBuiltins(std::vector<FuncSignature>* table);
void AddAdminBuiltins(std::vector<FuncSignature>* table);
void AddSequenceBuiltins(std::vector<FuncSignature>* table);
void AddCatalogBuiltins(std::vector<FuncSignature>* table);
// acldefault, current_schemas, pg_get_triggerdef & co. (builtins_dump.cpp).
void AddDumpBuiltins(std::vector<FuncSignature>* table);
// The schemas of the session's search_path that exist (public,
// pg_catalog), in order.
std::vector<std::string> SearchPathSchemas(FuncCallContext& c);
// `expr` with each 'name'::regclass literal naming its relation as
// regclass output does (the stored text keeps what was written:
// 'public.s' or 's'), schema-qualified always when `qualify` (PostgreSQL's
// form when the schema is off the search path; pg_dump sets it to '').
std::string RegclassLiteralsAsPrinted(const std::string& expr, bool qualify);
void AddArrayBuiltins(std::vector<FuncSignature>* table);
// array_to_string, string_to_array (array_string.cpp).
void AddArrayStringBuiltins(std::vector<FuncSignature>* table);
void AddRegexBuiltins(std::vector<FuncSignature>* table);

// One table row. flags: strict unless noted.
inline FuncSignature Row(const char* name, FuncKind kind, std::initializer_list<Oid> args,
                         Oid result, BuiltinFn fn, bool strict = true, bool variadic = false,
                         bool is_volatile = false) {
  FuncSignature s{name, kind, static_cast<int>(args.size()), {},
                  result, fn, strict, variadic, is_volatile};
  int i = 0;
  for (Oid a : args) s.args[i++] = a;
  return s;
}

// The elements of an array's text form ('{a,"b c"}'), NULLs kept as
// nullopt (srf_options.cpp; also array_to_string over catalog arrays).
std::vector<std::optional<std::string>> ArrayTextElements(const std::string& arr);

}  // namespace hearth::types::internal
