// catalog/role_ddl.cpp
//
// Principal entry points: CreateRole, AlterRole, DropRoles,
// GrantRevokeRoles, EncryptPassword, IsMemberOfRole, HasPrivsOfRole.
// Permission rules follow PostgreSQL 15: superusers may do anything;
// CREATEROLE roles manage non-superuser roles; a role may change its own
// password; only superusers touch SUPERUSER, REPLICATION and BYPASSRLS.
#include "catalog/role_ddl.h"

#include <algorithm>
#include <deque>
#include <set>

#include "access/heap/heapam.h"
#include "access/transam/xact.h"
#include "catalog/catalog_shared.h"
#include "catalog/ddl_internal.h"
#include "catalog/description_catalog.h"
#include "catalog/pending_delete.h"
#include "catalog/predefined_roles.h"
#include "catalog/privileges.h"
#include "common/auth/scram.h"
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "utils/adt/datetime_adt.h"

namespace hearth::catalog {

namespace {

constexpr char kInvalidGrantOperation[] = "0LP01";
constexpr char kReservedName[] = "42939";
constexpr char kDependentObjects[] = "2BP01";

[[noreturn]] void Denied(const std::string& message) { throw DbError(sqlstate::kInsufficientPrivilege, message); }

[[noreturn]] void RoleMissing(const std::string& name) {
  throw DbError(sqlstate::kUndefinedObject, "role \"" + name + "\" does not exist");
}

// The options of CREATE/ALTER ROLE, each at most once.
struct RoleOptions {
  std::optional<bool> superuser, inherit, createrole, createdb, canlogin, replication, bypassrls;
  std::optional<int32_t> connlimit;
  bool password_given = false;
  std::optional<std::string> password;  // nullopt with password_given: PASSWORD NULL
  std::optional<std::string> valid_until;
  std::vector<std::string> in_role, members, admins;
};

std::vector<std::string> SplitNames(const std::string& joined) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos <= joined.size()) {
    size_t end = joined.find(',', pos);
    if (end == std::string::npos) end = joined.size();
    out.push_back(joined.substr(pos, end - pos));
    pos = end + 1;
  }
  return out;
}

int32_t ParseConnLimit(const std::string& text) {
  char* end = nullptr;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || v < -1 || v > INT32_MAX) {
    throw DbError(sqlstate::kInvalidParameterValue, "invalid connection limit: " + text);
  }
  return static_cast<int32_t>(v);
}

RoleOptions ParseRoleOptions(const std::vector<parser::GenericOption>& options) {
  RoleOptions o;
  std::set<std::string> seen;
  const std::pair<const char*, std::optional<bool> RoleOptions::*> flags[] = {
      {"superuser", &RoleOptions::superuser},   {"inherit", &RoleOptions::inherit},
      {"createrole", &RoleOptions::createrole}, {"createdb", &RoleOptions::createdb},
      {"login", &RoleOptions::canlogin},        {"replication", &RoleOptions::replication},
      {"bypassrls", &RoleOptions::bypassrls},
  };
  for (const parser::GenericOption& opt : options) {
    std::string key = opt.name;
    bool value = true;
    for (const auto& [name, member] : flags) {
      if (key == name || key == std::string("no") + name) {
        value = key == name;
        key = name;
      }
    }
    if (key == "sysid") continue;  // accepted and ignored, as PostgreSQL
    if (!seen.insert(key).second) throw DbError(sqlstate::kSyntaxError, "conflicting or redundant options");
    bool matched = false;
    for (const auto& [name, member] : flags) {
      if (key == name) {
        o.*member = value;
        matched = true;
      }
    }
    if (matched) continue;
    if (key == "password") {
      o.password_given = true;
      if (opt.has_value) o.password = opt.value;
    } else if (key == "connection_limit") {
      o.connlimit = ParseConnLimit(opt.value);
    } else if (key == "valid_until") {
      o.valid_until = opt.value;
    } else if (key == "in_role") {
      o.in_role = SplitNames(opt.value);
    } else if (key == "role") {
      o.members = SplitNames(opt.value);
    } else if (key == "admin") {
      o.admins = SplitNames(opt.value);
    } else {
      throw DbError(sqlstate::kSyntaxError, "unrecognized role option \"" + opt.name + "\"");
    }
  }
  return o;
}

