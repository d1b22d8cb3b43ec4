// tcop/login.cpp
//
// Principal entry point: PerformLogin.
#include "tcop/login.h"

#include <sys/socket.h>

#include "access/transam/xact.h"
#include "catalog/database_catalog.h"
#include "catalog/database_ddl.h"
#include "catalog/database_privileges.h"
#include "catalog/role_catalog.h"
#include "catalog/role_ddl.h"
#include "common/error/db_error.h"
#include "common/auth/scram.h"
#include "common/error/sqlstate.h"
#include "common/log/log.h"
#include "common/protocol/wire.h"
#include "storage/lmgr/proc_array.h"
#include "tcop/auth.h"
#include "tcop/hba.h"
#include "utils/adt/datetime_adt.h"

namespace hearth::tcop {

namespace {

[[noreturn]] void Fatal(const char* sqlstate, std::string message) {
  throw DbError(sqlstate, std::move(message), Severity::kFatal);
}

// The role's row and the names of the roles it belongs to, read in one
// short transaction (nothing is held while the client answers).
LoginRole ReadRole(const std::string& user, std::vector<std::string>* member_of) {
  LoginRole role;
  access::StartTransaction();
  try {
    if (auto t = catalog::FindRoleByName(user)) {
      role.exists = true;
      role.oid = t->role.oid;
      role.superuser = t->role.superuser;
      role.canlogin = t->role.canlogin;
      role.connlimit = t->role.connlimit;
      role.password = t->role.password;
      role.valid_until = t->role.valid_until;
      *member_of = catalog::RoleNamesOf(t->role.oid);
    }
    access::CommitTransaction();
  } catch (...) {
    access::AbortTransaction();
    throw;
  }
  return role;
}

// Why a password check failed, for the server log only (the client always
// gets the same message), as PostgreSQL's log DETAIL.
std::string FailureReason(const std::string& user, const LoginRole& role, HbaMethod method) {
  if (!role.exists) return "Role \"" + user + "\" does not exist.";
  if (!role.password) return "User \"" + user + "\" has no password assigned.";
  if (role.valid_until && *role.valid_until < types::CurrentTimestampUsecs()) {
    return "User \"" + user + "\" has an expired password.";
  }
  if (method == HbaMethod::kScram && !auth::IsScramPassword(*role.password)) {
    return "User \"" + user + "\" does not have a valid SCRAM secret.";
  }
  return "Password does not match for user \"" + user + "\".";
}

std::string ConnectionDescription(const HbaClient& c) {
  return "host \"" + ClientHostString(c.addr) + "\", user \"" + c.user + "\", database \"" + c.database +
         (c.ssl ? "\", SSL encryption" : "\", no encryption");
}

// PostgreSQL's CheckMyDatabase: the database exists (3D000), accepts
// connections (55000), the role may CONNECT (42501) and the database's
// CONNECTION LIMIT has room (53300). The proc slot names the database before
// the lock, so a CREATE/DROP DATABASE either sees this login or makes it
// wait and then see the outcome. On success this process works in it.
catalog::DatabaseFields CheckDatabase(const std::string& name, const LoginRole& role) {
  catalog::DatabaseFields db;
  access::StartTransaction();
  try {
    auto t = catalog::FindDatabaseByName(name);
    if (!t) Fatal(sqlstate::kInvalidCatalogName, "database \"" + name + "\" does not exist");
    if (auto* proc = storage::MyProc()) proc->database_oid.store(t->db.oid);
    catalog::LockDatabaseForConnect(t->db.oid);
    t = catalog::FindDatabaseByOid(t->db.oid);  // renamed or dropped while we waited?
    if (!t || t->db.name != name) Fatal(sqlstate::kInvalidCatalogName, "database \"" + name + "\" does not exist");
    db = t->db;
    if (!db.allow_connections) {
      Fatal(sqlstate::kObjectNotInPrerequisiteState, "database \"" + name + "\" is not currently accepting connections");
    }
    if (!role.superuser && catalog::DatabasePrivileges(db, role.oid, catalog::kAclConnect) == 0) {
      throw DbError(sqlstate::kInsufficientPrivilege, "permission denied for database \"" + name + "\"",
                    Severity::kFatal)
          .WithDetail("User does not have CONNECT privilege.");
    }
    if (db.connection_limit >= 0 && !role.superuser &&
        storage::CountDatabaseBackends(db.oid) + 1 > db.connection_limit) {
      Fatal(sqlstate::kTooManyConnections, "too many connections for database \"" + name + "\"");
    }
    access::CommitTransaction();
  } catch (...) {
    access::AbortTransaction();
    throw;
  }
  catalog::SetMyDatabaseId(db.oid);
  return db;
}

}  // namespace

bool PerformLogin(ClientSocket& sock, const BackendStartInfo& info, const StartupResult& startup,
                  LoginIdentity* identity) {
  std::vector<std::string> member_of;
  const LoginRole role = ReadRole(startup.user, &member_of);

  HbaClient client;
  socklen_t len = sizeof(client.addr);
  if (getpeername(sock.fd(), reinterpret_cast<sockaddr*>(&client.addr), &len) != 0) client.addr.ss_family = AF_UNSPEC;
  client.ssl = sock.encrypted();
  client.database = startup.database;
  client.user = startup.user;
  client.is_member = [&member_of](const std::string& name) {
    for (const std::string& m : member_of) {
      if (m == name) return true;
    }
    return false;
  };
  const HbaLine* line = info.hba != nullptr ? MatchHba(*info.hba, client) : nullptr;
  if (line == nullptr) {
    Fatal(sqlstate::kInvalidAuthorizationSpecification, "no pg_hba.conf entry for " + ConnectionDescription(client));
  }
  if (line->method == HbaMethod::kReject) {
    Fatal(sqlstate::kInvalidAuthorizationSpecification,
          "pg_hba.conf rejects connection for " + ConnectionDescription(client));
  }
  try {
    if (!Authenticate(sock, line->method, startup.user, role, info.auth_secret)) return false;
  } catch (const DbError& e) {
    if (std::string(e.sqlstate()) == sqlstate::kInvalidPassword) {
      spdlog::info("{} Connection matched pg_hba.conf line {}: \"{}\"",
                   FailureReason(startup.user, role, line->method), line->line_number, line->raw);
    }
    throw;
  }

  if (!role.exists) {
    Fatal(sqlstate::kInvalidAuthorizationSpecification, "role \"" + startup.user + "\" does not exist");
  }
  if (!role.canlogin) {
    Fatal(sqlstate::kInvalidAuthorizationSpecification, "role \"" + startup.user + "\" is not permitted to log in");
  }
  // The last superuser_reserved_connections places are for superusers (the
  // backend counted itself; the role is known only now).
  if (startup.superusers_only && !role.superuser) {
    Fatal(sqlstate::kTooManyConnections,
          "remaining connection slots are reserved for non-replication superuser connections");
  }
  if (auto* proc = storage::MyProc()) proc->role_oid.store(role.oid);
  if (role.connlimit >= 0 && !role.superuser && storage::CountRoleBackends(role.oid) > role.connlimit) {
    Fatal(sqlstate::kTooManyConnections, "too many connections for role \"" + startup.user + "\"");
  }
  // A physical replication connection belongs to no database (pg_basebackup
  // names "replication").
  if (startup.replication != ReplicationMode::kPhysical) {
    catalog::DatabaseFields db = CheckDatabase(startup.database, role);
    identity->database_oid = db.oid;
    identity->database_settings = std::move(db.settings);
  }
  protocol::MessageWriter ok(protocol::be::kAuthentication);
  ok.Int32(protocol::kAuthOk);
  sock.Send(ok.Finish());
  identity->role_oid = role.oid;
  identity->superuser = role.superuser;
  return true;
}

}  // namespace hearth::tcop
