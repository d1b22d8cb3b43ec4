// server/utils/adt/json_srf.cpp
//
// Principal entry points: AddJsonSrfs, JsonEachValueSrf — the json/jsonb
// set-returning functions: json(b)_array_elements(_text),
// json(b)_object_keys, and json(b)_each(_text), whose (key, value) record
// the planner builds in FROM from two single-column calls over the same
// argument (JsonEachValueSrf: keys and values; planner/select_record_srf.cpp);
// in a select list the registry row gives anonymous records "(a,1)". Errors as PostgreSQL 15 (22023
// `cannot extract elements from an object`, `cannot call json_object_keys
// on a scalar`, ...).
#include <memory>

#include "common/error/db_error.h"
#include "utils/adt/builtins.h"
#include "utils/adt/json_funcs.h"
#include "utils/adt/record_text.h"
#include "utils/adt/srf_registry.h"

namespace hearth::types {
namespace {

enum class Emit { kValue, kText, kKey };

[[noreturn]] void Invalid(const std::string& msg) { throw DbError(sqlstate::kInvalidParameterValue, msg); }

// Streams the members of one json/jsonb container: its element values,
// their text, or the object's keys.
class JsonMembersCall : public SrfCall {
 public:
  JsonMembersCall(const Value& doc, Emit emit) : doc_(doc), emit_(emit) { root_ = JsonTree(doc_); }
  bool Next(Value* out) override {
    if (pos_ >= root_.items.size()) return false;
    const JsonNode& n = root_.items[pos_];
    if (emit_ == Emit::kKey) {
      *out = Value::Text(root_.keys[pos_]);
    } else if (emit_ == Emit::kText) {
      *out = JsonTextResult(doc_.type, n);
    } else {
      *out = JsonResult(doc_.type, n);
    }
    ++pos_;
    return true;
  }
  const JsonNode& root() const { return root_; }

 private:
  Value doc_;  // owns the text json's raw spans point into
  JsonNode root_;
  Emit emit_;
  size_t pos_ = 0;
};

const char* Prefix(const Value& v) { return v.type == kJsonbOid ? "jsonb" : "json"; }

template <Emit E>
std::unique_ptr<SrfCall> StartArrayElements(const Value* a, int, FuncCallContext&) {
  auto call = std::make_unique<JsonMembersCall>(a[0], E);
  const JsonKind k = call->root().kind;
  if (k == JsonKind::kObject) Invalid("cannot extract elements from an object");
  if (k != JsonKind::kArray) Invalid("cannot extract elements from a scalar");
  return call;
}

std::unique_ptr<SrfCall> StartObjectKeys(const Value* a, int, FuncCallContext&) {
  auto call = std::make_unique<JsonMembersCall>(a[0], Emit::kKey);
  const JsonKind k = call->root().kind;
  if (k == JsonKind::kArray) Invalid(std::string("cannot call ") + Prefix(a[0]) + "_object_keys on an array");
  if (k != JsonKind::kObject) Invalid(std::string("cannot call ") + Prefix(a[0]) + "_object_keys on a scalar");
  return call;
}

std::unique_ptr<SrfCall> StartEach(const Value* a, Emit emit) {
  auto call = std::make_unique<JsonMembersCall>(a[0], emit);
  if (call->root().kind != JsonKind::kObject)
    Invalid(std::string("cannot call ") + Prefix(a[0]) + "_each" + (emit == Emit::kText ? "_text" : "") +
            " on a non-object");
  return call;
}
std::unique_ptr<SrfCall> StartEachKeys(const Value* a, int, FuncCallContext&) { return StartEach(a, Emit::kKey); }
std::unique_ptr<SrfCall> StartEachValues(const Value* a, int, FuncCallContext&) {
  return StartEach(a, Emit::kValue);
}
std::unique_ptr<SrfCall> StartEachTexts(const Value* a, int, FuncCallContext&) { return StartEach(a, Emit::kText); }

// json_each in a select list: each (key, value) as an anonymous record.
class EachRecordCall : public SrfCall {
 public:
  EachRecordCall(std::unique_ptr<SrfCall> keys, std::unique_ptr<SrfCall> values)
      : keys_(std::move(keys)), values_(std::move(values)) {}
  bool Next(Value* out) override {
    Value kv[2];
    if (!keys_->Next(&kv[0]) || !values_->Next(&kv[1])) return false;
    *out = RecordValue(kv, 2);
    return true;
  }

