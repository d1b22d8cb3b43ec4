// server/utils/adt/func_registry.cpp
//
// Principal entry points: ResolveFunction, ResolveOperator, SelectCommonType.
// The candidate-narrowing steps follow PostgreSQL's func_select_candidate
// (documented in "Type Conversion: Functions/Operators").
#include "utils/adt/func_registry.h"
#include "utils/adt/recovery_funcs.h"

#include <algorithm>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "common/error/db_error.h"
#include "utils/adt/builtins.h"
#include "utils/adt/json_funcs.h"
#include "utils/adt/jsonpath_exec.h"
#include "utils/adt/cast.h"
#include "utils/adt/srf_registry.h"
#include "utils/adt/type_catalog.h"
#include "utils/adt/user_types.h"

namespace hearth::types {
namespace {

struct Registry {
  std::vector<FuncSignature> table;
  // key: kind char + name → candidates in table order
  std::unordered_map<std::string, std::vector<const FuncSignature*>> by_name;
};

std::string Key(FuncKind kind, std::string_view name) {
  std::string k(1, static_cast<char>('0' + static_cast<int>(kind)));
  k.append(name);
  return k;
}

const Registry& GetRegistry() {
  static const Registry* reg = [] {
    auto* r = new Registry;
    internal::AddMathBuiltins(&r->table);
    internal::AddMathFunctionBuiltins(&r->table);
    internal::AddTextBuiltins(&r->table);
    internal::AddTextFunctionBuiltins(&r->table);
    internal::AddRegexBuiltins(&r->table);
    internal::AddByteaBuiltins(&r->table);
    internal::AddDatetimeBuiltins(&r->table);
    internal::AddIntervalBuiltins(&r->table);
    internal::AddTimeBuiltins(&r->table);
    internal::AddToCharNumberBuiltins(&r->table);
    internal::AddToCharBuiltins(&r->table);
    internal::AddTimezoneBuiltins(&r->table);
    internal::AddToTimestampBuiltins(&r->table);
    internal::AddOverlapsBuiltins(&r->table);
    internal::AddAggregateBuiltins(&r->table);
    internal::AddSessionBuiltins(&r->table);
    internal::AddAdminBuiltins(&r->table);
    internal::AddRecoveryBuiltins(&r->table);
    internal::AddSequenceBuiltins(&r->table);
    internal::AddCatalogBuiltins(&r->table);
    internal::AddDumpBuiltins(&r->table);
    internal::AddArrayBuiltins(&r->table);
    internal::AddSetReturningBuiltins(&r->table);
    internal::AddJsonOperatorBuiltins(&r->table);
    internal::AddJsonEditBuiltins(&r->table);
    internal::AddJsonBuildBuiltins(&r->table);
    internal::AddJsonPathBuiltins(&r->table);
    internal::AddEnumBuiltins(&r->table);
    for (const FuncSignature& s : r->table) r->by_name[Key(s.kind, s.name)].push_back(&s);
    return r;
  }();
  return *reg;
}

bool IsPoly(Oid t) { return t == kAnyOid || t == kAnyNonArrayOid || IsArrayPolyType(t); }

Oid Declared(const FuncSignature& s, size_t i) {
  return i < static_cast<size_t>(s.nargs) ? s.args[i] : s.args[s.nargs - 1];
}

bool ArityMatches(const FuncSignature& s, size_t n) {
  return s.variadic ? n >= static_cast<size_t>(s.nargs) : n == static_cast<size_t>(s.nargs);
}

bool UsesArrayPoly(const FuncSignature& s) {
  if (IsArrayPolyType(s.result)) return true;
  for (int i = 0; i < s.nargs; ++i) {
    if (IsArrayPolyType(s.args[i])) return true;
  }
  return false;
}

// PostgreSQL's enforce_generic_type_consistency for the array family: the
// element type every anyarray/anyelement (anycompatible*) argument agrees
// on, or kInvalidOid if they disagree. Unknown arguments take what the
// others decide; all-unknown resolves to text. The anycompatible pair
// promotes the arguments to their common type (array_append(int[], 1.5)).
Oid BindArrayPoly(const FuncSignature& s, const std::vector<Oid>& args) {
  std::vector<Oid> elems;
  bool compatible = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const Oid d = Declared(s, i), a = args[i];
    // anynonarray next to anyarray (array_agg) binds the element type too.
    if (!IsArrayPolyType(d) && d != kAnyNonArrayOid) continue;
    compatible |= d == kAnyCompatibleOid || d == kAnyCompatibleArrayOid;
    if (a == kUnknownOid) continue;
    if (d == kAnyArrayOid || d == kAnyCompatibleArrayOid) {
      if (!IsArrayType(a)) return kInvalidOid;
      elems.push_back(ElementTypeOf(a));
    } else {
      elems.push_back(a);
    }
  }
  Oid elem = kTextOid;
  if (!elems.empty()) {
    elem = elems[0];
    for (Oid e : elems) {
      if (e == elem) continue;
      if (!compatible) return kInvalidOid;
      try {
        elem = SelectCommonType(elems, "");
      } catch (const DbError&) {
        return kInvalidOid;
      }
      break;
    }
  }
  // Arrays of arrays do not exist: an anyarray slot needs an array type.
  bool needs_array = s.result == kAnyArrayOid || s.result == kAnyCompatibleArrayOid;
  for (int i = 0; i < s.nargs; ++i) {
    needs_array |= s.args[i] == kAnyArrayOid || s.args[i] == kAnyCompatibleArrayOid;
  }
  if (needs_array && ArrayTypeOf(elem) == kInvalidOid) return kInvalidOid;
  return elem;
}

// The type a polymorphic array-family slot binds to, given the element type.
Oid BoundPolyType(Oid declared, Oid elem) {
  return declared == kAnyArrayOid || declared == kAnyCompatibleArrayOid ? ArrayTypeOf(elem) : elem;
}

// The enum type the anyenum parameters bind to: every known argument in
// those slots is the same enum type (unknown literals take it); kInvalidOid
// if they disagree, are not enums, or are all unknown.
Oid BindEnumPoly(const FuncSignature& s, const std::vector<Oid>& args) {
  Oid bound = kInvalidOid;
  for (size_t i = 0; i < args.size(); ++i) {
    if (Declared(s, i) != kAnyEnumOid || args[i] == kUnknownOid) continue;
    if (FindEnumType(args[i]) == nullptr || (bound != kInvalidOid && bound != args[i])) return kInvalidOid;
    bound = args[i];
  }
  return bound;
}

bool UsesEnumPoly(const FuncSignature& s) {
  for (int i = 0; i < s.nargs; ++i) {
    if (s.args[i] == kAnyEnumOid) return true;
  }
  return false;
}

// True if every argument can reach the candidate's parameter implicitly.
bool Accepts(const FuncSignature& c, const std::vector<Oid>& args) {
  if (UsesEnumPoly(c)) return BindEnumPoly(c, args) != kInvalidOid;
  for (size_t i = 0; i < args.size(); ++i) {
    Oid d = Declared(c, i);
    if (d == kAnyNonArrayOid && IsArrayType(args[i])) return false;
    if (IsArrayPolyType(d)) continue;
    if (!IsPoly(d) && !CanCoerce(args[i], d, CoercionContext::kImplicit)) return false;
  }
  if (!UsesArrayPoly(c)) return true;
  const Oid elem = BindArrayPoly(c, args);
  if (elem == kInvalidOid) return false;
  for (size_t i = 0; i < args.size(); ++i) {
    Oid d = Declared(c, i);
    if (IsArrayPolyType(d) && !CanCoerce(args[i], BoundPolyType(d, elem), CoercionContext::kImplicit)) {
      return false;
    }
  }
  return true;
}

ResolvedFunc Make(const FuncSignature* s, const std::vector<Oid>& args) {
  ResolvedFunc r;
  r.sig = s;
  if (UsesEnumPoly(*s)) {
    const Oid e = BindEnumPoly(*s, args);
    for (size_t i = 0; i < args.size(); ++i) r.arg_types.push_back(Declared(*s, i) == kAnyEnumOid ? e : Declared(*s, i));
    r.result_type = s->result == kAnyEnumOid ? e : s->result == kAnyArrayOid ? ArrayTypeOf(e) : s->result;
    return r;
  }
  Oid poly = kInvalidOid;
  const Oid elem = UsesArrayPoly(*s) ? BindArrayPoly(*s, args) : kInvalidOid;
  for (size_t i = 0; i < args.size(); ++i) {
    Oid d = Declared(*s, i);
    Oid a = args[i];
    if (IsArrayPolyType(d)) {
      r.arg_types.push_back(BoundPolyType(d, elem));
    } else if (IsPoly(d)) {
      Oid t = a == kUnknownOid ? kTextOid : a;
      r.arg_types.push_back(t);
      if (poly == kInvalidOid) poly = t;
    } else {
      r.arg_types.push_back(d);
    }
  }
  if (IsArrayPolyType(s->result)) {
    r.result_type = BoundPolyType(s->result, elem);
  } else {
    r.result_type = IsPoly(s->result) ? (poly == kInvalidOid ? kTextOid : poly) : s->result;
  }
  return r;
}

std::string ArgList(const std::vector<Oid>& args) {
  std::string s;
  for (size_t i = 0; i < args.size(); ++i) {
    if (i) s += ", ";
    s += FormatType(args[i]);
  }
  return s;
}

// What is being resolved, for error messages; the text is only built when
// resolution fails, so successful binds do not format type names.
struct Describe {
  bool is_operator;
  std::string_view name;
  const std::vector<Oid>* args;
  bool prefix;  // prefix operator: no left operand