void CheckReservedName(const std::string& name) {
  if (name == "public" || name == "none") {
    throw DbError(kReservedName, "role name \"" + name + "\" is reserved");
  }
  if (name.rfind("pg_", 0) == 0) {
    throw DbError(kReservedName, "role name \"" + name + "\" is reserved")
        .WithDetail("Role names starting with \"pg_\" are reserved.");
  }
}

// The predefined roles (pg_read_server_files & co.) keep their names and
// attributes, as in PostgreSQL.
void CheckNotPredefined(const RoleTuple& t, const char* detail) {
  if (IsPredefinedRole(t.role.oid)) {
    throw DbError(kReservedName, "role name \"" + t.role.name + "\" is reserved").WithDetail(detail);
  }
}

bool HaveCreateRole(Oid role) {
  auto t = FindRoleByOid(role);
  return t && (t->role.superuser || t->role.createrole);
}

// The stored password of `opts` for role `name`, with the notice for ''.
std::optional<std::string> StoredPassword(const RoleOptions& opts, const std::string& name, const RoleActor& actor,
                                          DdlResult& result) {
  if (!opts.password) return std::nullopt;
  if (opts.password->empty()) {
    result.notices.push_back({"00000", "empty string is not a valid password, clearing password"});
    return std::nullopt;
  }
  return EncryptPassword(name, *opts.password, actor.password_encryption);
}

// Applies the attribute options to `f` (not memberships, not the password).
void ApplyAttributes(const RoleOptions& o, RoleFields& f) {
  if (o.superuser) f.superuser = *o.superuser;
  if (o.inherit) f.inherit = *o.inherit;
  if (o.createrole) f.createrole = *o.createrole;
  if (o.createdb) f.createdb = *o.createdb;
  if (o.canlogin) f.canlogin = *o.canlogin;
  if (o.replication) f.replication = *o.replication;
  if (o.bypassrls) f.bypassrls = *o.bypassrls;
  if (o.connlimit) f.connlimit = *o.connlimit;
  if (o.valid_until) f.valid_until = types::ParseTimestamp(*o.valid_until, types::kTimestampTzOid);
}

// `name` as the statement meant it: CURRENT_USER & co. name the caller.
RoleTuple ResolveRole(const std::string& name, const RoleActor& actor) {
  std::optional<RoleTuple> t;
  if (name == "current_user" || name == "current_role") {
    t = FindRoleByOid(actor.current_user);
  } else if (name == "session_user") {
    t = FindRoleByOid(actor.session_user);
  } else if (name == "public") {
    throw DbError(sqlstate::kUndefinedObject, "role \"public\" does not exist");
  } else {
    t = FindRoleByName(name);
  }
  if (!t) RoleMissing(name);
  return std::move(*t);
}

// The transitive closure of roles `member` belongs to (itself included);
// through non-INHERIT roles only when `all`.
std::set<Oid> RolesOf(Oid member, bool all) {
  const std::vector<MembershipRow> rows = ListMemberships();
  std::set<Oid> seen{member};
  std::deque<Oid> todo{member};
  while (!todo.empty()) {
    const Oid m = todo.front();
    todo.pop_front();
    if (!all) {  // privileges flow only through roles that INHERIT
      auto t = FindRoleByOid(m);
      if (!t || !t->role.inherit) continue;
    }
    for (const MembershipRow& r : rows) {
      if (r.member == m && seen.insert(r.roleid).second) todo.push_back(r.roleid);
    }
  }
  return seen;
}

bool IsAdminOfRole(Oid member, Oid role, const RoleActor& actor) {
  if (RoleIsSuperuser(member)) return true;
  if (member == role) return member == actor.session_user;
  for (Oid r : RolesOf(member, /*all=*/true)) {
    for (const MembershipRow& m : ListMemberships()) {
      if (m.roleid == role && m.member == r && m.admin_option) return true;
    }
  }
  return false;
}

// PostgreSQL 15's check before changing the members of `role`.
void CheckCanChangeMembers(const RoleTuple& role, const RoleActor& actor) {
  if (role.role.superuser) {
    if (!RoleIsSuperuser(actor.current_user)) Denied("must be superuser to alter superusers");
  } else if (!HaveCreateRole(actor.current_user) && !IsAdminOfRole(actor.current_user, role.role.oid, actor)) {
    Denied("must have admin option on role \"" + role.role.name + "\"");
  }
}

