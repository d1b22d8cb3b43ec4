// server/utils/adt/type_catalog.cpp
//
// Principal entry points: LookupType, LookupTypeByName, FormatType.
// The table mirrors the pg_type rows clients rely on (OIDs, typlen, category).
#include "utils/adt/type_catalog.h"

#include <array>
#include <cctype>

#include "common/error/db_error.h"
#include "utils/adt/json.h"
#include "utils/adt/user_types.h"

namespace hearth::types {
namespace {

constexpr auto kTypes = std::to_array<TypeInfo>({
    {kBoolOid, "bool", "boolean", 1, TypeCategory::kBoolean, true, Storage::kBool},
    {kByteaOid, "bytea", "bytea", -1, TypeCategory::kUser, false, Storage::kBytes},
    {kNameOid, "name", "name", 64, TypeCategory::kString, false, Storage::kBytes},
    {kInt8Oid, "int8", "bigint", 8, TypeCategory::kNumeric, false, Storage::kInt},
    {kInt2Oid, "int2", "smallint", 2, TypeCategory::kNumeric, false, Storage::kInt},
    {kInt4Oid, "int4", "integer", 4, TypeCategory::kNumeric, false, Storage::kInt},
    {kTextOid, "text", "text", -1, TypeCategory::kString, true, Storage::kBytes},
    {kOidOid, "oid", "oid", 4, TypeCategory::kNumeric, false, Storage::kInt},
    {kFloat4Oid, "float4", "real", 4, TypeCategory::kNumeric, false, Storage::kFloat},
    {kFloat8Oid, "float8", "double precision", 8, TypeCategory::kNumeric, true, Storage::kFloat},
    {kUnknownOid, "unknown", "unknown", -2, TypeCategory::kUnknown, false, Storage::kBytes},
    {kBpcharOid, "bpchar", "character", -1, TypeCategory::kString, false, Storage::kBytes},
    {kVarcharOid, "varchar", "character varying", -1, TypeCategory::kString, false, Storage::kBytes},
    {kDateOid, "date", "date", 4, TypeCategory::kDateTime, false, Storage::kInt},
    {kTimestampOid, "timestamp", "timestamp without time zone", 8, TypeCategory::kDateTime, false,
     Storage::kInt},
    {kTimestampTzOid, "timestamptz", "timestamp with time zone", 8, TypeCategory::kDateTime, true,
     Storage::kInt},
    {kNumericOid, "numeric", "numeric", -1, TypeCategory::kNumeric, false, Storage::kBytes},
    {kTimeOid, "time", "time without time zone", 8, TypeCategory::kDateTime, false, Storage::kInt},
    {kTimeTzOid, "timetz", "time with time zone", 12, TypeCategory::kDateTime, false, Storage::kBytes},
    {kRegclassOid, "regclass", "regclass", 4, TypeCategory::kNumeric, false, Storage::kInt},
    {kRegtypeOid, "regtype", "regtype", 4, TypeCategory::kNumeric, false, Storage::kInt},
    {kRegprocOid, "regproc", "regproc", 4, TypeCategory::kNumeric, false, Storage::kInt},
    {kRegnamespaceOid, "regnamespace", "regnamespace", 4, TypeCategory::kNumeric, false, Storage::kInt},
    {kPgLsnOid, "pg_lsn", "pg_lsn", 8, TypeCategory::kUser, false, Storage::kInt},
    {kUuidOid, "uuid", "uuid", 16, TypeCategory::kUser, false, Storage::kBytes},
    {kIntervalOid, "interval", "interval", 16, TypeCategory::kTimespan, true, Storage::kBytes},
    {kJsonOid, "json", "json", -1, TypeCategory::kUser, false, Storage::kBytes},
    {kJsonbOid, "jsonb", "jsonb", -1, TypeCategory::kUser, false, Storage::kBytes},
    {kJsonpathOid, "jsonpath", "jsonpath", -1, TypeCategory::kUser, false, Storage::kBytes},
    {kVoidOid, "void", "void", 4, TypeCategory::kPseudo, false, Storage::kNone},
    {2279 /* trigger */, "trigger", "trigger", 4, TypeCategory::kPseudo, false, Storage::kNone},
    {kRecordOid, "record", "record", -1, TypeCategory::kPseudo, false, Storage::kBytes},
    {kAnyOid, "any", "\"any\"", 4, TypeCategory::kPseudo, false, Storage::kNone},
    {kAnyNonArrayOid, "anynonarray", "anynonarray", 4, TypeCategory::kPseudo, false, Storage::kNone},
    {kAnyEnumOid, "anyenum", "anyenum", 4, TypeCategory::kPseudo, false, Storage::kNone},
    // Array types (pg_type rows with a leading underscore). Their value is
    // the encoded array in `str` (array.h).
#define HEARTH_ARRAY_TYPE(oid, name, sql, elem) \
  {oid, name, sql, -1, TypeCategory::kArray, false, Storage::kBytes, elem}
    HEARTH_ARRAY_TYPE(1000, "_bool", "boolean[]", kBoolOid),
    HEARTH_ARRAY_TYPE(1001, "_bytea", "bytea[]", kByteaOid),
    HEARTH_ARRAY_TYPE(1003, "_name", "name[]", kNameOid),
    HEARTH_ARRAY_TYPE(1016, "_int8", "bigint[]", kInt8Oid),
    HEARTH_ARRAY_TYPE(1005, "_int2", "smallint[]", kInt2Oid),
    HEARTH_ARRAY_TYPE(1007, "_int4", "integer[]", kInt4Oid),
    HEARTH_ARRAY_TYPE(1009, "_text", "text[]", kTextOid),
    HEARTH_ARRAY_TYPE(1028, "_oid", "oid[]", kOidOid),
    HEARTH_ARRAY_TYPE(1021, "_float4", "real[]", kFloat4Oid),
    HEARTH_ARRAY_TYPE(1022, "_float8", "double precision[]", kFloat8Oid),
    HEARTH_ARRAY_TYPE(1014, "_bpchar", "character[]", kBpcharOid),
    HEARTH_ARRAY_TYPE(1015, "_varchar", "character varying[]", kVarcharOid),
    HEARTH_ARRAY_TYPE(1182, "_date", "date[]", kDateOid),
    HEARTH_ARRAY_TYPE(1115, "_timestamp", "timestamp without time zone[]", kTimestampOid),
    HEARTH_ARRAY_TYPE(1185, "_timestamptz", "timestamp with time zone[]", kTimestampTzOid),
    HEARTH_ARRAY_TYPE(1231, "_numeric", "numeric[]", kNumericOid),
    HEARTH_ARRAY_TYPE(1183, "_time", "time without time zone[]", kTimeOid),
    HEARTH_ARRAY_TYPE(1270, "_timetz", "time with time zone[]", kTimeTzOid),
    HEARTH_ARRAY_TYPE(2210, "_regclass", "regclass[]", kRegclassOid),
    HEARTH_ARRAY_TYPE(2211, "_regtype", "regtype[]", kRegtypeOid),
    HEARTH_ARRAY_TYPE(1008, "_regproc", "regproc[]", kRegprocOid),
    HEARTH_ARRAY_TYPE(4090, "_regnamespace", "regnamespace[]", kRegnamespaceOid),
    HEARTH_ARRAY_TYPE(3221, "_pg_lsn", "pg_lsn[]", kPgLsnOid),
    HEARTH_ARRAY_TYPE(2951, "_uuid", "uuid[]", kUuidOid),
    HEARTH_ARRAY_TYPE(1187, "_interval", "interval[]", kIntervalOid),
    HEARTH_ARRAY_TYPE(199, "_json", "json[]", kJsonOid),
    HEARTH_ARRAY_TYPE(3807, "_jsonb", "jsonb[]", kJsonbOid),
    HEARTH_ARRAY_TYPE(4073, "_jsonpath", "jsonpath[]", kJsonpathOid),
#undef HEARTH_ARRAY_TYPE
});

struct Alias {
  const char* name;
  Oid oid;
};

// Names accepted in casts and DDL besides pg_type.typname. Only quoted
// "char" reaches this table (the parser turns bare CHAR/CHARACTER into
// bpchar): PostgreSQL's 1-byte type, which is text here as the catalogs'
// "char" columns are (pg_dump writes 's'::"char").
constexpr std::array<Alias, 24> kAliases = {{
    {"char", kTextOid},
    {"boolean", kBoolOid},
    {"smallint", kInt2Oid},
    {"integer", kInt4Oid},
    {"int", kInt4Oid},
    {"bigint", kInt8Oid},
    {"real", kFloat4Oid},
    {"float", kFloat8Oid},
    {"double precision", kFloat8Oid},
    {"decimal", kNumericOid},
    {"dec", kNumericOid},
    {"character varying", kVarcharOid},
    {"char varying", kVarcharOid},
    {"character", kBpcharOid},
    {"timestamp without time zone", kTimestampOid},
    {"timestamp with time zone", kTimestampTzOid},
    {"time without time zone", kTimeOid},
    {"time with time zone", kTimeTzOid},
    {"serial", kInt4Oid},
    {"bigserial", kInt8Oid},
    {"smallserial", kInt2Oid},
    {"serial2", kInt2Oid},
    {"serial4", kInt4Oid},
    {"serial8", kInt8Oid},
}};

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  }
  return true;
}

}  // namespace