 private:
  std::unique_ptr<SrfCall> keys_, values_;
};

std::unique_ptr<SrfCall> StartEachRecords(const Value* a, int, FuncCallContext&) {
  return std::make_unique<EachRecordCall>(StartEach(a, Emit::kKey), StartEach(a, Emit::kValue));
}
std::unique_ptr<SrfCall> StartEachTextRecords(const Value* a, int, FuncCallContext&) {
  return std::make_unique<EachRecordCall>(StartEach(a, Emit::kKey), StartEach(a, Emit::kText));
}

SrfDef Def(const char* name, Oid arg, Oid result, SrfStartFn start) {
  return SrfDef{internal::Row(name, FuncKind::kSetReturning, {arg}, result, nullptr), start};
}

}  // namespace

const SrfDef* JsonEachValueSrf(const FuncSignature& record_sig, const SrfDef** keys, Oid* value_type) {
  const std::string name = record_sig.name;
  const Oid doc = record_sig.args[0];
  static const SrfDef kJsonKeys = Def("json_each", kJsonOid, kTextOid, &StartEachKeys);
  static const SrfDef kJsonbKeys = Def("jsonb_each", kJsonbOid, kTextOid, &StartEachKeys);
  *keys = doc == kJsonOid ? &kJsonKeys : &kJsonbKeys;
  static const SrfDef kJsonValues = Def("json_each", kJsonOid, kJsonOid, &StartEachValues);
  static const SrfDef kJsonbValues = Def("jsonb_each", kJsonbOid, kJsonbOid, &StartEachValues);
  static const SrfDef kJsonTexts = Def("json_each_text", kJsonOid, kTextOid, &StartEachTexts);
  static const SrfDef kJsonbTexts = Def("jsonb_each_text", kJsonbOid, kTextOid, &StartEachTexts);
  if (name == "json_each" || name == "jsonb_each") {
    *value_type = doc;
    return doc == kJsonOid ? &kJsonValues : &kJsonbValues;
  }
  if (name == "json_each_text" || name == "jsonb_each_text") {
    *value_type = kTextOid;
    return doc == kJsonOid ? &kJsonTexts : &kJsonbTexts;
  }
  return nullptr;
}

const char* SrfOutColumnName(const SrfDef& def) {
  const std::string_view name = def.sig.name;
  if (name.starts_with("json_array_elements") || name.starts_with("jsonb_array_elements")) return "value";
  return nullptr;
}

namespace internal {

void AddJsonSrfs(std::vector<SrfDef>* d) {
  for (Oid J : {kJsonOid, kJsonbOid}) {
    const bool b = J == kJsonbOid;
    d->push_back(Def(b ? "jsonb_array_elements" : "json_array_elements", J, J, &StartArrayElements<Emit::kValue>));
    d->push_back(Def(b ? "jsonb_array_elements_text" : "json_array_elements_text", J, kTextOid,
                     &StartArrayElements<Emit::kText>));
    d->push_back(Def(b ? "jsonb_object_keys" : "json_object_keys", J, kTextOid, &StartObjectKeys));
    d->push_back(Def(b ? "jsonb_each" : "json_each", J, kRecordOid, &StartEachRecords));
    d->push_back(Def(b ? "jsonb_each_text" : "json_each_text", J, kRecordOid, &StartEachTextRecords));
  }
}

}  // namespace internal
}  // namespace hearth::types
