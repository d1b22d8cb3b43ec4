// access/transam/syncrep.cpp
//
// Principal entry points: ParseSyncStandbyNames, PublishSyncStandbyConfig,
// SyncRepWaitForLsn, SyncRepWakeWaiters, ComputeSyncStates.
#include "access/transam/syncrep.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <optional>

#include "access/transam/transam_shared.h"
#include "storage/ipc/interrupts.h"
#include "storage/lmgr/backend_activity.h"
#include "storage/lmgr/lwlock.h"

namespace hearth::access {

namespace {

using transam_internal::kSyncStandbyMaxNames;
using transam_internal::SyncRepShared;

SyncRepShared& Shared() { return transam_internal::Shared()->syncrep; }

// --- synchronous_standby_names ---------------------------------------------

class NamesLexer {
 public:
  explicit NamesLexer(std::string_view s) : s_(s) {}

  void SkipSpace() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) pos_++;
  }
  bool AtEnd() {
    SkipSpace();
    return pos_ >= s_.size();
  }
  bool Accept(char c) {
    SkipSpace();
    if (pos_ < s_.size() && s_[pos_] == c) {
      pos_++;
      return true;
    }
    return false;
  }
  // An identifier (lower-cased as PostgreSQL folds it), a double-quoted
  // name, `*`, or a number; empty when none is next.
  std::string Word(bool* quoted) {
    SkipSpace();
    *quoted = false;
    std::string out;
    if (pos_ < s_.size() && s_[pos_] == '"') {
      *quoted = true;
      for (pos_++; pos_ < s_.size(); pos_++) {
        if (s_[pos_] == '"') {
          if (pos_ + 1 < s_.size() && s_[pos_ + 1] == '"') {
            out.push_back('"');
            pos_++;
            continue;
          }
          pos_++;
          return out.empty() ? std::string("\"\"") : out;
        }
        out.push_back(s_[pos_]);
      }
      return {};  // unterminated
    }
    if (pos_ < s_.size() && s_[pos_] == '*') {
      pos_++;
      return "*";
    }
    while (pos_ < s_.size()) {
      const unsigned char c = static_cast<unsigned char>(s_[pos_]);
      if (!(std::isalnum(c) || c == '_' || c == '$' || c >= 0x80)) break;
      out.push_back(static_cast<char>(std::tolower(c)));
      pos_++;
    }
    return out;
  }
  size_t pos() const { return pos_; }
  void set_pos(size_t p) { pos_ = p; }

 private:
  std::string_view s_;
  size_t pos_ = 0;
};