std::span<const TypeInfo> AllTypes() { return kTypes; }

Oid ElementTypeOf(Oid t) {
  switch (t) {
    case 1000: return kBoolOid;
    case 1001: return kByteaOid;
    case 1003: return kNameOid;
    case 1016: return kInt8Oid;
    case 1005: return kInt2Oid;
    case 1007: return kInt4Oid;
    case 1009: return kTextOid;
    case 1028: return kOidOid;
    case 1021: return kFloat4Oid;
    case 1022: return kFloat8Oid;
    case 1014: return kBpcharOid;
    case 1015: return kVarcharOid;
    case 1182: return kDateOid;
    case 1115: return kTimestampOid;
    case 1185: return kTimestampTzOid;
    case 1231: return kNumericOid;
    case 1183: return kTimeOid;
    case 1270: return kTimeTzOid;
    case 2210: return kRegclassOid;
    case 2211: return kRegtypeOid;
    case 1008: return kRegprocOid;
    case 4090: return kRegnamespaceOid;
    case 3221: return kPgLsnOid;
    case 2951: return kUuidOid;
    case 199: return kJsonOid;
    case 3807: return kJsonbOid;
    case 4073: return kJsonpathOid;
    default:
      if (MayBeUserType(t)) {
        const UserType* u = FindUserType(t);
        if (u != nullptr && u->array_oid == t) return u->oid;
      }
      return kInvalidOid;
  }
}