void AddMembers(const RoleTuple& role, const std::vector<std::string>& members, bool admin, const RoleActor& actor,
                DdlResult& result) {
  CheckCanChangeMembers(role, actor);
  const access::TransactionId xid = access::GetCurrentTransactionId();
  for (const std::string& name : members) {
    const RoleTuple member = ResolveRole(name, actor);
    if (IsMemberOfRole(role.role.oid, member.role.oid)) {
      throw DbError(kInvalidGrantOperation,
                    "role \"" + role.role.name + "\" is a member of role \"" + member.role.name + "\"");
    }
    std::optional<MembershipRow> existing;
    for (const MembershipRow& m : ListMemberships()) {
      if (m.roleid == role.role.oid && m.member == member.role.oid) existing = m;
    }
    if (existing && (!admin || existing->admin_option)) {
      result.notices.push_back(
          {"00000", "role \"" + member.role.name + "\" is already a member of role \"" + role.role.name + "\""});
      continue;
    }
    const heap::Row row = MakeMembershipRow(role.role.oid, member.role.oid, actor.current_user, admin);
    if (existing) {
      heap::TmFailureData fd;
      heap::ItemPointer new_tid;
      if (heap::HeapUpdate(AuthMembersRel(), existing->tid, AuthMembersTupleDesc(), row, xid,
                           access::GetCurrentCommandId(true), nullptr, true, &fd, &new_tid) != access::TmResult::kOk) {
        throw DbError("XX000", "tuple concurrently updated");
      }
    } else {
      heap::HeapInsert(AuthMembersRel(), AuthMembersTupleDesc(), row, xid, access::GetCurrentCommandId(true));
    }
    access::CommandCounterIncrement();
  }
}

void RemoveMembers(const RoleTuple& role, const std::vector<std::string>& members, bool admin_only,
                   const RoleActor& actor, DdlResult& result) {
  CheckCanChangeMembers(role, actor);
  const access::TransactionId xid = access::GetCurrentTransactionId();
  for (const std::string& name : members) {
    const RoleTuple member = ResolveRole(name, actor);
    std::optional<MembershipRow> existing;
    for (const MembershipRow& m : ListMemberships()) {
      if (m.roleid == role.role.oid && m.member == member.role.oid) existing = m;
    }
    if (!existing) {
      result.notices.push_back(
          {"01000", "role \"" + member.role.name + "\" is not a member of role \"" + role.role.name + "\""});
      continue;
    }
    const access::CommandId cid = access::GetCurrentCommandId(true);
    if (admin_only) {
      heap::TmFailureData fd;
      heap::ItemPointer new_tid;
      const heap::Row row = MakeMembershipRow(existing->roleid, existing->member, existing->grantor, false);
      if (heap::HeapUpdate(AuthMembersRel(), existing->tid, AuthMembersTupleDesc(), row, xid, cid, nullptr, true, &fd,
                           &new_tid) != access::TmResult::kOk) {
        throw DbError("XX000", "tuple concurrently updated");
      }
    } else {
      internal::DdlDeleteCatalogTuple(AuthMembersRel(), existing->tid, xid, cid);
    }
    access::CommandCounterIncrement();
  }
}

void UpdateRoleRow(const RoleTuple& t, const RoleFields& f) {
  heap::TmFailureData fd;
  heap::ItemPointer new_tid;
  if (heap::HeapUpdate(AuthidRel(), t.tid, AuthidTupleDesc(), MakeRoleRow(f), access::GetCurrentTransactionId(),
                       access::GetCurrentCommandId(true), nullptr, true, &fd, &new_tid) != access::TmResult::kOk) {
    throw DbError("XX000", "tuple concurrently updated");
  }
  access::CommandCounterIncrement();
}

DdlResult RenameRole(const RoleTuple& t, const std::string& new_name, const RoleActor& actor) {
  DdlResult result;
  if (t.role.oid == actor.session_user) throw DbError("0A000", "session user cannot be renamed");
  if (t.role.oid == actor.current_user) throw DbError("0A000", "current user cannot be renamed");
  CheckNotPredefined(t, "Role names starting with \"pg_\" are reserved.");
  CheckReservedName(new_name);
  if (FindRoleByName(new_name)) {
    throw DbError(sqlstate::kDuplicateObject, "role \"" + new_name + "\" already exists");
  }
  if (t.role.superuser) {
    if (!RoleIsSuperuser(actor.current_user)) Denied("must be superuser to rename superusers");
  } else if (!HaveCreateRole(actor.current_user)) {
    Denied("permission denied to rename role");
  }
  RoleFields f = t.role;
  f.name = new_name;
  if (f.password && auth::IsMd5Password(*f.password)) {
    f.password.reset();  // the md5 hash is salted with the name
    result.notices.push_back({"00000", "MD5 password cleared because of role rename"});
  }
  UpdateRoleRow(t, f);
  RenameRoleInAcls(t.role.oid, t.role.name, new_name);
  return result;
}

