// client/shell/shell.cpp
//
// Principal entry points: Shell::Run. Input comes from a LineSource (a file,
// piped stdin, or libedit); StatementSplitter cuts it into statements, each
// sent as one simple Query; results go through FormatTable and
// FormatServerMessage. Ctrl-C writes to a self-pipe that a helper thread
// turns into a CancelRequest, so no network I/O happens in the handler.
#include "client/shell/shell.h"

#include <editline/readline.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <thread>

#include "client/client.h"
#include "client/shell/aligned_format.h"
#include "client/shell/error_format.h"
#include "client/shell/statement_splitter.h"

namespace hearth::client {
namespace {

constexpr const char* kVersion = "0.1.0";
constexpr size_t kCopyChunkBytes = 64 * 1024;

// ---- input sources ----

class LineSource {
 public:
  virtual ~LineSource() = default;
  // Next line without its newline; nullopt at end of input.
  virtual std::optional<std::string> ReadLine(const std::string& prompt) = 0;
  virtual bool interactive() const { return false; }
  int lineno = 0;
};

class StreamSource : public LineSource {
 public:
  explicit StreamSource(std::istream& in) : in_(in) {}
  std::optional<std::string> ReadLine(const std::string&) override {
    std::string line;
    if (!std::getline(in_, line)) return std::nullopt;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    ++lineno;
    return line;
  }

 private:
  std::istream& in_;
};

class EditlineSource : public LineSource {
 public:
  EditlineSource() {
    const char* home = std::getenv("HOME");
    if (home != nullptr) history_path_ = std::string(home) + "/.hearth_history";
    using_history();
    if (!history_path_.empty()) read_history(history_path_.c_str());
  }
  ~EditlineSource() override {
    if (!history_path_.empty()) write_history(history_path_.c_str());
  }
  std::optional<std::string> ReadLine(const std::string& prompt) override {
    char* raw = readline(prompt.c_str());
    if (raw == nullptr) return std::nullopt;
    std::string line(raw);
    std::free(raw);
    if (line.find_first_not_of(" \t") != std::string::npos) add_history(line.c_str());
    ++lineno;
    return line;
  }
  bool interactive() const override { return true; }

 private:
  std::string history_path_;
};

// ---- Ctrl-C → CancelRequest ----

int g_cancel_pipe[2] = {-1, -1};
std::atomic<bool> g_query_running{false};

void OnSigint(int) {
  if (g_query_running.load() && g_cancel_pipe[1] >= 0) {
    const char c = 'c';
    [[maybe_unused]] ssize_t n = write(g_cancel_pipe[1], &c, 1);
  }
}

std::string Trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return "";
  size_t e = s.find_last_not_of(" \t\r\n");
  return std::string(s.substr(b, e - b + 1));
}

// Splits a backslash command's argument text into words; '...' quoting with
// '' for a quote, as psql does for \echo and \set.
std::vector<std::string> SplitArgs(std::string_view s) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    if (i >= s.size()) break;
    std::string word;
    while (i < s.size() && s[i] != ' ' && s[i] != '\t') {
      if (s[i] == '\'') {
        ++i;
        while (i < s.size()) {
          if (s[i] == '\'' && i + 1 < s.size() && s[i + 1] == '\'') {
            word += '\'';
            i += 2;
          } else if (s[i] == '\'') {
            ++i;
            break;
          } else {
            word += s[i++];
          }
        }
      } else {
        word += s[i++];
      }
    }
    out.push_back(std::move(word));
  }
  return out;
}

// psql's "Time: 1.234 ms", with "(mm:ss.fff)" etc. from one second up.
std::string FormatElapsed(double ms) {
  char buf[128];
  if (ms < 1000.0) {
    std::snprintf(buf, sizeof(buf), "Time: %.3f ms\n", ms);
    return buf;
  }
  const double seconds = ms / 1000.0;
  const double minutes = std::floor(seconds / 60.0);
  const double secs = seconds - minutes * 60.0;
  if (minutes < 60.0) {
    std::snprintf(buf, sizeof(buf), "Time: %.3f ms (%02d:%06.3f)\n", ms,
                  static_cast<int>(minutes), secs);
    return buf;
  }
  const double hours = std::floor(minutes / 60.0);
  const double mins = minutes - hours * 60.0;
  if (hours < 24.0) {
    std::snprintf(buf, sizeof(buf), "Time: %.3f ms (%02d:%02d:%06.3f)\n", ms,
                  static_cast<int>(hours), static_cast<int>(mins), secs);
    return buf;
  }
  const double days = std::floor(hours / 24.0);
  std::snprintf(buf, sizeof(buf), "Time: %.3f ms (%.0f d %02d:%02d:%06.3f)\n", ms, days,
                static_cast<int>(hours - days * 24.0), static_cast<int>(mins), secs);
  return buf;
}