  std::string Text() const {
    if (!is_operator) return std::string(name) + "(" + ArgList(*args) + ")";
    if (prefix) return std::string(name) + " " + FormatType((*args)[0]);
    return FormatType((*args)[0]) + " " + std::string(name) + " " + FormatType((*args)[1]);
  }
};

[[noreturn]] void NotFound(const Describe& d) {
  if (d.is_operator) {
    throw DbError(sqlstate::kUndefinedFunction, "operator does not exist: " + d.Text())
        .WithHint("No operator matches the given name and argument types. You might need to add "
                  "explicit type casts.");
  }
  throw DbError(sqlstate::kUndefinedFunction, "function " + d.Text() + " does not exist")
      .WithHint("No function matches the given name and argument types. You might need to add "
                "explicit type casts.");
}

[[noreturn]] void NotUnique(const Describe& d) {
  if (d.is_operator) {
    throw DbError(sqlstate::kAmbiguousFunction, "operator is not unique: " + d.Text())
        .WithHint("Could not choose a best candidate operator. You might need to add explicit "
                  "type casts.");
  }
  throw DbError(sqlstate::kAmbiguousFunction, "function " + d.Text() + " is not unique")
      .WithHint("Could not choose a best candidate function. You might need to add explicit "
                "type casts.");
}

// Keeps the candidates with the highest score; returns the new list.
template <typename ScoreFn>
std::vector<const FuncSignature*> KeepBest(const std::vector<const FuncSignature*>& in, ScoreFn f) {
  int best = -1;
  std::vector<const FuncSignature*> out;
  for (const FuncSignature* c : in) {
    int s = f(*c);
    if (s > best) {
      best = s;
      out.clear();
    }
    if (s == best) out.push_back(c);
  }
  return out;
}

ResolvedFunc Resolve(FuncKind kind, std::string_view name, const std::vector<Oid>& args,
                     const Describe& desc) {
  const Registry& reg = GetRegistry();
  auto it = reg.by_name.find(Key(kind, name));
  if (it == reg.by_name.end()) NotFound(desc);
  std::vector<const FuncSignature*> cands;
  for (const FuncSignature* s : it->second) {
    if (ArityMatches(*s, args.size())) cands.push_back(s);
  }
  if (cands.empty()) NotFound(desc);

  // 1. Exact match; a binary operator's lone unknown takes the other side's type.
  std::vector<Oid> probe = args;
  if (kind == FuncKind::kOperator && args.size() == 2 &&
      (args[0] == kUnknownOid) != (args[1] == kUnknownOid)) {
    if (probe[0] == kUnknownOid) probe[0] = probe[1];
    else probe[1] = probe[0];
  }
  for (const FuncSignature* c : cands) {
    bool exact = true;
    for (size_t i = 0; i < probe.size() && exact; ++i) exact = probe[i] == Declared(*c, i);
    if (exact) return Make(c, probe);
  }

  // 2. Candidates reachable through implicit coercions.
  std::vector<const FuncSignature*> ok;
  for (const FuncSignature* c : cands) {
    if (Accepts(*c, args)) ok.push_back(c);
  }
  if (ok.empty()) NotFound(desc);
  if (ok.size() == 1) return Make(ok[0], args);

  // 3. Most exact matches on known arguments.
  ok = KeepBest(ok, [&](const FuncSignature& c) {
    int n = 0;
    for (size_t i = 0; i < args.size(); ++i) n += args[i] != kUnknownOid && args[i] == Declared(c, i);
    return n;
  });
  if (ok.size() == 1) return Make(ok[0], args);

  // 4. Most preferred types where a coercion is needed.
  ok = KeepBest(ok, [&](const FuncSignature& c) {
    int n = 0;
    for (size_t i = 0; i < args.size(); ++i) {
      Oid d = Declared(c, i);
      n += args[i] != d && IsPreferredType(d);
    }
    return n;
  });
  if (ok.size() == 1) return Make(ok[0], args);

  // 5. Unknown arguments: prefer the string category, else a single agreed
  //    category, and within it the preferred type.
  for (size_t i = 0; i < args.size() && ok.size() > 1; ++i) {
    if (args[i] != kUnknownOid) continue;
    bool have_string = false, conflict = false;
    TypeCategory cat = TypeCategory::kUser;
    bool first = true;
    for (const FuncSignature* c : ok) {
      Oid d = Declared(*c, i);
      if (IsPoly(d)) continue;
      TypeCategory dc = CategoryOf(d);
      if (dc == TypeCategory::kString) have_string = true;
      if (first) {
        cat = dc;
        first = false;
      } else if (dc != cat) {
        conflict = true;
      }
    }
    if (have_string) cat = TypeCategory::kString;
    else if (conflict || first) continue;
    std::vector<const FuncSignature*> in_cat;
    bool any_preferred = false;
    for (const FuncSignature* c : ok) {
      Oid d = Declared(*c, i);
      if (!IsPoly(d) && CategoryOf(d) == cat) {
        in_cat.push_back(c);
        any_preferred |= IsPreferredType(d);
      }
    }
    if (any_preferred) {
      std::vector<const FuncSignature*> pref;
      for (const FuncSignature* c : in_cat) {
        if (IsPreferredType(Declared(*c, i))) pref.push_back(c);
      }
      in_cat = pref;
    }
    if (!in_cat.empty()) ok = in_cat;
  }
  if (ok.size() == 1) return Make(ok[0], args);

  // 6. Known arguments all of one type: assume the unknowns have it too.
  Oid known = kInvalidOid;
  bool same = true;
  for (Oid a : args) {
    if (a == kUnknownOid) continue;
    if (known == kInvalidOid) known = a;
    else if (a != known) same = false;
  }
  if (same && known != kInvalidOid) {
    std::vector<Oid> assumed = args;
    for (Oid& a : assumed) {
      if (a == kUnknownOid) a = known;
    }
    std::vector<const FuncSignature*> narrowed;
    for (const FuncSignature* c : ok) {
      if (Accepts(*c, assumed)) narrowed.push_back(c);
    }
    if (narrowed.size() == 1) return Make(narrowed[0], args);
  }
  NotUnique(desc);
}

}  // namespace

