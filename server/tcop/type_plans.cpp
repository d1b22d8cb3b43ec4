// tcop/type_plans.cpp
//
// Principal entry points: PlanTypeStmt — CREATE TYPE ... AS ENUM, ALTER
// TYPE (ADD VALUE, RENAME VALUE, RENAME TO, OWNER TO, SET SCHEMA; ALTER
// DOMAIN's own actions go to domain_plans.cpp), DROP TYPE / DROP DOMAIN
// (2BP01 while a column or a domain uses the type; CASCADE drops the
// columns and domains).
#include "tcop/type_plans.h"

#include <algorithm>

#include "access/transam/xact.h"
#include "catalog/catalog_shared.h"
#include "catalog/namespace_catalog.h"
#include "catalog/owner_ddl.h"
#include "catalog/pending_delete.h"
#include "catalog/privileges.h"
#include "catalog/relcache.h"
#include "catalog/type_catalog_rows.h"
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "parser/parser.h"
#include "tcop/session.h"
#include "utils/adt/regclass.h"

namespace hearth::tcop {

namespace type_ddl {

std::string ShownName(const parser::RangeVar& rv) { return rv.schema.empty() ? rv.name : rv.schema + "." + rv.name; }

types::Oid CreationNamespaceOf(const parser::RangeVar& rv) {
  types::Oid ns = rv.schema.empty() ? catalog::CreationNamespace() : catalog::NamespaceOid(rv.schema);
  if (ns == 0) throw DbError(sqlstate::kInvalidSchemaName, "schema \"" + rv.schema + "\" does not exist");
  catalog::CheckSchemaCreate(ns);
  return ns;
}

void RequireFreeTypeName(types::Oid ns, const std::string& name) {
  bool taken = false;
  for (const auto& t : types::CurrentUserTypes()->types) {
    taken |= t->namespace_oid == ns && (t->name == name || t->array_name == name);
  }
  if (!taken && ns == catalog::kPgCatalogNamespace) taken = types::LookupTypeByName(name) != nullptr;
  if (taken) throw DbError(sqlstate::kDuplicateObject, "type \"" + name + "\" already exists");
}

const types::UserType* FindType(const parser::RangeVar& rv, bool missing_ok) {
  const types::UserType* t = types::FindUserTypeByName(rv.schema, rv.name);
  if (t == nullptr && !missing_ok) {
    throw DbError(sqlstate::kUndefinedObject, "type \"" + ShownName(rv) + "\" does not exist");
  }
  return t;
}

}  // namespace type_ddl

namespace {

using namespace type_ddl;
using types::Oid;
using types::UserType;

constexpr size_t kMaxLabelBytes = 63;  // NAMEDATALEN - 1

void CheckLabel(const std::string& label) {
  if (label.empty() || label.size() > kMaxLabelBytes) {
    throw DbError(sqlstate::kInvalidParameterValue, "invalid enum label \"" + label + "\"")
        .WithDetail("Labels must be 63 bytes or less.");
  }
}

class CreateEnumPlan : public Plan {
 public:
  explicit CreateEnumPlan(const parser::CreateEnumStmt& st) : st_(st) {}
  std::string Run(Session&, const std::vector<types::Value>&, RowConsumer&) override {
    catalog::LockTypeCatalog();
    UserType t;
    t.namespace_oid = CreationNamespaceOf(st_.name);
    t.name = st_.name.name;
    RequireFreeTypeName(t.namespace_oid, t.name);
    for (size_t i = 0; i < st_.labels.size(); ++i) {
      CheckLabel(st_.labels[i]);
      if (std::find(st_.labels.begin(), st_.labels.begin() + static_cast<std::ptrdiff_t>(i), st_.labels[i]) !=
          st_.labels.begin() + static_cast<std::ptrdiff_t>(i)) {
        throw DbError(sqlstate::kInvalidParameterValue, "enum label \"" + st_.labels[i] + "\" used more than once");
      }
    }
    t.typtype = 'e';
    t.owner = catalog::OwnerForNewObject();
    t.oid = catalog::GetNewObjectId();
    t.array_oid = catalog::GetNewObjectId();
    catalog::InsertTypeRow(t);
    for (size_t i = 0; i < st_.labels.size(); ++i) {
      catalog::InsertEnumLabel(t.oid, {catalog::GetNewObjectId(), static_cast<double>(i + 1), st_.labels[i]});
    }
    return "CREATE TYPE";
  }

