// postmaster/child_registry.cpp
//
// Principal entry points: ChildRegistry::Reserve*Slot, Add, Remove, MatchesCancelKey.
#include "postmaster/child_registry.h"

namespace hearth::postmaster {

const char* ChildKindName(ChildKind k) {
  switch (k) {
    case ChildKind::kBackend: return "backend";
    case ChildKind::kDeadEnd: return "backend";
    case ChildKind::kWalWriter: return "walwriter";
    case ChildKind::kBgWriter: return "bgwriter";
    case ChildKind::kCheckpointer: return "checkpointer";
    case ChildKind::kAutovacuumLauncher: return "autovacuum launcher";
    case ChildKind::kAutovacuumWorker: return "autovacuum worker";
    case ChildKind::kStartup: return "startup";
    case ChildKind::kWalReceiver: return "walreceiver";
  }
  return "child";
}

void ChildRegistry::Configure(int client_slots, int aux_slots) {
  client_slots_ = client_slots;
  slot_used_.assign(static_cast<size_t>(client_slots + aux_slots), false);
  for (const ChildInfo& c : children_) {
    if (c.slot >= 0 && static_cast<size_t>(c.slot) < slot_used_.size()) slot_used_[c.slot] = true;
  }
}

std::optional<storage::ProcNumber> ChildRegistry::ReserveClientSlot() {
  for (int i = 0; i < client_slots_; i++) {
    if (!slot_used_[i]) {
      slot_used_[i] = true;
      return i;
    }
  }
  return std::nullopt;
}

std::optional<storage::ProcNumber> ChildRegistry::ReserveAuxSlot() {
  for (size_t i = client_slots_; i < slot_used_.size(); i++) {
    if (!slot_used_[i]) {
      slot_used_[i] = true;
      return static_cast<storage::ProcNumber>(i);
    }
  }
  return std::nullopt;
}

void ChildRegistry::Add(const ChildInfo& c) { children_.push_back(c); }

void ChildRegistry::FreeSlot(storage::ProcNumber slot) {
  if (slot >= 0 && static_cast<size_t>(slot) < slot_used_.size()) slot_used_[slot] = false;
}

std::optional<ChildInfo> ChildRegistry::Remove(pid_t pid) {
  for (auto it = children_.begin(); it != children_.end(); ++it) {
    if (it->pid == pid) {
      ChildInfo c = *it;
      children_.erase(it);
      FreeSlot(c.slot);
      return c;
    }
  }
  return std::nullopt;
}

int ChildRegistry::CountKind(ChildKind k) const {
  int n = 0;
  for (const ChildInfo& c : children_) n += (c.kind == k);
  return n;
}

bool ChildRegistry::MatchesCancelKey(int32_t pid, int32_t key) const {
  for (const ChildInfo& c : children_) {
    if (c.kind == ChildKind::kBackend && c.pid == pid && c.cancel_key == key) return true;
  }
  return false;
}

}  // namespace hearth::postmaster