constexpr const char* kHelpText =
    "General\n"
    "  \\q                     quit hearth\n"
    "  \\?                     show this help\n"
    "\n"
    "Query Buffer\n"
    "  \\r                     reset (clear) the query buffer\n"
    "\n"
    "Input/Output\n"
    "  \\echo [STRING]         write string to standard output\n"
    "\n"
    "Formatting\n"
    "  \\a                     toggle between unaligned and aligned output mode\n"
    "  \\t [on|off]            show only rows\n"
    "\n"
    "Connection\n"
    "  \\conninfo              display information about current connection\n"
    "\n"
    "Variables\n"
    "  \\set [NAME [VALUE]]    set internal variable, or list all if no parameters\n"
    "  \\unset NAME            unset (delete) internal variable\n"
    "                         ON_ERROR_STOP: stop a script at the first error\n"
    "\n"
    "Other\n"
    "  \\timing [on|off]       toggle timing of commands\n";

}  // namespace

class Shell::Impl {
 public:
  explicit Impl(ShellOptions o) : opts_(std::move(o)) {
    print_.format = opts_.unaligned ? PrintOptions::Format::kUnaligned
                                    : PrintOptions::Format::kAligned;
    print_.tuples_only = opts_.tuples_only;
    vars_ = opts_.variables;
  }
  ~Impl() { StopCancelThread(); }

  int Run();

 private:
  enum class Flow { kContinue, kQuit, kStop };

  bool Connect();
  void StartCancelThread();
  void StopCancelThread();
  Flow RunCommandString(const std::string& cmd);
  Flow RunFile(const std::string& path);
  Flow RunSource(LineSource& src, const std::string& name);
  // Sends `sql` as one Query and prints everything. Returns false if any
  // statement failed. Sets lost_ if the connection broke.
  bool ExecuteSql(const std::string& sql);
  Flow HandleMeta(const std::string& line, StatementSplitter* splitter);
  std::string Prompt(const StatementSplitter& sp) const;
  std::string MessagePrefix() const;
  bool OnErrorStop() const;
  void Err(const std::string& text);
  void Out(const std::string& text);
  // Ends the script with kStop when ON_ERROR_STOP is set and we are not interactive.
  Flow AfterStatement(bool ok);

  ShellOptions opts_;
  std::optional<Connection> conn_;
  PrintOptions print_;
  std::map<std::string, std::string> vars_;
  bool timing_ = false;
  bool last_ok_ = true;       // outcome of the last statement or command
  bool exit_failed_ = false;  // exit with kExitError
  bool file_failed_ = false;  // a -f file could not be opened
  bool lost_ = false;
  LineSource* source_ = nullptr;  // where COPY FROM STDIN data and prefixes come from
  std::string source_name_;       // "" for -c and interactive
  std::thread cancel_thread_;
};

void Shell::Impl::Out(const std::string& text) {
  std::fwrite(text.data(), 1, text.size(), stdout);
}

void Shell::Impl::Err(const std::string& text) {
  std::fflush(stdout);
  std::fwrite(text.data(), 1, text.size(), stderr);
  std::fflush(stderr);
}

std::string Shell::Impl::MessagePrefix() const {
  if (source_ == nullptr || source_->interactive() || source_name_.empty()) return "";
  return "hearth:" + source_name_ + ":" + std::to_string(source_->lineno) + ": ";
}

bool Shell::Impl::OnErrorStop() const {
  auto it = vars_.find("ON_ERROR_STOP");
  if (it == vars_.end()) return false;
  // psql: a set variable with an unparsable value counts as on.
  return ParseBoolValue(it->second).value_or(true);
}

