// The client library against a scripted fake server on a loopback socket:
// startup and authentication, simple and extended query framing, and clean
// failure on malformed, oversized or truncated streams. No real server.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <functional>
#include <map>
#include <thread>

#include "client/client.h"
#include "client/md5.h"
#include "client/scram.h"
#include "client/sha256.h"
#include "common/protocol/wire.h"

using namespace hearth::client;
using hearth::protocol::MessageReader;
using hearth::protocol::MessageWriter;

namespace {

bool ReadExact(int fd, char* p, size_t n) {
  while (n > 0) {
    ssize_t r = ::read(fd, p, n);
    if (r <= 0) return false;
    p += r;
    n -= static_cast<size_t>(r);
  }
  return true;
}

void SendAll(int fd, const std::string& s) {
  size_t off = 0;
  while (off < s.size()) {
    ssize_t w = ::send(fd, s.data() + off, s.size() - off, MSG_NOSIGNAL);  // peer may be gone
    if (w <= 0) return;
    off += static_cast<size_t>(w);
  }
}

// Reads the untyped startup packet; returns its key/value pairs.
std::map<std::string, std::string> ReadStartup(int fd) {
  char hdr[8];
  std::map<std::string, std::string> kv;
  if (!ReadExact(fd, hdr, 8)) return kv;
  std::string body(static_cast<size_t>(hearth::protocol::ReadInt32BE(hdr)) - 8, '\0');
  if (!ReadExact(fd, body.data(), body.size())) return kv;
  kv["<version>"] = std::to_string(hearth::protocol::ReadInt32BE(hdr + 4));
  MessageReader r(body);
  for (;;) {
    auto k = r.CString();
    if (!k || k->empty()) break;
    auto v = r.CString();
    if (!v) break;
    kv[std::string(*k)] = std::string(*v);
  }
  return kv;
}

std::pair<char, std::string> ReadMsg(int fd) {
  char hdr[5];
  if (!ReadExact(fd, hdr, 5)) return {'\0', ""};
  std::string body(static_cast<size_t>(hearth::protocol::ReadInt32BE(hdr + 1)) - 4, '\0');
  if (!ReadExact(fd, body.data(), body.size())) return {'\0', ""};
  return {hdr[0], body};
}

std::string Msg(char type, const std::string& body) {
  MessageWriter w(type);
  w.Bytes(body);
  return w.Finish();
}
std::string Int32(int32_t v) {
  MessageWriter w('\0');
  w.Int32(v);
  return w.Finish().substr(4);
}
std::string AuthOk() { return Msg('R', Int32(0)); }
std::string Ready(char s = 'I') { return Msg('Z', std::string(1, s)); }
std::string Param(const std::string& k, const std::string& v) {
  return Msg('S', k + '\0' + v + '\0');
}

// Accepts one connection on 127.0.0.1 and runs `script` on it in a thread.
class FakeServer {
 public:
  explicit FakeServer(std::function<void(int)> script) {
    listen_fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    REQUIRE(::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0);
    REQUIRE(::listen(listen_fd_, 4) == 0);
    socklen_t len = sizeof(addr);
    ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
    thread_ = std::thread([this, script = std::move(script)] {
      int fd = ::accept(listen_fd_, nullptr, nullptr);
      if (fd < 0) return;
      script(fd);
      ::close(fd);
    });
  }
  ~FakeServer() {
    thread_.join();
    ::close(listen_fd_);
  }
  ConnectOptions Options() const {
    ConnectOptions o;
    o.port = port_;
    o.user = "u";
    o.database = "db";
    return o;
  }

 private:
  int listen_fd_ = -1;
  uint16_t port_ = 0;
  std::thread thread_;
};

}  // namespace

