// access/transam/transam.cpp
//
// Principal entry points: TransamStartup, TransamCheckpoint, TransamShutdown.
#include "access/transam/transam.h"

#include <filesystem>
#include <new>
#include <stdexcept>

#include "access/transam/clog.h"
#include "access/transam/transam_shared.h"

namespace hearth::access {

namespace {
transam_internal::TransamShared* g_shared = nullptr;
std::string g_datadir;
}  // namespace

namespace transam_internal {
TransamShared* Shared() {
  if (g_shared == nullptr) throw std::logic_error("transam used before TransamStartup");
  return g_shared;
}
}  // namespace transam_internal

void TransamStartup(const std::string& datadir) {
  void* area = storage::XactArea();
  if (area == nullptr || storage::ProcArray() == nullptr) throw std::logic_error("TransamStartup before CreateSharedMemory");
  std::filesystem::create_directories(datadir + "/global");
  std::filesystem::create_directories(datadir + "/pg_xact");
  auto* shared = new (area) transam_internal::TransamShared();
  shared->xid.gen_lock.Init();
  shared->clog.lock.Init();
  shared->clog.lru_clock.store(0);
  transam_internal::MultiXactStartup(&shared->multixact);
  shared->standby.wal_arrived.Init();
  shared->standby.replayed.Init();
  shared->standby.candidate_lck.Init();
  shared->standby.known_lock.Init();
  g_shared = shared;
  g_datadir = datadir;
  transam_internal::XidCounterStartup(datadir);
  transam_internal::ClogStartup(datadir);
}

void TransamCheckpoint() { ClogFlush(); }

void TransamShutdown() {
  ClogFlush();
  transam_internal::XidCounterShutdown();
}

const std::string& TransamDataDir() { return g_datadir; }

}  // namespace hearth::access
