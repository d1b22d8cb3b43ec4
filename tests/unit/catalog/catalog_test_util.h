// tests/unit/catalog/catalog_test_util.h
//
// A throwaway cluster for catalog tests: a temp data directory bootstrapped
// by BootstrapCatalog (in a forked child, as `hearthd init` would be its own
// process), then a fresh shared segment with smgr and transam started on it
// and proc slot 0 claimed by this process. Restart() simulates a new server
// on the same directory; Checkpoint()/Shutdown() write what a clean stop would.
#pragma once

#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "access/heap/hio.h"
#include "access/transam/transam.h"
#include "access/transam/xact.h"
#include "catalog/bootstrap.h"
#include "catalog/catalog_shared.h"
#include "catalog/ddl.h"
#include "catalog/heap_table_provider.h"
#include "catalog/relcache.h"
#include "common/error/db_error.h"
#include "parser/ast.h"
#include "parser/parser.h"
#include "storage/buffer/bufmgr.h"
#include "storage/ipc/shmem_layout.h"
#include "storage/lmgr/lock.h"
#include "storage/lmgr/proc_array.h"
#include "storage/smgr/smgr.h"

namespace hearth::catalog::testing {

struct CatalogCluster {
  std::string dir;
  std::unique_ptr<storage::ShmemSegment> seg;

  CatalogCluster() {
    char tmpl[] = "/tmp/hearth_catalog_test_XXXXXX";
    dir = mkdtemp(tmpl);
    pid_t pid = fork();
    if (pid == 0) {
      try {
        BootstrapCatalog(dir, "hearth");
      } catch (...) {
        _exit(3);
      }
      _exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    REQUIRE(WIFEXITED(status));
    REQUIRE(WEXITSTATUS(status) == 0);
    // The bootstrap child left its database id behind: this process works
    // in the default database too.
    SetMyDatabaseId(kDefaultDatabaseOid);
    Restart();
  }
  // A new "server": fresh shared memory over the same files (a crash unless
  // Checkpoint()/Shutdown() ran first).
  void Restart() {
    access::AbortTransaction();
    if (storage::MyProc() != nullptr) storage::ReleaseProcSlot();
    seg.reset();
    storage::ShmemParams p;
    p.max_connections = 6;
    p.max_aux_processes = 2;
    p.nbuffers = 64;
    p.relation_size_cache = 512;
    seg = storage::CreateSharedMemory(p);
    storage::SmgrInit(dir);
    access::TransamStartup(dir);
    storage::ClaimProcSlot(0, storage::BackendType::kClient);
    heap::ForgetAllTargetBlocks();
    InvalidateLocalRelcache();
  }
  // What a checkpoint leaves on disk: every page and the clog.
  void Checkpoint() {
    REQUIRE(storage::FlushAllBuffers().ok());
    access::TransamCheckpoint();
  }
  void Shutdown() {
    Checkpoint();
    access::TransamShutdown();
    CatalogShutdown();
  }
  bool FileExists(storage::RelFileLocator rel) const {
    return std::filesystem::exists(dir + "/" + storage::RelPath(rel, storage::ForkNumber::kMain));
  }
  ~CatalogCluster() {
    access::AbortTransaction();
    storage::ReleaseProcSlot();
    storage::SmgrCloseAll();
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
};

// Parses one statement of kind T (the vector keeps the tree alive).
template <typename T>
struct Parsed {
  std::string sql;
  std::vector<parser::StmtPtr> stmts;
  explicit Parsed(std::string text) : sql(std::move(text)), stmts(parser::ParseStatements(sql)) {
    REQUIRE(stmts.size() == 1);
    REQUIRE(stmts[0]->kind == T::kKind);
  }
  const T& operator*() const { return stmts[0]->As<T>(); }
  const T* operator->() const { return &stmts[0]->As<T>(); }
};

// Runs `fn` in its own committed transaction.
inline void InTransaction(const std::function<void()>& fn) {
  access::StartTransaction();
  try {
    fn();
  } catch (...) {
    access::AbortTransaction();
    throw;
  }
  access::CommitTransaction();
}

inline DdlResult Create(const std::string& sql) {
  Parsed<parser::CreateTableStmt> p(sql);
  DdlContext ctx;
  ctx.query_text = p.sql;
  return CreateTable(*p, ctx);
}

inline std::vector<parser::RangeVar> Names(std::initializer_list<const char*> names) {
  std::vector<parser::RangeVar> out;
  for (const char* n : names) {
    parser::RangeVar rv;
    rv.name = n;
    out.push_back(rv);
  }
  return out;
}

// Requires `fn` to throw DbError with exactly this SQLSTATE and message.
inline void RequireDbError(const std::function<void()>& fn, const std::string& sqlstate, const std::string& message) {
  try {
    fn();
  } catch (const DbError& e) {
    CHECK(e.sqlstate() == sqlstate);
    CHECK(e.message() == message);
    return;
  }
  FAIL("expected DbError " << sqlstate << " " << message);
}

// Rows of table `name` visible to a new statement (own transaction's changes included).
inline std::vector<executor::Row> ScanAll(HeapTableProvider& prov, const std::string& name,
                                          const std::string& schema = "") {
  prov.StartStatement();
  auto info = prov.Lookup(schema, name);
  REQUIRE(info.has_value());
  auto scan = prov.OpenScan(*info, false);
  std::vector<executor::Row> rows;
  executor::Row row;
  while (scan->Next(row, nullptr)) rows.push_back(row);
  return rows;
}

// Rows in hearth_class / hearth_attribute, in a transaction of their own.
inline int CatalogRowCount(const char* catalog) {
  int n = 0;
  InTransaction([&] {
    HeapTableProvider prov;
    n = static_cast<int>(ScanAll(prov, catalog, "pg_catalog").size());
  });
  return n;
}

}  // namespace hearth::catalog::testing
