// catalog/database_ddl.cpp
//
// Principal entry points: CreateDatabase, DropDatabase, AlterDatabase,
// LockDatabaseForConnect. See database_ddl.h.
#include "catalog/database_ddl.h"

#include <signal.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <set>
#include <thread>

#include "access/heap/heapam.h"
#include "access/transam/xact.h"
#include "access/transam/xlog.h"
#include "access/transam/xlog_checkpoint.h"
#include "access/transam/xlog_storage_records.h"
#include "catalog/catalog_shared.h"
#include "catalog/database_catalog.h"
#include "catalog/ddl_internal.h"
#include "catalog/pending_delete.h"
#include "catalog/privileges.h"
#include "catalog/role_catalog.h"
#include "catalog/role_ddl.h"
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "storage/buffer/bufmgr.h"
#include "storage/lmgr/lock.h"
#include "storage/lmgr/proc_array.h"
#include "storage/smgr/smgr.h"

namespace hearth::catalog {

namespace {

// ---- directories to remove at transaction end -------------------------------

struct PendingDirectory {
  Oid db;
  bool at_commit;  // DROP: at commit; CREATE's copy: at abort
};
std::vector<PendingDirectory>& PendingDirectories() {
  static std::vector<PendingDirectory> list;
  return list;
}

void RemoveDirectoryNow(Oid db) noexcept {
  storage::DropDatabaseBuffers(db);
  (void)storage::SmgrRemoveDatabaseDirectory(db);
}

// After a committed DROP: the directory is gone here; a standby follows.
void RemoveDroppedDirectory(Oid db) noexcept {
  RemoveDirectoryNow(db);
  try {
    access::XLogLogDatabaseDrop(db);
  } catch (...) {
    // Out of WAL space: the standby keeps an empty directory (the commit
    // record removed its files).
  }
}

void DatabaseXactCallback(access::XactEvent event, void*) {
  if (event == access::XactEvent::kPreCommit) return;
  auto& list = PendingDirectories();
  const bool committed = event == access::XactEvent::kCommit;
  bool flushed = false;
  for (const PendingDirectory& p : list) {
    if (p.at_commit != committed) continue;
    if (committed && !flushed) {
      // The files go only once the commit is durable (synchronous_commit
      // may be off): a lost commit must find its database intact.
      try {
        if (access::XLogIsStarted()) access::XLogFlush(access::XLogInsertEndPosition());
      } catch (...) {
        continue;  // left for recovery of the commit record (its file list)
      }
      flushed = true;
    }
    if (committed) {
      RemoveDroppedDirectory(p.db);
    } else {
      RemoveDirectoryNow(p.db);
    }
  }
  list.clear();
}

void RegisterPendingDirectory(Oid db, bool at_commit) {
  static bool registered = false;
  if (!registered) {
    access::RegisterXactCallback(DatabaseXactCallback, nullptr);
    registered = true;
  }
  PendingDirectories().push_back({db, at_commit});
}

// Every relfilenode with a file in base/<db>/: DROP lists them in the commit
// record so that recovery removes them even if the server dies before the
// directory goes.
std::vector<storage::RelFileLocator> DatabaseFiles(Oid db) {
  std::set<uint32_t> numbers;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(storage::SmgrDataDir() + "/" +
                                                            storage::DatabaseDirectory(db), ec)) {
    const std::string name = e.path().filename().string();
    size_t digits = 0;
    while (digits < name.size() && std::isdigit(static_cast<unsigned char>(name[digits]))) ++digits;
    if (digits > 0 && digits <= 10) numbers.insert(static_cast<uint32_t>(std::stoul(name.substr(0, digits))));
  }
  std::vector<storage::RelFileLocator> out;
  for (uint32_t n : numbers) out.emplace_back(db, n);
  return out;
}

// ---- checks shared by the statements ----------------------------------------

[[noreturn]] void NoSuchDatabase(const std::string& name) {
  throw DbError(sqlstate::kInvalidCatalogName, "database \"" + name + "\" does not exist");
}

bool IsSuperuser(Oid role) { return role == 0 || RoleIsSuperuser(role); }

bool HasCreatedb(Oid role) {
  if (IsSuperuser(role)) return true;
  auto t = FindRoleByOid(role);
  return t && t->role.createdb;
}

void CheckOwner(const DatabaseFields& db, Oid role) {
  if (IsSuperuser(role) || HasPrivsOfRole(role, db.owner)) return;
  throw DbError(sqlstate::kInsufficientPrivilege, "must be owner of database " + db.name);
}

std::string OtherSessionsDetail(int n) {
  return n == 1 ? "There is 1 other session using the database."
                : "There are " + std::to_string(n) + " other sessions using the database.";
}

// 55006 while other processes use `db`. As PostgreSQL's
// CountOtherDBBackends, waits up to 5 seconds first: sessions that just
// disconnected, and autovacuum workers, leave on their own.
void CheckNoOtherUsers(const DatabaseFields& db, const std::string& message) {
  for (int waited_ms = 0;; waited_ms += 10) {
    const int n = storage::CountDatabaseBackends(db.oid);
    if (n == 0) return;
    if (waited_ms >= 5000) throw DbError(sqlstate::kObjectInUse, message).WithDetail(OtherSessionsDetail(n));
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

// The database object lock: CREATE (on its template) and ALTER take it
// Share, DROP and RENAME AccessExclusive; a login takes RowExclusive, so it
// waits for any of them and they see its proc slot afterwards.
void LockDatabaseObject(Oid db, storage::LockMode mode) {
  storage::LockAcquire(storage::LockTag::Object(kHearthDatabaseOid, db), mode);
}

Oid RoleOidOrThrow(const std::string& name) {
  auto t = FindRoleByName(name);
  if (!t) throw DbError(sqlstate::kUndefinedObject, "role \"" + name + "\" does not exist");
  return t->role.oid;
}

int32_t ParseConnectionLimit(const parser::GenericOption& o) {
  int64_t v = 0;
  try {
    size_t used = 0;
    v = std::stoll(o.value, &used);
    if (used != o.value.size()) throw std::invalid_argument("x");
  } catch (const std::exception&) {
    throw DbError(sqlstate::kSyntaxError, "connection_limit requires an integer value");
  }
  if (v < -1 || v > INT32_MAX) throw DbError(sqlstate::kInvalidParameterValue, "invalid connection limit: " + o.value);
  return static_cast<int32_t>(v);
}

bool ParseBool(const parser::GenericOption& o) {
  if (!o.has_value) return true;
  if (auto b = internal::ParseBoolOption(o.value)) return *b;
  throw DbError(sqlstate::kSyntaxError, o.name + " requires a Boolean value");
}

// Options both CREATE and ALTER DATABASE take; false when `o` is not one.
bool ApplyCommonOption(const parser::GenericOption& o, DatabaseFields* f) {
  if (o.name == "connection_limit") {
    f->connection_limit = ParseConnectionLimit(o);
  } else if (o.name == "allow_connections") {
    f->allow_connections = ParseBool(o);
  } else if (o.name == "is_template") {
    f->is_template = ParseBool(o);
  } else {
    return false;
  }
  return true;
}

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// CREATE DATABASE's own options; returns the template's name.
std::string ApplyCreateOptions(const parser::CreateDatabaseStmt& stmt, DatabaseFields* f, Oid current_user) {
  std::string template_name = "template1";
  std::set<std::string> seen;
  for (const parser::GenericOption& o : stmt.options) {
    if (!seen.insert(o.name).second) {
      throw DbError(sqlstate::kSyntaxError, "conflicting or redundant options");
    }
    if (ApplyCommonOption(o, f)) continue;
    const std::string v = Lower(o.value);
    if (o.name == "owner") {
      if (v != "default") f->owner = RoleOidOrThrow(o.value);
    } else if (o.name == "template") {
      if (v != "default") template_name = o.value;
    } else if (o.name == "encoding") {
      if (v != "default" && v != "utf8" && v != "unicode" && v != "6") {
        throw DbError(sqlstate::kFeatureNotSupported, "encoding \"" + o.value + "\" is not supported")
            .WithHint("Hearth databases use UTF8.");
      }
    } else if (o.name == "locale" || o.name == "lc_collate" || o.name == "lc_ctype") {
      if (v != "c" && v != "posix" && v != "default") {
        throw DbError(sqlstate::kFeatureNotSupported, "locale \"" + o.value + "\" is not supported")
            .WithHint("Hearth compares text with the C locale.");
      }
    } else if (o.name == "tablespace") {
      if (v != "pg_default" && v != "default") {
        throw DbError(sqlstate::kUndefinedObject, "tablespace \"" + o.value + "\" does not exist");
      }
    } else if (o.name == "strategy") {
      if (v != "wal_log" && v != "file_copy") {
        throw DbError(sqlstate::kInvalidParameterValue, "invalid create database strategy \"" + o.value + "\"")
            .WithHint("Valid strategies are \"wal_log\", and \"file_copy\".");
      }
    } else if (o.name == "locale_provider" || o.name == "icu_locale" || o.name == "collation_version" ||
               o.name == "oid") {
      // Accepted as pg_dump writes them; Hearth has one locale provider.
    } else {
      throw DbError(sqlstate::kSyntaxError, "option \"" + o.name + "\" not recognized");
    }
  }
  if (f->owner != current_user && !IsSuperuser(current_user) && !IsMemberOfRole(current_user, f->owner)) {
    auto t = FindRoleByOid(f->owner);
    throw DbError(sqlstate::kInsufficientPrivilege, "must be member of role \"" + (t ? t->role.name : "") + "\"");
  }
  return template_name;
}

}  // namespace

void LockDatabaseForConnect(Oid db) { LockDatabaseObject(db, storage::LockMode::kRowExclusive); }

DdlResult CreateDatabase(const parser::CreateDatabaseStmt& stmt, Oid current_user) {
  if (!HasCreatedb(current_user)) {
    throw DbError(sqlstate::kInsufficientPrivilege, "permission denied to create database");
  }
  DatabaseFields f;
  f.name = stmt.name;
  f.owner = current_user == 0 ? kBootstrapSuperuserOid : current_user;
  const std::string template_name = ApplyCreateOptions(stmt, &f, current_user);
  LockDatabaseCatalog();
  auto tmpl = FindDatabaseByName(template_name);
  if (!tmpl) throw DbError(sqlstate::kInvalidCatalogName, "template database \"" + template_name + "\" does not exist");
  if (!tmpl->db.is_template && !IsSuperuser(current_user) && !HasPrivsOfRole(current_user, tmpl->db.owner)) {
    throw DbError(sqlstate::kInsufficientPrivilege, "permission denied to copy database \"" + template_name + "\"");
  }
  if (FindDatabaseByName(f.name)) {
    throw DbError(sqlstate::kDuplicateDatabase, "database \"" + f.name + "\" already exists");
  }
  LockDatabaseObject(tmpl->db.oid, storage::LockMode::kShare);
  CheckNoOtherUsers(tmpl->db, "source database \"" + template_name + "\" is being accessed by other users");
  f.oid = GetNewObjectId();
  f.encoding = tmpl->db.encoding;
  // The template's pages as the files hold them, then the copy (fsynced).
  // Nobody else uses the template meanwhile (its lock keeps logins out).
  storage::Status st = storage::FlushDatabaseBuffers(tmpl->db.oid);
  if (st.ok()) {
    RegisterPendingDirectory(f.oid, /*at_commit=*/false);
    st = storage::SmgrCopyDatabaseDirectory(tmpl->db.oid, f.oid);
  }
  if (!st.ok()) throw DbError(sqlstate::kIoError, "could not create database \"" + f.name + "\": " + st.message());
  // A standby copies the template too; the checkpoint keeps crash recovery
  // from replaying that copy over a template changed since.
  access::XLogLogDatabaseCreate(tmpl->db.oid, f.oid);
  if (access::XLogIsStarted()) access::RequestCheckpoint();
  heap::HeapInsert(DatabaseCatalogRel(), DatabaseTupleDesc(), MakeDatabaseRow(f), access::GetCurrentTransactionId(),
                   access::GetCurrentCommandId(true));
  access::CommandCounterIncrement();
  return {};
}

DdlResult DropDatabase(const parser::DropStmt& stmt, Oid current_user) {
  DdlResult result;
  const std::string& name = stmt.objects.at(0).name;
  LockDatabaseCatalog();
  auto t = FindDatabaseByName(name);
  if (!t) {
    if (!stmt.if_exists) NoSuchDatabase(name);
    result.notices.emplace_back("00000", "database \"" + name + "\" does not exist, skipping");
    return result;
  }
  CheckOwner(t->db, current_user);
  if (t->db.is_template) throw DbError(sqlstate::kWrongObjectType, "cannot drop a template database");
  if (t->db.oid == MyDatabaseId()) throw DbError(sqlstate::kObjectInUse, "cannot drop the currently open database");
  LockDatabaseObject(t->db.oid, storage::LockMode::kAccessExclusive);
  if (stmt.force) {
    // WITH (FORCE): end the other sessions first, as pg_terminate_backend.
    for (int32_t pid : storage::DatabaseBackendPids(t->db.oid)) kill(pid, SIGTERM);
    for (int waited_ms = 0; waited_ms < 5000 && storage::CountDatabaseBackends(t->db.oid) > 0; waited_ms += 10) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  CheckNoOtherUsers(t->db, "database \"" + name + "\" is being accessed by other users");
  internal::DdlDeleteCatalogTuple(DatabaseCatalogRel(), t->tid, access::GetCurrentTransactionId(),
                                  access::GetCurrentCommandId(true));
  access::CommandCounterIncrement();
  for (const storage::RelFileLocator& rel : DatabaseFiles(t->db.oid)) RegisterPendingDelete(rel, /*at_commit=*/true);
  RegisterPendingDirectory(t->db.oid, /*at_commit=*/true);
  return result;
}

namespace {

DdlResult RenameDatabase(const DatabaseTuple& t, const std::string& new_name, Oid current_user) {
  CheckOwner(t.db, current_user);
  if (!HasCreatedb(current_user)) throw DbError(sqlstate::kInsufficientPrivilege, "permission denied to rename database");
  if (t.db.oid == MyDatabaseId()) throw DbError(sqlstate::kFeatureNotSupported, "current database cannot be renamed");
  if (FindDatabaseByName(new_name)) {
    throw DbError(sqlstate::kDuplicateDatabase, "database \"" + new_name + "\" already exists");
  }
  LockDatabaseObject(t.db.oid, storage::LockMode::kAccessExclusive);
  CheckNoOtherUsers(t.db, "database \"" + t.db.name + "\" is being accessed by other users");
  DatabaseFields f = t.db;
  f.name = new_name;
  UpdateDatabaseRow(t, f);
  return {};
}

DdlResult ChangeDatabaseOwner(const DatabaseTuple& t, const std::string& new_owner, Oid current_user) {
  const Oid owner = RoleOidOrThrow(new_owner);
  if (owner == t.db.owner) return {};
  if (!IsSuperuser(current_user)) {
    CheckOwner(t.db, current_user);
    if (!IsMemberOfRole(current_user, owner)) {
      throw DbError(sqlstate::kInsufficientPrivilege, "must be member of role \"" + new_owner + "\"");
    }
    if (!HasCreatedb(current_user)) {
      throw DbError(sqlstate::kInsufficientPrivilege, "permission denied to change owner of database");
    }
  }
  DatabaseFields f = t.db;
  if (f.acl) {
    if (auto acl = ParseAcl(*f.acl, AclRoleOid)) f.acl = FormatAcl(AclNewOwner(*acl, f.owner, owner), AclRoleName);
  }
  f.owner = owner;
  UpdateDatabaseRow(t, f);
  return {};
}

void ApplySetting(DatabaseFields* f, const std::string& name, const std::optional<std::string>& value) {
  auto& s = f->settings;
  if (name == "all") {
    s.clear();
    return;
  }
  s.erase(std::remove_if(s.begin(), s.end(), [&](const auto& kv) { return kv.first == name; }), s.end());
  if (value && Lower(*value) != "default") s.emplace_back(name, *value);
}

}  // namespace

DdlResult AlterDatabase(const parser::AlterDatabaseStmt& stmt, Oid current_user) {
  LockDatabaseCatalog();
  auto t = FindDatabaseByName(stmt.name);
  if (!t) NoSuchDatabase(stmt.name);
  if (!stmt.new_name.empty()) return RenameDatabase(*t, stmt.new_name, current_user);
  if (!stmt.new_owner.empty()) return ChangeDatabaseOwner(*t, stmt.new_owner, current_user);
  CheckOwner(t->db, current_user);
  DatabaseFields f = t->db;
  if (!stmt.set_name.empty()) {
    ApplySetting(&f, stmt.set_name, stmt.set_value);
  } else {
    for (const parser::GenericOption& o : stmt.options) {
      if (!ApplyCommonOption(o, &f)) throw DbError(sqlstate::kSyntaxError, "option \"" + o.name + "\" not recognized");
    }
    if (!f.allow_connections && f.oid == MyDatabaseId()) {
      throw DbError(sqlstate::kObjectInUse, "cannot disallow connections for current database");
    }
  }
  UpdateDatabaseRow(*t, f);
  return {};
}

}  // namespace hearth::catalog