Oid ArrayTypeOf(Oid elem) {
  if (elem == kInvalidOid) return kInvalidOid;
  for (const TypeInfo& t : kTypes) {
    if (t.elem == elem) return t.oid;
  }
  const UserType* u = FindUserType(elem);
  return u != nullptr && u->oid == elem ? u->array_oid : kInvalidOid;
}

const TypeInfo* LookupType(Oid oid) {
  for (const TypeInfo& t : kTypes) {
    if (t.oid == oid) return &t;
  }
  const UserType* u = FindUserType(oid);
  if (u == nullptr) return nullptr;
  return u->oid == oid ? &u->info : &u->array_info;
}

const TypeInfo* LookupTypeByName(std::string_view name) {
  // Accept a pg_catalog. qualifier as PostgreSQL does.
  constexpr std::string_view kPrefix = "pg_catalog.";
  if (name.size() > kPrefix.size() && EqualsIgnoreCase(name.substr(0, kPrefix.size()), kPrefix)) {
    name.remove_prefix(kPrefix.size());
  }
  // "integer[]" (format_type's spelling, regtype input): the element's array type.
  if (name.size() > 2 && name.substr(name.size() - 2) == "[]") {
    const TypeInfo* elem = LookupTypeByName(name.substr(0, name.size() - 2));
    return elem != nullptr ? LookupType(ArrayTypeOf(elem->oid)) : nullptr;
  }
  for (const TypeInfo& t : kTypes) {
    if (t.category != TypeCategory::kPseudo && EqualsIgnoreCase(name, t.name)) return &t;
  }
  for (const Alias& a : kAliases) {
    if (EqualsIgnoreCase(name, a.name)) return LookupType(a.oid);
  }
  // Types made by CREATE TYPE / CREATE DOMAIN, found through the search path.
  if (const UserType* u = FindUserTypeByName("", name)) return &u->info;
  return nullptr;
}

