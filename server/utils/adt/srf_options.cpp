// server/utils/adt/srf_options.cpp
//
// pg_options_to_table(options): the name=value items of an options array
// (reloptions, attfdwoptions, fdwoptions; their text form here,
// '{fillfactor=70,a=b}'), as rows (option_name, option_value) — an item
// without '=' has a NULL value. The registry row returns the names; the
// planner asks OptionValuesSrf() for the second column of the same call
// (select_record_srf.cpp), so the record-returning function is a pair of
// single-column calls over one argument.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "utils/adt/builtins.h"
#include "utils/adt/srf_registry.h"

namespace hearth::types {
namespace {

// One column of pg_options_to_table: the names (values_ false) or values.
class OptionsCall : public SrfCall {
 public:
  OptionsCall(const std::string& options, bool values) : items_(internal::ArrayTextElements(options)), values_(values) {}
  bool Next(Value* out) override {
    while (pos_ < items_.size() && !items_[pos_]) ++pos_;  // a NULL item gives no row
    if (pos_ >= items_.size()) return false;
    const std::string& item = *items_[pos_++];
    const size_t eq = item.find('=');
    if (!values_) {
      *out = Value::Text(item.substr(0, eq));
    } else {
      *out = eq == std::string::npos ? Value::Null(kTextOid) : Value::Text(item.substr(eq + 1));
    }
    return true;
  }

 private:
  std::vector<std::optional<std::string>> items_;
  size_t pos_ = 0;
  bool values_;
};

std::unique_ptr<SrfCall> StartOptionNames(const Value* args, int, FuncCallContext&) {
  return std::make_unique<OptionsCall>(args[0].str, false);
}
std::unique_ptr<SrfCall> StartOptionValues(const Value* args, int, FuncCallContext&) {
  return std::make_unique<OptionsCall>(args[0].str, true);
}

}  // namespace

const SrfDef& OptionValuesSrf() {
  static const SrfDef def{
      internal::Row("pg_options_to_table", FuncKind::kSetReturning, {kTextOid}, kTextOid, nullptr), &StartOptionValues};
  return def;
}

namespace internal {

// The elements of an array's text form ('{a,"b c"}'), NULLs kept as
// nullopt.
std::vector<std::optional<std::string>> ArrayTextElements(const std::string& arr) {
  std::vector<std::optional<std::string>> out;
  size_t i = !arr.empty() && arr[0] == '{' ? 1 : 0;
  const size_t end = !arr.empty() && arr.back() == '}' ? arr.size() - 1 : arr.size();
  while (i < end) {
    std::string elem;
    bool quoted = false;
    if (arr[i] == '"') {
      quoted = true;
      for (++i; i < end && arr[i] != '"'; ++i) {
        if (arr[i] == '\\' && i + 1 < end) ++i;
        elem.push_back(arr[i]);
      }
      ++i;  // the closing quote
    } else {
      for (; i < end && arr[i] != ','; ++i) elem.push_back(arr[i]);
    }
    ++i;  // the comma
    if (!quoted && elem == "NULL") {
      out.emplace_back(std::nullopt);
    } else {
      out.emplace_back(std::move(elem));
    }
  }
  return out;
}

void AddOptionsSrfs(std::vector<SrfDef>* defs) {
  defs->push_back(SrfDef{Row("pg_options_to_table", FuncKind::kSetReturning, {kTextOid}, kTextOid, nullptr),
                         &StartOptionNames});
}

}  // namespace internal
}  // namespace hearth::types