ResolvedFunc ResolveFunction(std::string_view name, const std::vector<Oid>& arg_types,
                             FuncKind kind) {
  return Resolve(kind, name, arg_types, Describe{false, name, &arg_types, false});
}

ResolvedFunc ResolveOperator(std::string_view op, Oid left, Oid right) {
  // Every comparison and arithmetic in every statement comes through here,
  // and the answer depends only on the (static) built-in table: remember
  // successful resolutions per backend. Failures are not cached (they
  // throw). Keys are a few bytes (no allocation); the set of operator/type
  // combinations a backend meets is small, but bounded anyway.
  static std::unordered_map<std::string, ResolvedFunc> cache;
  std::string key(op);
  key.push_back('\0');
  key.append(reinterpret_cast<const char*>(&left), sizeof left);
  key.append(reinterpret_cast<const char*>(&right), sizeof right);
  if (auto hit = cache.find(key); hit != cache.end()) return hit->second;
  std::vector<Oid> args;
  if (left != kInvalidOid) args.push_back(left);
  args.push_back(right);
  ResolvedFunc resolved = Resolve(FuncKind::kOperator, op, args, Describe{true, op, &args, left == kInvalidOid});
  if (cache.size() >= 4096) cache.clear();
  cache.emplace(std::move(key), resolved);
  return resolved;
}

