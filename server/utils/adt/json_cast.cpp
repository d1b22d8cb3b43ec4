// server/utils/adt/json_cast.cpp
//
// Principal entry points: JsonCastContext, CastJson — pg_cast's json/jsonb
// rows: json ↔ jsonb by assignment, jsonb → bool/numeric/int2/int4/int8/
// float4/float8 explicitly (a jsonb scalar of the matching kind, else 22023
// `cannot cast jsonb string to type integer`). text ↔ json(b) are I/O
// conversion casts handled by cast.cpp.
#include "common/error/db_error.h"
#include "utils/adt/cast.h"
#include "utils/adt/json.h"
#include "utils/adt/numeric.h"
#include "utils/adt/type_catalog.h"

namespace hearth::types {

bool IsJsonScalarCastTarget(Oid t) {
  return t == kBoolOid || t == kNumericOid || t == kInt2Oid || t == kInt4Oid || t == kInt8Oid ||
         t == kFloat4Oid || t == kFloat8Oid;
}

std::optional<CoercionContext> JsonCastContext(Oid from, Oid to) {
  if ((from == kJsonOid && to == kJsonbOid) || (from == kJsonbOid && to == kJsonOid))
    return CoercionContext::kAssignment;
  if (from == kJsonbOid && IsJsonScalarCastTarget(to)) return CoercionContext::kExplicit;
  return std::nullopt;
}

Value CastJson(const Value& v, Oid to, int32_t typmod) {
  if (to == kJsonOid) return Value::Bytes(kJsonOid, v.str);
  if (to == kJsonbOid) return JsonbValue(JsonTree(v));
  const JsonNode n = JsonbTree(v);
  const bool want_bool = to == kBoolOid;
  if (n.kind != (want_bool ? JsonKind::kBool : JsonKind::kNumber))
    throw DbError(sqlstate::kInvalidParameterValue,
                  std::string("cannot cast jsonb ") + JsonTypeName(n.kind) + " to type " + FormatType(to));
  if (want_bool) return Value::Bool(n.b);
  return CastValue(Value::Bytes(kNumericOid, n.str), to, typmod, CoercionContext::kExplicit);
}

}  // namespace hearth::types
