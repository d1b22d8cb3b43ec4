// client/client.h
//
// Hearth's blocking client library for the PostgreSQL v3 wire protocol: one
// Connection per TCP session, simple query, extended query (unnamed and named
// prepared statements, chunked fetch via PortalSuspended), COPY in/out,
// cancel and terminate. Boost.Asio lives only in client.cpp (pimpl), so
// including this header does not pull Asio in.
//
// Thread safety: a Connection is used by one thread at a time. The only
// cross-thread call is Cancel()/CancelRequest(), which opens its own socket
// and reads only immutable connection data.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "client/result.h"

namespace hearth::client {

struct ConnectOptions {
  std::string host = "127.0.0.1";
  uint16_t port = 5433;
  std::string user = "hearth";
  std::string database;  // empty: same as user
  std::string password;  // for cleartext, MD5 and SCRAM-SHA-256 authentication
  std::string application_name = "hearth";
  // Run-time settings sent in the startup packet's "options" as -c k=v.
  std::map<std::string, std::string> options;
};

// Failure to connect, authenticate, or keep talking to the server. sqlstate()
// is the server's code when an ErrorResponse caused it (e.g. 28P01, 3D000),
// "08006" for a broken/closed connection, "08P01" for a malformed stream,
// "08001" when no connection could be made, or "" for misuse of the API.
class ClientError : public std::runtime_error {
 public:
  explicit ClientError(const std::string& message, std::string sqlstate = "",
                       std::optional<ErrorFields> fields = std::nullopt)
      : std::runtime_error(message), sqlstate_(std::move(sqlstate)), fields_(std::move(fields)) {}
  const std::string& sqlstate() const { return sqlstate_; }
  // The full ErrorResponse when the server sent one.
  const std::optional<ErrorFields>& fields() const { return fields_; }

 private:
  std::string sqlstate_;
  std::optional<ErrorFields> fields_;
};

// COPY FROM STDIN data source. Called repeatedly; on kData it has put the
// next chunk (any size, need not be line-aligned) in *chunk; kDone ends the
// copy with CopyDone; kFail aborts it with CopyFail, *chunk holding the reason.
enum class CopyStep { kData, kDone, kFail };
using CopyProducer = std::function<CopyStep(std::string* chunk)>;
// COPY TO STDOUT sink: called once per CopyData message.
using CopyConsumer = std::function<void(std::string_view data)>;
// Receives each NoticeResponse (also collected in Result::notices).
using NoticeHandler = std::function<void(const ErrorFields&)>;

// Prints "SEVERITY:  message" (plus DETAIL/HINT lines) to stderr, like psql.
void PrintNoticeToStderr(const ErrorFields& notice);

// What another thread needs to cancel this connection's running statement.
struct CancelKey {
  std::string host;
  uint16_t port = 0;
  int32_t pid = 0;
  int32_t secret = 0;
};

class Connection {
 public:
  // Connects, authenticates (trust, cleartext, MD5, SCRAM-SHA-256) and waits
  // for the first ReadyForQuery. Throws ClientError on any failure; what()
  // reads "connection to server at "h", port p failed: <reason>" and server
  // errors carry their SQLSTATE (a bad SCRAM server signature: 28000).
  static Connection Connect(const ConnectOptions& opts);

  Connection(Connection&&) noexcept;
  Connection& operator=(Connection&&) noexcept;
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;
  // Sends Terminate if still open.
  ~Connection();

  // Simple query protocol. Returns one Result per statement the server ran;
  // an error is a Result with `error` set (not an exception), after which the
  // server skipped the rest of the string. COPY FROM STDIN pulls from
  // `copy_in` (CopyFail if null); COPY TO STDOUT feeds `copy_out` (collected
  // into Result::copy_data if null). Throws ClientError only when the
  // connection breaks or the stream is malformed (the connection is then
  // unusable).
  std::vector<Result> SimpleQuery(std::string_view sql, const CopyProducer& copy_in = nullptr,
                                  const CopyConsumer& copy_out = nullptr);

  // Extended protocol, unnamed statement and portal, text format:
  // Parse/Bind/Describe(portal)/Execute/Sync. `param_type_oids` may be empty
  // (server infers) or give one OID per parameter (0 = infer).
  Result ExecParams(std::string_view sql, const std::vector<std::optional<std::string>>& params,
                    const std::vector<uint32_t>& param_type_oids = {});

  // Parse + Describe(statement) + Sync. On success the Result carries the
  // parameter type OIDs and the result columns (has_columns false: NoData).
  Result Prepare(std::string_view name, std::string_view sql,
                 const std::vector<uint32_t>& param_type_oids = {});

  // Bind + Describe + Execute of prepared statement `name` in the unnamed
  // portal. max_rows == 0: all rows, then Sync. max_rows > 0: at most that
  // many rows; if the Result comes back `suspended`, the portal stays open
  // (Flush instead of Sync) and FetchMore() continues it, or ClosePortal()
  // ends it. No other call is allowed while a portal is open.
  Result ExecPrepared(std::string_view name, const std::vector<std::optional<std::string>>& params,
                      int32_t max_rows = 0);
  // REQUIRES: the previous ExecPrepared/FetchMore returned suspended.
  Result FetchMore(int32_t max_rows);
  // Ends an open portal (Close + Sync). No-op when none is open.
  void ClosePortal();
  bool portal_open() const;

  // Close(statement) + Sync. Closing an unknown name is not an error.
  Result ClosePrepared(std::string_view name);

  // COPY ... FROM STDIN: runs `sql`, streams the producer's chunks, and
  // returns the result ("COPY n", or the error, e.g. 57014 after kFail).
  Result CopyIn(std::string_view sql, const CopyProducer& producer);
  // COPY ... TO STDOUT: runs `sql`, feeds each CopyData to `consumer`.
  Result CopyOut(std::string_view sql, const CopyConsumer& consumer);

  // 'I' idle, 'T' in a transaction block, 'E' in a failed transaction, from
  // the last ReadyForQuery.
  char TransactionStatus() const;

  // ParameterStatus values reported by the server (server_version, ...).
  const std::map<std::string, std::string>& parameters() const;
  // One parameter, or "" when not reported.
  std::string parameter(const std::string& name) const;
  int32_t backend_pid() const;
  int32_t secret_key() const;
  CancelKey cancel_key() const;

  void SetNoticeHandler(NoticeHandler handler);

  // Asks the server to cancel the statement this connection is running.
  // Safe from any thread. Throws ClientError if the cancel connection fails.
  void Cancel() const;
  static void CancelRequest(const CancelKey& key);

  // Sends Terminate and closes the socket. Idempotent; never throws.
  void Close() noexcept;
  bool is_open() const;

 private:
  class Impl;
  explicit Connection(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace hearth::client
