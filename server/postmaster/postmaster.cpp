// postmaster/postmaster.cpp
//
// Principal entry points: PostmasterMain. See postmaster.h for the signals.
//
// The event loop is Boost.Asio: one acceptor and one signal_set, all on the
// postmaster's single thread. A forked child first drops everything Asio owns
// (notify_fork, close the acceptor, restore default signal handlers), then
// serves its connection with blocking I/O and never returns here.
#include "postmaster/postmaster.h"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/asio.hpp>
#include <chrono>
#include <filesystem>
#include <random>

#include "access/heap/heap_wal.h"
#include "access/nbtree/nbtree.h"
#include "access/transam/clog.h"
#include "access/transam/syncrep.h"
#include "access/transam/pending_sync.h"
#include "access/transam/transam.h"
#include "access/transam/xlog.h"
#include "access/transam/visibility.h"
#include "access/transam/xlog_recovery.h"
#include "access/transam/xlog_backup_label.h"
#include "access/transam/xlog_standby.h"
#include "access/transam/xlog_xact_records.h"
#include "config/enums.h"
#include "storage/buffer/bufmgr.h"
#include "catalog/catalog_shared.h"
#include "catalog/sequence_wal.h"
#include "common/log/log.h"
#include "config/settings.h"
#include "postmaster/aux_process.h"
#include "postmaster/autovacuum_worker.h"
#include "postmaster/child_registry.h"
#include "postmaster/datadir.h"
#include "postmaster/pidfile.h"
#include "postmaster/server_settings.h"
#include "postmaster/standby_processes.h"
#include "storage/ipc/shmem_layout.h"
#include "storage/smgr/smgr.h"
#include "tcop/auth.h"
#include "access/transam/xlog_keep.h"
#include "replication/walsender.h"
#include "tcop/backend_main.h"
#include "tcop/hba.h"
#include "tcop/tls.h"

