// catalog/catalog_shared.cpp
//
// Principal entry points: GetNewObjectId, BumpCatalogVersion, CatalogVersion.
//
// Control file format (text, one line): "hearth-oid-control 1 <next_oid>\n".
#include "catalog/catalog_shared.h"
#include "catalog/catalog_standby.h"

#include "storage/file/durable_file.h"

#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <new>
#include <stdexcept>

#include "access/transam/transam.h"
#include "access/transam/transam_shared.h"
#include "access/transam/xlog.h"
#include "access/transam/xlog_standby.h"
#include "common/error/db_error.h"
#include "storage/lmgr/lwlock.h"
#include "storage/lmgr/proc_array.h"
#include "catalog/view_ddl.h"

namespace hearth::catalog {

namespace {

struct CatalogShared {
  // 0: not loaded; 1: a process is loading the control file; 2: ready.
  std::atomic<uint32_t> state;
  storage::LWLock oid_lock;
  Oid next_oid;         // under oid_lock
  Oid persisted_limit;  // value in the control file; every OID handed out is below it
  std::atomic<uint64_t> catalog_version;
  storage::LWLock inval_lock;  // exclusive: append; shared: read (all zero = unlocked)
  uint64_t inval_count;        // messages ever appended (under inval_lock)
  Oid inval_oids[kInvalidationRing];
  // Whether views may exist (view_ddl.h): 0 unknown, 1 none, 2 maybe.
  std::atomic<uint32_t> views_exist;
};
static_assert(sizeof(access::transam_internal::TransamShared) + sizeof(CatalogShared) + 64 <= storage::kXactAreaBytes,
              "the catalog's shared state no longer fits behind transam's in the xact area");

CatalogShared* Shared() {
  auto* area = static_cast<char*>(storage::XactArea());
  if (area == nullptr) throw std::logic_error("catalog: shared memory is not set up");
  // Last bytes of the area, 64-aligned.
  size_t off = (storage::kXactAreaBytes - sizeof(CatalogShared)) & ~size_t{63};
  return reinterpret_cast<CatalogShared*>(area + off);
}


std::string ControlPath(const std::string& datadir) { return datadir + "/" + kOidControlFile; }

// Loads the counter once per segment (first caller wins; others wait).
CatalogShared* Ready() {
  CatalogShared* s = Shared();
  uint32_t st = s->state.load(std::memory_order_acquire);
  if (st == 2) return s;
  uint32_t expected = 0;
  if (s->state.compare_exchange_strong(expected, 1)) {
    try {
      Oid next = ReadOidControlFile(access::TransamDataDir());
      s->next_oid = next;
      s->persisted_limit = next;
    } catch (...) {
      s->state.store(0);
      throw;
    }
    s->state.store(2, std::memory_order_release);
    return s;
  }
  while (s->state.load(std::memory_order_acquire) != 2) {
    if (s->state.load() == 0) return Ready();  // the loader failed: try ourselves
    sched_yield();
  }
  return s;
}

// Standbys learn the limit from the WAL: the record precedes (in WAL order)
// the commit of anything using an OID below it, so it is flushed first.
void LogOidLimit(Oid limit) {
  if (!access::XLogIsStarted()) return;  // hearthd init
  const access::XLogPart part{&limit, sizeof(limit)};
  access::XLogInsert(access::kRmgrXLog, access::kXLogInfoNextOid, 0, std::span<const access::XLogPart>(&part, 1));
}

}  // namespace

void AdvanceOidCounter(Oid limit) {
  CatalogShared* s = Ready();
  storage::LWLockGuard guard(s->oid_lock, storage::LWLockMode::kExclusive);
  if (limit <= s->next_oid) return;
  s->next_oid = limit;
  if (limit > s->persisted_limit) {
    WriteOidControlFile(access::TransamDataDir(), limit);
    s->persisted_limit = limit;
  }
}

void SendFullInvalidation() {
  CatalogShared* s = Shared();
  {
    // Jumping past a whole ring makes every reader's ReadRelationInvalidations
    // report lost messages, so each drops its whole cache.
    storage::LWLockGuard guard(s->inval_lock, storage::LWLockMode::kExclusive);
    s->inval_count += kInvalidationRing + 1;
  }
  s->catalog_version.fetch_add(1, std::memory_order_acq_rel);
}

void WriteOidControlFile(const std::string& datadir, Oid next) {
  storage::WriteFileDurably(ControlPath(datadir), "hearth-oid-control 1 " + std::to_string(next) + "\n");
}

Oid ReadOidControlFile(const std::string& datadir) {
  const std::string path = ControlPath(datadir);
  std::ifstream in(path);
  if (!in) throw std::runtime_error("could not open OID control file \"" + path + "\" (run hearthd init)");
  std::string magic;
  int version = 0;
  unsigned long long next = 0;
  in >> magic >> version >> next;
  if (!in || magic != "hearth-oid-control" || version != 1 || next < kFirstNormalObjectId || next > UINT32_MAX) {
    throw std::runtime_error("corrupt OID control file \"" + path + "\"");
  }
  return static_cast<Oid>(next);
}

Oid GetNewObjectId() {
  CatalogShared* s = Ready();
  storage::LWLockGuard guard(s->oid_lock, storage::LWLockMode::kExclusive);
  Oid oid = s->next_oid;
  if (oid >= UINT32_MAX - kOidPrefetch) throw DbError("54000", "OID space exhausted");
  if (oid >= s->persisted_limit) {
    // Written before the OID is handed out: a crash after this never reuses it.
    Oid limit = oid + kOidPrefetch;
    WriteOidControlFile(access::TransamDataDir(), limit);
    s->persisted_limit = limit;
    LogOidLimit(limit);
  }
  s->next_oid = oid + 1;
  return oid;
}

void CatalogShutdown() {
  CatalogShared* s = Shared();
  if (s->state.load(std::memory_order_acquire) != 2) return;
  storage::LWLockGuard guard(s->oid_lock, storage::LWLockMode::kExclusive);
  WriteOidControlFile(access::TransamDataDir(), s->next_oid);
  s->persisted_limit = s->next_oid;
}

ViewsKnown ViewsExist() {
  const uint32_t v = Shared()->views_exist.load(std::memory_order_acquire);
  return v == 1 ? ViewsKnown::kNone : v == 2 ? ViewsKnown::kMaybe : ViewsKnown::kUnknown;
}

void NoteNoViews() {
  uint32_t expected = 0;
  Shared()->views_exist.compare_exchange_strong(expected, 1);  // a view created meanwhile wins
}

void NoteViewCreated() { Shared()->views_exist.store(2, std::memory_order_release); }

uint64_t CatalogVersion() { return Shared()->catalog_version.load(std::memory_order_acquire); }

void SendRelationInvalidations(const std::vector<Oid>& relids) {
  CatalogShared* s = Shared();
  {
    storage::LWLockGuard guard(s->inval_lock, storage::LWLockMode::kExclusive);
    for (Oid oid : relids) s->inval_oids[s->inval_count++ % kInvalidationRing] = oid;
  }
  // After the messages: whoever sees the new version also sees them.
  s->catalog_version.fetch_add(1, std::memory_order_acq_rel);
}

bool ReadRelationInvalidations(uint64_t* seen, std::vector<Oid>* out) {
  CatalogShared* s = Shared();
  storage::LWLockGuard guard(s->inval_lock, storage::LWLockMode::kShared);
  const uint64_t n = s->inval_count;
  bool complete = n - *seen <= kInvalidationRing;
  if (complete) {
    for (uint64_t i = *seen; i < n; i++) out->push_back(s->inval_oids[i % kInvalidationRing]);
  }
  *seen = n;
  return complete;
}

}  // namespace hearth::catalog
