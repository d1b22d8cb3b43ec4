// postmaster/aux_process.cpp
//
// Principal entry points: AuxProcessMain.
// Each auxiliary process claims its proc slot, then loops: sleep its delay in
// short steps (so shutdown and postmaster death are noticed within ~100 ms),
// do one round. SIGUSR2 or SIGTERM asks for a clean exit; SIGQUIT exits at
// once (crash reset); SIGHUP re-reads the configuration.
#include "postmaster/aux_process.h"

#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "access/transam/transam.h"
#include "access/transam/xlog.h"
#include "access/transam/xlog_checkpoint.h"
#include "access/transam/xlog_keep.h"
#include "common/error/panic.h"
#include "common/log/log.h"
#include "config/settings.h"
#include "postmaster/server_settings.h"
#include "storage/buffer/bufmgr.h"
#include "storage/ipc/interrupts.h"
#include "storage/lmgr/lwlock.h"
#include "storage/smgr/smgr.h"

namespace hearth::postmaster {

namespace {

volatile sig_atomic_t g_shutdown_requested = 0;
volatile sig_atomic_t g_reload_requested = 0;

void OnShutdownSignal(int) { g_shutdown_requested = 1; }
void OnReloadSignal(int) { g_reload_requested = 1; }
void OnQuitSignal(int) { _exit(2); }

void InstallHandler(int signo, void (*fn)(int)) {
  struct sigaction sa{};
  sa.sa_handler = fn;
  sigemptyset(&sa.sa_mask);
  sigaction(signo, &sa, nullptr);
}

// The setting that paces each process's loop, in milliseconds.
int64_t LoopDelayMs(ChildKind kind, const config::Settings& s) {
  switch (kind) {
    case ChildKind::kWalWriter: return s.GetInt("wal_writer_delay");
    case ChildKind::kBgWriter: return s.GetInt("bgwriter_delay");
    // Checked every second; DoRound decides (checkpoint_timeout or max_wal_size).
    case ChildKind::kCheckpointer: return std::min<int64_t>(1000, s.GetInt("checkpoint_timeout") * 1000);
    default: return 1000;
  }
}

// A failed WAL or data write/fsync may have lost data the kernel reported
// as written: PostgreSQL's answer is PANIC, and so is ours (crash reset).
[[noreturn]] void Panic(const char* what, const std::string& why) { hearth::Panic(std::string(what) + ": " + why); }

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
        access::SetWalKeepBytes(static_cast<uint64_t>(s.GetInt("wal_keep_size")) * 1024 * 1024);
        const access::CheckpointDue due =
            shutdown ? access::CheckpointDue::kNone
                     : access::CheckpointIsDue(s.GetInt("checkpoint_timeout"), s.GetInt("max_wal_size"));
        if (shutdown || due != access::CheckpointDue::kNone) {
          access::CheckpointOptions opts;
          opts.timed = due == access::CheckpointDue::kTime;
          opts.log = s.GetBool("log_checkpoints");
          opts.cause = opts.timed ? "time" : "wal";
          access::CreateCheckPoint(shutdown, opts);
        }
      } catch (const std::exception& e) {
        Panic("checkpoint failed", e.what());
      }
      break;
    }
    case ChildKind::kWalWriter: {
      try {
        if (access::XLogIsStarted()) access::XLogBackgroundFlush();
      } catch (const std::exception& e) {
        Panic("could not write WAL", e.what());
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
  InstallHandler(SIGTERM, OnShutdownSignal);
  InstallHandler(SIGUSR2, OnShutdownSignal);
  InstallHandler(SIGINT, SIG_IGN);
  InstallHandler(SIGHUP, OnReloadSignal);
  InstallHandler(SIGQUIT, OnQuitSignal);
  UnblockAllSignals();
  pid_t postmaster = getppid();
  storage::BackendType type = kind == ChildKind::kWalWriter  ? storage::BackendType::kWalWriter
                              : kind == ChildKind::kBgWriter ? storage::BackendType::kBgWriter
                                                             : storage::BackendType::kCheckpointer;
  storage::ClaimProcSlot(slot, type);
  storage::SetPostmasterPidForWaits(postmaster);
  spdlog::debug("{} started", ChildKindName(kind));

  auto next_round = std::chrono::steady_clock::now();
  while (!g_shutdown_requested) {
    if (getppid() != postmaster) {
      // The postmaster died: nobody will reset shared memory, so stop now.
      _exit(1);
    }
    // Descriptors of dropped relations would keep their inodes alive.
    storage::SmgrCloseDroppedFiles();
    if (g_reload_requested) {
      g_reload_requested = 0;
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
