// server/executor/expr/bind_array.cpp
//
// Principal entry points: BindArrayConstructor, BindSubscripts,
// BindAnyAllArray, ArrayTypeForName. Follows PostgreSQL's
// transformArrayExpr, transformContainerSubscripts and
// make_scalar_array_op.
#include "executor/expr/bind_array.h"

#include "common/error/db_error.h"
#include "executor/expr/bind_helpers.h"
#include "executor/expr/binder.h"
#include "utils/adt/array_ops.h"
#include "utils/adt/func_registry.h"
#include "utils/adt/json.h"

namespace hearth::executor {

using types::CoercionContext;
using types::Oid;
using bind::AtLocation;
using bind::Node;
using bind::ThrowAt;

namespace {

// The built-in behind name[i] (builtins_dump.cpp); not callable from SQL.
constexpr const char* kNameSubscriptFunction = "\x01name_subscript";

// Binds the elements of `a` (bare [..] sub-arrays recursively) and reports
// whether any element is an array, which makes the result multidimensional.
std::vector<BoundExprPtr> BindElements(const parser::ArrayExpr& a, Oid target, BindContext& ctx,
                                       const ArrayBindHooks& h, bool* multidim) {
  std::vector<BoundExprPtr> out;
  for (const auto& el : a.elements) {
    if (el->kind == parser::ExprKind::kArray) {
      out.push_back(BindArrayConstructor(el->As<parser::ArrayExpr>(), target, ctx, h));
      *multidim = true;
    } else {
      out.push_back(h.bind(*el));
      *multidim |= types::IsArrayType(out.back()->type);
    }
  }
  return out;
}

// The element type of a subscripted value's type; 42804 if not an array.
Oid ElementTypeForSubscript(Oid type, int location) {
  const Oid elem = types::ElementTypeOf(type);
  if (elem == types::kInvalidOid) {
    ThrowAt(DbError(sqlstate::kDatatypeMismatch,
                    "cannot subscript type " + types::FormatType(type) + " because it does not support subscripting"),
            location);
  }
  return elem;
}

// Binds the bounds of `subs` (int4 by assignment casts) into node's
// children and subscript_flags; returns whether any is a slice.
bool AddSubscripts(const std::vector<const parser::SubscriptExpr*>& subs, BoundExpr* node, BindContext& ctx,
                   const std::function<BoundExprPtr(const parser::Expr&)>& bind) {
  auto add_bound = [&](const parser::Expr& x) {
    BoundExprPtr b = bind(x);
    if (!types::CanCoerce(b->type, types::kInt4Oid, CoercionContext::kAssignment)) {
      ThrowAt(DbError(sqlstate::kDatatypeMismatch, "array subscript must have type integer"), x.location);
    }
    node->children.push_back(Coerce(std::move(b), types::kInt4Oid, -1, CoercionContext::kAssignment, ctx));
  };
  bool any_slice = false;
  for (const parser::SubscriptExpr* sub : subs) {
    uint8_t flags = sub->is_slice ? 1 : 0;
    if (sub->index) {
      flags |= 2;
      add_bound(*sub->index);
    }
    if (sub->upper) {
      flags |= 4;
      add_bound(*sub->upper);
    }
    any_slice |= sub->is_slice;
    node->subscript_flags.push_back(flags);
  }
  return any_slice;
}

// jsonb[...][...]: PostgreSQL's jsonb subscripting as a path lookup
// (jsonb_extract_path); each subscript an integer or text.
BoundExprPtr BindJsonbSubscripts(BoundExprPtr doc, const std::vector<const parser::SubscriptExpr*>& chain,
                                 int location, BindContext& ctx, const ArrayBindHooks& h) {
  std::vector<Oid> arg_types{types::kJsonbOid};
  std::vector<BoundExprPtr> args;
  args.push_back(std::move(doc));
  for (const parser::SubscriptExpr* sub : chain) {
    if (sub->is_slice) {
      const parser::Expr* at = sub->upper ? sub->upper.get() : sub->index.get();
      ThrowAt(DbError(sqlstate::kDatatypeMismatch, "jsonb subscript does not support slices"),
              at != nullptr ? at->location : sub->location);
    }
    BoundExprPtr b = h.bind(*sub->index);
    if (!types::CanCoerce(b->type, types::kInt4Oid, CoercionContext::kImplicit) &&
        !types::CanCoerce(b->type, types::kTextOid, CoercionContext::kImplicit)) {
      ThrowAt(DbError(sqlstate::kDatatypeMismatch, "subscript type " + types::FormatType(b->type) +
                                                       " is not supported")
                  .WithHint("jsonb subscript must be coercible to either integer or text."),
              sub->index->location);
    }
    args.push_back(Coerce(std::move(b), types::kTextOid, -1, CoercionContext::kAssignment, ctx));
    arg_types.push_back(types::kTextOid);
  }
  types::ResolvedFunc f = types::ResolveFunction("jsonb_extract_path", arg_types);
  auto call = Node(BoundKind::kFuncCall, types::kJsonbOid, location);
  call->func = f.sig;
  call->children = std::move(args);
  return call;
}

}  // namespace

BoundExprPtr BindArrayConstructor(const parser::ArrayExpr& a, Oid target, BindContext& ctx,
                                  const ArrayBindHooks& h) {
  bool multidim = false;
  std::vector<BoundExprPtr> elems = BindElements(a, target, ctx, h, &multidim);
  Oid array_type = target;
  Oid coerce_to = types::kInvalidOid;
  CoercionContext cc = CoercionContext::kExplicit;
  if (target != types::kInvalidOid) {
    coerce_to = multidim ? target : types::ElementTypeOf(target);
  } else {
    if (elems.empty()) {
      ThrowAt(DbError(sqlstate::kIndeterminateDatatype, "cannot determine type of empty array")
                  .WithHint("Explicitly cast to the desired type, for example ARRAY[]::integer[]."),
              a.location);
    }
    std::vector<Oid> ts;
    for (const auto& e : elems) ts.push_back(e->type);
    // A mismatch is reported at the first element that breaks the category.
    int mismatch = a.location;
    for (const auto& e : elems) {
      if (e->type == types::kUnknownOid) continue;
      for (const auto& f : elems) {
        if (f->type != types::kUnknownOid && types::CategoryOf(f->type) != types::CategoryOf(e->type)) {
          mismatch = f->location;
          break;
        }
      }
      break;
    }
    coerce_to = AtLocation(mismatch, [&] { return types::SelectCommonType(ts, "ARRAY"); });
    cc = CoercionContext::kImplicit;
    if (multidim) {
      array_type = coerce_to;
      if (!types::IsArrayType(array_type)) {
        ThrowAt(DbError(sqlstate::kUndefinedObject,
                        "could not find element type for data type " + types::FormatType(array_type)),
                a.location);
      }
    } else {
      array_type = types::ArrayTypeOf(coerce_to);
      if (array_type == types::kInvalidOid) {
        ThrowAt(DbError(sqlstate::kUndefinedObject,
                        "could not find array type for data type " + types::FormatType(coerce_to)),
                a.location);
      }
    }
  }
  auto node = Node(BoundKind::kArrayCtor, array_type, a.location);
  for (auto& e : elems) node->children.push_back(Coerce(std::move(e), coerce_to, -1, cc, ctx));
  return node;
}

BoundExprPtr BindSubscripts(const parser::SubscriptExpr& s, BindContext& ctx, const ArrayBindHooks& h) {
  std::vector<const parser::SubscriptExpr*> chain;
  const parser::Expr* base = &s;
  while (base->kind == parser::ExprKind::kSubscript) {
    chain.insert(chain.begin(), &base->As<parser::SubscriptExpr>());
    base = chain.front()->arg.get();
  }
  BoundExprPtr arr = h.bind(*base);
  if (arr->type == types::kNameOid && chain.size() == 1 && !chain[0]->is_slice) {
    // name is PostgreSQL's char[64] (subscripts from 0): typname[0] = '_'.
    types::ResolvedFunc f = types::ResolveFunction(kNameSubscriptFunction, {types::kNameOid, types::kInt4Oid});
    auto call = Node(BoundKind::kFuncCall, f.result_type, s.location);
    call->func = f.sig;
    call->children.push_back(std::move(arr));
    call->children.push_back(Coerce(h.bind(*chain[0]->index), types::kInt4Oid, -1, CoercionContext::kAssignment, ctx));
    return call;
  }
  if (arr->type == types::kJsonbOid) return BindJsonbSubscripts(std::move(arr), chain, s.location, ctx, h);
  const Oid elem = ElementTypeForSubscript(arr->type, base->location);
  auto node = Node(BoundKind::kSubscript, elem, s.location);
  node->typmod = arr->typmod;
  node->children.push_back(std::move(arr));
  if (AddSubscripts(chain, node.get(), ctx, h.bind)) node->type = node->children[0]->type;
  return node;
}

BoundExprPtr BindAnyAllArray(const parser::AnyAllExpr& a, BindContext& ctx, const ArrayBindHooks& h) {
  BoundExprPtr left = h.bind(*a.left);
  BoundExprPtr right = h.bind(*a.right);
  Oid elem = types::kUnknownOid;
  if (right->type != types::kUnknownOid) {
    elem = types::ElementTypeOf(right->type);
    if (elem == types::kInvalidOid) {
      ThrowAt(DbError(sqlstate::kWrongObjectType, "op ANY/ALL (array) requires array on right side"), a.location);
    }
  }
  BoundExprPtr cmp = h.op_call(a.op, std::move(left), Node(BoundKind::kCaseTest, elem, a.location), a.location);
  if (cmp->type != types::kBoolOid) {
    ThrowAt(DbError(sqlstate::kWrongObjectType, "op ANY/ALL (array) requires operator to yield boolean"),
            a.location);
  }
  if (right->type == types::kUnknownOid) {
    // '{1,2}' takes the array type of the operator's right argument.
    const Oid rtype = cmp->children[1]->type;
    const Oid arr_type = types::ArrayTypeOf(rtype);
    if (arr_type == types::kInvalidOid) {
      ThrowAt(DbError(sqlstate::kWrongObjectType, "op ANY/ALL (array) requires array on right side"), a.location);
    }
    right = Coerce(std::move(right), arr_type, -1, CoercionContext::kImplicit, ctx);
    cmp->children[1] = Node(BoundKind::kCaseTest, rtype, a.location);
  }
  auto node = Node(BoundKind::kAnyAll, types::kBoolOid, a.location);
  node->func = cmp->func;
  node->is_all = a.all;
  node->children.push_back(std::move(cmp->children[0]));
  node->children.push_back(std::move(right));
  node->children.push_back(std::move(cmp->children[1]));
  return node;
}

BoundExprPtr BindSubscriptAssignment(BoundExprPtr current, const std::vector<parser::ExprPtr>& subs,
                                     const parser::Expr& value, const std::string& column, int location,
                                     BindContext& ctx, const std::function<BoundExprPtr(const parser::Expr&)>& bind) {
  const Oid elem = ElementTypeForSubscript(current->type, location);
  auto node = Node(BoundKind::kArrayAssign, current->type, location);
  node->typmod = current->typmod;
  const int32_t typmod = current->typmod;
  node->children.push_back(std::move(current));
  // A slice takes an array of the column's type, an element its element type.
  bool is_slice = false;
  for (const auto& sub : subs) is_slice |= sub->As<parser::SubscriptExpr>().is_slice;
  const Oid target = is_slice ? node->type : elem;
  BoundExprPtr v = bind(value);
  if (!types::CanCoerce(v->type, target, CoercionContext::kAssignment)) {
    ThrowAt(DbError(sqlstate::kDatatypeMismatch, "subscripted assignment to \"" + column + "\" requires type " +
                                                     types::FormatType(target) + " but expression is of type " +
                                                     types::FormatType(v->type))
                .WithHint("You will need to rewrite or cast the expression."),
            location);
  }
  node->children.push_back(Coerce(std::move(v), target, typmod, CoercionContext::kAssignment, ctx));
  std::vector<const parser::SubscriptExpr*> raw;
  for (const auto& sub : subs) raw.push_back(&sub->As<parser::SubscriptExpr>());
  AddSubscripts(raw, node.get(), ctx, bind);
  return node;
}

Oid ArrayTypeForName(const parser::TypeName& tn, Oid elem) {
  const Oid arr = types::ArrayTypeOf(elem);
  if (arr == types::kInvalidOid) {
    throw DbError(sqlstate::kUndefinedObject, "type \"" + tn.name + "[]\" does not exist");
  }
  return arr;
}

}  // namespace hearth::executor
