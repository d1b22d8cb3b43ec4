// access/transam/varsup.cpp
//
// Principal entry points: GetNewTransactionId, XidCounterStartup,
// XidCounterShutdown.
//
// Control file format (text, one line): "hearth-xid-control 1 <next_xid>\n".
#include "access/transam/varsup.h"

#include "storage/file/durable_file.h"
#include "access/transam/xlog_standby.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "access/transam/clog.h"
#include <algorithm>

#include "access/transam/transam_shared.h"
#include "common/error/db_error.h"

namespace hearth::access {

using transam_internal::Shared;
using transam_internal::XidCounterShared;

namespace {

std::string g_control_path;

// Writes `next` durably: temp file, fsync, rename over the old one, fsync dir.
void WriteControl(TransactionId next) {
  storage::WriteFileDurably(g_control_path, "hearth-xid-control 1 " + std::to_string(next) + "\n");
}

// Returns the stored next xid, or kFirstNormalTransactionId when the file
// does not exist (a new cluster).
TransactionId ReadControl() {
  std::ifstream in(g_control_path);
  if (!in) return kFirstNormalTransactionId;
  std::string magic;
  int version = 0;
  unsigned long long next = 0;
  in >> magic >> version >> next;
  if (!in || magic != "hearth-xid-control" || version != 1 || next < kFirstNormalTransactionId || next > UINT32_MAX) {
    throw std::runtime_error("corrupt xid control file \"" + g_control_path + "\"");
  }
  return static_cast<TransactionId>(next);
}

}  // namespace

namespace transam_internal {

void XidCounterStartup(const std::string& datadir) {
  g_control_path = datadir + "/global/xid_control";
  XidCounterShared& x = Shared()->xid;
  TransactionId next = ReadControl();
  x.next_xid.store(next);
  x.persisted_limit = next;
  x.clog_reserved_page = -1;
  // Everything below `next` has ended (we are starting); snapshots' xmax
  // starts from here.
  storage::ProcArray()->latest_completed_xid.store(next - 1);
}

void XidCounterShutdown() {
  XidCounterShared& x = Shared()->xid;
  storage::LWLockGuard g(x.gen_lock, storage::LWLockMode::kExclusive);
  TransactionId next = x.next_xid.load();
  WriteControl(next);
  x.persisted_limit = next;
}

}  // namespace transam_internal

TransactionId GetNewTransactionId(storage::ProcSlot* publish_to) {
  if (RecoveryInProgress()) {
    throw DbError(sqlstate::kReadOnlySqlTransaction, "cannot assign TransactionIds during recovery");
  }
  XidCounterShared& x = Shared()->xid;
  storage::LWLockGuard g(x.gen_lock, storage::LWLockMode::kExclusive);
  TransactionId xid = x.next_xid.load(std::memory_order_relaxed);
  if (xid == UINT32_MAX) {
    throw DbError(sqlstate::kProgramLimitExceeded, "transaction ID space exhausted")
        .WithDetail("Hearth does not wrap transaction ids; dump and reload the cluster.");
  }
  if (xid >= x.persisted_limit) {
    uint64_t limit = static_cast<uint64_t>(xid) + kXidPrefetch;
    if (limit > UINT32_MAX) limit = UINT32_MAX;
    WriteControl(static_cast<TransactionId>(limit));
    x.persisted_limit = static_cast<TransactionId>(limit);
  }
  // The first xid of a clog page (or of this server's life) makes room for
  // the page on disk now, outside any critical section: a full disk fails
  // this statement, not a commit or a checkpoint.
  const int64_t clog_page = xid / transam_internal::kClogXidsPerPage;
  if (clog_page != x.clog_reserved_page) {
    ClogReserveSpaceFor(clog_page);
    x.clog_reserved_page = clog_page;
  }
  if (publish_to != nullptr) publish_to->xid.store(xid, std::memory_order_seq_cst);
  x.next_xid.store(xid + 1, std::memory_order_release);
  return xid;
}

void AdvanceNextTransactionId(TransactionId seen) {
  XidCounterShared& x = Shared()->xid;
  storage::LWLockGuard g(x.gen_lock, storage::LWLockMode::kExclusive);
  if (seen < x.next_xid.load(std::memory_order_relaxed)) return;
  const TransactionId next = seen + 1;
  const uint64_t limit = std::min<uint64_t>(static_cast<uint64_t>(next) + kXidPrefetch, UINT32_MAX);
  WriteControl(static_cast<TransactionId>(limit));
  x.persisted_limit = static_cast<TransactionId>(limit);
  x.next_xid.store(next, std::memory_order_release);
  storage::ProcArray()->latest_completed_xid.store(seen);
}

TransactionId NextXidPublished() {
  XidCounterShared& x = Shared()->xid;
  storage::LWLockGuard g(x.gen_lock, storage::LWLockMode::kShared);
  return x.next_xid.load(std::memory_order_acquire);
}

TransactionId ReadNextTransactionId() { return Shared()->xid.next_xid.load(std::memory_order_acquire); }

}  // namespace hearth::access
