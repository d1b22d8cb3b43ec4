// catalog/proc_privileges.cpp
//
// Principal entry points: FunctionAcl, CheckFunctionExecute,
// GrantRevokeFunctionExecute — EXECUTE on user functions with PostgreSQL's
// default (PUBLIC and the owner may execute: `{=X/owner,owner=X/owner}`).
#include "catalog/proc_privileges.h"

#include "catalog/privileges.h"
#include "catalog/privileges_internal.h"
#include "catalog/role_ddl.h"
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"

namespace hearth::catalog {

namespace {

const char* KindName(const ProcInfo& p) { return p.kind == 'p' ? "procedure" : "function"; }

}  // namespace

Acl FunctionAcl(const ProcInfo& p) {
  if (p.acl) return ParseAcl(*p.acl, AclRoleOid).value_or(Acl{});
  Acl acl;
  AclGrant(acl, 0, p.owner, kAclExecute, false);
  AclGrant(acl, p.owner, p.owner, kAclExecute, false);
  return acl;
}

std::string FunctionAclText(const ProcInfo& p) { return FormatAcl(FunctionAcl(p), AclRoleName); }

bool MayExecuteFunction(const ProcInfo& p) {
  const Oid role = GetCurrentUserId();
  if (role == 0 || CurrentUserIsSuperuser()) return true;
  return (AclMask(FunctionAcl(p), role, internal::CachedHasPrivsOf) & kAclExecute) != 0;
}

void CheckFunctionExecute(const ProcInfo& p) {
  if (MayExecuteFunction(p)) return;
  throw DbError(sqlstate::kInsufficientPrivilege, std::string("permission denied for ") + KindName(p) + " " + p.name);
}

void GrantRevokeFunctionExecute(ProcInfo& p, bool is_grant, const std::vector<std::string>& grantees,
                                bool grant_option, bool cascade) {
  const Oid role = GetCurrentUserId();
  if (role != 0 && !CurrentUserIsSuperuser() && !HasPrivsOfRole(role, p.owner)) {
    throw DbError(sqlstate::kInsufficientPrivilege, std::string("permission denied for ") + KindName(p) + " " + p.name);
  }
  Acl acl = FunctionAcl(p);
  internal::ApplyOwnerGrant(acl, grantees, is_grant, grant_option, cascade, p.owner, kAclExecute);
  p.acl = FormatAcl(acl, AclRoleName);
  ReplaceProc(p);
}

}  // namespace hearth::catalog