// PostgreSQL 15's AlterRole permission check.
void CheckAlterAllowed(const RoleTuple& t, const RoleOptions& o, const RoleActor& actor) {
  const bool super = RoleIsSuperuser(actor.current_user);
  if (t.role.superuser || o.superuser) {
    if (!super) Denied("must be superuser to alter superuser roles or change superuser attribute");
  } else if (t.role.replication || o.replication) {
    if (!super) Denied("must be superuser to alter replication roles or change replication attribute");
  } else if (t.role.bypassrls || o.bypassrls) {
    if (!super) Denied("must be superuser to change bypassrls attribute");
  } else if (!HaveCreateRole(actor.current_user)) {
    const bool only_password = !o.inherit && !o.createrole && !o.createdb && !o.canlogin && !o.connlimit &&
                               !o.valid_until && o.in_role.empty() && o.members.empty() && o.admins.empty() &&
                               o.password_given;
    if (!only_password || t.role.oid != actor.current_user) Denied("permission denied");
  }
}

}  // namespace

std::string EncryptPassword(const std::string& user, const std::string& password, const std::string& method) {
  if (auth::IsMd5Password(password) || auth::IsScramPassword(password)) return password;
  if (method == "md5") return auth::Md5PasswordHash(user, password);
  return auth::FormatScramVerifier(auth::MakeScramVerifier(password));
}

bool RoleIsSuperuser(Oid role) {
  auto t = FindRoleByOid(role);
  return t && t->role.superuser;
}

bool IsMemberOfRole(Oid member, Oid role) {
  if (member == role) return true;
  return RolesOf(member, /*all=*/true).count(role) > 0;
}

std::vector<std::string> RoleNamesOf(Oid member) {
  std::vector<std::string> names;
  for (Oid r : RolesOf(member, /*all=*/true)) {
    if (auto t = FindRoleByOid(r)) names.push_back(t->role.name);
  }
  return names;
}

bool HasPrivsOfRole(Oid member, Oid role) {
  if (member == role || RoleIsSuperuser(member)) return true;
  return RolesOf(member, /*all=*/false).count(role) > 0;
}

DdlResult CreateRole(const parser::CreateRoleStmt& stmt, const RoleActor& actor) {
  DdlResult result;
  const RoleOptions o = ParseRoleOptions(stmt.options);
  const bool super = RoleIsSuperuser(actor.current_user);
  if (o.superuser.value_or(false)) {
    if (!super) Denied("must be superuser to create superusers");
  } else if (o.replication.value_or(false)) {
    if (!super) Denied("must be superuser to create replication users");
  } else if (o.bypassrls.value_or(false)) {
    if (!super) Denied("must be superuser to create bypassrls users");
  } else if (!HaveCreateRole(actor.current_user)) {
    Denied("permission denied to create role");
  }
  const std::string name = internal::DdlTruncateName(stmt.name);
  CheckReservedName(name);
  LockRoleCatalog();
  if (FindRoleByName(name)) throw DbError(sqlstate::kDuplicateObject, "role \"" + name + "\" already exists");
  RoleFields f;
  f.oid = GetNewObjectId();
  f.name = name;
  f.canlogin = stmt.role_kind == parser::RoleStmtKind::kUser;  // CREATE USER implies LOGIN
  ApplyAttributes(o, f);
  f.password = StoredPassword(o, name, actor, result);
  heap::HeapInsert(AuthidRel(), AuthidTupleDesc(), MakeRoleRow(f), access::GetCurrentTransactionId(),
                   access::GetCurrentCommandId(true));
  access::CommandCounterIncrement();
  const RoleTuple created = *FindRoleByOid(f.oid);
  for (const std::string& parent : o.in_role) {
    AddMembers(ResolveRole(parent, actor), {name}, false, actor, result);
  }
  if (!o.members.empty()) AddMembers(created, o.members, false, actor, result);
  if (!o.admins.empty()) AddMembers(created, o.admins, true, actor, result);
  result.oid = f.oid;
  result.count = 1;
  return result;
}

