// tests/integration/test_server.cpp
//
// Principal entry points: TestServer, RunCommand, FreePort, RawConn and the
// raw protocol message builders/decoders.
#include "test_server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace hearth::testing {

namespace fs = std::filesystem;

std::string HearthdPath() { return HEARTH_BINARY_DIR "/hearthd"; }
std::string SourceDir() { return HEARTH_SOURCE_DIR; }

CommandResult RunCommand(const std::vector<std::string>& argv, const std::string& input, int timeout_s) {
  CommandResult r;
  int in_pipe[2], out_pipe[2], err_pipe[2];
  // Close-on-exec: a command another thread starts meanwhile must not
  // inherit these ends (it would keep this command's stdin open, and the
  // two would wait for each other's EOF).
  if (pipe2(in_pipe, O_CLOEXEC) != 0 || pipe2(out_pipe, O_CLOEXEC) != 0 || pipe2(err_pipe, O_CLOEXEC) != 0) return r;
  pid_t pid = fork();
  if (pid == 0) {
    dup2(in_pipe[0], 0);
    dup2(out_pipe[1], 1);
    dup2(err_pipe[1], 2);
    for (int fd : {in_pipe[0], in_pipe[1], out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]}) close(fd);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  close(in_pipe[0]);
  close(out_pipe[1]);
  close(err_pipe[1]);
  fcntl(in_pipe[1], F_SETFL, O_NONBLOCK);
  size_t written = 0;
  if (input.empty()) close(in_pipe[1]);
  bool in_open = !input.empty();
  bool out_open = true, err_open = true;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
  char buf[65536];
  while (out_open || err_open) {
    std::vector<pollfd> fds;
    if (out_open) fds.push_back({out_pipe[0], POLLIN, 0});
    if (err_open) fds.push_back({err_pipe[0], POLLIN, 0});
    if (in_open) fds.push_back({in_pipe[1], POLLOUT, 0});
    int ms = static_cast<int>(
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count());
    if (ms <= 0) {
      kill(pid, SIGKILL);
      r.err += "\n[killed after timeout]";
      break;
    }
    if (poll(fds.data(), fds.size(), ms) < 0) continue;
    for (const pollfd& p : fds) {
      if (p.revents == 0) continue;
      if (p.fd == in_pipe[1]) {
        ssize_t n = write(in_pipe[1], input.data() + written, input.size() - written);
        if (n > 0) written += static_cast<size_t>(n);
        if (n < 0 || written == input.size()) {
          close(in_pipe[1]);
          in_open = false;
        }
        continue;
      }
      ssize_t n = read(p.fd, buf, sizeof buf);
      if (n <= 0) {
        close(p.fd);
        (p.fd == out_pipe[0] ? out_open : err_open) = false;
      } else {
        (p.fd == out_pipe[0] ? r.out : r.err).append(buf, static_cast<size_t>(n));
      }
    }
  }
  if (in_open) close(in_pipe[1]);
  if (out_open) close(out_pipe[0]);
  if (err_open) close(err_pipe[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

CommandResult RunCommandMerged(const std::vector<std::string>& argv, const std::string& input, int timeout_s) {
  std::vector<std::string> sh = {"sh", "-c", "exec \"$0\" \"$@\" 2>&1"};
  sh.insert(sh.end(), argv.begin(), argv.end());
  return RunCommand(sh, input, timeout_s);
}

bool KillServerHard(TestServer& server) {
  const std::vector<pid_t> children = server.ChildPids();
  server.Stop(SIGKILL);
  for (pid_t p : children) kill(p, SIGKILL);
  const bool gone = WaitFor([&] {
    for (pid_t p : children) {
      if (!ProcessGone(p)) return false;
    }
    return true;
  }, 10000);
  KillProcessesMentioning(server.datadir());
  return gone;
}

bool ProcessGone(pid_t pid) {
  if (kill(pid, 0) != 0) return true;
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string pid_s, comm, state;
  in >> pid_s >> comm >> state;
  return state == "Z";  // a zombie holds no files and no mapping
}

int KillProcessesMentioning(const std::string& needle) {
  std::vector<pid_t> killed;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator("/proc", ec)) {
    const std::string name = entry.path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    pid_t pid = static_cast<pid_t>(std::stol(name));
    if (pid == getpid()) continue;
    std::string cmdline;
    try {
      std::ifstream in(entry.path() / "cmdline", std::ios::binary);
      cmdline.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    } catch (const std::exception&) {
      continue;  // it exited while we read (libstdc++ throws on ESRCH): nothing to kill
    }
    if (cmdline.find(needle) == std::string::npos) continue;
    if (kill(pid, SIGKILL) == 0) killed.push_back(pid);
  }
  // SIGKILL is asynchronous: wait until they are really gone, so a server
  // started next on the same directory does not find them still attached.
  WaitFor([&] {
    for (pid_t pid : killed) {
      waitpid(pid, nullptr, WNOHANG);
      if (!ProcessGone(pid)) return false;
    }
    return true;
  }, 10000);
  return static_cast<int>(killed.size());
}

CommandResult RunSecondServer(const std::string& datadir) {
  return RunCommand({HearthdPath(), "-D", datadir, "-c", "port=" + std::to_string(FreePort()), "-c",
                     "listen_addresses=127.0.0.1"},
                    "", 15);
}

int FreePort() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  socklen_t len = sizeof addr;
  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  int port = ntohs(addr.sin_port);
  close(fd);
  return port;
}

TestServer::TestServer(std::vector<std::pair<std::string, std::string>> settings, std::vector<std::string> init_args,
                       int port, const std::string& parent_dir)
    : settings_(std::move(settings)) {
  if (const char* ext = getenv("HEARTH_IT_EXTERNAL_PORT"); ext != nullptr && *ext != '\0') {
    external_ = true;
    port_ = atoi(ext);
    return;
  }
  std::string tmpl_str = parent_dir + "/hearth-test-XXXXXX";
  char* tmpl = tmpl_str.data();
  if (mkdtemp(tmpl) == nullptr) throw std::runtime_error("mkdtemp failed");
  datadir_ = std::string(tmpl) + "/data";
  std::vector<std::string> init_argv = {HearthdPath(), "init", "-D", datadir_};
  init_argv.insert(init_argv.end(), init_args.begin(), init_args.end());
  try {
    CommandResult init = RunCommand(init_argv);
    if (init.exit_code != 0) throw std::runtime_error("hearthd init failed: " + init.err);
    port_ = port > 0 ? port : FreePort();
    Start();
  } catch (...) {
    // No destructor runs for a half-built object: clean up here.
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
      pid_ = -1;
    }
    KillProcessesMentioning(datadir_);
    std::error_code ec;
    fs::remove_all(tmpl, ec);
    throw;
  }
}

