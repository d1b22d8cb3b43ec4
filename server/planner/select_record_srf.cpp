// server/planner/select_record_srf.cpp
//
// Principal entry point: ExpandRecordFunction — a record-returning
// function in FROM (pg_options_to_table(options) → option_name,
// option_value) planned as ROWS FROM of single-column calls over the same
// arguments, each streaming one column of the record.
#include <cstring>

#include "executor/nodes/function_scan_node.h"
#include "planner/planner_internal.h"
#include "utils/adt/srf_registry.h"

namespace hearth::planner {

std::vector<std::string> ExpandRecordFunction(std::vector<executor::ScanFunction>* fns) {
  if (fns->size() != 1 || (*fns)[0].srf == nullptr) return {};
  types::Oid json_value_type = types::kInvalidOid;
  const types::SrfDef* json_keys = nullptr;
  if (const types::SrfDef* json_values = types::JsonEachValueSrf((*fns)[0].srf->sig, &json_keys, &json_value_type)) {
    (*fns)[0].srf = json_keys;
    (*fns)[0].type = types::kTextOid;
    executor::ScanFunction values = executor::CloneScanFunction((*fns)[0]);
    values.srf = json_values;
    values.type = json_value_type;
    fns->push_back(std::move(values));
    return {"key", "value"};
  }
  if (std::strcmp((*fns)[0].srf->sig.name, "pg_options_to_table") != 0) return {};
  executor::ScanFunction values = executor::CloneScanFunction((*fns)[0]);
  values.srf = &types::OptionValuesSrf();
  values.type = types::kTextOid;
  fns->push_back(std::move(values));
  return {"option_name", "option_value"};
}

}  // namespace hearth::planner