const char* VariadicArrayForm(std::string_view name) {
  static std::mutex mu;
  static auto* names = new std::unordered_map<std::string, std::unique_ptr<std::string>>;
  std::lock_guard<std::mutex> lock(mu);
  auto& slot = (*names)[std::string(name)];
  if (!slot) slot = std::make_unique<std::string>(std::string(name) + "\x01variadic");
  return slot->c_str();
}

bool FunctionNameExists(std::string_view name, FuncKind kind) {
  return GetRegistry().by_name.count(Key(kind, name)) > 0;
}

Oid SelectCommonType(const std::vector<Oid>& types, const char* context) {
  Oid ptype = kInvalidOid;
  for (Oid t : types) {
    if (t == kUnknownOid) continue;
    if (ptype == kInvalidOid) {
      ptype = t;
      continue;
    }
    if (t == ptype) continue;
    if (CategoryOf(t) != CategoryOf(ptype)) {
      throw DbError(sqlstate::kDatatypeMismatch, std::string(context) + " types " +
                                                     FormatType(ptype) + " and " +
                                                     FormatType(t) + " cannot be matched");
    }
    if (!IsPreferredType(ptype) && CanCoerce(ptype, t, CoercionContext::kImplicit) &&
        !CanCoerce(t, ptype, CoercionContext::kImplicit)) {
      ptype = t;
    }
  }
  if (ptype == kInvalidOid) return kTextOid;
  for (Oid t : types) {
    if (!CanCoerce(t, ptype, CoercionContext::kImplicit)) {
      throw DbError(sqlstate::kCannotCoerce, std::string(context) + " could not convert type " +
                                                 FormatType(t) + " to " + FormatType(ptype));
    }
  }
  return ptype;
}

const std::vector<FuncSignature>& AllBuiltins() { return GetRegistry().table; }

}  // namespace hearth::types