 private:
  const parser::CreateEnumStmt& st_;
};

class CreateDomainPlan : public Plan {
 public:
  explicit CreateDomainPlan(const parser::CreateDomainStmt& st) : st_(st) {}
  std::string Run(Session& s, const std::vector<types::Value>&, RowConsumer&) override {
    CreateDomain(s, st_);
    return "CREATE DOMAIN";
  }

 private:
  const parser::CreateDomainStmt& st_;
};

// ADD VALUE: the new label's sort order lies between its neighbours.
void AddEnumValue(const parser::AlterTypeStmt& st, const UserType& t, Session& s) {
  CheckLabel(st.value);
  for (const types::EnumLabel& l : t.labels) {
    if (l.label != st.value) continue;
    if (st.if_not_exists) {
      s.Notice(Severity::kNotice, sqlstate::kDuplicateObject, "enum label \"" + st.value + "\" already exists, skipping");
      return;
    }
    throw DbError(sqlstate::kDuplicateObject, "enum label \"" + st.value + "\" already exists");
  }
  double order = t.labels.empty() ? 1 : t.labels.back().sort_order + 1;
  if (!st.neighbor.empty()) {
    auto it = std::find_if(t.labels.begin(), t.labels.end(),
                           [&](const types::EnumLabel& l) { return l.label == st.neighbor; });
    if (it == t.labels.end()) {
      throw DbError(sqlstate::kInvalidParameterValue, "\"" + st.neighbor + "\" is not an existing enum label");
    }
    const size_t at = static_cast<size_t>(it - t.labels.begin());
    if (st.before) {
      order = at == 0 ? it->sort_order - 1 : (t.labels[at - 1].sort_order + it->sort_order) / 2;
    } else {
      order = at + 1 == t.labels.size() ? it->sort_order + 1 : (it->sort_order + t.labels[at + 1].sort_order) / 2;
    }
    // Index keys hold sort orders, so existing labels are never renumbered.
    for (const types::EnumLabel& l : t.labels) {
      if (l.sort_order == order) {
        throw DbError(sqlstate::kProgramLimitExceeded,
                      "no room left in the sort order of enum " + t.name + " before \"" + st.neighbor + "\"");
      }
    }
  }
  catalog::InsertEnumLabel(t.oid, {catalog::GetNewObjectId(), order, st.value});
}

void RenameEnumValue(const parser::AlterTypeStmt& st, const UserType& t) {
  CheckLabel(st.new_value);
  const types::EnumLabel* found = nullptr;
  for (const types::EnumLabel& l : t.labels) {
    if (l.label == st.value) found = &l;
  }
  if (found == nullptr) throw DbError(sqlstate::kInvalidParameterValue, "\"" + st.value + "\" is not an existing enum label");
  for (const types::EnumLabel& l : t.labels) {
    if (l.label == st.new_value) {
      throw DbError(sqlstate::kDuplicateObject, "enum label \"" + st.new_value + "\" already exists");
    }
  }
  types::EnumLabel renamed = *found;
  renamed.label = st.new_value;
  catalog::UpdateEnumLabel(t.oid, renamed);
}

// Relations showing the type (columns, defaults) see the change.
void InvalidateUsers(const UserType& t) {
  std::vector<Oid> relids;
  for (const catalog::TypeUse& u : catalog::ColumnsUsingType(t.oid)) relids.push_back(u.relid);
  if (!relids.empty()) catalog::MarkCatalogChanged(relids);
}

class AlterTypePlan : public Plan {
 public:
  explicit AlterTypePlan(const parser::AlterTypeStmt& st) : st_(st) {}
  std::string Run(Session& s, const std::vector<types::Value>&, RowConsumer&) override {
    catalog::LockTypeCatalog();
    const UserType* t = FindType(st_.name, false);
    const char* kind = st_.is_domain ? "DOMAIN" : "TYPE";
    if (st_.is_domain && t->typtype != 'd') {
      throw DbError(sqlstate::kWrongObjectType, "\"" + t->name + "\" is not a domain");
    }
    catalog::CheckOwnership(t->owner, "type", t->name);
    using A = parser::AlterTypeAction;
    UserType changed = *t;
    switch (st_.action) {
      case A::kAddValue:
      case A::kRenameValue:
        if (t->typtype != 'e') throw DbError(sqlstate::kWrongObjectType, "\"" + t->name + "\" is not an enum");
        if (st_.action == A::kAddValue) {
          AddEnumValue(st_, *t, s);
        } else {
          RenameEnumValue(st_, *t);
        }
        break;
      case A::kRename:
        RequireFreeTypeName(t->namespace_oid, st_.value);
        changed.name = st_.value;
        catalog::UpdateTypeRow(changed);
        InvalidateUsers(*t);
        break;
      case A::kOwner:
        changed.owner = catalog::RoleSpecOid(st_.value, catalog::GetCurrentUserId());
        if (changed.owner != t->owner) catalog::UpdateTypeRow(changed);
        break;
      case A::kSetSchema: {
        changed.namespace_oid = catalog::NamespaceOid(st_.value);
        if (changed.namespace_oid == 0) {
          throw DbError(sqlstate::kInvalidSchemaName, "schema \"" + st_.value + "\" does not exist");
        }
        catalog::CheckSchemaCreate(changed.namespace_oid);
        RequireFreeTypeName(changed.namespace_oid, t->name);
        catalog::UpdateTypeRow(changed);
        InvalidateUsers(*t);
        break;
      }
      default:
        AlterDomain(s, st_, *t);
        break;
    }
    return std::string("ALTER ") + kind;
  }

