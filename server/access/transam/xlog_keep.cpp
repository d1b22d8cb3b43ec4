// access/transam/xlog_keep.cpp
//
// Principal entry points: WalRetentionLimit, WalHold, the replication
// slot functions.
#include "access/transam/xlog_keep.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <vector>

#include "access/transam/transam.h"
#include "access/transam/xlog_internal.h"
#include "common/error/db_error.h"
#include "storage/file/durable_file.h"

namespace hearth::access {

namespace xi = xlog_internal;

namespace {

void CheckSlotName(const std::string& name) {
  if (name.empty()) throw DbError(sqlstate::kInvalidName, "replication slot name \"\" is too short");
  if (name.size() >= xi::kSlotNameMax) {
    throw DbError(sqlstate::kNameTooLong, "replication slot name \"" + name + "\" is too long");
  }
  for (char c : name) {
    if ((c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '_') {
      throw DbError(sqlstate::kInvalidName, "replication slot name \"" + name + "\" contains invalid character")
          .WithHint("Replication slot names may only contain lower case letters, numbers, and the underscore "
                    "character.");
    }
  }
}

// REQUIRES slot_lock held.
xi::ReplSlotShared* FindSlot(const std::string& name) {
  xi::XLogShared* sh = xi::Shared();
  for (int i = 0; i < sh->max_replication_slots; i++) {
    xi::ReplSlotShared& s = sh->repl_slots[i];
    if (s.in_use && name == s.name) return &s;
  }
  return nullptr;
}

[[noreturn]] void ThrowNoSuchSlot(const std::string& name) {
  throw DbError(sqlstate::kUndefinedObject, "replication slot \"" + name + "\" does not exist");
}

[[noreturn]] void ThrowSlotActive(const std::string& name, int32_t pid) {
  throw DbError(sqlstate::kObjectInUse, "replication slot \"" + name + "\" is active for PID " + std::to_string(pid));
}

void FreeSlot(xi::ReplSlotShared& s) {
  s.restart_lsn.store(0);
  s.active_pid.store(0);
  s.in_use = false;
}

std::string SlotDir() { return TransamDataDir() + "/pg_replslot"; }

// Writes pg_replslot/<name> durably. Throws std::runtime_error.
void SaveSlot(const xi::ReplSlotShared& s) {
  ::mkdir(SlotDir().c_str(), 0700);
  storage::WriteFileDurably(SlotDir() + "/" + s.name,
                            "hearth-slot 1 " + std::to_string(s.restart_lsn.load()) + "\n");
}

void ClaimSlotEntry(xi::ReplSlotShared& s, const std::string& name, bool temporary, int32_t owner_pid,
                    XLogRecPtr restart_lsn) {
  std::memset(s.name, 0, sizeof(s.name));
  std::memcpy(s.name, name.data(), name.size());
  s.temporary = temporary;
  s.owner_pid = owner_pid;
  s.active_pid.store(temporary ? owner_pid : 0);
  s.restart_lsn.store(restart_lsn);
  s.in_use = true;
}

ReplicationSlotInfo InfoOf(const xi::ReplSlotShared& s) {
  return ReplicationSlotInfo{s.name, s.temporary, s.active_pid.load(), s.restart_lsn.load()};
}

}  // namespace

XLogRecPtr WalRetentionLimit() {
  xi::XLogShared* sh = xi::Shared();
  XLogRecPtr limit = 0;
  auto consider = [&limit](XLogRecPtr lsn) {
    if (lsn != 0 && (limit == 0 || lsn < limit)) limit = lsn;
  };
  for (int i = 0; i < sh->max_replication_slots; i++) consider(sh->repl_slots[i].restart_lsn.load());
  for (auto& h : sh->backup_holds) consider(h.load());
  const uint64_t keep = sh->wal_keep_bytes.load(std::memory_order_relaxed);
  if (keep > 0) {
    const XLogRecPtr insert = xi::ReservedEnd();
    consider(insert > keep ? insert - keep : kXLogPageHeaderSize);
  }
  return limit;
}

void SetWalKeepBytes(uint64_t bytes) { xi::Shared()->wal_keep_bytes.store(bytes, std::memory_order_relaxed); }

WalHold::WalHold(XLogRecPtr lsn) : index_(-1) {
  lsn = std::max<XLogRecPtr>(lsn, kXLogPageHeaderSize);  // 0 would mean "free"
  xi::XLogShared* sh = xi::Shared();
  for (int i = 0; i < xi::kMaxBackupHolds; i++) {
    uint64_t expected = 0;
    if (sh->backup_holds[i].compare_exchange_strong(expected, lsn)) {
      index_ = i;
      return;
    }
  }
  throw DbError(sqlstate::kConfigurationLimitExceeded,
                "too many base backups and WAL streams running (at most " + std::to_string(xi::kMaxBackupHolds) + ")");
}

WalHold::~WalHold() { xi::Shared()->backup_holds[index_].store(0); }

void WalHold::Move(XLogRecPtr lsn) {
  xi::Shared()->backup_holds[index_].store(std::max<XLogRecPtr>(lsn, kXLogPageHeaderSize));
}

void CreateReplicationSlot(const std::string& name, bool temporary, XLogRecPtr reserve_lsn, int32_t owner_pid) {
  xi::XLogShared* sh = xi::Shared();
  if (sh->max_replication_slots == 0) {
    throw DbError(sqlstate::kObjectNotInPrerequisiteState,
                  "replication slots can only be used if max_replication_slots > 0");
  }
  CheckSlotName(name);
  storage::LWLockGuard g(sh->slot_lock, storage::LWLockMode::kExclusive);
  if (FindSlot(name) != nullptr) {
    throw DbError(sqlstate::kDuplicateObject, "replication slot \"" + name + "\" already exists");
  }
  for (int i = 0; i < sh->max_replication_slots; i++) {
    xi::ReplSlotShared& s = sh->repl_slots[i];
    if (s.in_use) continue;
    ClaimSlotEntry(s, name, temporary, owner_pid, reserve_lsn);
    if (!temporary) {
      try {
        SaveSlot(s);
      } catch (const std::exception& e) {
        FreeSlot(s);
        throw DbError(sqlstate::kIoError, std::string("could not create replication slot: ") + e.what());
      }
    }
    return;
  }
  throw DbError(sqlstate::kConfigurationLimitExceeded, "all replication slots are in use")
      .WithHint("Free one or increase max_replication_slots.");
}

void DropReplicationSlot(const std::string& name, int32_t my_pid) {
  xi::XLogShared* sh = xi::Shared();
  storage::LWLockGuard g(sh->slot_lock, storage::LWLockMode::kExclusive);
  xi::ReplSlotShared* s = FindSlot(name);
  if (s == nullptr) ThrowNoSuchSlot(name);
  const int32_t active = s->active_pid.load();
  if (active != 0 && active != my_pid) ThrowSlotActive(name, active);
  if (!s->temporary) {
    const std::string path = SlotDir() + "/" + s->name;
    if (::unlink(path.c_str()) != 0 && errno != ENOENT) {
      throw DbError(sqlstate::kIoError, "could not remove file \"" + path + "\": " + std::strerror(errno));
    }
  }
  FreeSlot(*s);
}

std::optional<ReplicationSlotInfo> ReadReplicationSlot(const std::string& name) {
  xi::XLogShared* sh = xi::Shared();
  storage::LWLockGuard g(sh->slot_lock, storage::LWLockMode::kShared);
  if (xi::ReplSlotShared* s = FindSlot(name)) return InfoOf(*s);
  return std::nullopt;
}

std::vector<ReplicationSlotInfo> ListReplicationSlots() {
  xi::XLogShared* sh = xi::Shared();
  storage::LWLockGuard g(sh->slot_lock, storage::LWLockMode::kShared);
  std::vector<ReplicationSlotInfo> out;
  for (int i = 0; i < sh->max_replication_slots; i++) {
    if (sh->repl_slots[i].in_use) out.push_back(InfoOf(sh->repl_slots[i]));
  }
  return out;
}

void AcquireReplicationSlot(const std::string& name, int32_t pid, XLogRecPtr start) {
  xi::XLogShared* sh = xi::Shared();
  storage::LWLockGuard g(sh->slot_lock, storage::LWLockMode::kExclusive);
  xi::ReplSlotShared* s = FindSlot(name);
  if (s == nullptr) ThrowNoSuchSlot(name);
  const int32_t active = s->active_pid.load();
  if (active != 0 && active != pid) ThrowSlotActive(name, active);
  s->active_pid.store(pid);
  // 0 means "nothing reserved": a stream from the very start holds from the
  // first record on.
  const XLogRecPtr want = std::max<XLogRecPtr>(start, kXLogPageHeaderSize);
  const XLogRecPtr have = s->restart_lsn.load();
  if (have == 0 || want < have) s->restart_lsn.store(want);
}

void ReleaseReplicationSlot(const std::string& name, int32_t pid) {
  xi::XLogShared* sh = xi::Shared();
  storage::LWLockGuard g(sh->slot_lock, storage::LWLockMode::kExclusive);
  xi::ReplSlotShared* s = FindSlot(name);
  if (s != nullptr && !s->temporary && s->active_pid.load() == pid) s->active_pid.store(0);
}

void AdvanceReplicationSlot(const std::string& name, XLogRecPtr lsn) {
  xi::XLogShared* sh = xi::Shared();
  storage::LWLockGuard g(sh->slot_lock, storage::LWLockMode::kShared);
  xi::ReplSlotShared* s = FindSlot(name);
  if (s == nullptr || lsn == 0) return;
  // Only its own walsender moves it, so no lost update between load and store.
  if (lsn > s->restart_lsn.load()) s->restart_lsn.store(lsn);
}

void CleanupReplicationSlots(int32_t pid) {
  if (!XLogIsStarted()) return;
  xi::XLogShared* sh = xi::Shared();
  storage::LWLockGuard g(sh->slot_lock, storage::LWLockMode::kExclusive);
  for (int i = 0; i < sh->max_replication_slots; i++) {
    xi::ReplSlotShared& s = sh->repl_slots[i];
    if (!s.in_use) continue;
    if (s.temporary && s.owner_pid == pid) {
      FreeSlot(s);
    } else if (s.active_pid.load() == pid) {
      s.active_pid.store(0);
    }
  }
}

void LoadReplicationSlots() {
  xi::XLogShared* sh = xi::Shared();
  DIR* d = ::opendir(SlotDir().c_str());
  if (d == nullptr) return;  // none saved
  std::vector<std::string> names;
  while (dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name != "." && name != ".." && name.find('.') == std::string::npos) names.push_back(name);
  }
  ::closedir(d);
  storage::LWLockGuard g(sh->slot_lock, storage::LWLockMode::kExclusive);
  int next = 0;
  for (const std::string& name : names) {
    std::ifstream in(SlotDir() + "/" + name);
    std::string magic;
    int version = 0;
    unsigned long long restart = 0;
    in >> magic >> version >> restart;
    if (!in || magic != "hearth-slot" || version != 1 || name.size() >= xi::kSlotNameMax) {
      throw std::runtime_error("replication slot file \"" + SlotDir() + "/" + name + "\" is damaged");
    }
    if (next >= sh->max_replication_slots) {
      throw std::runtime_error("too many replication slots active before shutdown: increase max_replication_slots "
                               "(currently " + std::to_string(sh->max_replication_slots) + ")");
    }
    ClaimSlotEntry(sh->repl_slots[next++], name, /*temporary=*/false, 0, restart);
  }
}

void CheckPointReplicationSlots() {
  xi::XLogShared* sh = xi::Shared();
  storage::LWLockGuard g(sh->slot_lock, storage::LWLockMode::kShared);
  for (int i = 0; i < sh->max_replication_slots; i++) {
    const xi::ReplSlotShared& s = sh->repl_slots[i];
    if (s.in_use && !s.temporary) SaveSlot(s);
  }
}

}  // namespace hearth::access
