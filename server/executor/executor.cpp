// server/executor/executor.cpp
//
// Principal entry points: Execution (init plans, open, Next, tag), RunPlan,
// InSetLookup.
#include "executor/executor.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "executor/expr/eval.h"
#include "executor/cte_store.h"
#include "executor/nodes/cte_nodes.h"
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

// Closes an opened subplan when the scope ends, errors included.
struct ClosePlanAtExit {
  ExecNode& n;
  ~ClosePlanAtExit() { n.Close(); }
};

}  // namespace

// Runs one correlated subplan per call (see SubPlan).
struct Execution::SubPlanRunner {
  const SubPlan* sp;
  ExecNode* plan_root;  // the Execution's clone of sp->plan
  std::vector<types::Value>* params;
  ExecContext* ctx;
  Row row;
  Row combined;  // kAny/kAll: tested values + subquery row
  // kHashedExists / kHashedScalar: the subquery's rows by key, built at
  // the first call. EXISTS needs the keys only; a scalar subquery the
  // key's first row (its value is computed when probed, as the per-row
  // subquery would) and how many rows gave the key (several: 21000).
  struct Hashed {
    Row first;
    uint64_t rows = 0;
  };
  std::unique_ptr<std::unordered_map<std::string, Hashed>> hashed;
  std::string key;

  types::Value Run(const types::Value* args, int nargs) {
    size_t nouter = sp->arg_indexes.size();
    for (size_t i = 0; i < nouter; ++i) (*params)[static_cast<size_t>(sp->arg_indexes[i])] = args[i];
    if (sp->kind == SubPlan::Kind::kHashedExists) return HashedExists();
    if (sp->kind == SubPlan::Kind::kHashedScalar) return HashedScalar();
    ExecNode& plan = *plan_root;
    plan.Open(*ctx);
    ClosePlanAtExit closer{plan};
    switch (sp->kind) {
      case SubPlan::Kind::kExists:
        return types::Value::Bool(plan.Next(row));
      case SubPlan::Kind::kScalar: {
        const bool found = plan.Next(row);
        for (size_t j = 0; j < sp->result_slots.size(); ++j) {
          (*params)[static_cast<size_t>(sp->result_slots[j])] =
              found ? row[j] : types::Value::Null(sp->result_types[j]);
        }
        if (!found) return types::Value::Null(sp->type);
        types::Value v = row[static_cast<size_t>(sp->result_column)];
        if (plan.Next(row)) {
          throw DbError(sqlstate::kCardinalityViolation,
                        "more than one row returned by a subquery used as an expression");
        }
        return v;
      }
      case SubPlan::Kind::kAny:
      case SubPlan::Kind::kAll:
        return Quantified(plan, args + nouter);
      case SubPlan::Kind::kArray:
        return CollectArray(plan, row, sp->type);
      case SubPlan::Kind::kHashedExists:
      case SubPlan::Kind::kHashedScalar:
        break;  // answered above
    }
    return types::Value::Null(types::kBoolOid);
  }

  // Encodes keys evaluated in ev; false when one is NULL (matches nothing).
  bool MakeKey(const std::vector<BoundExprPtr>& keys, EvalContext& ev) {
    key.clear();
    for (const BoundExprPtr& k : keys) {
      types::Value v = Eval(*k, ev);
      if (v.is_null) return false;
      AppendHashKey(v, &key);
    }
    return true;
  }

  void BuildHash() {
    ExecNode& plan = *plan_root;
    plan.Open(*ctx);
    ClosePlanAtExit closer{plan};
    EvalContext inner = ctx->MakeEval();
    auto table = std::make_unique<std::unordered_map<std::string, Hashed>>();
    while (plan.Next(row)) {
      ctx->CheckInterrupts();
      inner.row = row.data();
      inner.nrow = row.size();
      if (!MakeKey(sp->inner_keys, inner)) continue;
      Hashed& h = (*table)[key];
      if (h.rows++ == 0 && sp->inner_value) h.first = row;
    }
    hashed = std::move(table);
  }

  // The entry of the outer values' keys; null when there is none (or an
  // outer condition fails, or a key is NULL).
  const Hashed* Probe() {
    EvalContext ev = ctx->MakeEval();
    if (sp->outer_cond && !EvalPredicate(*sp->outer_cond, ev)) return nullptr;
    if (!hashed) BuildHash();
    if (!MakeKey(sp->outer_keys, ev)) return nullptr;
    auto it = hashed->find(key);
    return it == hashed->end() ? nullptr : &it->second;
  }

  types::Value HashedExists() { return types::Value::Bool(Probe() != nullptr); }

  types::Value HashedScalar() {
    const Hashed* h = Probe();
    if (h == nullptr) return types::Value::Null(sp->type);
    if (h->rows > 1) {
      throw DbError(sqlstate::kCardinalityViolation, "more than one row returned by a subquery used as an expression");
    }
    EvalContext ev = ctx->MakeEval();
    ev.row = h->first.data();
    ev.nrow = h->first.size();
    return Eval(*sp->inner_value, ev);
  }