bool Shell::Impl::Connect() {
  ConnectOptions co;
  co.host = opts_.host;
  co.port = opts_.port;
  co.user = opts_.user;
  co.database = opts_.dbname;
  co.password = opts_.password;
  co.application_name = "hearth";
  try {
    conn_.emplace(Connection::Connect(co));
  } catch (const ClientError& e) {
    std::string msg = std::string("hearth: error: ") + e.what() + "\n";
    if (std::string(e.what()).find("Connection refused") != std::string::npos) {
      msg += "\tIs the server running on that host and accepting TCP/IP connections?\n";
    }
    Err(msg);
    return false;
  }
  conn_->SetNoticeHandler([this](const ErrorFields& n) {
    Err(FormatServerMessage(n, "", MessagePrefix(), /*show_context=*/false));
  });
  return true;
}

void Shell::Impl::StartCancelThread() {
  if (pipe(g_cancel_pipe) != 0) return;
  CancelKey key = conn_->cancel_key();
  cancel_thread_ = std::thread([key]() {
    char c;
    while (read(g_cancel_pipe[0], &c, 1) == 1) {
      // Announce first: the server may answer the cancelled query before
      // CancelRequest() returns, and psql's order is notice, then error.
      const char kSent[] = "Cancel request sent\n";
      [[maybe_unused]] ssize_t n = write(STDERR_FILENO, kSent, sizeof(kSent) - 1);
      try {
        Connection::CancelRequest(key);
      } catch (const ClientError& e) {
        const std::string msg = std::string("Could not send cancel request: ") + e.what() + "\n";
        n = write(STDERR_FILENO, msg.data(), msg.size());
      }
    }
  });
  struct sigaction sa {};
  sa.sa_handler = OnSigint;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  sigaction(SIGINT, &sa, nullptr);
}

void Shell::Impl::StopCancelThread() {
  if (!cancel_thread_.joinable()) return;
  signal(SIGINT, SIG_DFL);
  close(g_cancel_pipe[1]);
  g_cancel_pipe[1] = -1;
  cancel_thread_.join();
  close(g_cancel_pipe[0]);
  g_cancel_pipe[0] = -1;
}

int Shell::Impl::Run() {
  if (opts_.show_help) {
    Out(ShellUsage());
    return kExitOk;
  }
  if (opts_.show_version) {
    Out(std::string("hearth (Hearth) ") + kVersion + "\n");
    return kExitOk;
  }
  if (!Connect()) return kExitConnection;
  StartCancelThread();

  Flow flow = Flow::kContinue;
  if (!opts_.actions.empty()) {
    for (const auto& action : opts_.actions) {
      if (action.kind == ShellOptions::Action::Kind::kCommand) {
        flow = RunCommandString(action.value);
        // psql: after -c the exit status is that of the command.
        exit_failed_ = !last_ok_;
      } else {
        flow = RunFile(action.value);
        // psql: a script's failed statements do not change the exit status
        // (only ON_ERROR_STOP, a lost connection or an unreadable file do).
        exit_failed_ = file_failed_;
      }
      if (lost_) return kExitConnection;
      if (flow != Flow::kContinue) break;
    }
  } else if (isatty(STDIN_FILENO)) {
    if (!opts_.quiet) {
      Out(std::string("hearth (") + kVersion + ", server " + conn_->parameter("server_version") +
          ")\nType \"\\?\" for help.\n\n");
    }
    EditlineSource src;
    flow = RunSource(src, "");
  } else {
    StreamSource src(std::cin);
    flow = RunSource(src, "");  // psql prefixes messages only for -f input
  }
  std::fflush(stdout);
  if (lost_) return kExitConnection;
  if (flow == Flow::kStop) return kExitScriptStop;
  conn_->Close();
  return exit_failed_ ? kExitError : kExitOk;
}

Shell::Impl::Flow Shell::Impl::AfterStatement(bool ok) {
  last_ok_ = ok;
  if (lost_) return Flow::kQuit;
  const bool interactive = source_ != nullptr && source_->interactive();
  if (!ok && OnErrorStop() && !interactive) return Flow::kStop;
  return Flow::kContinue;
}

Shell::Impl::Flow Shell::Impl::RunCommandString(const std::string& cmd) {
  StreamSource stdin_source(std::cin);  // COPY FROM STDIN reads real stdin
  source_ = &stdin_source;
  source_name_.clear();
  const std::string trimmed = Trim(cmd);
  Flow flow;
  if (!trimmed.empty() && trimmed[0] == '\\') {
    flow = HandleMeta(trimmed, nullptr);
  } else {
    flow = AfterStatement(ExecuteSql(cmd));
  }
  source_ = nullptr;
  return flow;
}

