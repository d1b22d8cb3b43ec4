// server/utils/adt/type_catalog.h
//
// The built-in type catalog: per-type facts PostgreSQL keeps in pg_type
// (length, category, preferred flag) plus the SQL names the parser may use
// ("int4", "integer", "character varying", ...). The table is immutable and
// built at static-initialisation time, so every function here is safe to
// call from any thread or process without locking.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "utils/adt/type_oid.h"

namespace hearth::types {

// pg_type.typcategory: drives implicit-cast preference in operator resolution.
enum class TypeCategory : char {
  kBoolean = 'B',
  kNumeric = 'N',
  kString = 'S',
  kDateTime = 'D',
  kTimespan = 'T',
  kUnknown = 'X',
  kPseudo = 'P',
  kUser = 'U',
  kEnum = 'E',
  kArray = 'A',
};

// How a Value of the type stores its payload (see value.h).
enum class Storage : uint8_t { kBool, kInt, kFloat, kBytes, kNone };

struct TypeInfo {
  Oid oid;
  const char* name;      // pg_type.typname, e.g. "int4"
  const char* sql_name;  // format_type() spelling, e.g. "integer"
  int16_t typlen;        // -1 for variable length, -2 for C strings
  TypeCategory category;
  bool preferred;        // pg_type.typispreferred
  Storage storage;
  Oid elem = kInvalidOid;  // pg_type.typelem of an array type; 0 otherwise
};

// Every built-in type, in a fixed order (pg_type's rows).
std::span<const TypeInfo> AllTypes();

// Returns the entry for `oid`, or nullptr for OIDs Hearth does not know.
const TypeInfo* LookupType(Oid oid);

// Resolves a type name as the parser sees it (case-insensitive; accepts
// pg_type names, SQL-standard spellings and aliases such as "integer",
// "double precision", "character varying", "timestamp without time zone").
// Returns nullptr if unknown.
const TypeInfo* LookupTypeByName(std::string_view name);

// format_type(oid, typmod): "integer", "character varying(5)",
// "numeric(10,2)". Unknown OIDs print as "???".
std::string FormatType(Oid oid, int32_t typmod = kNoTypmod);

// pg_type.typarray of a base type (int4 → _int4 = 1007); 0 if it has none.
Oid ArrayTypeOf(Oid elem);
// pg_type.typelem of an array type (_int4 → int4); 0 for non-array types.
// A switch over constants: cheap enough for comparison and hashing paths.
Oid ElementTypeOf(Oid array_type);
inline bool IsArrayType(Oid t) { return ElementTypeOf(t) != kInvalidOid; }

// Storage class of the type; kNone for unknown OIDs and pseudo-types.
Storage StorageOf(Oid oid);
TypeCategory CategoryOf(Oid oid);
bool IsPreferredType(Oid oid);
int16_t TypeLength(Oid oid);

// typmod encoders/decoders (PostgreSQL's representation).
// REQUIRES: 1 <= precision <= 1000, 0 <= scale <= precision.
inline int32_t NumericTypmod(int precision, int scale) { return ((precision << 16) | scale) + 4; }
inline int NumericTypmodPrecision(int32_t typmod) { return ((typmod - 4) >> 16) & 0xffff; }
inline int NumericTypmodScale(int32_t typmod) { return (typmod - 4) & 0xffff; }
// varchar(n)/char(n) typmod is n + 4; kNoTypmod means unlimited.
inline int32_t CharTypmod(int n) { return n + 4; }

// Builds a typmod from type-name modifiers as written in SQL, e.g.
// varchar(5) → 9, numeric(10,2) → 655366. Throws DbError 22023 for bad
// modifiers (e.g. "length for type varchar must be at least 1").
int32_t TypmodFromModifiers(Oid oid, const int32_t* mods, int nmods);

}  // namespace hearth::types
