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
#include "utils/adt/jsonpath_exec.h"

namespace hearth::types {
namespace {

const std::vector<SrfDef>& AllSrfs() {
  static const std::vector<SrfDef>* defs = [] {
    auto* d = new std::vector<SrfDef>;
    internal::AddSeriesSrfs(d);
    internal::AddArraySrfs(d);
    internal::AddCatalogSrfs(d);
    internal::AddOptionsSrfs(d);
    internal::AddJsonSrfs(d);
    internal::AddJsonPathSrfs(d);
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

namespace {

// The rows of one user SQL function call, computed at start.
class UserSqlSrfCall : public SrfCall {
 public:
  explicit UserSqlSrfCall(std::vector<Value> rows) : rows_(std::move(rows)) {}
  bool Next(Value* out) override {
    if (next_ >= rows_.size()) return false;
    *out = std::move(rows_[next_++]);
    return true;
  }

 private:
  std::vector<Value> rows_;
  size_t next_ = 0;
};

std::unique_ptr<SrfCall> StartUserSqlSrf(const Value* args, int nargs, FuncCallContext& ctx) {
  if (ctx.session == nullptr || !ctx.session->call_sql_set_function) {
    throw DbError(sqlstate::kFeatureNotSupported, "SQL functions are not available here");
  }
  const auto oid = static_cast<uint32_t>(args[nargs - 1].i);
  return std::make_unique<UserSqlSrfCall>(ctx.session->call_sql_set_function(oid, args, nargs - 1));
}

}  // namespace

const SrfDef& UserSqlSrfDef(bool strict) {
  static const SrfDef defs[2] = {
      {{"sql_function", FuncKind::kSetReturning, 1, {kAnyOid, 0, 0}, kAnyOid, nullptr, /*strict=*/false,
        /*variadic=*/true, /*is_volatile=*/true},
       &StartUserSqlSrf},
      {{"sql_function", FuncKind::kSetReturning, 1, {kAnyOid, 0, 0}, kAnyOid, nullptr, /*strict=*/true,
        /*variadic=*/true, /*is_volatile=*/true},
       &StartUserSqlSrf},
  };
  return defs[strict ? 1 : 0];
}

const SrfDef& LookupSrf(const FuncSignature* sig) {
  if (sig == &UserSqlSrfDef(false).sig) return UserSqlSrfDef(false);
  if (sig == &UserSqlSrfDef(true).sig) return UserSqlSrfDef(true);
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