 private:
  const parser::AlterTypeStmt& st_;
};

class DiscardRows : public RowConsumer {
 public:
  void Row(const std::vector<types::Value>&) override {}
};

// Runs one SQL statement of our own inside the current transaction.
void RunStatement(Session& s, const std::string& sql) {
  std::vector<parser::StmtPtr> stmts = parser::ParseStatements(sql);
  DiscardRows discard;
  for (const parser::StmtPtr& st : stmts) PlanStatement(s, *st, {})->Run(s, {}, discard);
}

// What depends on `t`: columns of it (or of its array type) and domains over it.
struct Dependents {
  std::vector<catalog::TypeUse> columns;
  std::vector<const UserType*> domains;
  bool empty() const { return columns.empty() && domains.empty(); }
};

Dependents DependentsOf(const UserType& t) {
  Dependents d;
  d.columns = catalog::ColumnsUsingType(t.oid);
  for (const auto& u : types::CurrentUserTypes()->types) {
    if (u->typtype == 'd' && u->base_type == t.oid) d.domains.push_back(u.get());
  }
  return d;
}

std::string RelationName(Oid relid) {
  catalog::RelationRef rel = catalog::LookupRelationByOid(relid);
  return rel ? rel->info.name : std::to_string(relid);
}

// "column c of table t" / "type d": every dependent as PostgreSQL names it,
// depth first (a domain over `t`, then what depends on that domain), and
// the DETAIL line saying why.
void DescribeDependents(const UserType& t, const Dependents& deps, std::vector<std::string>* names,
                        std::vector<std::string>* reasons) {
  for (const UserType* d : deps.domains) {
    names->push_back("type " + d->name);
    reasons->push_back(names->back() + " depends on type " + t.name);
    DescribeDependents(*d, DependentsOf(*d), names, reasons);
  }
  for (const catalog::TypeUse& c : deps.columns) {
    names->push_back("column " + c.column + " of table " + RelationName(c.relid));
    reasons->push_back(names->back() + " depends on type " + t.name + (c.of_array ? "[]" : ""));
  }
}

std::string JoinLines(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += (out.empty() ? "" : "\n") + l;
  return out;
}

void DeleteType(Session& s, const UserType& t) {
  const Dependents deps = DependentsOf(t);
  for (const UserType* d : deps.domains) DeleteType(s, *d);
  for (const catalog::TypeUse& c : deps.columns) {
    catalog::RelationRef rel = catalog::LookupRelationByOid(c.relid);
    if (rel == nullptr) continue;
    RunStatement(s, "ALTER TABLE " + types::QuoteIdentifier(rel->info.schema) + "." +
                        types::QuoteIdentifier(rel->info.name) + " DROP COLUMN " + types::QuoteIdentifier(c.column));
  }
  catalog::DeleteEnumLabels(t.oid);
  catalog::DeleteTypeRow(t.oid);
}

// RESTRICT: 2BP01 while anything depends on the type; CASCADE drops the
// dependent columns and domains (one NOTICE listing them, as PostgreSQL).
void DropOneType(Session& s, const UserType& t, parser::DropBehavior behavior) {
  const Dependents deps = DependentsOf(t);
  if (!deps.empty()) {
    std::vector<std::string> names, reasons;
    DescribeDependents(t, deps, &names, &reasons);
    if (behavior != parser::DropBehavior::kCascade) {
      throw DbError("2BP01", "cannot drop type " + t.name + " because other objects depend on it")
          .WithDetail(JoinLines(reasons))
          .WithHint("Use DROP ... CASCADE to drop the dependent objects too.");
    }
    if (names.size() == 1) {
      s.Notice(Severity::kNotice, "00000", "drop cascades to " + names[0]);
    } else {
      std::vector<std::string> lines;
      for (const std::string& n : names) lines.push_back("drop cascades to " + n);
      s.Notice(Severity::kNotice, "00000", "drop cascades to " + std::to_string(names.size()) + " other objects",
               JoinLines(lines));
    }
  }
  DeleteType(s, t);
}

class DropTypePlan : public Plan {
 public:
  explicit DropTypePlan(const parser::DropTypeStmt& st) : st_(st) {}
  std::string Run(Session& s, const std::vector<types::Value>&, RowConsumer&) override {
    catalog::LockTypeCatalog();
    const char* kind = "type";  // PostgreSQL says "type" for DROP DOMAIN too
    for (const parser::RangeVar& rv : st_.names) {
      const UserType* t = types::FindUserTypeByName(rv.schema, rv.name);
      if (t == nullptr) {
        if (!st_.if_exists) {
          throw DbError(sqlstate::kUndefinedObject, std::string(kind) + " \"" + ShownName(rv) + "\" does not exist");
        }
        s.Notice(Severity::kNotice, "00000", std::string(kind) + " \"" + ShownName(rv) + "\" does not exist, skipping");
        continue;
      }
      if (st_.is_domain && t->typtype != 'd') {
        throw DbError(sqlstate::kWrongObjectType, "\"" + t->name + "\" is not a domain");
      }
      catalog::CheckOwnership(t->owner, "type", t->name);
      DropOneType(s, *t, st_.behavior);
    }
    return st_.is_domain ? "DROP DOMAIN" : "DROP TYPE";
  }

 private:
  const parser::DropTypeStmt& st_;
};

}  // namespace

std::unique_ptr<Plan> PlanTypeStmt(const parser::Statement& stmt) {
  switch (stmt.kind) {
    case parser::StmtKind::kCreateEnum:
      return std::make_unique<CreateEnumPlan>(stmt.As<parser::CreateEnumStmt>());
    case parser::StmtKind::kCreateDomain:
      return std::make_unique<CreateDomainPlan>(stmt.As<parser::CreateDomainStmt>());
    case parser::StmtKind::kAlterType:
      return std::make_unique<AlterTypePlan>(stmt.As<parser::AlterTypeStmt>());
    case parser::StmtKind::kDropType:
      return std::make_unique<DropTypePlan>(stmt.As<parser::DropTypeStmt>());
    default:
      return nullptr;
  }
}

}  // namespace hearth::tcop
