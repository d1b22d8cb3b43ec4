// server/utils/adt/jsonpath_funcs.cpp
//
// Principal entry points: AddJsonPathBuiltins, AddJsonPathSrfs —
// jsonb_path_exists / _match / _query / _query_array / _query_first with
// their optional `vars` and `silent` arguments, and the operators @? and
// @@ (silent). With silent true an error gives NULL (no rows for
// jsonb_path_query) instead of being raised, as PostgreSQL does.
#include <memory>
#include <optional>

#include "common/error/db_error.h"
#include "utils/adt/builtins.h"
#include "utils/adt/jsonpath_exec.h"

namespace hearth::types {
namespace {

// The items of args [doc, path, vars?, silent?]; nullopt when silent
// swallowed an error.
std::optional<std::vector<JsonNode>> RunPath(const Value* a, int nargs, bool force_silent = false) {
  const bool silent = force_silent || (nargs >= 4 && a[3].b);
  const JsonNode doc = JsonbTree(a[0]);
  const JsonPath path = ParseJsonPath(a[1].str);
  std::optional<JsonNode> vars;
  if (nargs >= 3) vars = JsonbTree(a[2]);
  try {
    return ExecuteJsonPath(path, doc, vars ? &*vars : nullptr);
  } catch (const DbError& e) {
    if (silent && e.sqlstate() != sqlstate::kUndefinedObject && e.sqlstate() != sqlstate::kInvalidParameterValue)
      return std::nullopt;
    throw;
  }
}

template <bool Silent>
Value PathExists(const Value* a, int nargs, FuncCallContext&) {
  auto items = RunPath(a, nargs, Silent);
  if (!items) return Value::Null(kBoolOid);
  return Value::Bool(!items->empty());
}

template <bool Silent>
Value PathMatch(const Value* a, int nargs, FuncCallContext&) {
  auto items = RunPath(a, nargs, Silent);
  if (!items) return Value::Null(kBoolOid);
  if (items->size() == 1) {
    const JsonNode& n = (*items)[0];
    if (n.kind == JsonKind::kBool) return Value::Bool(n.b);
    if (n.kind == JsonKind::kNull) return Value::Null(kBoolOid);
  }
  if (Silent || (nargs >= 4 && a[3].b)) return Value::Null(kBoolOid);
  throw DbError("22038", "single boolean result is expected");
}

Value PathQueryArray(const Value* a, int nargs, FuncCallContext&) {
  auto items = RunPath(a, nargs);
  if (!items) return Value::Null(kJsonbOid);
  JsonNode arr = JsonNode::Array();
  arr.items = std::move(*items);
  return JsonbValue(std::move(arr));
}

Value PathQueryFirst(const Value* a, int nargs, FuncCallContext&) {
  auto items = RunPath(a, nargs);
  if (!items || items->empty()) return Value::Null(kJsonbOid);
  return JsonbValue(std::move((*items)[0]));
}

class PathQueryCall : public SrfCall {
 public:
  explicit PathQueryCall(std::vector<JsonNode> items) : items_(std::move(items)) {}
  bool Next(Value* out) override {
    if (pos_ >= items_.size()) return false;
    *out = JsonbValue(std::move(items_[pos_++]));
    return true;
  }

 private:
  std::vector<JsonNode> items_;
  size_t pos_ = 0;
};

std::unique_ptr<SrfCall> StartPathQuery(const Value* a, int nargs, FuncCallContext&) {
  auto items = RunPath(a, nargs);
  return std::make_unique<PathQueryCall>(items ? std::move(*items) : std::vector<JsonNode>{});
}

}  // namespace

namespace internal {

void AddJsonPathBuiltins(std::vector<FuncSignature>* t) {
  constexpr FuncKind kFn = FuncKind::kFunction;
  const Oid JB = kJsonbOid, JP = kJsonpathOid, B = kBoolOid;
  t->push_back(Row("@?", FuncKind::kOperator, {JB, JP}, B, PathExists<true>));
  t->push_back(Row("@@", FuncKind::kOperator, {JB, JP}, B, PathMatch<true>));
  struct Fn {
    const char* name;
    Oid result;
    BuiltinFn fn;
  };
  for (const Fn& f : {Fn{"jsonb_path_exists", B, PathExists<false>}, Fn{"jsonb_path_match", B, PathMatch<false>},
                      Fn{"jsonb_path_query_array", JB, PathQueryArray},
                      Fn{"jsonb_path_query_first", JB, PathQueryFirst}}) {
    t->push_back(Row(f.name, kFn, {JB, JP}, f.result, f.fn));
    t->push_back(Row(f.name, kFn, {JB, JP, JB}, f.result, f.fn));
    t->push_back(Row(f.name, kFn, {JB, JP, JB, B}, f.result, f.fn));
  }
}

void AddJsonPathSrfs(std::vector<SrfDef>* d) {
  const Oid JB = kJsonbOid, JP = kJsonpathOid;
  d->push_back(SrfDef{Row("jsonb_path_query", FuncKind::kSetReturning, {JB, JP}, JB, nullptr), &StartPathQuery});
  d->push_back(SrfDef{Row("jsonb_path_query", FuncKind::kSetReturning, {JB, JP, JB}, JB, nullptr), &StartPathQuery});
  d->push_back(
      SrfDef{Row("jsonb_path_query", FuncKind::kSetReturning, {JB, JP, JB, kBoolOid}, JB, nullptr), &StartPathQuery});
}

}  // namespace internal
}  // namespace hearth::types
