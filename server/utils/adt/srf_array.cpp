// server/utils/adt/srf_array.cpp
//
// unnest(anyarray): the elements of an array, all dimensions flattened in
// storage (row-major) order, NULL elements included, as PostgreSQL.
#include <memory>

#include "utils/adt/array.h"
#include "utils/adt/builtins.h"
#include "utils/adt/srf_registry.h"

namespace hearth::types {
namespace {

class UnnestCall : public SrfCall {
 public:
  explicit UnnestCall(ArrayData data) : data_(std::move(data)) {}
  bool Next(Value* out) override {
    if (pos_ >= data_.elems.size()) return false;
    *out = std::move(data_.elems[pos_++]);
    return true;
  }

 private:
  ArrayData data_;
  size_t pos_ = 0;
};

std::unique_ptr<SrfCall> StartUnnest(const Value* args, int, FuncCallContext&) {
  return std::make_unique<UnnestCall>(DeconstructArray(args[0]));
}

}  // namespace

namespace internal {

void AddArraySrfs(std::vector<SrfDef>* defs) {
  defs->push_back(
      SrfDef{Row("unnest", FuncKind::kSetReturning, {kAnyArrayOid}, kAnyElementOid, nullptr), &StartUnnest});
}

}  // namespace internal
}  // namespace hearth::types
