// postmaster/child_registry.h
//
// The postmaster's private list of its children. Never in shared memory: the
// postmaster must survive anything a child does to the shared segment. A
// forked child inherits a copy, which is how a cancel request (read by the
// child that accepted the cancel connection) finds its target's secret key.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "storage/lmgr/proc_array.h"

namespace hearth::postmaster {

enum class ChildKind {
  kBackend,
  kDeadEnd,
  kWalWriter,
  kBgWriter,
  kCheckpointer,
  kAutovacuumLauncher,  // auxiliary: restarted when it exits
  kAutovacuumWorker,    // started on the launcher's request; exits when done
  kStartup,             // standby mode: replays WAL until promotion (standby_processes.h)
  kWalReceiver,         // standby mode: streams WAL from the primary
};

const char* ChildKindName(ChildKind k);

struct ChildInfo {
  pid_t pid = 0;
  ChildKind kind = ChildKind::kBackend;
  storage::ProcNumber slot = storage::kInvalidProcNumber;
  int32_t cancel_key = 0;
};

class ChildRegistry {
 public:
  void Configure(int client_slots, int aux_slots);

  // Reserves a proc slot for a client backend; nullopt when all are taken.
  std::optional<storage::ProcNumber> ReserveClientSlot();
  // Reserves a proc slot for an auxiliary process.
  std::optional<storage::ProcNumber> ReserveAuxSlot();
  void Add(const ChildInfo& c);
  // Removes the child and frees its slot; returns its info if it was known.
  std::optional<ChildInfo> Remove(pid_t pid);
  // Frees a slot reserved for a fork that failed.
  void FreeSlot(storage::ProcNumber slot);

  const std::vector<ChildInfo>& children() const { return children_; }
  int CountKind(ChildKind k) const;
  bool HasKind(ChildKind k) const { return CountKind(k) > 0; }
  // True when (pid, key) names a live backend: the cancel check.
  bool MatchesCancelKey(int32_t pid, int32_t key) const;

 private:
  std::vector<ChildInfo> children_;
  std::vector<bool> slot_used_;
  int client_slots_ = 0;
};

}  // namespace hearth::postmaster
