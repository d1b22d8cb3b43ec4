// server/executor/executor.cpp
//
// Principal entry points: Execution (init plans, open, Next, tag), RunPlan,
// InSetLookup.
#include "executor/executor.h"

#include <unordered_set>

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "executor/nodes/modify_node.h"
#include "executor/row_codec.h"
#include "utils/adt/array.h"
#include "utils/adt/cast.h"
#include "utils/adt/type_catalog.h"

namespace hearth::executor {

struct Execution::InSet {
  std::unordered_set<std::string> keys;
  bool has_null = false;
};

types::Value InSetLookup(const types::Value* args, int /*nargs*/, types::FuncCallContext& /*ctx*/) {
  const auto* set = reinterpret_cast<const Execution::InSet*>(static_cast<uintptr_t>(args[1].i));
  if (set->keys.empty() && !set->has_null) return types::Value::Bool(false);
  if (args[0].is_null) return types::Value::Null(types::kBoolOid);
  std::string key;
  AppendHashKey(args[0], &key);
  if (set->keys.count(key)) return types::Value::Bool(true);
  if (set->has_null) return types::Value::Null(types::kBoolOid);
  return types::Value::Bool(false);
}

namespace {

// ARRAY(subquery): the first column of every row of the open `plan`.
types::Value CollectArray(ExecNode& plan, Row& row, types::Oid array_type) {
  std::vector<types::Value> items;
  while (plan.Next(row)) items.push_back(row[0]);
  if (items.empty()) return types::MakeArray1D(types::ElementTypeOf(array_type), {});
  const bool of_arrays = types::IsArrayType(items[0].type);
  for (size_t k = 0; k < items.size(); ++k) {
    types::ArrayAggCheckInput(of_arrays, items[k], k == 0 ? nullptr : &items[0]);
  }
  return types::ArrayAggResult(array_type, of_arrays, items);
}

}  // namespace

// Runs one correlated subplan per call (see SubPlan).
struct Execution::SubPlanRunner {
  SubPlan* sp;
  std::vector<types::Value>* params;
  ExecContext* ctx;
  Row row;