std::string FormatType(Oid oid, int32_t typmod) {
  const TypeInfo* t = LookupType(oid);
  if (t == nullptr) return "???";
  // An array's modifier belongs to its element: character varying(5)[].
  if (t->elem != kInvalidOid) return FormatType(t->elem, typmod) + "[]";
  if (const UserType* u = FindUserType(oid)) return FormatUserTypeName(*u);
  std::string out = t->sql_name;
  if (typmod >= 4) {
    if (oid == kVarcharOid || oid == kBpcharOid) {
      out += "(" + std::to_string(typmod - 4) + ")";
    } else if (oid == kNumericOid) {
      out += "(" + std::to_string(NumericTypmodPrecision(typmod)) + "," +
             std::to_string(NumericTypmodScale(typmod)) + ")";
    }
  }
  if ((oid == kTimestampOid || oid == kTimestampTzOid) && typmod >= 0) {
    out.insert(std::string("timestamp").size(), "(" + std::to_string(typmod) + ")");
  }
  if ((oid == kTimeOid || oid == kTimeTzOid) && typmod >= 0) {
    out.insert(std::string("time").size(), "(" + std::to_string(typmod) + ")");
  }
  return out;
}

Storage StorageOf(Oid oid) {
  const TypeInfo* t = LookupType(oid);
  return t ? t->storage : Storage::kNone;
}

TypeCategory CategoryOf(Oid oid) {
  const TypeInfo* t = LookupType(oid);
  return t ? t->category : TypeCategory::kUser;
}

bool IsPreferredType(Oid oid) {
  const TypeInfo* t = LookupType(oid);
  return t && t->preferred;
}

int16_t TypeLength(Oid oid) {
  const TypeInfo* t = LookupType(oid);
  return t ? t->typlen : -1;
}

int32_t TypmodFromModifiers(Oid oid, const int32_t* mods, int nmods) {
  if (nmods == 0) return kNoTypmod;
  if (oid == kVarcharOid || oid == kBpcharOid) {
    const char* tn = oid == kVarcharOid ? "varchar" : "char";
    if (nmods != 1) {
      throw DbError(sqlstate::kInvalidParameterValue, "invalid type modifier");
    }
    if (mods[0] < 1) {
      throw DbError(sqlstate::kInvalidParameterValue,
                    std::string("length for type ") + tn + " must be at least 1");
    }
    if (mods[0] > 10485760) {
      throw DbError(sqlstate::kInvalidParameterValue,
                    std::string("length for type ") + tn + " cannot exceed 10485760");
    }
    return CharTypmod(mods[0]);
  }
  if (oid == kNumericOid) {
    if (nmods > 2) throw DbError(sqlstate::kInvalidParameterValue, "invalid NUMERIC type modifier");
    int precision = mods[0];
    int scale = nmods == 2 ? mods[1] : 0;
    if (precision < 1 || precision > 1000) {
      throw DbError(sqlstate::kInvalidParameterValue,
                    "NUMERIC precision " + std::to_string(precision) +
                        " must be between 1 and 1000");
    }
    if (scale < 0 || scale > precision) {
      throw DbError(sqlstate::kInvalidParameterValue,
                    "NUMERIC scale " + std::to_string(scale) +
                        " must be between 0 and precision " + std::to_string(precision));
    }
    return NumericTypmod(precision, scale);
  }
  if (Oid elem = ElementTypeOf(oid); elem != kInvalidOid) return TypmodFromModifiers(elem, mods, nmods);
  if (oid == kTimestampOid || oid == kTimestampTzOid || oid == kTimeOid || oid == kTimeTzOid) {
    // Fractional-second precision: values are rounded to it (at most 6).
    const char* suffix = oid == kTimestampTzOid || oid == kTimeTzOid ? " WITH TIME ZONE" : "";
    const char* name = oid == kTimeOid || oid == kTimeTzOid ? "TIME(" : "TIMESTAMP(";
    if (nmods != 1) throw DbError(sqlstate::kSyntaxError, "invalid type modifier");
    if (mods[0] < 0) {
      throw DbError(sqlstate::kInvalidParameterValue,
                    name + std::to_string(mods[0]) + ")" + suffix + " precision must not be negative");
    }
    return mods[0] > 6 ? 6 : static_cast<int32_t>(mods[0]);
  }
  throw DbError(sqlstate::kSyntaxError,
                "type modifier is not allowed for type \"" + FormatType(oid) + "\"");
}

}  // namespace hearth::types
