// postmaster/aux_process.cpp
//
// Principal entry points: AuxProcessMain.
// Each auxiliary process claims its proc slot, then loops: sleep its delay in
// short steps (so shutdown and postmaster death are noticed within ~100 ms),
// do one round. SIGUSR2 or SIGTERM asks for a clean exit; SIGQUIT exits at
// once (crash reset); SIGHUP re-reads the configuration.
#include "postmaster/aux_process.h"
#include "postmaster/aux_signals.h"

#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "access/transam/checkpoint_schedule.h"
#include "access/transam/transam.h"
#include "access/transam/xlog.h"
#include "access/transam/xlog_checkpoint.h"
#include "access/transam/xlog_segment.h"
#include "access/transam/xlog_standby.h"
#include "common/error/db_error.h"
#include "access/transam/xlog_keep.h"
#include "common/error/panic.h"
#include "common/log/log.h"
#include "config/settings.h"
#include "postmaster/server_settings.h"
#include "storage/buffer/bufmgr.h"
#include "storage/file/disk_full.h"
#include "storage/ipc/interrupts.h"
#include "storage/lmgr/lwlock.h"
#include "storage/smgr/smgr.h"

namespace hearth::postmaster {

namespace {

pid_t g_postmaster_pid = 0;


// A spread checkpoint's question between two buffer writes: finish at full
// speed when asked to shut down; exit when the postmaster is gone (nobody
// would reset shared memory; recovery redoes the work).
bool CheckpointShouldHurry() {
  if (getppid() != g_postmaster_pid) _exit(1);
  // Descriptors of relations dropped meanwhile would keep their space.
  storage::SmgrCloseDroppedFiles();
  return AuxShutdownRequested();
}

// The setting that paces each process's loop, in milliseconds.
int64_t LoopDelayMs(ChildKind kind, const config::Settings& s) {
  switch (kind) {
    case ChildKind::kWalWriter: return s.GetInt("wal_writer_delay");
    case ChildKind::kBgWriter: return s.GetInt("bgwriter_delay");
    // Checked every second; DoRound decides (checkpoint_timeout or max_wal_size).
    case ChildKind::kCheckpointer: return std::min<int64_t>(1000, s.GetInt("checkpoint_timeout") * 1000);
    case ChildKind::kAutovacuumLauncher: return s.GetInt("autovacuum_naptime") * 1000;
    default: return 1000;
  }
}

// A failed WAL or data write/fsync may have lost data the kernel reported
// as written: PostgreSQL's answer is PANIC, and so is ours (crash reset).
[[noreturn]] void Panic(const char* what, const std::string& why) { hearth::Panic(std::string(what) + ": " + why); }

// Work that fails while the disk is full (segment pre-allocation, a
// checkpoint) loses nothing: it is logged and retried after a pause that
// doubles up to kMaxRetryPause, instead of ending the process.
class RetryBackoff {
 public:
  bool Due() const { return std::chrono::steady_clock::now() >= next_; }
  void Succeeded() {
    if (failures_ > 0) spdlog::info("{} succeeded again after {} failed attempts", what_, failures_);
    failures_ = 0;
    next_ = {};
  }
  void Failed(const char* what, const std::exception& e) {
    what_ = what;
    const auto pause = std::min<std::chrono::milliseconds>(kMaxRetryPause, kFirstRetryPause * (1 << std::min(failures_, 8)));
    failures_++;
    next_ = std::chrono::steady_clock::now() + pause;
    const auto* db = dynamic_cast<const DbError*>(&e);
    spdlog::error("{}: {}{}; retrying in {} ms", what, e.what(),
                  db != nullptr && !db->hint().empty() ? " (HINT: " + db->hint() + ")" : std::string(),
                  pause.count());
  }

