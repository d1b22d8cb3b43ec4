// client/client.cpp
//
// Principal entry points: Connection::Connect, SimpleQuery, ExecParams,
// Prepare, ExecPrepared/FetchMore/ClosePortal, ClosePrepared, CopyIn,
// CopyOut, CancelRequest, Close.
//
// Every request is written into out_ and flushed in one write; every reply
// is read through FrameBuffer and dispatched by Collect(), one loop for both
// the simple and the extended protocol. Any I/O failure or malformed message
// marks the connection broken: later calls throw instead of reading a stream
// whose framing we no longer trust.
#include "client/client.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <iostream>

#include "client/frame_buffer.h"
#include "client/md5.h"
#include "client/scram.h"
#include "common/protocol/wire.h"

namespace hearth::client {

namespace asio = boost::asio;
using asio::ip::tcp;
using protocol::MessageReader;
using protocol::MessageWriter;

namespace {

constexpr size_t kReadChunk = 64 * 1024;
constexpr size_t kCopyFlushBytes = 64 * 1024;

// Backslash-escapes spaces and backslashes, as the startup "options" value
// is split on unescaped whitespace by the server.
std::string EscapeOptionWord(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == ' ' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
  return out;
}

tcp::socket OpenSocket(asio::io_context& io, const std::string& host, uint16_t port) {
  const std::string where = "connection to server at \"" + host + "\", port " +
                            std::to_string(port) + " failed: ";
  boost::system::error_code ec;
  tcp::resolver resolver(io);
  auto endpoints = resolver.resolve(host, std::to_string(port), ec);
  if (ec) throw ClientError(where + ec.message(), "08001");
  tcp::socket socket(io);
  asio::connect(socket, endpoints, ec);
  if (ec) throw ClientError(where + ec.message(), "08001");
  socket.set_option(tcp::no_delay(true), ec);
  return socket;
}

}  // namespace

void PrintNoticeToStderr(const ErrorFields& n) {
  std::string text = (n.severity.empty() ? "NOTICE" : n.severity) + ":  " + n.message + "\n";
  if (!n.detail.empty()) text += "DETAIL:  " + n.detail + "\n";
  if (!n.hint.empty()) text += "HINT:  " + n.hint + "\n";
  std::cerr << text << std::flush;
}

class Connection::Impl {
 public:
  Impl() : socket_(io_) {}

  void Open(const ConnectOptions& opts);
  std::vector<Result> Query(std::string_view sql, const CopyProducer& copy_in,
                            const CopyConsumer& copy_out);
  Result Extended(std::string_view sql, const std::vector<std::optional<std::string>>& params,
                  const std::vector<uint32_t>& types);
  Result Prepare(std::string_view name, std::string_view sql, const std::vector<uint32_t>& types);
  Result ExecPrepared(std::string_view name, const std::vector<std::optional<std::string>>& params,
                      int32_t max_rows);
  Result FetchMore(int32_t max_rows);
  void ClosePortal();
  Result ClosePrepared(std::string_view name);
  void Close() noexcept;

  std::map<std::string, std::string> parameters_;
  CancelKey key_;
  char txn_status_ = 'I';
  bool open_ = false;
  bool portal_open_ = false;
  NoticeHandler notice_handler_ = PrintNoticeToStderr;

 private:
  // What Collect() should stop at.
  enum class Until { kReady, kCompletion };

