// tcop/auth.cpp
//
// Principal entry points: Authenticate, ReadAuthSecret, WriteAuthSecret.
#include "tcop/auth.h"

#include <fstream>

#include "common/auth/crypto.h"
#include "common/auth/scram.h"
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "common/protocol/wire.h"
#include "storage/ipc/interrupts.h"
#include "tcop/auth_scram.h"
#include "tcop/tls.h"
#include "utils/adt/datetime_adt.h"

namespace hearth::tcop {

namespace {

constexpr size_t kMaxAuthMessage = 65535;  // PostgreSQL's PG_MAX_AUTH_TOKEN_LENGTH
constexpr char kAuthSecretFile[] = "global/auth_secret";

[[noreturn]] void AuthFailed(const std::string& user) {
  throw DbError(sqlstate::kInvalidPassword, "password authentication failed for user \"" + user + "\"",
                Severity::kFatal);
}

void SendAuthRequest(ClientSocket& sock, int32_t code, std::string_view data = {}) {
  protocol::MessageWriter w(protocol::be::kAuthentication);
  w.Int32(code);
  w.Bytes(data);
  sock.Send(w.Finish());
  sock.Flush();
}

// The client's next 'p' message body; nullopt on EOF.
std::optional<std::string> ReadPasswordMessage(ClientSocket& sock) {
  char type = 0;
  std::string body;
  const ReadStatus st = sock.ReadMessage(&type, &body, kMaxAuthMessage, CheckForTermination);
  if (st == ReadStatus::kEof) return std::nullopt;
  if (st != ReadStatus::kOk) {
    throw DbError(sqlstate::kProtocolViolation, "invalid password packet size", Severity::kFatal);
  }
  if (type != protocol::fe::kPassword) {
    throw DbError(sqlstate::kProtocolViolation,
                  "expected password response, got message type " +
                      std::to_string(static_cast<int>(static_cast<unsigned char>(type))),
                  Severity::kFatal);
  }
  return body;
}

// The password of a PasswordMessage (a C string filling the body).
std::string PasswordText(const std::string& body) {
  if (body.empty() || body.back() != '\0' || body.find('\0') != body.size() - 1) {
    throw DbError(sqlstate::kProtocolViolation, "invalid password packet", Severity::kFatal);
  }
  return body.substr(0, body.size() - 1);
}

bool Expired(const LoginRole& role) {
  return role.valid_until && *role.valid_until < types::CurrentTimestampUsecs();
}

std::optional<auth::ScramVerifier> UsableVerifier(const LoginRole& role) {
  if (!role.exists || !role.password || Expired(role)) return std::nullopt;
  return auth::ParseScramVerifier(*role.password);
}

bool ScramExchange(ClientSocket& sock, const std::string& user, const LoginRole& role, std::string_view secret) {
  // Over TLS, SCRAM-SHA-256-PLUS binds the exchange to this connection's
  // server certificate, so a man in the middle cannot relay it.
  ScramServer scram(user, UsableVerifier(role), secret,
                    sock.encrypted() ? TlsServerEndPoint(sock.ssl()) : std::nullopt);
  std::string mechanisms;
  for (const std::string& m : scram.Mechanisms()) {
    mechanisms += m;
    mechanisms.push_back('\0');
  }
  mechanisms.push_back('\0');
  SendAuthRequest(sock, protocol::kAuthSasl, mechanisms);
  auto initial = ReadPasswordMessage(sock);
  if (!initial) return false;
  protocol::MessageReader r(*initial);
  auto mechanism = r.CString();
  auto length = r.Int32();
  if (!mechanism || !length) throw DbError(sqlstate::kProtocolViolation, "invalid SASL message", Severity::kFatal);
  if (!scram.SelectMechanism(*mechanism)) {
    throw DbError(sqlstate::kProtocolViolation, "client selected an invalid SASL authentication mechanism",
                  Severity::kFatal);
  }
  auto data = r.Bytes(*length < 0 ? 0 : static_cast<size_t>(*length));
  if (!data) throw DbError(sqlstate::kProtocolViolation, "invalid SASL message", Severity::kFatal);
  SendAuthRequest(sock, protocol::kAuthSaslContinue, scram.HandleClientFirst(*data));
  auto final_message = ReadPasswordMessage(sock);
  if (!final_message) return false;
  auto server_final = scram.HandleClientFinal(*final_message);
  if (!server_final) AuthFailed(user);
  SendAuthRequest(sock, protocol::kAuthSaslFinal, *server_final);
  return true;
}

bool Md5Exchange(ClientSocket& sock, const std::string& user, const LoginRole& role) {
  const std::string salt = auth::RandomBytes(4);
  SendAuthRequest(sock, protocol::kAuthMd5, salt);
  auto body = ReadPasswordMessage(sock);
  if (!body) return false;
  const std::string response = PasswordText(*body);
  const bool usable = role.exists && role.password && auth::IsMd5Password(*role.password) && !Expired(role);
  const std::string expected = auth::Md5SaltedResponse(usable ? *role.password : auth::Md5PasswordHash(user, salt), salt);
  if (!auth::ConstantTimeEqual(response, expected) || !usable) AuthFailed(user);
  return true;
}

bool PlainPasswordMatches(const std::string& user, const std::string& password, const LoginRole& role) {
  if (!role.exists || !role.password || password.empty()) return false;
  if (auto v = auth::ParseScramVerifier(*role.password)) {
    const auth::ScramKeys k = auth::DeriveScramKeys(password, v->salt, v->iterations);
    return auth::ConstantTimeEqual(k.stored_key, v->stored_key);
  }
  if (auth::IsMd5Password(*role.password)) {
    return auth::ConstantTimeEqual(auth::Md5PasswordHash(user, password), *role.password);
  }
  return false;
}

bool PasswordExchange(ClientSocket& sock, const std::string& user, const LoginRole& role) {
  SendAuthRequest(sock, protocol::kAuthCleartext);
  auto body = ReadPasswordMessage(sock);
  if (!body) return false;
  if (!PlainPasswordMatches(user, PasswordText(*body), role) || Expired(role)) AuthFailed(user);
  return true;
}

}  // namespace

bool Authenticate(ClientSocket& sock, HbaMethod method, const std::string& user, const LoginRole& role,
                  std::string_view mock_secret) {
  switch (method) {
    case HbaMethod::kTrust:
      return true;
    case HbaMethod::kReject:
      return false;  // the caller reports the rejecting line
    case HbaMethod::kScram:
      return ScramExchange(sock, user, role, mock_secret);
    case HbaMethod::kMd5:
      // A SCRAM verifier cannot answer an md5 challenge: ask for SCRAM.
      if (role.exists && role.password && auth::IsScramPassword(*role.password)) {
        return ScramExchange(sock, user, role, mock_secret);
      }
      return Md5Exchange(sock, user, role);
    case HbaMethod::kPassword:
      return PasswordExchange(sock, user, role);
  }
  return false;
}

std::string ReadAuthSecret(const std::string& datadir) {
  std::ifstream in(datadir + "/" + kAuthSecretFile);
  std::string secret;
  std::getline(in, secret);
  return secret.empty() ? datadir : secret;
}

bool WriteAuthSecret(const std::string& datadir, std::string* error) {
  const std::string path = datadir + "/" + kAuthSecretFile;
  std::ofstream out(path, std::ios::trunc);
  out << auth::Base64Encode(auth::RandomBytes(32)) << '\n';
  out.flush();
  if (!out) {
    *error = "could not write file \"" + path + "\"";
    return false;
  }
  return true;
}

}  // namespace hearth::tcop