 private:
  static constexpr std::chrono::milliseconds kFirstRetryPause{250};
  static constexpr std::chrono::milliseconds kMaxRetryPause{10'000};
  std::chrono::steady_clock::time_point next_{};
  int failures_ = 0;
  const char* what_ = "";
};

RetryBackoff g_retry;  // one kind of work per process

// One round of the process's work. The bgwriter cleans buffers ahead of the
// clock hand; the checkpointer takes a checkpoint when checkpoint_timeout
// passed or max_wal_size of WAL was written (and always at shutdown); the
// walwriter flushes WAL (asynchronous commits become durable within
// wal_writer_delay) and keeps the next segment pre-allocated.
void DoRound(ChildKind kind, const config::Settings& s, bool shutdown = false) {
  switch (kind) {
    case ChildKind::kBgWriter: {
      storage::BgWriterSettings bg;
      bg.lru_maxpages = static_cast<int>(s.GetInt("bgwriter_lru_maxpages"));
      bg.lru_multiplier = s.GetReal("bgwriter_lru_multiplier");
      bg.delay_ms = static_cast<int>(s.GetInt("bgwriter_delay"));
      storage::BgBufferSync(bg);
      break;
    }
    case ChildKind::kCheckpointer: {
      try {
        access::CheckpointPacing pacing;
        pacing.completion_target = s.GetReal("checkpoint_completion_target");
        pacing.timeout_s = s.GetInt("checkpoint_timeout");
        pacing.max_wal_size_mb = s.GetInt("max_wal_size");
        pacing.hurry = CheckpointShouldHurry;
        access::SetWalKeepBytes(static_cast<uint64_t>(s.GetInt("wal_keep_size")) * 1024 * 1024);
        const access::CheckpointDue due =
            shutdown ? access::CheckpointDue::kNone
                     : access::CheckpointIsDue(pacing.timeout_s, pacing.max_wal_size_mb, pacing.completion_target);
        if (shutdown || due != access::CheckpointDue::kNone) {
          access::CheckpointOptions opts;
          opts.timed = due == access::CheckpointDue::kTime;
          opts.log = s.GetBool("log_checkpoints");
          opts.cause = opts.timed ? "time" : "wal";
          // Timed and WAL-triggered checkpoints are spread (shutdown ignores it).
          opts.pacing = &pacing;
          if (shutdown || g_retry.Due()) {
            access::CreateCheckPoint(shutdown, opts);
            g_retry.Succeeded();
          }
        }
      } catch (const std::exception& e) {
        // Out of space: the old checkpoint stays valid and nothing is lost.
        if (!shutdown && storage::IsDiskFullError(e)) {
          g_retry.Failed("checkpoint failed", e);
          break;
        }
        Panic("checkpoint failed", e.what());
      }
      break;
    }
    case ChildKind::kAutovacuumLauncher: {
      // One database: a worker per naptime, as PostgreSQL starts one per
      // database per naptime. The worker decides what needs doing; the
      // postmaster decides whether one more may run (autovacuum_max_workers).
      if (!shutdown && s.GetBool("autovacuum")) kill(getppid(), SIGUSR1);
      break;
    }
    case ChildKind::kWalWriter: {
      // A standby inserts nothing; the walreceiver writes its WAL.
      if (!access::XLogIsStarted() || access::RecoveryInProgress()) break;
      try {
        access::XLogBackgroundFlush();
      } catch (const std::exception& e) {
        Panic("could not write WAL", e.what());
      }
      if (!g_retry.Due()) break;
      try {
        access::XLogPreallocateSegments();
        g_retry.Succeeded();
      } catch (const std::exception& e) {
        if (!storage::IsDiskFullError(e)) Panic("could not pre-allocate WAL", e.what());
        g_retry.Failed("could not pre-allocate WAL segment", e);
      }
      break;
    }
    default:
      break;
  }
}

}  // namespace

void AuxProcessMain(ChildKind kind, storage::ProcNumber slot, config::Settings* settings) {
  log::SetLogRole(ChildKindName(kind));
  // Shows as "hearth walwriter" etc. in ps/top (the kernel keeps 15 bytes).
  prctl(PR_SET_NAME, (std::string("hearth ") + ChildKindName(kind)).c_str(), 0, 0, 0);
  InstallAuxSignalHandlers();
  pid_t postmaster = getppid();
  g_postmaster_pid = postmaster;
  storage::BackendType type = kind == ChildKind::kWalWriter            ? storage::BackendType::kWalWriter
                              : kind == ChildKind::kBgWriter           ? storage::BackendType::kBgWriter
                              : kind == ChildKind::kAutovacuumLauncher ? storage::BackendType::kAutovacuumLauncher
                                                                       : storage::BackendType::kCheckpointer;
  storage::ClaimProcSlot(slot, type);
  storage::SetPostmasterPidForWaits(postmaster);
  spdlog::debug("{} started", ChildKindName(kind));

  auto next_round = std::chrono::steady_clock::now();
  while (!AuxShutdownRequested()) {
    if (getppid() != postmaster) {
      // The postmaster died: nobody will reset shared memory, so stop now.
      _exit(1);
    }
    // Descriptors of dropped relations would keep their inodes alive.
    storage::SmgrCloseDroppedFiles();
    if (TakeAuxReloadRequest()) {
      std::string error;
      ReloadServerSettings(*settings, settings->GetString("data_directory"), &error);
      // fsync and wal_sync_method are reloadable: the walwriter passes them
      // on to the shared WAL state, once for every process.
      if (kind == ChildKind::kWalWriter && error.empty()) {
        access::XLogSetSyncOptions(settings->GetBool("fsync"), WalSyncMethodSetting(*settings));
      }
    }
    auto now = std::chrono::steady_clock::now();
    if (now >= next_round) {
      DoRound(kind, *settings);
      next_round = now + std::chrono::milliseconds(LoopDelayMs(kind, *settings));
    }
    const auto nap = std::min<std::chrono::steady_clock::duration>(std::chrono::milliseconds(100), next_round - now);
    if (kind == ChildKind::kWalWriter && access::XLogIsStarted()) {
      // A bulk load's flush request (XLogRequestBackgroundFlush) ends the
      // nap early: its ring then finds the buffers it reuses flushed.
      const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(nap).count();
      if (access::XLogWaitForFlushRequest(static_cast<int>(std::max<int64_t>(ms, 1)))) DoRound(kind, *settings);
      continue;
    }
    std::this_thread::sleep_for(nap);
  }
  if (kind == ChildKind::kCheckpointer) {
    // Shutdown checkpoint: the postmaster stops us only after every session
    // has ended, so this write-out is the last.
    DoRound(kind, *settings, /*shutdown=*/true);
  }
  storage::ReleaseProcSlot();
  log::FlushLog();
  _exit(0);
}

}  // namespace hearth::postmaster
