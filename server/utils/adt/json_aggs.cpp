// server/utils/adt/json_aggs.cpp
//
// Principal entry points: JsonAggAdd, JsonAggFinish — the running text of
// json_agg / jsonb_agg / json_object_agg / jsonb_object_agg, kept by
// AggregateState. The json forms print as PostgreSQL does ("[1, 2]", an
// array or record element after the first preceded by "\n ",
// "{ "k" : v, ... }"); the jsonb forms collect canonical jsonb text and
// normalize once at the end (duplicate keys: the last wins).
#include "common/error/db_error.h"
#include "utils/adt/json_funcs.h"
#include "utils/adt/text_io.h"
#include "utils/adt/type_catalog.h"

namespace hearth::types {

void JsonAggAdd(bool jsonb, const Value* args, int nargs, int64_t n_before, std::string* acc) {
  const bool object = nargs == 2;
  if (n_before == 0) {
    acc->assign(object && !jsonb ? "{ " : (object ? "{" : "["));
  } else {
    acc->append(", ");
  }
  const Value& v = args[nargs - 1];
  if (object) {
    const Value& k = args[0];
    if (k.is_null) throw DbError(sqlstate::kInvalidParameterValue, "field name must not be null");
    AppendJsonString(k.type == kBoolOid ? (k.b ? "true" : "false") : OutputValue(k), acc);
    acc->append(jsonb ? ": " : " : ");
  } else if (!jsonb && n_before > 0 && !v.is_null && (IsArrayType(v.type) || v.type == kRecordOid)) {
    acc->append("\n ");
  }
  if (jsonb) {
    AppendJsonb(ValueAsJsonb(v), acc);
  } else {
    AppendValueAsJson(v, acc);
  }
}

Value JsonAggFinish(bool jsonb, bool object, const std::string& acc) {
  std::string s = acc;
  s += object ? (jsonb ? "}" : " }") : "]";
  if (!jsonb) return Value::Bytes(kJsonOid, std::move(s));
  return JsonbValue(ParseJson(s, JsonParseOptions{}));
}

}  // namespace hearth::types
