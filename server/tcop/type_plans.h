// tcop/type_plans.h
//
// CREATE TYPE ... AS ENUM, ALTER TYPE, DROP TYPE / DROP DOMAIN
// (type_plans.cpp) and CREATE DOMAIN / ALTER DOMAIN (domain_plans.cpp):
// PostgreSQL 15's checks and messages over hearth_type / hearth_enum
// (catalog/type_catalog_rows.h). Every statement takes LockTypeCatalog()
// first.
#pragma once

#include <memory>
#include <string>

#include "parser/ast.h"
#include "tcop/plan.h"
#include "utils/adt/user_types.h"

namespace hearth::tcop {

// nullptr for other statements.
std::unique_ptr<Plan> PlanTypeStmt(const parser::Statement& stmt);

namespace type_ddl {

std::string ShownName(const parser::RangeVar& rv);
// The namespace CREATE puts `rv` in (42501 without CREATE on it).
types::Oid CreationNamespaceOf(const parser::RangeVar& rv);
// 42710 `type "x" already exists`.
void RequireFreeTypeName(types::Oid ns, const std::string& name);
// The user type `rv` names, or nullptr (42704 unless `missing_ok`).
const types::UserType* FindType(const parser::RangeVar& rv, bool missing_ok);

// CREATE DOMAIN and ALTER DOMAIN's own actions (domain_plans.cpp).
void CreateDomain(Session& s, const parser::CreateDomainStmt& st);
void AlterDomain(Session& s, const parser::AlterTypeStmt& st, const types::UserType& d);

}  // namespace type_ddl
}  // namespace hearth::tcop
