// server/executor/expr/in_list_set.h
//
// Hashed IN lists: `x [NOT] IN (c1, ..., cN)` with N >= kMinHashedInItems
// constants (PostgreSQL hashes a ScalarArrayOp from 9 elements on) is
// answered by one hash lookup per row instead of N comparisons. The set is
// built once, when the expression is bound, from the constants converted to
// the comparison type; it is immutable afterwards, so concurrent
// evaluations share it. SQL's NULL rules hold: a NULL x, or a value not
// found in a list holding a NULL, is NULL.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <unordered_set>

#include "utils/adt/value.h"

namespace hearth::executor {

struct BoundExpr;

inline constexpr size_t kMinHashedInItems = 9;

struct InListSet {
  std::unordered_set<std::string> keys;  // hash-key encodings (row_codec.h) of the non-NULL items
  bool has_null = false;                 // the list holds a NULL
};

// The set for a bound kInList node, or nullptr when it is not worth or not
// safe to hash: fewer than kMinHashedInItems items, an item that is not a
// constant (or a cast of one), or a comparison type without hash support.
std::shared_ptr<const InListSet> BuildInListSet(const BoundExpr& in);

// x [NOT] IN the set, for a non-NULL x of the comparison type: true/false,
// or NULL when not found and the list holds a NULL.
types::Value InListSetLookup(const InListSet& set, const types::Value& x, bool negated);

}  // namespace hearth::executor