DdlResult AlterRole(const parser::AlterRoleStmt& stmt, const RoleActor& actor) {
  LockRoleCatalog();
  const RoleTuple t = ResolveRole(stmt.name, actor);
  for (const parser::GenericOption& opt : stmt.options) {
    if (opt.name == "rename to") return RenameRole(t, internal::DdlTruncateName(opt.value), actor);
    if (opt.name.rfind("set ", 0) == 0 || opt.name.rfind("reset ", 0) == 0) {
      throw DbError(sqlstate::kFeatureNotSupported, "ALTER ROLE ... SET/RESET is not supported yet");
    }
  }
  DdlResult result;
  CheckNotPredefined(t, "Cannot alter reserved roles.");
  const RoleOptions o = ParseRoleOptions(stmt.options);
  CheckAlterAllowed(t, o, actor);
  RoleFields f = t.role;
  ApplyAttributes(o, f);
  if (o.password_given) f.password = StoredPassword(o, f.name, actor, result);
  UpdateRoleRow(t, f);
  for (const std::string& parent : o.in_role) {
    AddMembers(ResolveRole(parent, actor), {t.role.name}, false, actor, result);
  }
  if (!o.members.empty()) AddMembers(*FindRoleByOid(f.oid), o.members, false, actor, result);
  if (!o.admins.empty()) AddMembers(*FindRoleByOid(f.oid), o.admins, true, actor, result);
  result.count = 1;
  return result;
}

DdlResult DropRoles(const parser::DropStmt& stmt, const RoleActor& actor) {
  DdlResult result;
  if (!HaveCreateRole(actor.current_user)) Denied("permission denied to drop role");
  LockRoleCatalog();
  const access::TransactionId xid = access::GetCurrentTransactionId();
  for (const parser::RangeVar& rv : stmt.objects) {
    auto t = FindRoleByName(rv.name);
    if (!t) {
      if (!stmt.if_exists) RoleMissing(rv.name);
      result.notices.push_back({"00000", "role \"" + rv.name + "\" does not exist, skipping"});
      continue;
    }
    if (t->role.oid == actor.current_user) throw DbError(sqlstate::kObjectInUse, "current user cannot be dropped");
    if (t->role.oid == actor.session_user) throw DbError(sqlstate::kObjectInUse, "session user cannot be dropped");
    if (t->role.superuser && !RoleIsSuperuser(actor.current_user)) Denied("must be superuser to drop superusers");
    if (t->role.oid == kBootstrapSuperuserOid || IsPredefinedRole(t->role.oid)) {
      throw DbError(kDependentObjects,
                    "cannot drop role " + t->role.name + " because it is required by the database system");
    }
    if (std::vector<std::string> deps = RoleDependencies(t->role.oid); !deps.empty()) {
      std::string detail;
      for (const std::string& d : deps) detail += (detail.empty() ? "" : "\n") + d;
      throw DbError(kDependentObjects,
                    "role \"" + t->role.name + "\" cannot be dropped because some objects depend on it")
          .WithDetail(detail);
    }
    const access::CommandId cid = access::GetCurrentCommandId(true);
    internal::DdlDeleteCatalogTuple(AuthidRel(), t->tid, xid, cid);
    for (const MembershipRow& m : ListMemberships()) {
      if (m.roleid == t->role.oid || m.member == t->role.oid) {
        internal::DdlDeleteCatalogTuple(AuthMembersRel(), m.tid, xid, cid);
      }
    }
    access::CommandCounterIncrement();
    DeleteDescriptions(t->role.oid, kPgAuthidClassOid);
    ++result.count;
  }
  return result;
}

DdlResult GrantRevokeRoles(const parser::GrantRoleStmt& stmt, const RoleActor& actor) {
  DdlResult result;
  LockRoleCatalog();
  if (!stmt.grantor.empty()) ResolveRole(stmt.grantor, actor);
  for (const std::string& name : stmt.roles) {
    const RoleTuple role = ResolveRole(name, actor);
    if (stmt.is_grant) {
      AddMembers(role, stmt.members, stmt.admin_option, actor, result);
    } else {
      RemoveMembers(role, stmt.members, stmt.admin_option, actor, result);
    }
  }
  return result;
}

}  // namespace hearth::catalog