TEST_CASE("startup, ParameterStatus, BackendKeyData and a simple query", "[client][protocol]") {
  std::map<std::string, std::string> startup;
  std::string query;
  FakeServer server([&](int fd) {
    startup = ReadStartup(fd);
    SendAll(fd, AuthOk() + Param("server_version", "15.0") + Param("is_superuser", "on") +
                    Msg('K', Int32(4242) + Int32(99)) + Ready());
    auto [type, body] = ReadMsg(fd);
    query = body;
    std::string rowdesc = std::string("\0\2", 2) + "n" + '\0' + Int32(0) + std::string("\0\0", 2) +
                          Int32(23) + std::string("\0\4", 2) + Int32(-1) + std::string("\0\0", 2) +
                          "t" + '\0' + Int32(0) + std::string("\0\0", 2) + Int32(25) +
                          std::string("\xff\xff", 2) + Int32(-1) + std::string("\0\0", 2);
    std::string row = std::string("\0\2", 2) + Int32(2) + "42" + Int32(-1);
    SendAll(fd, Msg('T', rowdesc) + Msg('D', row) + Msg('C', std::string("SELECT 1\0", 9)) +
                    Msg('I', "") + Ready('T'));
    ReadMsg(fd);  // Terminate
  });
  auto opts = server.Options();
  opts.options["search_path"] = "a b";
  auto c = Connection::Connect(opts);
  CHECK(startup["<version>"] == "196608");
  CHECK(startup["user"] == "u");
  CHECK(startup["database"] == "db");
  CHECK(startup["application_name"] == "hearth");
  CHECK(startup["options"] == "-c search_path=a\\ b");
  CHECK(c.parameter("server_version") == "15.0");
  CHECK(c.backend_pid() == 4242);
  CHECK(c.secret_key() == 99);
  auto rs = c.SimpleQuery("select 42 as n, null::text as t; ;");
  CHECK(query == std::string("select 42 as n, null::text as t; ;\0", 35));
  REQUIRE(rs.size() == 2);
  REQUIRE(rs[0].columns.size() == 2);
  CHECK(rs[0].columns[0].name == "n");
  CHECK(rs[0].columns[0].type_oid == 23);
  CHECK(rs[0].columns[1].typlen == -1);
  REQUIRE(rs[0].rows.size() == 1);
  CHECK(rs[0].rows[0][0] == std::optional<std::string>("42"));
  CHECK_FALSE(rs[0].rows[0][1].has_value());
  CHECK(rs[0].command_tag == "SELECT 1");
  CHECK(rs[1].empty_query);
  CHECK(c.TransactionStatus() == 'T');
  c.Close();
}

TEST_CASE("MD5 and cleartext authentication send the right password", "[client][protocol]") {
  std::string md5_reply;
  {
    FakeServer server([&](int fd) {
      ReadStartup(fd);
      SendAll(fd, Msg('R', Int32(5) + "salt"));
      md5_reply = ReadMsg(fd).second;
      SendAll(fd, AuthOk() + Ready());
      ReadMsg(fd);
    });
    auto o = server.Options();
    o.password = "pw";
    auto c = Connection::Connect(o);
  }
  CHECK(md5_reply == PgMd5PasswordResponse("u", "pw", "salt") + '\0');
  std::string clear_reply;
  {
    FakeServer server([&](int fd) {
      ReadStartup(fd);
      SendAll(fd, Msg('R', Int32(3)));
      clear_reply = ReadMsg(fd).second;
      SendAll(fd, AuthOk() + Ready());
      ReadMsg(fd);
    });
    auto o = server.Options();
    o.password = "secret";
    auto c = Connection::Connect(o);
  }
  CHECK(clear_reply == std::string("secret\0", 7));
}

TEST_CASE("a startup ErrorResponse becomes ClientError with its SQLSTATE", "[client][protocol]") {
  FakeServer server([&](int fd) {
    ReadStartup(fd);
    ErrorFields f;
    f.severity = "FATAL";
    f.sqlstate = "28P01";
    f.message = "password authentication failed for user \"u\"";
    SendAll(fd, hearth::protocol::EncodeErrorFields('E', f));
  });
  try {
    Connection::Connect(server.Options());
    FAIL("Connect should throw");
  } catch (const ClientError& e) {
    CHECK(e.sqlstate() == "28P01");
    CHECK(std::string(e.what()).find("FATAL:  password authentication failed") != std::string::npos);
    REQUIRE(e.fields().has_value());
    CHECK(e.fields()->severity == "FATAL");
  }
}

TEST_CASE("ExecParams frames Parse/Bind/Describe/Execute/Sync with NULLs", "[client][protocol]") {
  std::vector<std::pair<char, std::string>> got;
  FakeServer server([&](int fd) {
    ReadStartup(fd);
    SendAll(fd, AuthOk() + Ready());
    for (int i = 0; i < 5; ++i) got.push_back(ReadMsg(fd));
    SendAll(fd, Msg('1', "") + Msg('2', "") + Msg('n', "") +
                    Msg('C', std::string("INSERT 0 1\0", 11)) + Ready());
    ReadMsg(fd);
  });
  auto c = Connection::Connect(server.Options());
  Result r = c.ExecParams("insert into t values ($1, $2)", {"7", std::nullopt}, {23, 0});
  CHECK(r.ok());
  CHECK(r.command_tag == "INSERT 0 1");
  CHECK_FALSE(r.has_columns);
  REQUIRE(got.size() == 5);
  CHECK(got[0].first == 'P');
  CHECK(got[0].second == std::string(1, '\0') + "insert into t values ($1, $2)" +
                             std::string("\0\0\2", 3) + Int32(23) + Int32(0));
  CHECK(got[1].first == 'B');
  CHECK(got[1].second == std::string("\0\0\0\0\0\2", 6) + Int32(1) + "7" + Int32(-1) +
                             std::string("\0\1\0\0", 4));
  CHECK(got[2] == std::make_pair('D', std::string("P\0", 2)));
  CHECK(got[3] == std::make_pair('E', std::string("\0", 1) + Int32(0)));
  CHECK(got[4] == std::make_pair('S', std::string()));
}

