// server/utils/adt/jsonpath_exec.h
//
// Running a jsonpath over a jsonb document (jsonpath_exec.cpp) and the
// registry rows of jsonb_path_* / @? / @@ (jsonpath_funcs.cpp).
#pragma once

#include <vector>

#include "utils/adt/func_registry.h"
#include "utils/adt/jsonpath.h"
#include "utils/adt/srf_registry.h"

namespace hearth::types {

// The items `path` selects in `doc` ($var values from `vars`, an object or
// null). A path that is a predicate yields one item: true, false or null
// (unknown). Throws DbError for strict-mode structural errors, arithmetic
// on non-numbers, unknown variables.
std::vector<JsonNode> ExecuteJsonPath(const JsonPath& path, const JsonNode& doc, const JsonNode* vars);

namespace internal {
void AddJsonPathBuiltins(std::vector<FuncSignature>* table);
void AddJsonPathSrfs(std::vector<SrfDef>* defs);
}  // namespace internal

}  // namespace hearth::types
