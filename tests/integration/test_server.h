// tests/integration/test_server.h
//
// TestServer: a real hearthd for integration tests. It initialises a data
// directory under /tmp, starts the server on a free loopback port, waits
// until it accepts connections, and on destruction shuts it down (SIGTERM,
// then SIGKILL) and removes the directory. Also: running real client
// programs (psql, pgbench, java) against it and capturing their output.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/protocol/wire.h"

namespace hearth::testing {

struct CommandResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Runs argv (argv[0] looked up in PATH), feeding `input` on stdin, with a
// timeout in seconds after which the child is killed. Never throws.
CommandResult RunCommand(const std::vector<std::string>& argv, const std::string& input = "",
                         int timeout_s = 120);

// Like RunCommand, but stderr is merged into `out` in write order (through
// `sh -c '... 2>&1'`), as a terminal user would see it.
CommandResult RunCommandMerged(const std::vector<std::string>& argv, const std::string& input = "",
                               int timeout_s = 120);

// A free TCP port on 127.0.0.1 (bound and released; good enough for tests).
int FreePort();

// Settings passed to hearthd as -c name=value. Spell the type out at the
// call site: `TestServer s(Settings{{"max_connections", "3"}});` (a bare
// `s({{"a", "b"}})` is ambiguous: vector's iterator-pair constructor).
using Settings = std::vector<std::pair<std::string, std::string>>;

class TestServer {
 public:
  // `settings` are passed as -c name=value.
  // If the environment variable HEARTH_IT_EXTERNAL_PORT is set, no hearthd is
  // started: the tests talk to whatever listens on that port (a reference
  // PostgreSQL 15 with user and database "hearth"), to check expectations.
  explicit TestServer(std::vector<std::pair<std::string, std::string>> settings = {})
      : TestServer(std::move(settings), {}, 0) {}
  // `init_args` are appended to `hearthd init -D DIR` (e.g. --username bob);
  // `port` 0 picks a free one; the data directory goes under `parent_dir`
  // (default /tmp), e.g. a small file system of the test's own.
  TestServer(std::vector<std::pair<std::string, std::string>> settings, std::vector<std::string> init_args, int port,
             const std::string& parent_dir = "/tmp");
  // A server on an existing data directory (e.g. a base backup's copy),
  // started on a free port. The directory must be <some temporary dir>/data:
  // the destructor removes its parent, as for initialised ones.
  struct ExistingDataDir {
    std::string path;
  };
  TestServer(ExistingDataDir dir, std::vector<std::pair<std::string, std::string>> settings);
  ~TestServer();
  TestServer(const TestServer&) = delete;
  TestServer& operator=(const TestServer&) = delete;

  int port() const { return port_; }
  pid_t pid() const { return pid_; }
  const std::string& datadir() const { return datadir_; }
  std::string log() const;  // the server log so far

  // Starts the server (again) on the same data directory and port.
  void Start();
  // Sends `signo` to the postmaster and waits (up to 30 s) for it to exit.
  // Returns the wait status.
  int Stop(int signo);
  bool running() const { return pid_ > 0; }
  // Waits until a TCP connect succeeds; false after `timeout_s`.
  bool WaitReady(int timeout_s = 30) const;

  // psql -X -h 127.0.0.1 -p PORT -U hearth -d hearth -v ON_ERROR_STOP=1 <args>
  CommandResult Psql(const std::vector<std::string>& args, const std::string& input = "") const;
  // psql -X -A -t -q -c SQL: the bare result, trailing newline stripped.
  std::string PsqlValue(const std::string& sql) const;

  // Runs `script` through psql -X -f - (no ON_ERROR_STOP unless the script
  // sets it) with stderr merged into out: the transcript psql users see,
  // error lines prefixed "psql:<stdin>:LINE: ". `args` go before -f.
  CommandResult PsqlScript(const std::string& script, const std::vector<std::string>& args = {}) const;

  // Every child pid of the postmaster (backends and auxiliary processes).
  std::vector<pid_t> ChildPids() const;

 private:
  std::vector<std::pair<std::string, std::string>> settings_;
  std::string datadir_;
  int port_ = 0;
  pid_t pid_ = -1;
  bool external_ = false;
};

// ---------------------------------------------------------------------------
// Raw protocol helpers: a blocking TCP session that speaks frames by hand, for
// tests that must see (or send) exactly what is on the wire. One object per
// connection, used from one thread.

// One backend message: its type byte and body (without the length word).
struct RawMessage {
  char type = 0;
  std::string body;
};

class RawConn {
 public:
  // Connects to 127.0.0.1:port; ok() reports whether that worked.
  explicit RawConn(int port);
  ~RawConn();
  RawConn(const RawConn&) = delete;
  RawConn& operator=(const RawConn&) = delete;

  bool ok() const { return fd_ >= 0; }
  int fd() const { return fd_; }
  // True once the server closed the connection (read returned 0 or reset).
  bool eof() const { return eof_; }