namespace hearth::postmaster {

namespace asio = boost::asio;
using asio::ip::tcp;

namespace {

enum class PmState { kRunning, kCrashReset, kSmartShutdown, kFastShutdown };

// How long children get to exit after SIGQUIT before they are SIGKILLed.
constexpr auto kChildExitGrace = std::chrono::seconds(5);
// A crash reset that cannot rebuild shared state (a full disk) is retried
// after this pause, doubled per failure up to kMaxResetRetryPause.
constexpr auto kFirstResetRetryPause = std::chrono::milliseconds(500);
constexpr auto kMaxResetRetryPause = std::chrono::milliseconds(10'000);

class Postmaster {
 public:
  Postmaster(const PostmasterOptions& opts, config::Settings settings)
      : opts_(opts),
        settings_(std::move(settings)),
        acceptor_(io_),
        signals_(io_),
        kill_timer_(io_),
        reset_retry_timer_(io_),
        rng_(std::random_device{}()) {}

  int Run();

 private:
  bool Listen(std::string* error);
  void StartAccept();
  void OnSignal(int signo);
  void ReapChildren();
  void HandleChildExit(const ChildInfo& child, int status);
  void StartCrashReset(const std::string& why);
  void FinishCrashResetIfDone();
  void RecreateSharedState();
  void StartAuxProcesses();
  void StartAutovacuumWorker();
  void SignalKind(ChildKind kind, int signo);
  void ForkBackend(tcp::socket socket);
  pid_t ForkChild();  // returns 0 in the child, with Asio state dropped
  void SignalChildren(int signo, bool aux_too);
  void MaybeExit();
  void Reload();
  // (Re)reads pg_hba.conf; false (old rules kept) with *error on failure.
  bool LoadHba(std::string* error);
  // Creates the shared segment and starts the subsystems that live in it.
  void CreateSharedState();
  bool EnterStandbyModeIfSignalled(const access::XLogStartupInfo& wi);
  void ForkAuxProcess(ChildKind kind);

  const PostmasterOptions& opts_;
  config::Settings settings_;
  ServerSettings ss_;
  asio::io_context io_;
  tcp::acceptor acceptor_;
  asio::signal_set signals_;
  asio::steady_timer kill_timer_;
  asio::steady_timer reset_retry_timer_;
  int reset_failures_ = 0;
  // standby.signal was there when shared state was built: the startup
  // process and the walreceiver run until promotion (standby_processes.h).
  bool standby_ = false;
  access::XLogRecPtr consistent_at_ = 0;
  // False while a crash reset has not rebuilt shared state: nothing may
  // touch it then (shutdown skips writing the transaction state).
  bool shared_ready_ = false;
  std::mt19937 rng_;
  std::unique_ptr<storage::ShmemSegment> shmem_;
  ChildRegistry children_;
  tcop::HbaRules hba_;       // inherited by backends through fork
  tcop::SslContext ssl_;     // likewise; null with ssl = off
  std::string auth_secret_;  // salts mock SCRAM exchanges
  PmState state_ = PmState::kRunning;
  bool accepting_ = false;
  bool exit_requested_ = false;
  int exit_code_ = 0;
};

// The registry of the postmaster, inherited by children for cancel lookups.
const ChildRegistry* g_inherited_registry = nullptr;

void DeliverCancel(int32_t pid, int32_t key) {
  if (g_inherited_registry != nullptr && g_inherited_registry->MatchesCancelKey(pid, key)) {
    kill(static_cast<pid_t>(pid), SIGINT);
  }
}

// Fresh segment, WAL, transam, then crash recovery (replay + checkpoint),
// all before any child exists. Throws when any step fails: the server must
// not start on a cluster it could not recover.
namespace {

// synchronous_standby_names for committers and walsenders (syncrep.h). A
// value that does not parse keeps the one in force, as PostgreSQL.
void PublishSyncStandbyNames(const config::Settings& settings) {
  access::SyncStandbyConfig config;
  std::string error;
  if (!access::ParseSyncStandbyNames(settings.GetString("synchronous_standby_names"), &config, &error)) {
    spdlog::error("invalid value for parameter \"synchronous_standby_names\": {}", error);
    return;
  }
  access::PublishSyncStandbyConfig(config);
}

}  // namespace

void Postmaster::CreateSharedState() {
  shmem_ = storage::CreateSharedMemory(ss_.shmem);
  storage::SmgrInit(opts_.datadir);
  access::XLogOptions xo;
  xo.datadir = opts_.datadir;
  xo.sync_method = WalSyncMethodSetting(settings_);
  xo.fsync = settings_.GetBool("fsync");
  // Two segments ahead: writers need the one after the insert segment
  // (XLogEnsureSpaceForChange), and the walwriter stays one step ahead of that.
  xo.prealloc_segments = 2;
  xo.max_replication_slots = static_cast<int>(settings_.GetInt("max_replication_slots"));
  access::XLogStartupInfo wi = access::XLogStartup(*shmem_, ss_.shmem, xo);
  access::SetWalKeepBytes(static_cast<uint64_t>(settings_.GetInt("wal_keep_size")) * 1024 * 1024);
  // Inherited by every child: under minimal, files a transaction created skip WAL.
  access::SetWalLevelMinimal(settings_.hot().wal_level == config::WalLevel::kMinimal);
  access::TransamStartup(opts_.datadir);
  PublishSyncStandbyNames(settings_);
  access::LoadReplicationSlots();
  storage::SetXLogFlushHook(access::XLogFlush);
  storage::SetXLogNeedsFlushHook(access::XLogNeedsFlush);
  storage::SetXLogRequestFlushHook(access::XLogRequestBackgroundFlush);
  access::SetClogWalFlushHook(access::XLogFlush);
  access::SetCommitHintCheck(access::XactCommitIsDurable);
  heap::RegisterHeapRmgr();
  catalog::RegisterSequenceRmgr();
  nbtree::RegisterBtreeRmgr();
  if (EnterStandbyModeIfSignalled(wi)) return;
  access::RecoveryResult rr = access::StartupXLogRecovery();
  // Children inherit our descriptors: keep none of the files redo touched
  // (we never learn when they are dropped).
  storage::SmgrCloseAll();
  spdlog::info("recovery: redo from {} replayed {} records to {} ({}); {} in-progress transactions aborted; "
               "end of WAL found at startup {}{}",
               rr.replay.start, rr.replay.records, rr.replay.end_of_wal, rr.replay.end_reason, rr.xids_aborted,
               wi.end_of_wal, rr.from_backup ? "; recovered from a base backup (backup_label renamed to backup_label.old)" : "");
  if (!wi.prealloc_error.empty()) {
    spdlog::warn("could not pre-allocate WAL segments: {}; the walwriter retries, and changes fail with 53100 "
                 "until there is space (HINT: Check free disk space.)",
                 wi.prealloc_error);
  }
  shared_ready_ = true;
}

// A data directory with standby.signal replays in the startup process, not
// here: the postmaster only registers the redo functions and publishes where
// the WAL in pg_wal ends (replay may read that far; reads are allowed once
// replay got there).
bool Postmaster::EnterStandbyModeIfSignalled(const access::XLogStartupInfo& wi) {
  std::error_code ec;
  standby_ = std::filesystem::exists(opts_.datadir + "/" + kStandbySignalFile, ec);
  if (!standby_) return false;
  access::RegisterCoreRmgrs();
  access::EnterStandbyMode(wi.end_of_wal);
  consistent_at_ = wi.end_of_wal;
  storage::SmgrCloseAll();
  spdlog::info("entering standby mode: WAL in pg_wal ends at {}; streaming from primary_conninfo{}",
               access::FormatLsn(wi.end_of_wal), settings_.GetBool("hot_standby") ? "; hot standby" : "");
  shared_ready_ = true;
  return true;
}

int Postmaster::Run() {
  std::string error;
  ss_ = ReadServerSettings(settings_);
  PidFile pidfile;
  if (!pidfile.Acquire(opts_.datadir, ss_.port, &error)) {
    spdlog::critical("{}", error);
    return 1;
  }
  if (!LoadHba(&error)) {
    spdlog::critical("{}", error);
    spdlog::critical("could not load {}", tcop::HbaFilePath(settings_.GetString("hba_file"), opts_.datadir));
    return 1;
  }
  auth_secret_ = tcop::ReadAuthSecret(opts_.datadir);
  try {
    ssl_ = tcop::MakeServerSslContext(settings_, opts_.datadir);
  } catch (const std::exception& e) {
    spdlog::critical("{}", e.what());
    return 1;
  }
  try {
    CreateSharedState();
  } catch (const std::exception& e) {
    spdlog::critical("{}", e.what());
    return 1;
  }
  storage::SmgrInit(opts_.datadir);  // inherited by every child
  children_.Configure(ss_.shmem.max_connections, ss_.shmem.max_aux_processes);
  if (!Listen(&error)) {
    spdlog::critical("{}", error);
    return 1;
  }
  signals_.add(SIGCHLD);
  signals_.add(SIGTERM);
  signals_.add(SIGINT);
  signals_.add(SIGQUIT);
  signals_.add(SIGHUP);
  signals_.add(SIGUSR1);  // the autovacuum launcher asks for a worker
  std::function<void(const boost::system::error_code&, int)> on_signal;
  on_signal = [this, &on_signal](const boost::system::error_code& ec, int signo) {
    if (ec) return;
    OnSignal(signo);
    if (!exit_requested_) signals_.async_wait(on_signal);
  };
  signals_.async_wait(on_signal);

  StartAuxProcesses();
  StartAccept();
  spdlog::info("database system is ready to accept connections on {}:{} (data directory \"{}\")",
               ss_.listen_address, ss_.port, opts_.datadir);
  io_.run();
  pidfile.Release();
  spdlog::info("database system is shut down");
  return exit_code_;
}

bool Postmaster::Listen(std::string* error) {
  boost::system::error_code ec;
  std::string host = ss_.listen_address == "localhost" ? "127.0.0.1" : ss_.listen_address;
  if (host == "*") host = "0.0.0.0";
  auto addr = asio::ip::make_address(host, ec);
  if (ec) {
    *error = "invalid listen_addresses \"" + ss_.listen_address + "\": " + ec.message();
    return false;
  }
  tcp::endpoint ep(addr, static_cast<unsigned short>(ss_.port));
  acceptor_.open(ep.protocol(), ec);
  if (!ec) acceptor_.set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec) acceptor_.bind(ep, ec);
  if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    *error = "could not listen on " + host + ":" + std::to_string(ss_.port) + ": " + ec.message();
    return false;
  }
  // Children must not inherit the listening socket across exec (none exec,
  // but tests spawn psql from forked helpers).
  fcntl(acceptor_.native_handle(), F_SETFD, FD_CLOEXEC);
  return true;
}

void Postmaster::StartAccept() {
  if (accepting_ || state_ != PmState::kRunning) return;
  accepting_ = true;
  acceptor_.async_accept([this](const boost::system::error_code& ec, tcp::socket socket) {
    accepting_ = false;
    if (!ec) {
      ForkBackend(std::move(socket));
    } else if (ec != asio::error::operation_aborted) {
      spdlog::warn("accept failed: {}", ec.message());
    }
    if (state_ == PmState::kRunning) StartAccept();
  });
}

pid_t Postmaster::ForkChild() {
  // All signals stay blocked across fork: a child must never run Asio's
  // signal handler, whose self-pipe it still shares with us until
  // notify_fork replaces it (a SIGQUIT meant for the child would otherwise
  // reach the postmaster as an immediate shutdown request). The child
  // unblocks once its own handlers are installed (UnblockAllSignals).
  sigset_t all, old;
  sigfillset(&all);
  sigprocmask(SIG_BLOCK, &all, &old);
  io_.notify_fork(asio::io_context::fork_prepare);
  log::FlushLog();
  const pid_t postmaster = getpid();
  pid_t pid = fork();
  if (pid == 0) {
    // A child must not outlive the postmaster: nobody would reset shared
    // memory after it, and a new server could start beside it. The kernel
    // sends SIGQUIT (exit at once, nothing more acknowledged) when we die;
    // if that already happened before prctl, leave now.
    prctl(PR_SET_PDEATHSIG, SIGQUIT);
    if (getppid() != postmaster) _exit(1);
    io_.notify_fork(asio::io_context::fork_child);
    boost::system::error_code ec;
    signals_.clear(ec);
    acceptor_.close(ec);
    // clear() restored Asio's saved dispositions; set ours (still blocked).
    for (int s : {SIGCHLD, SIGTERM, SIGINT, SIGQUIT, SIGUSR1, SIGUSR2}) signal(s, SIG_DFL);
    signal(SIGHUP, SIG_IGN);
    g_inherited_registry = &children_;
    return 0;
  }
  io_.notify_fork(asio::io_context::fork_parent);
  sigprocmask(SIG_SETMASK, &old, nullptr);
  return pid;
}

void Postmaster::ForkBackend(tcp::socket socket) {
  tcop::Refusal refusal = tcop::Refusal::kNone;
  std::optional<storage::ProcNumber> slot;
  if (state_ == PmState::kCrashReset) {
    refusal = tcop::Refusal::kRecovering;
  } else if (state_ != PmState::kRunning) {
    refusal = tcop::Refusal::kShuttingDown;
  } else {
    slot = children_.ReserveClientSlot();
    // superuser_reserved_connections is the backend's to apply: it counts
    // itself against max_connections once it knows it is no walsender.
    if (!slot) refusal = tcop::Refusal::kTooManyClients;
  }
  int32_t cancel_key = static_cast<int32_t>(rng_());
  pid_t pid = ForkChild();
  if (pid == 0) {
    tcop::BackendStartInfo info;
    info.sock_fd = socket.release();
    info.slot = slot.value_or(storage::kInvalidProcNumber);
    info.cancel_key = cancel_key;
    info.refusal = refusal;
    info.datadir = opts_.datadir;
    info.settings = &settings_;
    info.hba = &hba_;
    info.ssl_ctx = ssl_.get();
    info.auth_secret = auth_secret_;
    info.deliver_cancel = DeliverCancel;
    info.walsender_main = replication::WalSenderMain;
    tcop::BackendMain(info);
  }
  if (pid < 0) {
    spdlog::error("could not fork new process for connection: {}", strerror(errno));
    if (slot) children_.FreeSlot(*slot);
    return;  // the socket closes here
  }
  children_.Add(ChildInfo{pid, slot ? ChildKind::kBackend : ChildKind::kDeadEnd,
                          slot.value_or(storage::kInvalidProcNumber), cancel_key});
  // The parent's copy of the socket closes when `socket` goes out of scope.
}

void Postmaster::StartAuxProcesses() {
  for (ChildKind kind : {ChildKind::kWalWriter, ChildKind::kBgWriter, ChildKind::kCheckpointer}) ForkAuxProcess(kind);
  if (standby_) {
    // Nothing may write on a standby: no autovacuum until promotion.
    ForkAuxProcess(ChildKind::kStartup);
    ForkAuxProcess(ChildKind::kWalReceiver);
  } else {
    ForkAuxProcess(ChildKind::kAutovacuumLauncher);
  }
}

void Postmaster::ForkAuxProcess(ChildKind kind) {
  if (children_.HasKind(kind)) return;
  auto slot = children_.ReserveAuxSlot();
  if (!slot) {
    spdlog::error("no proc slot left for {}", ChildKindName(kind));
    return;
  }
  pid_t pid = ForkChild();
  if (pid == 0) {
    if (kind == ChildKind::kStartup) StartupProcessMain(*slot, &settings_, consistent_at_);
    if (kind == ChildKind::kWalReceiver) WalReceiverProcessMain(*slot, &settings_);
    AuxProcessMain(kind, *slot, &settings_);
  }
  if (pid < 0) {
    spdlog::error("could not fork {}: {}", ChildKindName(kind), strerror(errno));
    children_.FreeSlot(*slot);
    return;
  }
  children_.Add(ChildInfo{pid, kind, *slot, 0});
}

// One more worker unless autovacuum_max_workers run already; never while
// shutting down or resetting. A worker is not an auxiliary: it is not
// restarted when it exits, and shutdown does not wait for its work.
void Postmaster::StartAutovacuumWorker() {
  if (state_ != PmState::kRunning) return;
  if (children_.CountKind(ChildKind::kAutovacuumWorker) >= settings_.GetInt("autovacuum_max_workers")) return;
  auto slot = children_.ReserveAuxSlot();
  if (!slot) {
    spdlog::warn("no proc slot left for an autovacuum worker");
    return;
  }
  pid_t pid = ForkChild();
  if (pid == 0) AutovacuumWorkerMain(*slot, &settings_);
  if (pid < 0) {
    spdlog::error("could not fork autovacuum worker process: {}", strerror(errno));
    children_.FreeSlot(*slot);
    return;
  }
  children_.Add(ChildInfo{pid, ChildKind::kAutovacuumWorker, *slot, 0});
}

void Postmaster::SignalKind(ChildKind kind, int signo) {
  for (const ChildInfo& c : children_.children()) {
    if (c.kind == kind) kill(c.pid, signo);
  }
}

void Postmaster::OnSignal(int signo) {
  switch (signo) {
    case SIGCHLD:
      ReapChildren();
      break;
    case SIGUSR1:
      StartAutovacuumWorker();
      break;
    case SIGHUP:
      Reload();
      break;
    case SIGINT:  // smart: wait for sessions to end
      if (state_ == PmState::kRunning || state_ == PmState::kCrashReset) {
        spdlog::info("received smart shutdown request");
        state_ = PmState::kSmartShutdown;
        boost::system::error_code ec;
        acceptor_.close(ec);
        // Workers do not hold up shutdown, as in PostgreSQL.
        SignalKind(ChildKind::kAutovacuumWorker, SIGTERM);
      }
      MaybeExit();
      break;
    case SIGTERM:  // fast: terminate sessions now
      if (state_ != PmState::kFastShutdown) {
        spdlog::info("received fast shutdown request");
        state_ = PmState::kFastShutdown;
        boost::system::error_code ec;
        acceptor_.close(ec);
        SignalChildren(SIGTERM, false);
        SignalKind(ChildKind::kAutovacuumWorker, SIGTERM);
      }
      MaybeExit();
      break;
    case SIGQUIT:  // immediate
      spdlog::info("received immediate shutdown request");
      SignalChildren(SIGQUIT, true);
      exit_code_ = 0;
      exit_requested_ = true;
      io_.stop();
      break;
    default:
      break;
  }
}

void Postmaster::Reload() {
  spdlog::info("received SIGHUP, reloading configuration files");
  // pg_hba.conf is re-read whatever hearth.conf holds; a bad file keeps the
  // rules in force, as PostgreSQL.
  std::string hba_error;
  if (!LoadHba(&hba_error)) {
    spdlog::error("{}", hba_error);
    spdlog::error("{} was not reloaded", tcop::HbaFilePath(settings_.GetString("hba_file"), opts_.datadir));
  }
  std::string error;
  auto ignored = ReloadServerSettings(settings_, opts_.datadir, &error);
  if (!error.empty()) {
    spdlog::error("configuration file not reloaded: {}", error);
    return;
  }
  for (const auto& name : ignored) {
    spdlog::warn("parameter \"{}\" cannot be changed without restarting the server", name);
  }
  PublishSyncStandbyNames(settings_);
  try {
    ssl_ = tcop::MakeServerSslContext(settings_, opts_.datadir);
  } catch (const std::exception& e) {
    spdlog::error("{}", e.what());
    spdlog::error("SSL configuration was not reloaded");
  }
  SignalChildren(SIGHUP, true);
}

bool Postmaster::LoadHba(std::string* error) {
  auto rules = tcop::LoadHbaFile(tcop::HbaFilePath(settings_.GetString("hba_file"), opts_.datadir), error);
  if (!rules) return false;
  hba_ = std::move(*rules);
  return true;
}

void Postmaster::SignalChildren(int signo, bool aux_too) {
  for (const ChildInfo& c : children_.children()) {
    bool is_aux = c.kind != ChildKind::kBackend && c.kind != ChildKind::kDeadEnd;
    if (is_aux && !aux_too) continue;
    kill(c.pid, signo);
  }
}

void Postmaster::ReapChildren() {
  for (;;) {
    int status = 0;
    pid_t pid = waitpid(-1, &status, WNOHANG);
    if (pid <= 0) break;
    auto child = children_.Remove(pid);
    if (child) HandleChildExit(*child, status);
  }
  if (state_ == PmState::kCrashReset) FinishCrashResetIfDone();
  MaybeExit();
}

void Postmaster::HandleChildExit(const ChildInfo& child, int status) {
  // A backend exits 0 at session end and 1 after a FATAL error; both leave
  // shared memory consistent. Anything else (a signal, exit 2+) may have left
  // it half-changed, so everyone restarts from a fresh segment.
  bool clean = WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 1);
  if (child.kind == ChildKind::kDeadEnd) return;
  if (!clean) {
    std::string how = WIFSIGNALED(status) ? "was terminated by signal " + std::to_string(WTERMSIG(status))
                                          : "exited with exit code " + std::to_string(WEXITSTATUS(status));
    if (state_ == PmState::kCrashReset) return;  // already resetting
    spdlog::error("{} process (PID {}) {}", ChildKindName(child.kind), child.pid, how);
    if (state_ == PmState::kRunning) StartCrashReset(how);
    return;
  }
  if (child.kind == ChildKind::kStartup && standby_ && state_ == PmState::kRunning) {
    // The startup process exits cleanly only once it promoted the server.
    spdlog::info("recovery ended: the server is no longer a standby");
    standby_ = false;
    SignalKind(ChildKind::kWalReceiver, SIGTERM);
    StartAuxProcesses();
    return;
  }
  bool is_aux = child.kind != ChildKind::kBackend && child.kind != ChildKind::kAutovacuumWorker;
  if (child.kind == ChildKind::kWalReceiver && !standby_) return;
  if (is_aux && state_ == PmState::kRunning) {
    spdlog::warn("{} process (PID {}) exited; restarting it", ChildKindName(child.kind), child.pid);
    StartAuxProcesses();
  }
}