TestServer::TestServer(ExistingDataDir dir, std::vector<std::pair<std::string, std::string>> settings)
    : settings_(std::move(settings)), datadir_(std::move(dir.path)) {
  port_ = FreePort();
  try {
    Start();
  } catch (...) {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    KillProcessesMentioning(datadir_);
    throw;
  }
}

TestServer::~TestServer() {
  if (external_) return;
  if (pid_ > 0) {
    Stop(SIGTERM);
  }
  if (pid_ > 0) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  // Kill any orphaned children (after an immediate shutdown or a crash test).
  KillProcessesMentioning(datadir_);
  // HEARTH_TEST_KEEP=1 keeps the data directory (and server.log) for a look.
  if (getenv("HEARTH_TEST_KEEP") != nullptr) {
    fprintf(stderr, "kept test data directory %s\n", datadir_.c_str());
    return;
  }
  std::error_code ec;
  fs::remove_all(fs::path(datadir_).parent_path(), ec);
}

void TestServer::Start() {
  if (external_) return;
  std::vector<std::string> argv = {HearthdPath(), "-D", datadir_, "-c", "port=" + std::to_string(port_),
                                   "-c", "listen_addresses=127.0.0.1", "-c", "log_file=server.log"};
  for (const auto& [k, v] : settings_) {
    argv.push_back("-c");
    argv.push_back(k + "=" + v);
  }
  pid_t pid = fork();
  if (pid == 0) {
    int devnull = open("/dev/null", O_RDWR);
    dup2(devnull, 0);
    std::vector<char*> args;
    for (auto& a : argv) args.push_back(a.data());
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  pid_ = pid;
  if (!WaitReady()) throw std::runtime_error("hearthd did not become ready; log:\n" + log());
}

int TestServer::Stop(int signo) {
  if (pid_ <= 0) return 0;
  kill(pid_, signo);
  int status = 0;
  for (int i = 0; i < 300; i++) {
    pid_t r = waitpid(pid_, &status, WNOHANG);
    if (r == pid_) {
      pid_ = -1;
      return status;
    }
    if (r < 0 && errno == ECHILD) {  // already reaped by the caller
      pid_ = -1;
      return 0;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  kill(pid_, SIGKILL);
  waitpid(pid_, &status, 0);
  pid_ = -1;
  return status;
}

bool TestServer::WaitReady(int timeout_s) const {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
  while (std::chrono::steady_clock::now() < deadline) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<uint16_t>(port_));
    bool ok = connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
    close(fd);
    if (ok) return true;
    if (pid_ > 0 && waitpid(pid_, nullptr, WNOHANG) == pid_) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

std::string TestServer::log() const {
  std::ifstream in(datadir_ + "/server.log");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

CommandResult TestServer::Psql(const std::vector<std::string>& args, const std::string& input) const {
  std::vector<std::string> argv = {"psql", "-X", "-h", "127.0.0.1", "-p", std::to_string(port_), "-U", "hearth",
                                   "-d", "hearth", "-v", "ON_ERROR_STOP=1"};
  argv.insert(argv.end(), args.begin(), args.end());
  return RunCommand(argv, input);
}

CommandResult TestServer::PsqlScript(const std::string& script, const std::vector<std::string>& args) const {
  std::vector<std::string> argv = {"psql", "-X", "-h", "127.0.0.1", "-p", std::to_string(port_), "-U", "hearth",
                                   "-d", "hearth"};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.push_back("-f");
  argv.push_back("-");
  return RunCommandMerged(argv, script);
}

std::string TestServer::PsqlValue(const std::string& sql) const {
  CommandResult r = Psql({"-A", "-t", "-q", "-c", sql});
  std::string out = r.out;
  while (!out.empty() && out.back() == '\n') out.pop_back();
  if (r.exit_code != 0) return "ERROR(" + std::to_string(r.exit_code) + "): " + r.err;
  return out;
}

std::vector<pid_t> TestServer::ChildPids() const {
  // read(2), not an ifstream: reading the file while a child exits can fail
  // with ESRCH, which libstdc++ turns into an exception that aborts the test.
  std::vector<pid_t> pids;
  const std::string path = "/proc/" + std::to_string(pid_) + "/task/" + std::to_string(pid_) + "/children";
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return pids;
  std::string text;
  char buf[4096];
  for (;;) {
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n <= 0) break;
    text.append(buf, static_cast<size_t>(n));
  }
  close(fd);
  std::istringstream in(text);
  pid_t p;
  while (in >> p) pids.push_back(p);
  return pids;
}

// ---------------------------------------------------------------------------
// Raw protocol helpers.

void SleepMs(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

RawConn::RawConn(int port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(port));
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    close(fd);
    return;
  }
  fd_ = fd;
}

RawConn::~RawConn() {
  if (fd_ >= 0) close(fd_);
}

bool RawConn::Send(std::string_view bytes) {
  if (fd_ < 0) return false;
  size_t off = 0;
  while (off < bytes.size()) {
    ssize_t n = ::send(fd_, bytes.data() + off, bytes.size() - off, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    off += static_cast<size_t>(n);
  }
  return true;
}

bool RawConn::SendStartup(const std::vector<std::pair<std::string, std::string>>& params) {
  protocol::MessageWriter w('\0');
  w.Int32(protocol::kProtocolVersion3);
  for (const auto& [k, v] : params) w.CString(k).CString(v);
  w.Byte(0);
  return Send(w.Finish());
}

std::vector<RawMessage> RawConn::Startup(const std::string& user, const std::string& database) {
  if (!SendStartup({{"user", user}, {"database", database}, {"application_name", "hearth_it"}})) return {};
  return ReadStartupReply();
}

std::vector<RawMessage> RawConn::ReadStartupReply(int timeout_ms) {
  std::vector<RawMessage> out = ReadUntilReady(timeout_ms);
  for (const RawMessage& m : out) {
    protocol::MessageReader r(m.body);
    if (m.type == 'S') {
      auto k = r.CString();
      auto v = r.CString();
      if (k && v) params_[std::string(*k)] = std::string(*v);
    } else if (m.type == 'K') {
      backend_pid_ = r.Int32().value_or(0);
      secret_ = r.Int32().value_or(0);
    }
  }
  return out;
}

bool RawConn::Fill(size_t n, int timeout_ms) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  char buf[65536];
  while (in_.size() < n) {
    if (fd_ < 0 || eof_) return false;
    int ms = static_cast<int>(
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count());
    if (ms <= 0) return false;
    pollfd p{fd_, POLLIN, 0};
    int pr = poll(&p, 1, ms);
    if (pr < 0 && errno == EINTR) continue;
    if (pr <= 0) return false;
    ssize_t got = ::recv(fd_, buf, sizeof buf, 0);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      eof_ = true;
      return false;
    }
    in_.append(buf, static_cast<size_t>(got));
  }
  return true;
}

int RawConn::ReadByte(int timeout_ms) {
  if (!Fill(1, timeout_ms)) return -1;
  int b = static_cast<unsigned char>(in_[0]);
  in_.erase(0, 1);
  return b;
}

std::optional<RawMessage> RawConn::Read(int timeout_ms) {
  if (!Fill(5, timeout_ms)) return std::nullopt;
  int32_t len = protocol::ReadInt32BE(in_.data() + 1);
  if (len < 4 || len > (1 << 30)) return std::nullopt;
  if (!Fill(1 + static_cast<size_t>(len), timeout_ms)) return std::nullopt;
  RawMessage m;
  m.type = in_[0];
  m.body = in_.substr(5, static_cast<size_t>(len) - 4);
  in_.erase(0, 1 + static_cast<size_t>(len));
  return m;
}

std::vector<RawMessage> RawConn::ReadUntilReady(int timeout_ms) {
  std::vector<RawMessage> out;
  while (true) {
    auto m = Read(timeout_ms);
    if (!m) break;
    out.push_back(std::move(*m));
    if (out.back().type == 'Z') break;
    // A FATAL error ends the session: nothing more will come.
    if (out.back().type == 'E' && ErrorOf(out.back()).severity_nonlocal == "FATAL") break;
  }
  return out;
}

std::vector<RawMessage> RawConn::Query(std::string_view sql, int timeout_ms) {
  if (!Send(QueryMsg(sql))) return {};
  return ReadUntilReady(timeout_ms);
}

std::vector<RawMessage> RawConn::DrainUntilEof(int timeout_ms) {
  std::vector<RawMessage> out;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  while (!eof_ && std::chrono::steady_clock::now() < deadline) {
    auto m = Read(100);
    if (m) out.push_back(std::move(*m));
  }
  return out;
}

std::string QueryMsg(std::string_view sql) {
  protocol::MessageWriter w('Q');
  w.CString(sql);
  return w.Finish();
}

std::string ParseMsg(std::string_view name, std::string_view sql, const std::vector<int32_t>& param_oids) {
  protocol::MessageWriter w('P');
  w.CString(name).CString(sql).Int16(static_cast<int16_t>(param_oids.size()));
  for (int32_t oid : param_oids) w.Int32(oid);
  return w.Finish();
}

std::string BindMsg(std::string_view portal, std::string_view stmt, const std::vector<int16_t>& param_formats,
                    const std::vector<std::optional<std::string>>& params, const std::vector<int16_t>& result_formats) {
  protocol::MessageWriter w('B');
  w.CString(portal).CString(stmt).Int16(static_cast<int16_t>(param_formats.size()));
  for (int16_t f : param_formats) w.Int16(f);
  w.Int16(static_cast<int16_t>(params.size()));
  for (const auto& p : params) {
    if (!p) {
      w.Int32(-1);
    } else {
      w.Int32(static_cast<int32_t>(p->size())).Bytes(*p);
    }
  }
  w.Int16(static_cast<int16_t>(result_formats.size()));
  for (int16_t f : result_formats) w.Int16(f);
  return w.Finish();
}

std::string DescribeMsg(char kind, std::string_view name) {
  protocol::MessageWriter w('D');
  w.Byte(static_cast<uint8_t>(kind)).CString(name);
  return w.Finish();
}

std::string ExecuteMsg(std::string_view portal, int32_t max_rows) {
  protocol::MessageWriter w('E');
  w.CString(portal).Int32(max_rows);
  return w.Finish();
}

std::string CloseMsg(char kind, std::string_view name) {
  protocol::MessageWriter w('C');
  w.Byte(static_cast<uint8_t>(kind)).CString(name);
  return w.Finish();
}

std::string SyncMsg() { return protocol::MessageWriter('S').Finish(); }
std::string FlushMsg() { return protocol::MessageWriter('H').Finish(); }
std::string TerminateMsg() { return protocol::MessageWriter('X').Finish(); }
std::string CopyDataMsg(std::string_view data) { return protocol::MessageWriter('d').Bytes(data).Finish(); }
std::string CopyDoneMsg() { return protocol::MessageWriter('c').Finish(); }

std::string CancelRequestMsg(int32_t pid, int32_t secret) {
  protocol::MessageWriter w('\0');
  w.Int32(protocol::kCancelRequestCode).Int32(pid).Int32(secret);
  return w.Finish();
}

std::string SslRequestMsg() {
  protocol::MessageWriter w('\0');
  w.Int32(protocol::kSslRequestCode);
  return w.Finish();
}

std::string Types(const std::vector<RawMessage>& msgs) {
  std::string s;
  for (const RawMessage& m : msgs) s.push_back(m.type);
  return s;
}

const RawMessage* First(const std::vector<RawMessage>& msgs, char type) {
  for (const RawMessage& m : msgs) {
    if (m.type == type) return &m;
  }
  return nullptr;
}

protocol::ErrorFields ErrorOf(const RawMessage& m) {
  return protocol::DecodeErrorFields(m.body).value_or(protocol::ErrorFields{});
}

std::string FirstSqlstate(const std::vector<RawMessage>& msgs) {
  const RawMessage* e = First(msgs, 'E');
  return e == nullptr ? "" : ErrorOf(*e).sqlstate;
}

std::vector<std::optional<std::string>> DataRowValues(const RawMessage& m) {
  std::vector<std::optional<std::string>> out;
  protocol::MessageReader r(m.body);
  int16_t n = r.Int16().value_or(0);
  for (int i = 0; i < n; i++) {
    int32_t len = r.Int32().value_or(-1);
    if (len < 0) {
      out.emplace_back(std::nullopt);
      continue;
    }
    auto b = r.Bytes(static_cast<size_t>(len));
    out.emplace_back(b ? std::string(*b) : std::string());
  }
  return out;
}

std::vector<std::string> FirstColumn(const std::vector<RawMessage>& msgs) {
  std::vector<std::string> out;
  for (const RawMessage& m : msgs) {
    if (m.type != 'D') continue;
    auto v = DataRowValues(m);
    out.push_back(v.empty() || !v[0] ? "NULL" : *v[0]);
  }
  return out;
}

std::string CommandTag(const RawMessage& m) {
  protocol::MessageReader r(m.body);
  auto s = r.CString();
  return s ? std::string(*s) : std::string();
}

std::vector<FieldDesc> RowDescriptionOf(const RawMessage& m) {
  std::vector<FieldDesc> out;
  protocol::MessageReader r(m.body);
  int16_t n = r.Int16().value_or(0);
  for (int i = 0; i < n && !r.failed(); i++) {
    FieldDesc f;
    f.name = std::string(r.CString().value_or(""));
    f.table_oid = r.Int32().value_or(0);
    f.attnum = r.Int16().value_or(0);
    f.type_oid = r.Int32().value_or(0);
    f.typlen = r.Int16().value_or(0);
    f.typmod = r.Int32().value_or(0);
    f.format = r.Int16().value_or(0);
    out.push_back(f);
  }
  return out;
}

std::vector<int32_t> ParameterTypesOf(const RawMessage& m) {
  std::vector<int32_t> out;
  protocol::MessageReader r(m.body);
  int16_t n = r.Int16().value_or(0);
  for (int i = 0; i < n && !r.failed(); i++) out.push_back(r.Int32().value_or(0));
  return out;
}

char LastStatus(const std::vector<RawMessage>& msgs) {
  for (auto it = msgs.rbegin(); it != msgs.rend(); ++it) {
    if (it->type == 'Z') return it->body.empty() ? '?' : it->body[0];
  }
  return 0;
}

}  // namespace hearth::testing