  // ANY: some row compares true; ALL: no row compares false; else NULL
  // when a comparison was NULL.
  types::Value Quantified(ExecNode& plan, const types::Value* tested) {
    const bool any = sp->kind == SubPlan::Kind::kAny;
    const auto ntested = static_cast<size_t>(sp->ntested);
    EvalContext ev = ctx->MakeEval();
    bool saw_null = false;
    while (plan.Next(row)) {
      ctx->CheckInterrupts();
      combined.resize(ntested + row.size());
      std::copy(tested, tested + ntested, combined.begin());
      std::copy(row.begin(), row.end(), combined.begin() + static_cast<std::ptrdiff_t>(ntested));
      ev.row = combined.data();
      ev.nrow = combined.size();
      types::Value r = Eval(*sp->compare, ev);
      if (r.is_null) {
        saw_null = true;
      } else if (r.b == any) {
        return types::Value::Bool(any);
      }
    }
    return saw_null ? types::Value::Null(types::kBoolOid) : types::Value::Bool(!any);
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

Execution::Execution(const PlannedStatement& plan, const ExecContext& ctx)
    : plan_(plan), root_(CloneNode(plan.root)), ctx_(ctx) {
  for (const InitPlan& ip : plan_.init_plans) init_roots_.push_back(CloneNode(ip.plan));
  for (const SubPlan& sp : plan_.sub_plans) sub_roots_.push_back(CloneNode(sp.plan));
  Start(ctx);
}

// Cloning costs about as much as planning a short statement; a plan that
// runs once (most simple-query statements) gives its trees away instead.
Execution::Execution(PlannedStatement& plan, const ExecContext& ctx, ConsumePlan)
    : plan_(plan), root_(std::move(plan.root)), ctx_(ctx) {
  for (InitPlan& ip : plan.init_plans) init_roots_.push_back(std::move(ip.plan));
  for (SubPlan& sp : plan.sub_plans) sub_roots_.push_back(std::move(sp.plan));
  Start(ctx);
}

void Execution::Start(const ExecContext& ctx) {
  params_.assign(ctx.params, ctx.params + ctx.nparams);
  params_.resize(std::max(params_.size(), static_cast<size_t>(plan_.nslots)));
  ctx_.params = params_.data();
  ctx_.nparams = params_.size();
  ctx_.nuser = plan_.param_types.size();
  for (size_t i = 0; i < plan_.sub_plans.size(); ++i) {
    const SubPlan& sp = plan_.sub_plans[i];
    auto r = std::make_unique<SubPlanRunner>(SubPlanRunner{&sp, sub_roots_[i].get(), &params_, &ctx_, {}, {}, {}, {}});
    params_[static_cast<size_t>(sp.handle_index)] =
        types::Value::Int8(static_cast<int64_t>(reinterpret_cast<uintptr_t>(r.get())));
    runners_.push_back(std::move(r));
  }
  try {
    RunInitPlans();
    open_ = true;
    root_->Open(ctx_);
  } catch (...) {
    CloseAll();
    throw;
  }
}

Execution::~Execution() { CloseAll(); }

void Execution::CloseAll() {
  if (closed_) return;
  closed_ = true;
  if (open_) {
    open_ = false;
    root_->Close();
  }
  for (ExecNodePtr& n : init_roots_) {
    if (n) n->Close();
  }
  for (ExecNodePtr& n : sub_roots_) n->Close();
}

void Execution::RunInitPlans() {
  Row row;
  for (size_t i = 0; i < plan_.init_plans.size(); ++i) {
    const InitPlan& ip = plan_.init_plans[i];
    types::Value& slot = params_[static_cast<size_t>(ip.param_index)];
    if (ip.kind == InitPlan::Kind::kCte || ip.kind == InitPlan::Kind::kWorkTable) {
      slot = MakeCteStore(init_roots_[i].get(), &ctx_, ip.run_to_completion, &cte_stores_);  // else computed when read
      continue;
    }
    ExecNode& ipn = *init_roots_[i];
    ipn.Open(ctx_);
    switch (ip.kind) {
      case InitPlan::Kind::kExists:
        slot = types::Value::Bool(ipn.Next(row));
        break;
      case InitPlan::Kind::kScalar:
        if (!ipn.Next(row)) {
          slot = types::Value::Null(ip.type);
        } else {
          slot = row[0];
          if (ipn.Next(row)) {
            throw DbError(sqlstate::kCardinalityViolation,
                          "more than one row returned by a subquery used as an expression");
          }
        }
        break;
      case InitPlan::Kind::kCte:
      case InitPlan::Kind::kWorkTable:
        break;  // handled above
      case InitPlan::Kind::kArray:
        slot = CollectArray(ipn, row, ip.type);
        break;
      case InitPlan::Kind::kInSet: {
        auto set = std::make_unique<InSet>();
        std::string key;
        while (ipn.Next(row)) {
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
    ipn.Close();
  }
}

bool Execution::Next(Row& row) {
  if (!open_ || done_) return false;
  try {
    if (!root_->Next(row)) {
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
    const ExecNode* top = root_.get();
    if (const auto* anchor = dynamic_cast<const CteAnchorNode*>(top)) top = &anchor->child();  // DML with WITH
    return static_cast<const ModifyTableNode&>(*top).processed();
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

std::string RunPlan(const PlannedStatement& plan, const ExecContext& ctx, const std::function<void(const Row&)>& sink) {
  Execution ex(plan, ctx);
  Row row;
  while (ex.Next(row)) {
    if (sink) sink(row);
  }
  return ex.CommandTag();
}

}  // namespace hearth::executor
