// tcop/domain_plans.cpp
//
// Principal entry points: type_ddl::CreateDomain, type_ddl::AlterDomain —
// CREATE DOMAIN name [AS] type [DEFAULT e] [[CONSTRAINT c] NOT NULL | NULL |
// CHECK (cond)]..., ALTER DOMAIN SET/DROP DEFAULT, SET/DROP NOT NULL, ADD /
// DROP / VALIDATE CONSTRAINT. New constraints are checked against the
// columns of the domain (23502 / 23514, as PostgreSQL); CHECK conditions
// are stored deparsed over VALUE, fully parenthesized like table CHECKs.
#include <algorithm>
#include <map>

#include "catalog/catalog_shared.h"
#include "catalog/pending_delete.h"
#include "catalog/privileges.h"
#include "catalog/relcache.h"
#include "catalog/type_catalog_rows.h"
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "executor/domain_checks.h"
#include "executor/expr/binder.h"
#include "planner/deparse.h"
#include "tcop/session.h"
#include "tcop/type_plans.h"

namespace hearth::tcop::type_ddl {

namespace {

using types::Oid;
using types::UserType;

std::string DeparseOverValue(const parser::Expr& e) {
  return planner::Deparse(e, [](const parser::ColumnRefExpr& ref) {
    return ref.fields.size() == 1 && ref.fields[0] == "value" ? std::string("VALUE") : std::string();
  });
}

// PostgreSQL's ChooseConstraintName for a domain: d_check, d_check1, ...
std::string DefaultCheckName(const UserType& d) {
  const std::string base = d.name + "_check";
  for (int n = 0;; ++n) {
    std::string name = n == 0 ? base : base + std::to_string(n);
    bool used = false;
    for (const types::DomainCheck& c : d.checks) used |= c.name == name;
    if (!used) return name;
  }
}

types::DomainCheck MakeCheck(const UserType& d, const parser::DomainConstraint& c) {
  int32_t typmod = d.base_typmod;
  const Oid base = types::DomainBaseType(d.base_type, &typmod);
  try {
    executor::BindDomainCheck(*c.check, base, typmod);  // 42703 / 42804 before anything is stored
  } catch (const DbError& e) {
    throw DbError(e.sqlstate(), e.message());  // PostgreSQL gives no position here
  }
  types::DomainCheck out;
  out.name = c.name.empty() ? DefaultCheckName(d) : c.name;
  for (const types::DomainCheck& old : d.checks) {
    if (old.name == out.name) {
      throw DbError(sqlstate::kDuplicateObject,
                    "constraint \"" + out.name + "\" for domain \"" + d.name + "\" already exists");
    }
  }
  out.oid = catalog::GetNewObjectId();
  out.expr = DeparseOverValue(*c.check);
  return out;
}

// The DEFAULT as stored: its text, after checking it binds as a value of the base type.
std::string DefaultText(const UserType& d, const parser::Expr& e) {
  executor::BindContext ctx;
  ctx.allow_new_params = false;
  int32_t typmod = d.base_typmod;
  const Oid base = types::DomainBaseType(d.base_type, &typmod);
  executor::Coerce(executor::BindExpr(e, ctx), base, typmod, types::CoercionContext::kAssignment, ctx);
  return planner::Deparse(e);
}

// Columns of `d` and of the domains over it (their checks include d's).
void CollectDomainColumns(const UserType& d, std::map<Oid, std::vector<std::pair<std::string, Oid>>>* by_rel) {
  for (const auto& u : types::CurrentUserTypes()->types) {
    if (u->typtype == 'd' && u->base_type == d.oid) CollectDomainColumns(*u, by_rel);
  }
  for (const catalog::TypeUse& use : catalog::ColumnsUsingType(d.oid)) {
    if (!use.of_array) (*by_rel)[use.relid].emplace_back(use.column, d.oid);
  }
}

// Every stored value of the domain's columns (and of domains over it)
// meets its constraints now; `violation` is the message for a column that
// does not. Each table is scanned once, its domain columns checked per row.
void ValidateColumns(Session& s, const UserType& d, const char* sqlstate_code, const char* violation) {
  std::map<Oid, std::vector<std::pair<std::string, Oid>>> by_rel;
  CollectDomainColumns(d, &by_rel);
  for (const auto& [relid, columns] : by_rel) {
    std::optional<executor::TableInfo> info = s.tables->LookupByOid(relid);
    if (!info) continue;
    std::vector<std::pair<size_t, Oid>> checked;  // (column position, its domain), attnum order
    for (size_t i = 0; i < info->columns.size(); ++i) {
      for (const auto& [name, domain] : columns) {
        if (info->columns[i].name == name) checked.emplace_back(i, domain);
      }
    }
    executor::ExecContext exec = MakeExecContext(s, {});
    executor::EvalContext eval = exec.MakeEval();
    exec.tables->TakeLatestSnapshot();
    std::unique_ptr<executor::TableScan> scan = exec.tables->OpenLatestScan(*info, nullptr, executor::IndexScanRequest{});
    executor::Row row;
    while (scan->Next(row, nullptr)) {
      exec.CheckInterrupts();
      for (const auto& [at, domain] : checked) {
        try {
          executor::CheckDomainValue(domain, row[at], eval);
        } catch (const DbError& e) {
          if (e.sqlstate() != "23502" && e.sqlstate() != "23514") throw;
          throw DbError(sqlstate_code,
                        "column \"" + info->columns[at].name + "\" of table \"" + info->name + "\" " + violation);
        }
      }
    }
  }
}

void InvalidateUsers(const UserType& d) {
  std::vector<Oid> relids;
  for (const catalog::TypeUse& u : catalog::ColumnsUsingType(d.oid)) relids.push_back(u.relid);
  if (!relids.empty()) catalog::MarkCatalogChanged(relids);
}

void SetNotNull(Session& s, UserType d) {
  if (d.not_null) return;
  d.not_null = true;
  catalog::UpdateTypeRow(d);
  ValidateColumns(s, *types::FindDomainType(d.oid), "23502", "contains null values");
}

void AddCheck(Session& s, UserType d, const parser::DomainConstraint& c, bool not_valid) {
  d.checks.push_back(MakeCheck(d, c));
  catalog::UpdateTypeRow(d);
  if (!not_valid) ValidateColumns(s, *types::FindDomainType(d.oid), "23514", "contains values that violate the new constraint");
}

void DropConstraint(Session& s, UserType d, const parser::AlterTypeStmt& st) {
  auto it = std::find_if(d.checks.begin(), d.checks.end(), [&](const types::DomainCheck& c) { return c.name == st.value; });
  if (it == d.checks.end()) {
    const std::string msg = "constraint \"" + st.value + "\" of domain \"" + d.name + "\" does not exist";
    if (!st.if_exists) throw DbError(sqlstate::kUndefinedObject, msg);
    s.Notice(Severity::kNotice, "00000", msg + ", skipping");
    return;
  }
  d.checks.erase(it);
  catalog::UpdateTypeRow(d);
}

}  // namespace

void CreateDomain(Session&, const parser::CreateDomainStmt& st) {
  catalog::LockTypeCatalog();
  UserType d;
  d.typtype = 'd';
  d.namespace_oid = CreationNamespaceOf(st.name);
  d.name = st.name.name;
  RequireFreeTypeName(d.namespace_oid, d.name);
  const parser::TypeName& tn = st.base;
  const types::TypeInfo* ti = types::LookupTypeByQualifiedName(tn.schema, tn.name);
  if (ti != nullptr && tn.is_array) ti = types::LookupType(types::ArrayTypeOf(ti->oid));
  if (ti == nullptr) {
    throw DbError(sqlstate::kUndefinedObject,
                  "type \"" + (tn.schema.empty() ? tn.name : tn.schema + "." + tn.name) + "\" does not exist");
  }
  if (ti->category == types::TypeCategory::kPseudo || ti->storage == types::Storage::kNone) {
    throw DbError(sqlstate::kDatatypeMismatch, "\"" + std::string(ti->name) + "\" is not a valid base type for a domain");
  }
  d.base_type = ti->oid;
  d.base_typmod = types::TypmodFromModifiers(ti->oid, tn.typmods.data(), static_cast<int>(tn.typmods.size()));
  bool saw_null = false, saw_not_null = false;
  for (const parser::DomainConstraint& c : st.constraints) {
    if (c.kind == 'c') {
      d.checks.push_back(MakeCheck(d, c));
      continue;
    }
    (c.kind == 'n' ? saw_not_null : saw_null) = true;
    if (saw_null && saw_not_null) throw DbError(sqlstate::kSyntaxError, "conflicting NULL/NOT NULL constraints");
  }
  d.not_null = saw_not_null;
  if (st.default_expr) d.default_expr = DefaultText(d, *st.default_expr);
  d.owner = catalog::OwnerForNewObject();
  d.oid = catalog::GetNewObjectId();
  catalog::InsertTypeRow(d);
}

void AlterDomain(Session& s, const parser::AlterTypeStmt& st, const UserType& current) {
  UserType d = current;
  using A = parser::AlterTypeAction;
  switch (st.action) {
    case A::kSetDefault:
      d.default_expr = DefaultText(d, *st.default_expr);
      catalog::UpdateTypeRow(d);
      InvalidateUsers(d);
      return;
    case A::kDropDefault:
      d.default_expr.reset();
      catalog::UpdateTypeRow(d);
      InvalidateUsers(d);
      return;
    case A::kSetNotNull:
      SetNotNull(s, d);
      return;
    case A::kDropNotNull:
      if (!d.not_null) return;
      d.not_null = false;
      catalog::UpdateTypeRow(d);
      return;
    case A::kAddConstraint:
      if (st.constraint->kind == 'n') {
        SetNotNull(s, d);
      } else if (st.constraint->kind == 'c') {
        AddCheck(s, d, *st.constraint, st.not_valid);
      }
      return;
    case A::kDropConstraint:
      DropConstraint(s, d, st);
      return;
    case A::kValidateConstraint:
      if (std::none_of(d.checks.begin(), d.checks.end(), [&](const types::DomainCheck& c) { return c.name == st.value; })) {
        throw DbError(sqlstate::kUndefinedObject,
                      "constraint \"" + st.value + "\" of domain \"" + d.name + "\" does not exist");
      }
      return;
    default:
      throw DbError(sqlstate::kFeatureNotSupported, "this ALTER DOMAIN action is not supported yet");
  }
}

}  // namespace hearth::tcop::type_ddl
