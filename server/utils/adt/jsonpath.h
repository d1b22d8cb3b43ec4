// server/utils/adt/jsonpath.h
//
// The jsonpath type (a subset of SQL/JSON path): `lax`/`strict` mode, `$`,
// `@`, `$var`, member accessors (`.key`, `."key"`, `.*`), array accessors
// (`[*]`, `[1, 2 to last]`), `.**`, filters `? (...)` with comparisons,
// `&&`, `||`, `!`, `exists (...)`, `is unknown`, `starts with`,
// arithmetic (+ - * / %, unary + -) and the item methods type(), size(),
// abs(), floor(), ceiling(), double(). A jsonpath Value keeps the
// canonical text jsonpath_out prints (`$."a"[*]?(@ > 1)`); executing parses
// it again.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "utils/adt/json.h"

namespace hearth::types {

enum class JpKind : uint8_t {
  // primaries
  kRoot, kCurrent, kVariable, kLast, kNull, kBool, kNumber, kString,
  // accessors (in a chain)
  kKey, kAnyKey, kAnyArray, kIndexArray, kAny, kFilter, kMethod,
  // operators (priority order as PostgreSQL's operationPriority)
  kOr, kAnd, kEq, kNe, kLt, kGt, kLe, kGe, kStartsWith, kLikeRegex, kAdd, kSub, kMul, kDiv, kMod, kPlus, kMinus,
  kNot, kIsUnknown, kExists,
};

struct JpItem {
  JpKind kind = JpKind::kNull;
  bool b = false;
  std::string str;            // key, string, number text, method name, variable name, regex pattern
  std::string flags;          // like_regex flags
  int32_t first = 0, last = -1;  // .** levels (-1: last)
  std::vector<JpItem> args;   // operands; [from, to] pairs for kIndexArray (to may be kNull = absent)
  std::vector<JpItem> chain;  // accessors applied after this primary
};

struct JsonPath {
  bool strict = false;
  JpItem root;
};

// jsonpath_in: parses (42601 `syntax error at or near "x" of jsonpath
// input`) and returns the canonical text as a jsonpath Value.
Value JsonpathValue(std::string_view text);
JsonPath ParseJsonPath(std::string_view text);
std::string PrintJsonPath(const JsonPath& p);

}  // namespace hearth::types