  types::Value Run(const types::Value* args, int nargs) {
    size_t nouter = sp->arg_indexes.size();
    for (size_t i = 0; i < nouter; ++i) (*params)[static_cast<size_t>(sp->arg_indexes[i])] = args[i];
    ExecNode& plan = *sp->plan;
    plan.Open(*ctx);
    struct Closer {
      ExecNode& n;
      ~Closer() { n.Close(); }
    } closer{plan};
    switch (sp->kind) {
      case SubPlan::Kind::kExists:
        return types::Value::Bool(plan.Next(row));
      case SubPlan::Kind::kScalar: {
        if (!plan.Next(row)) return types::Value::Null(sp->type);
        types::Value v = row[0];
        if (plan.Next(row)) {
          throw DbError(sqlstate::kCardinalityViolation,
                        "more than one row returned by a subquery used as an expression");
        }
        return v;
      }
      case SubPlan::Kind::kArray:
        return CollectArray(plan, row, sp->type);
      case SubPlan::Kind::kIn: {
        const types::Value& x = args[static_cast<size_t>(nargs) - 1];
        std::string want, got;
        if (!x.is_null) AppendHashKey(x, &want);
        bool saw_null = false;
        while (plan.Next(row)) {
          types::Value v = row[0];
          if (v.is_null || x.is_null) {
            saw_null = true;
            continue;
          }
          if (v.type != sp->type) v = types::CastValue(v, sp->type, types::kNoTypmod, types::CoercionContext::kImplicit);
          got.clear();
          AppendHashKey(v, &got);
          if (got == want) return types::Value::Bool(true);
        }
        return saw_null ? types::Value::Null(types::kBoolOid) : types::Value::Bool(false);
      }
    }
    return types::Value::Null(types::kBoolOid);
  }
};

types::Value SubPlanCall(const types::Value* args, int nargs, types::FuncCallContext& /*ctx*/) {
  auto* r = reinterpret_cast<Execution::SubPlanRunner*>(static_cast<uintptr_t>(args[nargs - 1].i));
  return r->Run(args, nargs - 1);
}

const types::FuncSignature* SubPlanSignature() {
  static const types::FuncSignature sig = {
      "subplan", types::FuncKind::kFunction, 1, {types::kAnyOid, 0, 0},
      types::kAnyOid, &SubPlanCall, /*strict=*/false, /*variadic=*/true, /*is_volatile=*/true};
  return &sig;
}

const types::FuncSignature* InSetLookupSignature() {
  static const types::FuncSignature sig = {
      "in_subquery", types::FuncKind::kFunction, 2, {types::kAnyOid, types::kInt8Oid, 0},
      types::kBoolOid, &InSetLookup, /*strict=*/false, /*variadic=*/false, /*is_volatile=*/true};
  return &sig;
}

Execution::Execution(PlannedStatement& plan, const ExecContext& ctx) : plan_(plan), ctx_(ctx) {
  if (plan_.executing) {
    throw DbError(sqlstate::kObjectInUse, "prepared statement is already being executed by another portal");
  }
  plan_.executing = true;
  holding_ = true;
  params_.assign(ctx.params, ctx.params + ctx.nparams);
  params_.resize(std::max(params_.size(), static_cast<size_t>(plan_.nslots)));
  ctx_.params = params_.data();
  ctx_.nparams = params_.size();
  for (SubPlan& sp : plan_.sub_plans) {
    auto r = std::make_unique<SubPlanRunner>(SubPlanRunner{&sp, &params_, &ctx_, {}});
    params_[static_cast<size_t>(sp.handle_index)] =
        types::Value::Int8(static_cast<int64_t>(reinterpret_cast<uintptr_t>(r.get())));
    runners_.push_back(std::move(r));
  }
  try {
    RunInitPlans();
    open_ = true;
    plan_.root->Open(ctx_);
  } catch (...) {
    CloseAll();
    throw;
  }
}

Execution::~Execution() { CloseAll(); }

void Execution::CloseAll() {
  if (!holding_) return;
  holding_ = false;
  plan_.executing = false;
  if (open_) {
    open_ = false;
    plan_.root->Close();
  }
  for (InitPlan& ip : plan_.init_plans) ip.plan->Close();
  for (SubPlan& sp : plan_.sub_plans) sp.plan->Close();
}

void Execution::RunInitPlans() {
  Row row;
  for (InitPlan& ip : plan_.init_plans) {
    types::Value& slot = params_[static_cast<size_t>(ip.param_index)];
    ip.plan->Open(ctx_);
    switch (ip.kind) {
      case InitPlan::Kind::kExists:
        slot = types::Value::Bool(ip.plan->Next(row));
        break;
      case InitPlan::Kind::kScalar:
        if (!ip.plan->Next(row)) {
          slot = types::Value::Null(ip.type);
        } else {
          slot = row[0];
          if (ip.plan->Next(row)) {
            throw DbError(sqlstate::kCardinalityViolation,
                          "more than one row returned by a subquery used as an expression");
          }
        }
        break;
      case InitPlan::Kind::kArray:
        slot = CollectArray(*ip.plan, row, ip.type);
        break;
      case InitPlan::Kind::kInSet: {
        auto set = std::make_unique<InSet>();
        std::string key;
        while (ip.plan->Next(row)) {
          ctx_.CheckInterrupts();
          types::Value v = row[0];
          if (v.is_null) {
            set->has_null = true;
            continue;
          }
          if (v.type != ip.type) v = types::CastValue(v, ip.type, types::kNoTypmod, types::CoercionContext::kImplicit);
          key.clear();
          AppendHashKey(v, &key);
          set->keys.insert(key);
        }
        slot = types::Value::Int8(static_cast<int64_t>(reinterpret_cast<uintptr_t>(set.get())));
        sets_.push_back(std::move(set));
        break;
      }
    }
    ip.plan->Close();
  }
}

bool Execution::Next(Row& row) {
  if (!open_ || done_) return false;
  try {
    if (!plan_.root->Next(row)) {
      done_ = true;
      return false;
    }
  } catch (...) {
    CloseAll();
    throw;
  }
  ++rows_;
  return true;
}

uint64_t Execution::processed() const {
  if (plan_.command == CommandType::kInsert || plan_.command == CommandType::kUpdate ||
      plan_.command == CommandType::kDelete) {
    return static_cast<const ModifyTableNode&>(*plan_.root).processed();
  }
  return rows_;
}

std::string Execution::CommandTag() const {
  std::string n = std::to_string(processed());
  switch (plan_.command) {
    case CommandType::kSelect: return "SELECT " + n;
    case CommandType::kInsert: return "INSERT 0 " + n;
    case CommandType::kUpdate: return "UPDATE " + n;
    case CommandType::kDelete: return "DELETE " + n;
    case CommandType::kExplain: return "EXPLAIN";
  }
  return "";
}

std::string RunPlan(PlannedStatement& plan, const ExecContext& ctx, const std::function<void(const Row&)>& sink) {
  Execution ex(plan, ctx);
  Row row;
  while (ex.Next(row)) {
    if (sink) sink(row);
  }
  return ex.CommandTag();
}

}  // namespace hearth::executor