bool IsNumber(const std::string& w) {
  return !w.empty() && w.size() < 9 && std::all_of(w.begin(), w.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool ParseNameList(NamesLexer& lex, std::vector<std::string>* names, std::string* error) {
  do {
    bool quoted = false;
    std::string w = lex.Word(&quoted);
    if (w.empty()) {
      *error = "syntax error in synchronous_standby_names";
      return false;
    }
    names->push_back(w);
  } while (lex.Accept(','));
  return true;
}

// --- the published copy ------------------------------------------------------

// Seqlock read: the postmaster is the only writer.
SyncStandbyConfig ReadShared() {
  SyncRepShared& sh = Shared();
  for (;;) {
    const uint32_t before = sh.config_seq.load(std::memory_order_acquire);
    if (before & 1) continue;
    SyncStandbyConfig c;
    c.method = static_cast<SyncStandbyConfig::Method>(sh.method.load(std::memory_order_relaxed));
    c.num_sync = sh.num_sync;
    const int n = std::min(sh.nnames, kSyncStandbyMaxNames);
    for (int i = 0; i < n; i++) c.names.emplace_back(sh.names[i], strnlen(sh.names[i], sizeof(sh.names[i])));
    std::atomic_thread_fence(std::memory_order_acquire);
    if (sh.config_seq.load(std::memory_order_relaxed) == before) return c;
  }
}

// 1-based position of the first configured name matching `app`, 0 if none
// (PostgreSQL compares application names case-insensitively).
int PriorityOf(const SyncStandbyConfig& c, const std::string& app) {
  for (size_t i = 0; i < c.names.size(); i++) {
    const std::string& n = c.names[i];
    if (n == "*") return static_cast<int>(i) + 1;
    if (n.size() == app.size() &&
        std::equal(n.begin(), n.end(), app.begin(), [](char a, char b) { return std::tolower(a) == std::tolower(b); })) {
      return static_cast<int>(i) + 1;
    }
  }
  return 0;
}

XLogRecPtr PositionFor(const WalSndInfo& w, SyncWaitMode mode) {
  switch (mode) {
    case SyncWaitMode::kWrite: return w.write;
    case SyncWaitMode::kFlush: return w.flush;
    case SyncWaitMode::kApply: return w.replay;
  }
  return w.flush;
}

// Indexes into `senders` of the standbys chosen as synchronous under a
// priority configuration: the num_sync streaming ones of best priority.
std::vector<size_t> ChosenByPriority(const SyncStandbyConfig& c, const std::vector<WalSndInfo>& senders) {
  std::vector<size_t> cands;
  for (size_t i = 0; i < senders.size(); i++) {
    if (senders[i].state == WalSndState::kStreaming && PriorityOf(c, senders[i].application_name) > 0) {
      cands.push_back(i);
    }
  }
  std::stable_sort(cands.begin(), cands.end(), [&](size_t a, size_t b) {
    return PriorityOf(c, senders[a].application_name) < PriorityOf(c, senders[b].application_name);
  });
  if (cands.size() > static_cast<size_t>(c.num_sync)) cands.resize(static_cast<size_t>(c.num_sync));
  return cands;
}

bool Released(const SyncStandbyConfig& c, XLogRecPtr lsn, SyncWaitMode mode) {
  const std::vector<WalSndInfo> senders = GetWalSndInfos();
  if (c.method == SyncStandbyConfig::Method::kPriority) {
    const std::vector<size_t> chosen = ChosenByPriority(c, senders);
    if (chosen.size() < static_cast<size_t>(c.num_sync)) return false;
    return std::all_of(chosen.begin(), chosen.end(), [&](size_t i) { return PositionFor(senders[i], mode) >= lsn; });
  }
  int passed = 0;
  for (const WalSndInfo& w : senders) {
    if (w.state == WalSndState::kStreaming && PriorityOf(c, w.application_name) > 0 && PositionFor(w, mode) >= lsn) {
      passed++;
    }
  }
  return passed >= c.num_sync;
}

struct WaiterCount {
  WaiterCount() { Shared().waiters.fetch_add(1, std::memory_order_acq_rel); }
  ~WaiterCount() { Shared().waiters.fetch_sub(1, std::memory_order_acq_rel); }
};

constexpr char kCommittedLocally[] =
    "The transaction has already committed locally, but might not have been replicated to the standby.";

std::optional<SyncRepWarning> g_warning;  // set by the last wait, taken by the session

}  // namespace

bool ParseSyncStandbyNames(std::string_view text, SyncStandbyConfig* out, std::string* error) {
  *out = SyncStandbyConfig{};
  NamesLexer lex(text);
  if (lex.AtEnd()) return true;
  bool quoted = false;
  const size_t start = lex.pos();
  std::string first = lex.Word(&quoted);
  SyncStandbyConfig c;
  c.method = SyncStandbyConfig::Method::kPriority;
  bool with_count = false;
  if (!quoted && (first == "first" || first == "any")) {
    const size_t after = lex.pos();
    std::string n = lex.Word(&quoted);
    if (!quoted && IsNumber(n) && lex.Accept('(')) {
      c.method = first == "any" ? SyncStandbyConfig::Method::kQuorum : SyncStandbyConfig::Method::kPriority;
      c.num_sync = std::stoi(n);
      with_count = true;
    } else {
      lex.set_pos(after);
    }
  }
  if (!with_count && !quoted && IsNumber(first)) {
    if (lex.Accept('(')) {
      c.num_sync = std::stoi(first);
      with_count = true;
    }
  }
  if (!with_count) {
    lex.set_pos(start);
    c.num_sync = 1;
  }
  if (!ParseNameList(lex, &c.names, error)) return false;
  if (with_count && !lex.Accept(')')) {
    *error = "syntax error in synchronous_standby_names";
    return false;
  }
  if (!lex.AtEnd()) {
    *error = "syntax error in synchronous_standby_names";
    return false;
  }
  if (c.num_sync <= 0) {
    *error = "number of synchronous standbys (" + std::to_string(c.num_sync) + ") must be greater than zero";
    return false;
  }
  if (c.names.size() > static_cast<size_t>(kSyncStandbyMaxNames)) {
    *error = "synchronous_standby_names lists more than " + std::to_string(kSyncStandbyMaxNames) + " standbys";
    return false;
  }
  *out = std::move(c);
  return true;
}

void PublishSyncStandbyConfig(const SyncStandbyConfig& config) {
  SyncRepShared& sh = Shared();
  sh.config_seq.fetch_add(1, std::memory_order_acq_rel);  // odd: writing
  sh.num_sync = config.num_sync;
  sh.nnames = static_cast<int32_t>(std::min<size_t>(config.names.size(), kSyncStandbyMaxNames));
  for (int i = 0; i < sh.nnames; i++) {
    const std::string& n = config.names[static_cast<size_t>(i)];
    const size_t len = std::min(n.size(), sizeof(sh.names[i]) - 1);
    std::memcpy(sh.names[i], n.data(), len);
    sh.names[i][len] = '\0';
  }
  sh.method.store(static_cast<uint8_t>(config.method), std::memory_order_relaxed);
  sh.config_seq.fetch_add(1, std::memory_order_acq_rel);  // even: stable
  // A committer waiting under the old rules re-checks under the new ones.
  sh.wake_seq.fetch_add(1, std::memory_order_acq_rel);
  storage::FutexWakeAll(&sh.wake_seq);
}

SyncStandbyConfig CurrentSyncStandbyConfig() { return ReadShared(); }

bool SyncReplicationConfigured() {
  return Shared().method.load(std::memory_order_relaxed) != static_cast<uint8_t>(SyncStandbyConfig::Method::kNone);
}

void SyncRepWaitForLsn(XLogRecPtr lsn, SyncWaitMode mode) {
  if (!SyncReplicationConfigured()) return;
  SyncRepShared& sh = Shared();
  WaiterCount counted;
  std::optional<storage::WaitEventScope> shown;  // pg_stat_activity: IPC / SyncRep once it waits
  for (;;) {
    const uint32_t seq = sh.wake_seq.load(std::memory_order_acquire);
    const SyncStandbyConfig c = ReadShared();
    if (c.method == SyncStandbyConfig::Method::kNone || Released(c, lsn, mode)) return;
    // The transaction is committed locally: a request to stop ends the
    // wait, never the commit (PostgreSQL's messages).
    if (g_die_pending) {
      g_warning = SyncRepWarning{
          "57P01", "canceling the wait for synchronous replication and terminating connection due to administrator command",
          kCommittedLocally};
      return;
    }
    if (g_cancel_pending) {
      g_cancel_pending = 0;
      g_warning = SyncRepWarning{"57014", "canceling wait for synchronous replication due to user request", kCommittedLocally};
      return;
    }
    if (!shown) shown.emplace(storage::WaitEvent::kSyncRep);
    storage::FutexWait(&sh.wake_seq, seq, 100);
    // Without a postmaster nobody guards shared memory: leave (as every waiter).
    storage::CheckPostmasterAlive();
  }
}

std::optional<SyncRepWarning> TakeSyncRepWarning() {
  std::optional<SyncRepWarning> w = std::move(g_warning);
  g_warning.reset();
  return w;
}

void SyncRepWakeWaiters() {
  SyncRepShared& sh = Shared();
  if (sh.waiters.load(std::memory_order_acquire) == 0) return;
  sh.wake_seq.fetch_add(1, std::memory_order_acq_rel);
  storage::FutexWakeAll(&sh.wake_seq);
}

std::vector<SyncState> ComputeSyncStates(const std::vector<WalSndInfo>& senders) {
  std::vector<SyncState> out(senders.size());
  const SyncStandbyConfig c = ReadShared();
  if (c.method == SyncStandbyConfig::Method::kNone) return out;
  for (size_t i = 0; i < senders.size(); i++) {
    const int p = PriorityOf(c, senders[i].application_name);
    if (p == 0) continue;
    if (c.method == SyncStandbyConfig::Method::kQuorum) {
      out[i] = SyncState{1, "quorum"};
    } else {
      out[i] = SyncState{p, "potential"};
    }
  }
  if (c.method == SyncStandbyConfig::Method::kPriority) {
    for (size_t i : ChosenByPriority(c, senders)) out[i].state = "sync";
  }
  return out;
}

}  // namespace hearth::access
