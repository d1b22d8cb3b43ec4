// catalog/proc_privileges.h
//
// EXECUTE privilege on user functions (hearth_proc.proacl): the ACL in
// force, the check at call time (42501 `permission denied for function f`)
// and GRANT/REVOKE EXECUTE ON FUNCTION.
//
// Process safety: per-backend; REQUIRES a transaction in progress.
#pragma once

#include <string>
#include <vector>

#include "catalog/acl.h"
#include "catalog/proc_catalog.h"

namespace hearth::catalog {

// proacl, or PostgreSQL's default for functions: EXECUTE to PUBLIC and the owner.
Acl FunctionAcl(const ProcInfo& p);
// The ACL as pg_proc.proacl prints it.
std::string FunctionAclText(const ProcInfo& p);
// Whether the acting role may execute `p` (has_function_privilege).
bool MayExecuteFunction(const ProcInfo& p);
// Throws 42501 unless the acting role may execute `p`.
void CheckFunctionExecute(const ProcInfo& p);
// Updates p.acl and its catalog row. Only the owner (or a member of its
// role, or a superuser) may grant: 42501 otherwise.
void GrantRevokeFunctionExecute(ProcInfo& p, bool is_grant, const std::vector<std::string>& grantees,
                                bool grant_option, bool cascade);

}  // namespace hearth::catalog