TEST_CASE("malformed, oversized and truncated streams fail cleanly", "[client][protocol]") {
  auto run = [](const std::string& reply, const char* want_state) {
    FakeServer server([reply](int fd) {
      ReadStartup(fd);
      SendAll(fd, AuthOk() + Ready());
      ReadMsg(fd);
      SendAll(fd, reply);
      ::shutdown(fd, SHUT_WR);
    });
    auto c = Connection::Connect(server.Options());
    try {
      c.SimpleQuery("select 1");
      FAIL("SimpleQuery should throw");
    } catch (const ClientError& e) {
      CHECK(e.sqlstate() == want_state);
    }
    CHECK_FALSE(c.is_open());
    try {
      c.SimpleQuery("select 1");
      FAIL("a broken connection must not be reused");
    } catch (const ClientError& e) {
      CHECK(e.sqlstate() == "08003");
    }
  };
  run(std::string("C\0\0\0\x02", 5), "08P01");           // length below 4
  run(std::string("D\x7f\xff\xff\xff", 5), "08P01");     // 2 GiB: refused, not allocated
  run(std::string("C\0\0\0\x20SELE", 9), "08006");       // closed mid-message
  run("", "08006");                                       // closed before any reply
  run(Msg('D', std::string("\0\5", 2)), "08P01");         // DataRow shorter than it claims
  run(Msg('?', ""), "08P01");                             // unknown message type
}

namespace {

// Server side of SCRAM-SHA-256 for password "pencil", salt "NaCl", i=2.
// Returns whether the client's proof was valid; `tamper` corrupts the
// server signature we send back.
bool ScramServer(int fd, bool tamper, std::string* mechanism) {
  auto [t1, init] = ReadMsg(fd);
  MessageReader r(init);
  *mechanism = std::string(r.CString().value_or(""));
  auto len = r.Int32();
  std::string client_first(r.Bytes(static_cast<size_t>(len.value_or(0))).value_or(""));
  const std::string bare = client_first.substr(3);  // drop "n,,"
  const std::string nonce = bare.substr(bare.find("r=") + 2) + "SRV";
  const std::string server_first = "r=" + nonce + ",s=" + Base64Encode("NaCl") + ",i=2";
  SendAll(fd, Msg('R', Int32(11) + server_first));
  auto [t2, client_final] = ReadMsg(fd);
  const std::string without_proof = client_final.substr(0, client_final.find(",p="));
  const std::string proof = *Base64Decode(client_final.substr(client_final.find(",p=") + 3));
  const std::string auth = bare + "," + server_first + "," + without_proof;
  const auto salted = ScramHi("pencil", "NaCl", 2);
  const auto stored = Sha256(DigestBytes(HmacSha256(DigestBytes(salted), "Client Key")));
  const auto client_sig = HmacSha256(DigestBytes(stored), auth);
  std::string client_key(32, '\0');
  for (size_t i = 0; i < 32; ++i) client_key[i] = static_cast<char>(proof[i] ^ client_sig[i]);
  const bool ok = Sha256(client_key) == stored;
  auto server_sig = HmacSha256(DigestBytes(HmacSha256(DigestBytes(salted), "Server Key")), auth);
  if (tamper) server_sig[0] ^= 1;
  SendAll(fd, Msg('R', Int32(12) + "v=" + Base64Encode(DigestBytes(server_sig))));
  return ok;
}

}  // namespace

TEST_CASE("SCRAM-SHA-256 authentication over the wire", "[client][protocol][scram]") {
  bool proof_ok = false;
  std::string mechanism;
  {
    FakeServer server([&](int fd) {
      ReadStartup(fd);
      SendAll(fd, Msg('R', Int32(10) + std::string("SCRAM-SHA-256\0\0", 15)));
      proof_ok = ScramServer(fd, false, &mechanism);
      SendAll(fd, AuthOk() + Ready());
      ReadMsg(fd);
    });
    auto o = server.Options();
    o.password = "pencil";
    auto c = Connection::Connect(o);
    CHECK(c.is_open());
  }
  CHECK(mechanism == "SCRAM-SHA-256");
  CHECK(proof_ok);

  // A server that does not know the password cannot forge its signature.
  FakeServer forger([&](int fd) {
    ReadStartup(fd);
    SendAll(fd, Msg('R', Int32(10) + std::string("SCRAM-SHA-256\0\0", 15)));
    ScramServer(fd, true, &mechanism);
    SendAll(fd, AuthOk() + Ready());
  });
  auto o = forger.Options();
  o.password = "pencil";
  try {
    Connection::Connect(o);
    FAIL("Connect must reject a bad server signature");
  } catch (const ClientError& e) {
    CHECK(e.sqlstate() == "28000");
    CHECK(std::string(e.what()).find("server signature is invalid") != std::string::npos);
  }
}
