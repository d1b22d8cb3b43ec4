// postmaster/standby_processes.cpp
//
// Principal entry points: StartupProcessMain, WalReceiverProcessMain.
#include "postmaster/standby_processes.h"

#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

#include "access/transam/standby_conflicts.h"
#include "access/transam/transam.h"
#include "access/transam/xlog_standby.h"
#include "access/transam/xlog_standby_replay.h"
#include "catalog/catalog_standby.h"
#include "common/error/panic.h"
#include "common/log/log.h"
#include "config/settings.h"
#include "postmaster/aux_signals.h"
#include "postmaster/server_settings.h"
#include "replication/walreceiver.h"
#include "storage/ipc/interrupts.h"
#include "storage/smgr/smgr.h"

namespace hearth::postmaster {

namespace {

pid_t g_postmaster_pid = 0;

// Signals, process name and proc slot, as every auxiliary process.
void SetUpProcess(const char* name, storage::ProcNumber slot, storage::BackendType type) {
  log::SetLogRole(name);
  prctl(PR_SET_NAME, (std::string("hearth ") + name).c_str(), 0, 0, 0);
  InstallAuxSignalHandlers();
  g_postmaster_pid = getppid();
  storage::ClaimProcSlot(slot, type);
  storage::SetPostmasterPidForWaits(g_postmaster_pid);
}

bool ShouldStop() {
  // The postmaster died: nobody would reset shared memory.
  if (getppid() != g_postmaster_pid) _exit(1);
  return AuxShutdownRequested();
}

void ReloadIfAsked(config::Settings* settings) {
  if (!TakeAuxReloadRequest()) return;
  std::string error;
  ReloadServerSettings(*settings, settings->GetString("data_directory"), &error);
}

[[noreturn]] void ExitClean() {
  storage::ReleaseProcSlot();
  log::FlushLog();
  _exit(0);
}

std::string DataFile(const config::Settings& s, const char* name) {
  return s.GetString("data_directory") + "/" + name;
}

}  // namespace

void StartupProcessMain(storage::ProcNumber slot, config::Settings* settings, access::XLogRecPtr consistent_at) {
  SetUpProcess("startup", slot, storage::BackendType::kStartup);
  const std::string promote_file = DataFile(*settings, kPromoteSignalFile);
  access::StandbyReplayHooks hooks;
  access::SetMaxStandbyDelay(settings->GetInt("max_standby_streaming_delay"));
  hooks.should_stop = [settings] {
    ReloadIfAsked(settings);
    access::SetMaxStandbyDelay(settings->GetInt("max_standby_streaming_delay"));
    // Descriptors of relations whose drop was replayed would keep their space.
    storage::SmgrCloseDroppedFiles();
    return ShouldStop();
  };
  hooks.promote_requested = [&promote_file] {
    if (access::PromotionRequested()) return true;
    std::error_code ec;
    if (!std::filesystem::exists(promote_file, ec)) return false;
    access::RequestPromotion();
    return true;
  };
  hooks.wait_receiver_stopped = [] {
    while (access::WalReceiverStreaming() && !ShouldStop()) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  };
  hooks.catalog_changed = [] { catalog::SendFullInvalidation(); };
  hooks.advance_oid_counter = [](uint32_t limit) { catalog::AdvanceOidCounter(limit); };
  hooks.leaving_standby_mode = [&promote_file, settings] {
    std::error_code ec;
    std::filesystem::remove(promote_file, ec);
    std::filesystem::remove(DataFile(*settings, kStandbySignalFile), ec);
  };
  try {
    access::StandbyReplayMain(consistent_at, hooks);
  } catch (const std::exception& e) {
    hearth::Panic(std::string("standby replay failed: ") + e.what());
  }
  // Exit 0 after a promotion tells the postmaster that recovery ended.
  ExitClean();
}

void WalReceiverProcessMain(storage::ProcNumber slot, config::Settings* settings) {
  // (Shown as a "startup" process in pg_stat_activity: the proc slot types
  // have no walreceiver of their own.)
  SetUpProcess("walreceiver", slot, storage::BackendType::kStartup);
  replication::WalReceiverMain(*settings, ShouldStop, [settings] { ReloadIfAsked(settings); });
  ExitClean();
}

}  // namespace hearth::postmaster