Shell::Impl::Flow Shell::Impl::RunFile(const std::string& path) {
  file_failed_ = false;
  if (path == "-") {
    StreamSource src(std::cin);
    return RunSource(src, "<stdin>");
  }
  std::ifstream in(path);
  if (!in) {
    Err("hearth: error: " + path + ": No such file or directory\n");
    file_failed_ = true;
    return Flow::kContinue;
  }
  StreamSource src(in);
  return RunSource(src, path);
}

std::string Shell::Impl::Prompt(const StatementSplitter& sp) const {
  std::string p = opts_.dbname;
  p += sp.empty() ? '=' : sp.ContinuationChar();
  switch (conn_->TransactionStatus()) {
    case 'T': p += '*'; break;
    case 'E': p += '!'; break;
    default: break;
  }
  p += conn_->parameter("is_superuser") == "on" ? "# " : "> ";
  return p;
}

Shell::Impl::Flow Shell::Impl::RunSource(LineSource& src, const std::string& name) {
  LineSource* saved_source = source_;
  std::string saved_name = source_name_;
  source_ = &src;
  source_name_ = name;
  StatementSplitter splitter;
  Flow flow = Flow::kContinue;
  while (flow == Flow::kContinue) {
    auto line = src.ReadLine(Prompt(splitter));
    if (!line) break;
    if (opts_.echo == ShellOptions::Echo::kAll && !src.interactive()) Out(*line + "\n");
    if (splitter.empty() && src.interactive()) {
      const std::string trimmed = Trim(*line);
      if (trimmed == "quit" || trimmed == "exit") {
        flow = Flow::kQuit;
        break;
      }
      if (trimmed == "help") {
        Out("You are using hearth, the command-line interface to Hearth.\n"
            "Type:  \\? for help with hearth commands\n"
            "       \\q to quit\n");
        continue;
      }
    }
    for (const std::string& stmt : splitter.AddLine(*line)) {
      flow = AfterStatement(ExecuteSql(stmt));
      if (flow != Flow::kContinue) break;
    }
    if (flow != Flow::kContinue) break;
    if (auto meta = splitter.TakeMetaCommand()) flow = HandleMeta(Trim(*meta), &splitter);
  }
  if (flow == Flow::kContinue) {
    if (src.interactive()) {
      Out("\n");
    } else if (auto rest = splitter.Finish()) {
      // psql runs an unterminated last statement of a script.
      flow = AfterStatement(ExecuteSql(*rest));
    }
  }
  source_ = saved_source;
  source_name_ = saved_name;
  return flow == Flow::kQuit && !lost_ ? Flow::kContinue : flow;
}

bool Shell::Impl::ExecuteSql(const std::string& sql) {
  if (opts_.echo == ShellOptions::Echo::kQueries) Out(sql + "\n");
  bool interactive = source_ != nullptr && source_->interactive();
  bool announced = false;
  bool copy_eof = false;
  CopyProducer producer = [&](std::string* chunk) -> CopyStep {
    if (interactive && !announced && !opts_.quiet) {
      Out("Enter data to be copied followed by a newline.\n"
          "End with a backslash and a period on a line by itself, or an EOF signal.\n");
      std::fflush(stdout);
      announced = true;
    }
    if (copy_eof || source_ == nullptr) return CopyStep::kDone;
    // Batch lines into chunks so a big script is not one message per row.
    while (chunk->size() < kCopyChunkBytes) {
      auto line = source_->ReadLine(">> ");
      if (!line || *line == "\\.") {
        copy_eof = true;
        break;
      }
      chunk->append(*line);
      chunk->push_back('\n');
      if (interactive) break;
    }
    if (!chunk->empty()) return CopyStep::kData;
    return CopyStep::kDone;
  };
  CopyConsumer consumer = [this](std::string_view data) {
    std::fwrite(data.data(), 1, data.size(), stdout);
  };

  const auto start = std::chrono::steady_clock::now();
  std::vector<Result> results;
  g_query_running = true;
  try {
    results = conn_->SimpleQuery(sql, producer, consumer);
  } catch (const ClientError& e) {
    g_query_running = false;
    Err(MessagePrefix() + e.what() +
        "\n\tThis probably means the server terminated abnormally\n"
        "\tbefore or while processing the request.\n"
        "The connection to the server was lost.\n");
    lost_ = true;
    return false;
  }
  g_query_running = false;
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();

  bool ok = true;
  std::string out;
  for (const Result& r : results) {
    if (r.error) {
      Out(out);
      out.clear();
      Err(FormatServerMessage(*r.error, sql, MessagePrefix()));
      ok = false;
      continue;
    }
    if (r.has_columns) {
      FormatTable(r, print_, &out);
      const std::string& tag = r.command_tag;
      if (!opts_.quiet && (tag.rfind("INSERT", 0) == 0 || tag.rfind("UPDATE", 0) == 0 ||
                           tag.rfind("DELETE", 0) == 0)) {
        out += tag + "\n";
      }
    } else if (!r.empty_query && !r.command_tag.empty() && !opts_.quiet && !r.copy_out) {
      out += r.command_tag + "\n";
    }
  }
  Out(out);
  if (timing_) Out(FormatElapsed(ms));
  std::fflush(stdout);
  return ok;
}

