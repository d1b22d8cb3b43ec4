// server/executor/expr/in_list_set.cpp
//
// Principal entry points: BuildInListSet, InListSetLookup.
#include "executor/expr/in_list_set.h"

#include <exception>
#include <vector>

#include "executor/expr/bound_expr.h"
#include "executor/row_codec.h"
#include "utils/adt/cast.h"

namespace hearth::executor {

namespace {

// The value of a constant item (a literal, or a cast of one, as binding
// leaves e.g. an integer literal in a numeric list); false for anything else.
bool ConstantItem(const BoundExpr& item, types::Value* out) {
  if (item.kind == BoundKind::kConst) {
    *out = item.value;
    return true;
  }
  if (item.kind == BoundKind::kCast && item.children.size() == 1 && item.children[0]->kind == BoundKind::kConst) {
    *out = types::CastValue(item.children[0]->value, item.type, item.typmod, item.cast_context);
    return true;
  }
  return false;
}

}  // namespace

std::shared_ptr<const InListSet> BuildInListSet(const BoundExpr& in) {
  if (in.kind != BoundKind::kInList || in.children.size() < 1 + kMinHashedInItems) return nullptr;
  // The hash-key encoding agrees with "=" exactly for the types hash joins
  // use; both sides are of the comparison type after binding.
  const int cls = HashClassOf(in.children[1]->type);
  if (cls == 0 || HashClassOf(in.children[0]->type) != cls) return nullptr;
  auto set = std::make_shared<InListSet>();
  set->keys.reserve(in.children.size() - 1);
  std::string key;
  for (size_t i = 1; i < in.children.size(); ++i) {
    types::Value v;
    try {
      if (!ConstantItem(*in.children[i], &v)) return nullptr;
    } catch (const std::exception&) {
      // A constant that does not convert: evaluate the list item by item,
      // so the error comes when (and if) PostgreSQL's would.
      return nullptr;
    }
    if (v.type != in.children[1]->type && HashClassOf(v.type) != cls) return nullptr;
    if (v.is_null) {
      set->has_null = true;
      continue;
    }
    key.clear();
    AppendHashKey(v, &key);
    set->keys.insert(key);
  }
  return set;
}

types::Value InListSetLookup(const InListSet& set, const types::Value& x, bool negated) {
  // One key buffer per thread: no allocation per row once it has grown.
  thread_local std::string key;
  key.clear();
  AppendHashKey(x, &key);
  if (set.keys.find(key) != set.keys.end()) return types::Value::Bool(!negated);
  if (set.has_null) return types::Value::Null(types::kBoolOid);
  return types::Value::Bool(negated);
}

}  // namespace hearth::executor