void Postmaster::StartCrashReset(const std::string& why) {
  spdlog::warn("terminating any other active server processes");
  state_ = PmState::kCrashReset;
  SignalChildren(SIGQUIT, true);
  kill_timer_.expires_after(kChildExitGrace);
  kill_timer_.async_wait([this](const boost::system::error_code& ec) {
    if (ec || state_ != PmState::kCrashReset) return;
    SignalChildren(SIGKILL, true);
  });
  FinishCrashResetIfDone();
}

void Postmaster::FinishCrashResetIfDone() {
  for (const ChildInfo& c : children_.children()) {
    if (c.kind != ChildKind::kDeadEnd) return;  // still waiting for someone
  }
  kill_timer_.cancel();
  spdlog::info("all server processes terminated; reinitializing");
  RecreateSharedState();
}

// Rebuilds shared memory and recovers. A failure (a full disk above all:
// the end-of-recovery checkpoint needs a little space) is retried with a
// growing pause instead of ending the server; connections wait in the
// listen backlog meanwhile, and a shutdown request still ends it.
void Postmaster::RecreateSharedState() {
  if (state_ != PmState::kCrashReset) return;
  shared_ready_ = false;
  shmem_.reset();
  try {
    CreateSharedState();
  } catch (const std::exception& e) {
    shmem_.reset();
    shared_ready_ = false;
    const auto pause = std::min<std::chrono::milliseconds>(kMaxResetRetryPause,
                                                           kFirstResetRetryPause * (1 << std::min(reset_failures_, 8)));
    reset_failures_++;
    spdlog::error("could not recreate shared memory: {}; retrying in {} ms", e.what(), pause.count());
    reset_retry_timer_.expires_after(pause);
    reset_retry_timer_.async_wait([this](const boost::system::error_code& ec) {
      if (!ec) RecreateSharedState();
    });
    return;
  }
  reset_failures_ = 0;
  state_ = PmState::kRunning;
  StartAuxProcesses();
  StartAccept();
  spdlog::info("database system is ready to accept connections");
}