Shell::Impl::Flow Shell::Impl::HandleMeta(const std::string& line, StatementSplitter* splitter) {
  size_t cmd_end = 1;
  while (cmd_end < line.size() && line[cmd_end] != ' ' && line[cmd_end] != '\t') ++cmd_end;
  const std::string cmd = line.substr(1, cmd_end - 1);
  const std::vector<std::string> args = SplitArgs(std::string_view(line).substr(cmd_end));
  const bool quiet = opts_.quiet;

  // psql reports the new state of \timing always, of \t only when toggled.
  auto toggle = [&](bool* flag, const char* what, bool report_when_set) -> bool {
    if (args.empty()) {
      *flag = !*flag;
    } else if (auto b = ParseBoolValue(args[0])) {
      *flag = *b;
    } else {
      Err(MessagePrefix() + "unrecognized value \"" + args[0] + "\" for \"\\" + cmd +
          "\": Boolean expected\n");
      return false;
    }
    if (!quiet && (args.empty() || report_when_set)) {
      Out(std::string(what) + (*flag ? " is on.\n" : " is off.\n"));
    }
    return true;
  };

  bool ok = true;
  if (cmd == "q" || cmd == "quit") {
    return Flow::kQuit;
  } else if (cmd == "?") {
    Out(kHelpText);
  } else if (cmd == "timing") {
    ok = toggle(&timing_, "Timing", true);
  } else if (cmd == "t") {
    ok = toggle(&print_.tuples_only, "Tuples only", false);
  } else if (cmd == "a") {
    const bool aligned = print_.format != PrintOptions::Format::kAligned;
    print_.format = aligned ? PrintOptions::Format::kAligned : PrintOptions::Format::kUnaligned;
    if (!quiet) Out(aligned ? "Output format is aligned.\n" : "Output format is unaligned.\n");
  } else if (cmd == "echo") {
    std::string text;
    for (size_t i = 0; i < args.size(); ++i) text += (i ? " " : "") + args[i];
    Out(text + "\n");
  } else if (cmd == "set") {
    if (args.empty()) {
      for (const auto& [k, v] : vars_) Out(k + " = '" + v + "'\n");
    } else {
      std::string value;
      for (size_t i = 1; i < args.size(); ++i) value += args[i];
      vars_[args[0]] = value;
    }
  } else if (cmd == "unset") {
    if (args.empty()) {
      Err(MessagePrefix() + "\\unset: missing required argument\n");
      ok = false;
    } else {
      vars_.erase(args[0]);
    }
  } else if (cmd == "g") {
    // Sends the buffered statement (psql also accepts a file argument; not supported).
    if (splitter != nullptr) {
      if (auto sql = splitter->TakeBuffer()) return AfterStatement(ExecuteSql(*sql));
    }
  } else if (cmd == "r") {
    if (splitter != nullptr) splitter->Reset();
    if (!quiet) Out("Query buffer reset (cleared).\n");
  } else if (cmd == "conninfo") {
    Out("You are connected to database \"" + opts_.dbname + "\" as user \"" + opts_.user +
        "\" on host \"" + opts_.host + "\" at port \"" + std::to_string(opts_.port) + "\".\n");
  } else {
    std::string msg = MessagePrefix() + "invalid command \\" + cmd + "\n";
    if (source_ != nullptr && source_->interactive()) msg += "Try \\? for help.\n";
    Err(msg);
    ok = false;
  }
  return AfterStatement(ok);
}

Shell::Shell(ShellOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {}
Shell::~Shell() = default;
int Shell::Run() { return impl_->Run(); }

}  // namespace hearth::client
