// server/utils/adt/srf_registry.cpp
//
// Principal entry points: LookupSrf, internal::AddSetReturningBuiltins.
// The SRF definitions live in one static table built on first use; the
// function registry holds copies of their signatures, matched back here by
// name and argument types.
#include "utils/adt/srf_registry.h"

#include <cstring>

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"

namespace hearth::types {
namespace {

const std::vector<SrfDef>& AllSrfs() {
  static const std::vector<SrfDef>* defs = [] {
    auto* d = new std::vector<SrfDef>;
    internal::AddSeriesSrfs(d);
    internal::AddArraySrfs(d);
    internal::AddOptionsSrfs(d);
    return d;
  }();
  return *defs;
}

bool SameSignature(const FuncSignature& a, const FuncSignature& b) {
  if (std::strcmp(a.name, b.name) != 0 || a.nargs != b.nargs || a.variadic != b.variadic) return false;
  for (int i = 0; i < a.nargs; ++i) {
    if (a.args[i] != b.args[i]) return false;
  }
  return true;
}

}  // namespace

const SrfDef& LookupSrf(const FuncSignature* sig) {
  for (const SrfDef& d : AllSrfs()) {
    if (&d.sig == sig || SameSignature(d.sig, *sig)) return d;
  }
  throw DbError(sqlstate::kInternalError, std::string("no set-returning function behind ") + sig->name);
}

bool IsSetReturningName(std::string_view name) { return FunctionNameExists(name, FuncKind::kSetReturning); }

namespace internal {

void AddSetReturningBuiltins(std::vector<FuncSignature>* table) {
  for (const SrfDef& d : AllSrfs()) table->push_back(d.sig);
}

}  // namespace internal
}  // namespace hearth::types