  // Writes all of `bytes`; false on error (e.g. the server hung up).
  bool Send(std::string_view bytes);
  // Sends a StartupMessage (protocol 3.0) with these key/value pairs.
  bool SendStartup(const std::vector<std::pair<std::string, std::string>>& params);
  // Startup as user/database, then reads up to ReadyForQuery or an error.
  // Returns every message read; fills params_ and backend_pid_/secret_.
  std::vector<RawMessage> Startup(const std::string& user = "hearth", const std::string& database = "hearth");
  // After SendStartup: reads up to ReadyForQuery or an error, recording
  // ParameterStatus values and BackendKeyData as Startup() does.
  std::vector<RawMessage> ReadStartupReply(int timeout_ms = 10000);
  // Reads one raw byte (e.g. the 'N' answering SSLRequest); -1 on EOF/timeout.
  int ReadByte(int timeout_ms = 10000);
  // Reads one message; nullopt on EOF, timeout or a garbled frame.
  std::optional<RawMessage> Read(int timeout_ms = 10000);
  // Reads messages up to and including ReadyForQuery (or until EOF/timeout).
  std::vector<RawMessage> ReadUntilReady(int timeout_ms = 10000);
  // Sends a simple Query and reads up to ReadyForQuery.
  std::vector<RawMessage> Query(std::string_view sql, int timeout_ms = 10000);
  // Waits until the server closes the connection (draining messages into
  // the returned vector). Returns what arrived before EOF.
  std::vector<RawMessage> DrainUntilEof(int timeout_ms = 10000);

  const std::map<std::string, std::string>& params() const { return params_; }
  int32_t backend_pid() const { return backend_pid_; }
  int32_t secret() const { return secret_; }

 private:
  bool Fill(size_t n, int timeout_ms);
  int fd_ = -1;
  bool eof_ = false;
  std::string in_;
  std::map<std::string, std::string> params_;
  int32_t backend_pid_ = 0;
  int32_t secret_ = 0;
};

// Frontend message builders (complete frames).
std::string QueryMsg(std::string_view sql);
std::string ParseMsg(std::string_view name, std::string_view sql, const std::vector<int32_t>& param_oids = {});
// Params: nullopt = SQL NULL. Formats as in the protocol (0 text, 1 binary).
std::string BindMsg(std::string_view portal, std::string_view stmt, const std::vector<int16_t>& param_formats,
                    const std::vector<std::optional<std::string>>& params, const std::vector<int16_t>& result_formats);
std::string DescribeMsg(char kind, std::string_view name);  // kind 'S' or 'P'
std::string ExecuteMsg(std::string_view portal, int32_t max_rows = 0);
std::string CloseMsg(char kind, std::string_view name);
std::string SyncMsg();
std::string FlushMsg();
std::string TerminateMsg();
std::string CopyDataMsg(std::string_view data);  // 'd' with these bytes
std::string CopyDoneMsg();
std::string CancelRequestMsg(int32_t pid, int32_t secret);
std::string SslRequestMsg();

// Decoders for backend messages.
// The type bytes of `msgs` in order, e.g. "12TDCZ": compact sequence checks.
std::string Types(const std::vector<RawMessage>& msgs);
// The first message of `type`, or nullptr.
const RawMessage* First(const std::vector<RawMessage>& msgs, char type);
// ErrorResponse/NoticeResponse fields (empty struct if not decodable).
protocol::ErrorFields ErrorOf(const RawMessage& m);
// SQLSTATE of the first ErrorResponse in msgs, or "" when there is none.
std::string FirstSqlstate(const std::vector<RawMessage>& msgs);
// DataRow values (nullopt = NULL).
std::vector<std::optional<std::string>> DataRowValues(const RawMessage& m);
// All DataRows' first column as text ("NULL" for NULL), in order.
std::vector<std::string> FirstColumn(const std::vector<RawMessage>& msgs);
// CommandComplete tag.
std::string CommandTag(const RawMessage& m);
struct FieldDesc {
  std::string name;
  int32_t table_oid = 0;
  int16_t attnum = 0;
  int32_t type_oid = 0;
  int16_t typlen = 0;
  int32_t typmod = 0;
  int16_t format = 0;
};
std::vector<FieldDesc> RowDescriptionOf(const RawMessage& m);
// ParameterDescription type OIDs.
std::vector<int32_t> ParameterTypesOf(const RawMessage& m);
// The transaction status byte of the last ReadyForQuery in msgs (0 if none).
char LastStatus(const std::vector<RawMessage>& msgs);

void SleepMs(int ms);
// Sleeps in small steps until pred() is true; false after timeout_ms.
template <typename Pred>
bool WaitFor(Pred pred, int timeout_ms);

// SIGKILLs every process whose command line mentions `needle` (a unique
// temp data directory path): hearthd children inherit the postmaster's argv,
// so this reaps what a killed postmaster left behind. Waits (up to 10 s)
// until they are gone. Returns how many.
int KillProcessesMentioning(const std::string& needle);

// kill -9 of the postmaster and every child at once (a machine crash, as far
// as the data directory can tell); waits until they are gone and reaps any
// leftover. False if some process outlived 10 s. Restart with server.Start().
bool KillServerHard(TestServer& server);
// Runs another hearthd on `datadir` (on a free port, for at most 15 s),
// expecting it to refuse to start. Unlike cleaning up by path, this leaves
// the processes already using the directory alone.
CommandResult RunSecondServer(const std::string& datadir);

// True when `pid` no longer runs (gone, or a zombie).
bool ProcessGone(pid_t pid);

// Paths baked in by CMake.
std::string HearthdPath();
std::string SourceDir();

template <typename Pred>
bool WaitFor(Pred pred, int timeout_ms) {
  for (int waited = 0; waited <= timeout_ms; waited += 50) {
    if (pred()) return true;
    SleepMs(50);
  }
  return pred();
}

}  // namespace hearth::testing