void Postmaster::MaybeExit() {
  if (state_ != PmState::kSmartShutdown && state_ != PmState::kFastShutdown) return;
  if (children_.CountKind(ChildKind::kBackend) > 0 || children_.CountKind(ChildKind::kDeadEnd) > 0 ||
      children_.CountKind(ChildKind::kAutovacuumWorker) > 0) {
    return;
  }
  // Sessions are gone: stop the auxiliaries (the checkpointer will write a
  // shutdown checkpoint here once WAL exists), then exit when they are reaped.
  bool aux_left = false;
  for (const ChildInfo& c : children_.children()) {
    kill(c.pid, SIGUSR2);
    aux_left = true;
  }
  if (aux_left) return;
  // Every process is gone: record the exact next xid for the restart
  // (unless a crash reset never rebuilt shared state: then WAL has it).
  if (!shared_ready_) {
    exit_requested_ = true;
    io_.stop();
    return;
  }
  try {
    catalog::CatalogShutdown();
    access::TransamShutdown();
    access::XLogShutdown();
  } catch (const std::exception& e) {
    spdlog::error("could not write the transaction state at shutdown: {}", e.what());
  }
  exit_requested_ = true;
  io_.stop();
}

}  // namespace

int PostmasterMain(const PostmasterOptions& opts) {
  std::string error;
  if (!CheckDataDirectory(opts.datadir, &error)) {
    fprintf(stderr, "hearthd: %s\n", error.c_str());
    return 1;
  }
  config::Settings settings;
  if (!LoadServerSettings(settings, opts.datadir, opts.overrides, &error)) {
    fprintf(stderr, "hearthd: %s\n", error.c_str());
    return 1;
  }
  // As PostgreSQL: minimal WAL cannot feed WAL senders.
  if (settings.hot().wal_level == config::WalLevel::kMinimal && settings.GetInt("max_wal_senders") > 0) {
    fprintf(stderr, "hearthd: FATAL:  WAL streaming (max_wal_senders > 0) requires wal_level \"replica\" or \"logical\"\n");
    return 1;
  }
  ServerSettings ss = ReadServerSettings(settings);
  // ss.shmem.max_connections also counts the walsenders' places.
  const int max_connections = static_cast<int>(settings.GetInt("max_connections"));
  if (ss.superuser_reserved_connections >= max_connections) {
    fprintf(stderr, "hearthd: superuser_reserved_connections (%d) must be less than max_connections (%d)\n",
            ss.superuser_reserved_connections, max_connections);
    return 1;
  }
  std::string log_file = ss.log_file;
  if (!log_file.empty() && log_file[0] != '/') log_file = opts.datadir + "/" + log_file;
  log::InitLogging("postmaster", log_file, ss.log_min_messages);
  Postmaster pm(opts, std::move(settings));
  return pm.Run();
}

}  // namespace hearth::postmaster