  void EnsureUsable();
  [[noreturn]] void Fail(const std::string& message, const char* sqlstate);
  void Queue(const std::string& frame) { out_.append(frame); }
  void Flush();
  // Reads one message; throws ClientError (and marks broken) on EOF/garbage.
  void ReadMessage(char* type, std::string_view* body);
  // Dispatches replies into results until ReadyForQuery (or, for kCompletion,
  // until CommandComplete/PortalSuspended/ErrorResponse/EmptyQuery).
  void Collect(std::vector<Result>* results, Until until, const CopyProducer* copy_in,
               const CopyConsumer* copy_out);
  // Collect() for an extended batch already terminated by Sync.
  void CollectSynced(std::vector<Result>* results);
  void RunCopyIn(const CopyProducer* producer, Result* cur, bool* got_error,
                 std::vector<Result>* results);
  void HandleNotice(std::string_view body, Result* cur);
  static void ParseRowDescription(std::string_view body, Result* r);
  static bool ParseDataRow(std::string_view body, Result* r);
  void QueueBindExecute(std::string_view stmt, const std::vector<std::optional<std::string>>& params,
                        int32_t max_rows);
  Result Single(std::vector<Result>&& results);

  asio::io_context io_;
  tcp::socket socket_;
  FrameBuffer frames_;
  std::string out_;
  bool broken_ = false;
  // An extended-protocol batch ending in Sync is in flight. The server
  // ignores Sync while in COPY IN mode, so after CopyDone/CopyFail we must
  // send another one or it would wait for it forever.
  bool extended_ = false;
};

void Connection::Impl::Fail(const std::string& message, const char* sqlstate) {
  broken_ = true;
  boost::system::error_code ec;
  socket_.close(ec);
  open_ = false;
  throw ClientError(message, sqlstate);
}

void Connection::Impl::EnsureUsable() {
  if (broken_ || !open_) throw ClientError("connection is closed", "08003");
  if (portal_open_) throw ClientError("a suspended portal is open; FetchMore or ClosePortal first");
}

void Connection::Impl::Flush() {
  if (out_.empty()) return;
  boost::system::error_code ec;
  asio::write(socket_, asio::buffer(out_), ec);
  out_.clear();
  if (ec) Fail("could not send data to server: " + ec.message(), "08006");
}

void Connection::Impl::ReadMessage(char* type, std::string_view* body) {
  for (;;) {
    std::string error;
    switch (frames_.Next(type, body, &error)) {
      case FrameBuffer::Status::kReady:
        return;
      case FrameBuffer::Status::kMalformed:
        Fail("protocol violation: " + error, "08P01");
      case FrameBuffer::Status::kNeedMore:
        break;
    }
    char* dst = frames_.PrepareWrite(kReadChunk);
    boost::system::error_code ec;
    size_t n = socket_.read_some(asio::buffer(dst, kReadChunk), ec);
    if (ec == asio::error::eof || (!ec && n == 0)) {
      Fail("server closed the connection unexpectedly", "08006");
    }
    if (ec) Fail("could not receive data from server: " + ec.message(), "08006");
    frames_.Commit(n);
  }
}

void Connection::Impl::Open(const ConnectOptions& opts) {
  socket_ = OpenSocket(io_, opts.host, opts.port);
  open_ = true;
  key_.host = opts.host;
  key_.port = opts.port;
  const std::string where = "connection to server at \"" + opts.host + "\", port " +
                            std::to_string(opts.port) + " failed: ";

  std::optional<ScramClient> scram;  // set once the server asks for SASL
  MessageWriter w('\0');
  w.Int32(protocol::kProtocolVersion3);
  w.CString("user").CString(opts.user);
  w.CString("database").CString(opts.database.empty() ? opts.user : opts.database);
  if (!opts.application_name.empty()) {
    w.CString("application_name").CString(opts.application_name);
  }
  if (!opts.options.empty()) {
    std::string o;
    for (const auto& [k, v] : opts.options) {
      if (!o.empty()) o += ' ';
      o += "-c " + EscapeOptionWord(k + "=" + v);
    }
    w.CString("options").CString(o);
  }
  w.Byte(0);
  Queue(w.Finish());
  Flush();

  for (;;) {
    char type;
    std::string_view body;
    try {
      ReadMessage(&type, &body);
    } catch (const ClientError& e) {
      throw ClientError(where + e.what(), e.sqlstate());
    }
    MessageReader r(body);
    switch (type) {
      case protocol::be::kAuthentication: {
        auto code = r.Int32();
        if (!code) Fail(where + "malformed authentication request", "08P01");
        if (*code == protocol::kAuthOk) break;
        if (*code == protocol::kAuthCleartext) {
          MessageWriter p(protocol::fe::kPassword);
          p.CString(opts.password);
          Queue(p.Finish());
          Flush();
        } else if (*code == protocol::kAuthMd5) {
          auto salt = r.Bytes(4);
          if (!salt) Fail(where + "malformed MD5 authentication request", "08P01");
          MessageWriter p(protocol::fe::kPassword);
          p.CString(PgMd5PasswordResponse(opts.user, opts.password, *salt));
          Queue(p.Finish());
          Flush();
        } else if (*code == protocol::kAuthSasl) {
          bool offered = false;
          while (auto mech = r.CString()) {
            if (mech->empty()) break;
            if (*mech == "SCRAM-SHA-256") offered = true;
          }
          if (!offered) {
            Close();
            throw ClientError(where + "none of the server's SASL mechanisms are supported",
                              "08004");
          }
          scram.emplace(opts.password);
          const std::string first = scram->ClientFirstMessage();
          MessageWriter p(protocol::fe::kPassword);
          p.CString("SCRAM-SHA-256").Int32(static_cast<int32_t>(first.size())).Bytes(first);
          Queue(p.Finish());
          Flush();
        } else if (*code == protocol::kAuthSaslContinue || *code == protocol::kAuthSaslFinal) {
          auto data = r.Bytes(r.remaining());
          if (!scram || !data) Fail(where + "unexpected SASL message", "08P01");
          std::string error;
          if (*code == protocol::kAuthSaslContinue) {
            auto final_msg = scram->HandleServerFirst(*data, &error);
            if (final_msg) {
              MessageWriter p(protocol::fe::kPassword);
              p.Bytes(*final_msg);
              Queue(p.Finish());
              Flush();
            }
          } else {
            scram->VerifyServerFinal(*data, &error);
          }
          if (!error.empty()) {
            Close();
            throw ClientError(where + error, "28000");
          }
        } else {
          Close();
          throw ClientError(where + "authentication method " + std::to_string(*code) +
                                " not supported by the hearth client",
                            "08004");
        }
        break;
      }
      case protocol::be::kParameterStatus: {
        auto name = r.CString();
        auto value = r.CString();
        if (name && value) parameters_[std::string(*name)] = std::string(*value);
        break;
      }
      case 'K': {
        auto pid = r.Int32();
        auto secret = r.Int32();
        if (pid && secret) {
          key_.pid = *pid;
          key_.secret = *secret;
        }
        break;
      }
      case protocol::be::kNoticeResponse:
        HandleNotice(body, nullptr);
        break;
      case protocol::be::kNegotiateProtocolVersion:
        break;  // the server downgrades options it does not know; 3.0 itself is fine
      case protocol::be::kErrorResponse: {
        auto f = protocol::DecodeErrorFields(body);
        broken_ = true;
        Close();
        if (!f) throw ClientError(where + "malformed error response", "08P01");
        throw ClientError(where + (f->severity.empty() ? "FATAL" : f->severity) + ":  " +
                              f->message,
                          f->sqlstate, *f);
      }
      case protocol::be::kReadyForQuery: {
        auto s = r.Byte();
        txn_status_ = s ? static_cast<char>(*s) : 'I';
        return;
      }
      default:
        Fail(where + "unexpected message type '" + std::string(1, type) + "' during startup",
             "08P01");
    }
  }
}

void Connection::Impl::HandleNotice(std::string_view body, Result* cur) {
  auto f = protocol::DecodeErrorFields(body);
  if (!f) Fail("protocol violation: malformed NoticeResponse", "08P01");
  if (notice_handler_) notice_handler_(*f);
  if (cur) cur->notices.push_back(std::move(*f));
}

void Connection::Impl::ParseRowDescription(std::string_view body, Result* r) {
  MessageReader rd(body);
  auto n = rd.Int16();
  if (!n || *n < 0) throw ClientError("malformed RowDescription", "08P01");
  r->has_columns = true;
  r->columns.clear();
  r->columns.reserve(static_cast<size_t>(*n));
  for (int i = 0; i < *n; ++i) {
    Column c;
    auto name = rd.CString();
    auto table = rd.Int32();
    auto attnum = rd.Int16();
    auto type = rd.Int32();
    auto typlen = rd.Int16();
    auto typmod = rd.Int32();
    auto format = rd.Int16();
    if (!format) throw ClientError("malformed RowDescription", "08P01");
    c.name = std::string(*name);
    c.table_oid = static_cast<uint32_t>(*table);
    c.attnum = *attnum;
    c.type_oid = static_cast<uint32_t>(*type);
    c.typlen = *typlen;
    c.typmod = *typmod;
    c.format = *format;
    r->columns.push_back(std::move(c));
  }
}

bool Connection::Impl::ParseDataRow(std::string_view body, Result* r) {
  MessageReader rd(body);
  auto n = rd.Int16();
  if (!n || *n < 0) return false;
  Row row;
  row.reserve(static_cast<size_t>(*n));
  for (int i = 0; i < *n; ++i) {
    auto len = rd.Int32();
    if (!len) return false;
    if (*len < 0) {
      row.emplace_back(std::nullopt);
      continue;
    }
    auto bytes = rd.Bytes(static_cast<size_t>(*len));
    if (!bytes) return false;
    row.emplace_back(std::string(*bytes));
  }
  r->rows.push_back(std::move(row));
  return true;
}

void Connection::Impl::RunCopyIn(const CopyProducer* producer, Result* cur, bool* got_error,
                                 std::vector<Result>* results) {
  // Runs at every exit: re-Sync an extended batch (see extended_).
  struct ResyncOnExit {
    Impl* impl;
    ~ResyncOnExit() {
      if (impl->extended_ && !impl->broken_) {
        impl->Queue(MessageWriter(protocol::fe::kSync).Finish());
        try {
          impl->Flush();
        } catch (const ClientError&) {
          // Flush marked the connection broken; the next read reports it.
        }
      }
    }
  } resync{this};
  std::string chunk;
  if (producer == nullptr || !*producer) {
    MessageWriter f(protocol::fe::kCopyFail);
    f.CString("COPY FROM STDIN is not supported by this call (no data source)");
    Queue(f.Finish());
    Flush();
    return;
  }
  for (;;) {
    chunk.clear();
    CopyStep step;
    try {
      step = (*producer)(&chunk);
    } catch (const std::exception& e) {
      step = CopyStep::kFail;
      chunk = e.what();
    }
    if (step == CopyStep::kData) {
      if (chunk.empty()) continue;
      size_t at;
      protocol::BeginMessage(out_, protocol::fe::kCopyData, &at);
      out_.append(chunk);
      protocol::EndMessage(out_, at);
      if (out_.size() >= kCopyFlushBytes) {
        Flush();
        // The server may have rejected the data already (bad row): stop
        // streaming, it discards the rest anyway.
        boost::system::error_code ec;
        if (socket_.available(ec) > 0 && !ec) {
          char type;
          std::string_view body;
          ReadMessage(&type, &body);
          if (type == protocol::be::kErrorResponse) {
            auto f = protocol::DecodeErrorFields(body);
            if (!f) Fail("protocol violation: malformed ErrorResponse", "08P01");
            cur->error = std::move(*f);
            results->push_back(std::move(*cur));
            *cur = Result{};
            *got_error = true;
            return;
          }
          if (type == protocol::be::kNoticeResponse) {
            HandleNotice(body, cur);
          } else if (type != protocol::be::kParameterStatus && type != 'A') {
            Fail("protocol violation: unexpected message '" + std::string(1, type) +
                     "' during COPY IN",
                 "08P01");
          }
        }
      }
    } else if (step == CopyStep::kDone) {
      Queue(MessageWriter(protocol::fe::kCopyDone).Finish());
      Flush();
      return;
    } else {
      MessageWriter f(protocol::fe::kCopyFail);
      f.CString(chunk);
      Queue(f.Finish());
      Flush();
      return;
    }
  }
}

void Connection::Impl::Collect(std::vector<Result>* results, Until until,
                               const CopyProducer* copy_in, const CopyConsumer* copy_out) {
  Result cur;
  bool dirty = false;  // cur holds something worth returning at ReadyForQuery
  bool in_copy_out = false;
  auto finish = [&]() {
    results->push_back(std::move(cur));
    cur = Result{};
    dirty = false;
  };
  for (;;) {
    char type;
    std::string_view body;
    ReadMessage(&type, &body);
    MessageReader r(body);
    try {
      switch (type) {
        case protocol::be::kRowDescription:
          ParseRowDescription(body, &cur);
          dirty = true;
          break;
        case protocol::be::kDataRow:
          if (!ParseDataRow(body, &cur)) Fail("protocol violation: malformed DataRow", "08P01");
          dirty = true;
          break;
        case protocol::be::kCommandComplete: {
          auto tag = r.CString();
          if (!tag) Fail("protocol violation: malformed CommandComplete", "08P01");
          cur.command_tag = std::string(*tag);
          finish();
          if (until == Until::kCompletion) return;
          break;
        }
        case protocol::be::kEmptyQueryResponse:
          cur.empty_query = true;
          finish();
          if (until == Until::kCompletion) return;
          break;
        case protocol::be::kPortalSuspended:
          cur.suspended = true;
          finish();
          if (until == Until::kCompletion) return;
          break;
        case protocol::be::kErrorResponse: {
          auto f = protocol::DecodeErrorFields(body);
          if (!f) Fail("protocol violation: malformed ErrorResponse", "08P01");
          cur.error = std::move(*f);
          in_copy_out = false;
          finish();
          if (until == Until::kCompletion) return;
          break;
        }
        case protocol::be::kNoticeResponse:
          HandleNotice(body, &cur);
          break;
        case protocol::be::kParameterStatus: {
          auto name = r.CString();
          auto value = r.CString();
          if (name && value) parameters_[std::string(*name)] = std::string(*value);
          break;
        }
        case 'A':  // NotificationResponse: LISTEN is not surfaced by this client
          break;
        case protocol::be::kParseComplete:
        case protocol::be::kBindComplete:
        case protocol::be::kCloseComplete:
          dirty = true;
          break;
        case protocol::be::kNoData:
          cur.has_columns = false;
          dirty = true;
          break;
        case protocol::be::kParameterDescription: {
          auto n = r.Int16();
          if (!n || *n < 0) Fail("protocol violation: malformed ParameterDescription", "08P01");
          cur.param_type_oids.clear();
          for (int i = 0; i < *n; ++i) {
            auto oid = r.Int32();
            if (!oid) Fail("protocol violation: malformed ParameterDescription", "08P01");
            cur.param_type_oids.push_back(static_cast<uint32_t>(*oid));
          }
          dirty = true;
          break;
        }
        case protocol::be::kCopyInResponse: {
          bool got_error = false;
          cur.copy_in = true;
          RunCopyIn(copy_in, &cur, &got_error, results);
          if (got_error) dirty = false;
          if (got_error && until == Until::kCompletion) return;
          break;
        }
        case protocol::be::kCopyOutResponse:
          in_copy_out = true;
          cur.copy_out = true;
          dirty = true;
          break;
        case protocol::be::kCopyData:
          if (!in_copy_out) Fail("protocol violation: CopyData outside COPY OUT", "08P01");
          if (copy_out != nullptr && *copy_out) {
            (*copy_out)(body);
          } else {
            cur.copy_data.append(body);
          }
          break;
        case protocol::be::kCopyDone:
          in_copy_out = false;
          break;
        case 'W':  // CopyBothResponse: replication only
          Fail("protocol violation: COPY BOTH is not supported", "08P01");
        case protocol::be::kReadyForQuery: {
          auto s = r.Byte();
          if (!s) Fail("protocol violation: malformed ReadyForQuery", "08P01");
          txn_status_ = static_cast<char>(*s);
          if (dirty) finish();
          // Notices that arrived after the last statement belong to it.
          if (!cur.notices.empty() && !results->empty()) {
            for (auto& n : cur.notices) results->back().notices.push_back(std::move(n));
          }
          return;
        }
        default:
          Fail("protocol violation: unexpected message type '" + std::string(1, type) + "'",
               "08P01");
      }
    } catch (const ClientError& e) {
      if (!broken_) Fail(e.what(), e.sqlstate().c_str());
      throw;
    }
  }
}

void Connection::Impl::CollectSynced(std::vector<Result>* results) {
  extended_ = true;
  try {
    Collect(results, Until::kReady, nullptr, nullptr);
  } catch (...) {
    extended_ = false;
    throw;
  }
  extended_ = false;
}

std::vector<Result> Connection::Impl::Query(std::string_view sql, const CopyProducer& copy_in,
                                            const CopyConsumer& copy_out) {
  EnsureUsable();
  MessageWriter q(protocol::fe::kQuery);
  q.CString(sql);
  Queue(q.Finish());
  Flush();
  std::vector<Result> results;
  Collect(&results, Until::kReady, &copy_in, &copy_out);
  return results;
}

Result Connection::Impl::Single(std::vector<Result>&& results) {
  if (results.empty()) return Result{};
  // An error anywhere (e.g. at Parse) is the outcome; otherwise the last piece.
  for (auto& r : results) {
    if (r.error) return std::move(r);
  }
  return std::move(results.back());
}

void Connection::Impl::QueueBindExecute(std::string_view stmt,
                                        const std::vector<std::optional<std::string>>& params,
                                        int32_t max_rows) {
  MessageWriter b(protocol::fe::kBind);
  b.CString("").CString(stmt);
  b.Int16(0);  // all parameters in text format
  b.Int16(static_cast<int16_t>(params.size()));
  for (const auto& p : params) {
    if (!p) {
      b.Int32(-1);
    } else {
      b.Int32(static_cast<int32_t>(p->size())).Bytes(*p);
    }
  }
  b.Int16(1).Int16(0);  // all results in text format
  Queue(b.Finish());
  MessageWriter d(protocol::fe::kDescribe);
  d.Byte('P').CString("");
  Queue(d.Finish());
  MessageWriter e(protocol::fe::kExecute);
  e.CString("").Int32(max_rows);
  Queue(e.Finish());
}

Result Connection::Impl::Extended(std::string_view sql,
                                  const std::vector<std::optional<std::string>>& params,
                                  const std::vector<uint32_t>& types) {
  EnsureUsable();
  if (params.size() > 65535) throw ClientError("too many parameters");
  MessageWriter p(protocol::fe::kParse);
  p.CString("").CString(sql).Int16(static_cast<int16_t>(types.size()));
  for (uint32_t t : types) p.Int32(static_cast<int32_t>(t));
  Queue(p.Finish());
  QueueBindExecute("", params, 0);
  Queue(MessageWriter(protocol::fe::kSync).Finish());
  Flush();
  std::vector<Result> results;
  CollectSynced(&results);
  return Single(std::move(results));
}

Result Connection::Impl::Prepare(std::string_view name, std::string_view sql,
                                 const std::vector<uint32_t>& types) {
  EnsureUsable();
  MessageWriter p(protocol::fe::kParse);
  p.CString(name).CString(sql).Int16(static_cast<int16_t>(types.size()));
  for (uint32_t t : types) p.Int32(static_cast<int32_t>(t));
  Queue(p.Finish());
  MessageWriter d(protocol::fe::kDescribe);
  d.Byte('S').CString(name);
  Queue(d.Finish());
  Queue(MessageWriter(protocol::fe::kSync).Finish());
  Flush();
  std::vector<Result> results;
  Collect(&results, Until::kReady, nullptr, nullptr);
  return Single(std::move(results));
}

Result Connection::Impl::ExecPrepared(std::string_view name,
                                      const std::vector<std::optional<std::string>>& params,
                                      int32_t max_rows) {
  EnsureUsable();
  if (params.size() > 65535) throw ClientError("too many parameters");
  if (max_rows < 0) max_rows = 0;
  QueueBindExecute(name, params, max_rows);
  std::vector<Result> results;
  if (max_rows == 0) {
    Queue(MessageWriter(protocol::fe::kSync).Finish());
    Flush();
    CollectSynced(&results);
    return Single(std::move(results));
  }
  // Flush, not Sync: Sync would end the implicit transaction and with it the
  // unnamed portal we want to continue.
  Queue(MessageWriter(protocol::fe::kFlush).Finish());
  Flush();
  Collect(&results, Until::kCompletion, nullptr, nullptr);
  Result r = Single(std::move(results));
  if (r.suspended && !r.error) {
    portal_open_ = true;
    return r;
  }
  Queue(MessageWriter(protocol::fe::kSync).Finish());
  Flush();
  std::vector<Result> tail;
  Collect(&tail, Until::kReady, nullptr, nullptr);
  return r;
}

Result Connection::Impl::FetchMore(int32_t max_rows) {
  if (!portal_open_) throw ClientError("FetchMore: no suspended portal");
  if (max_rows < 0) max_rows = 0;
  MessageWriter e(protocol::fe::kExecute);
  e.CString("").Int32(max_rows);
  Queue(e.Finish());
  Queue(MessageWriter(protocol::fe::kFlush).Finish());
  Flush();
  std::vector<Result> results;
  Collect(&results, Until::kCompletion, nullptr, nullptr);
  Result r = Single(std::move(results));
  if (r.suspended && !r.error) return r;
  portal_open_ = false;
  Queue(MessageWriter(protocol::fe::kSync).Finish());
  Flush();
  std::vector<Result> tail;
  Collect(&tail, Until::kReady, nullptr, nullptr);
  return r;
}

void Connection::Impl::ClosePortal() {
  if (!portal_open_) return;
  portal_open_ = false;
  MessageWriter c(protocol::fe::kClose);
  c.Byte('P').CString("");
  Queue(c.Finish());
  Queue(MessageWriter(protocol::fe::kSync).Finish());
  Flush();
  std::vector<Result> tail;
  Collect(&tail, Until::kReady, nullptr, nullptr);
}

Result Connection::Impl::ClosePrepared(std::string_view name) {
  EnsureUsable();
  MessageWriter c(protocol::fe::kClose);
  c.Byte('S').CString(name);
  Queue(c.Finish());
  Queue(MessageWriter(protocol::fe::kSync).Finish());
  Flush();
  std::vector<Result> results;
  Collect(&results, Until::kReady, nullptr, nullptr);
  return Single(std::move(results));
}

void Connection::Impl::Close() noexcept {
  if (!open_) return;
  open_ = false;
  boost::system::error_code ec;
  if (!broken_) {
    MessageWriter terminate(protocol::fe::kTerminate);
    asio::write(socket_, asio::buffer(terminate.Finish()), ec);
  }
  socket_.shutdown(tcp::socket::shutdown_both, ec);
  socket_.close(ec);
}

// ---- Connection: thin forwarding to Impl ----

Connection::Connection(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Connection::Connection(Connection&&) noexcept = default;
Connection& Connection::operator=(Connection&& other) noexcept {
  if (this != &other) {
    if (impl_) impl_->Close();
    impl_ = std::move(other.impl_);
  }
  return *this;
}
Connection::~Connection() {
  if (impl_) impl_->Close();
}

Connection Connection::Connect(const ConnectOptions& opts) {
  auto impl = std::make_unique<Impl>();
  impl->Open(opts);
  return Connection(std::move(impl));
}

std::vector<Result> Connection::SimpleQuery(std::string_view sql, const CopyProducer& copy_in,
                                            const CopyConsumer& copy_out) {
  return impl_->Query(sql, copy_in, copy_out);
}

Result Connection::ExecParams(std::string_view sql,
                              const std::vector<std::optional<std::string>>& params,
                              const std::vector<uint32_t>& param_type_oids) {
  return impl_->Extended(sql, params, param_type_oids);
}

Result Connection::Prepare(std::string_view name, std::string_view sql,
                           const std::vector<uint32_t>& param_type_oids) {
  return impl_->Prepare(name, sql, param_type_oids);
}

Result Connection::ExecPrepared(std::string_view name,
                                const std::vector<std::optional<std::string>>& params,
                                int32_t max_rows) {
  return impl_->ExecPrepared(name, params, max_rows);
}

Result Connection::FetchMore(int32_t max_rows) { return impl_->FetchMore(max_rows); }
void Connection::ClosePortal() { impl_->ClosePortal(); }
bool Connection::portal_open() const { return impl_->portal_open_; }

Result Connection::ClosePrepared(std::string_view name) { return impl_->ClosePrepared(name); }

Result Connection::CopyIn(std::string_view sql, const CopyProducer& producer) {
  auto results = impl_->Query(sql, producer, nullptr);
  if (results.empty()) return Result{};
  return std::move(results.back());
}

Result Connection::CopyOut(std::string_view sql, const CopyConsumer& consumer) {
  auto results = impl_->Query(sql, nullptr, consumer);
  if (results.empty()) return Result{};
  return std::move(results.back());
}

char Connection::TransactionStatus() const { return impl_->txn_status_; }
const std::map<std::string, std::string>& Connection::parameters() const {
  return impl_->parameters_;
}
std::string Connection::parameter(const std::string& name) const {
  auto it = impl_->parameters_.find(name);
  return it == impl_->parameters_.end() ? std::string() : it->second;
}
int32_t Connection::backend_pid() const { return impl_->key_.pid; }
int32_t Connection::secret_key() const { return impl_->key_.secret; }
CancelKey Connection::cancel_key() const { return impl_->key_; }
void Connection::SetNoticeHandler(NoticeHandler handler) {
  impl_->notice_handler_ = std::move(handler);
}
void Connection::Cancel() const { CancelRequest(impl_->key_); }
void Connection::Close() noexcept {
  if (impl_) impl_->Close();
}
bool Connection::is_open() const { return impl_ && impl_->open_; }

void Connection::CancelRequest(const CancelKey& key) {
  asio::io_context io;
  tcp::socket socket = OpenSocket(io, key.host, key.port);
  MessageWriter w('\0');
  w.Int32(protocol::kCancelRequestCode).Int32(key.pid).Int32(key.secret);
  boost::system::error_code ec;
  asio::write(socket, asio::buffer(w.Finish()), ec);
  if (ec) throw ClientError("could not send cancel request: " + ec.message(), "08006");
  // The server closes without replying once it has acted on the request;
  // waiting for EOF makes Cancel() return only after the signal was sent.
  char sink[64];
  while (!ec) socket.read_some(asio::buffer(sink), ec);
  socket.close(ec);
}

}  // namespace hearth::client
