// client/scram.cpp
//
// Principal entry points: ScramClient::{ClientFirstMessage,
// HandleServerFirst, VerifyServerFinal}, Base64Encode/Decode.
// The proof: SaltedPassword = Hi(password, salt, i); ClientKey =
// HMAC(SaltedPassword, "Client Key"); StoredKey = H(ClientKey);
// AuthMessage = client-first-bare + "," + server-first + "," +
// client-final-without-proof; ClientProof = ClientKey XOR HMAC(StoredKey,
// AuthMessage); ServerSignature = HMAC(HMAC(SaltedPassword, "Server Key"),
// AuthMessage).
#include "client/scram.h"

#include <random>

#include "client/sha256.h"

namespace hearth::client {
namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr uint32_t kMaxIterations = 10'000'000;  // refuse absurd work factors

// Finds attribute `name` ("r", "s", "i", "v", "e") in a comma-separated
// SCRAM message.
std::optional<std::string_view> Attribute(std::string_view msg, char name) {
  size_t pos = 0;
  while (pos <= msg.size()) {
    size_t end = msg.find(',', pos);
    if (end == std::string_view::npos) end = msg.size();
    std::string_view part = msg.substr(pos, end - pos);
    if (part.size() >= 2 && part[0] == name && part[1] == '=') return part.substr(2);
    pos = end + 1;
  }
  return std::nullopt;
}

bool ConstantTimeEqual(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  unsigned diff = 0;
  for (size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

}  // namespace

std::string Base64Encode(std::string_view data) {
  std::string out;
  out.reserve((data.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 3 <= data.size(); i += 3) {
    const uint32_t v = (static_cast<uint8_t>(data[i]) << 16) |
                       (static_cast<uint8_t>(data[i + 1]) << 8) | static_cast<uint8_t>(data[i + 2]);
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += kAlphabet[v & 63];
  }
  const size_t rest = data.size() - i;
  if (rest > 0) {
    uint32_t v = static_cast<uint8_t>(data[i]) << 16;
    if (rest == 2) v |= static_cast<uint8_t>(data[i + 1]) << 8;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += rest == 2 ? kAlphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::optional<std::string> Base64Decode(std::string_view text) {
  if (text.size() % 4 != 0) return std::nullopt;
  std::string out;
  out.reserve(text.size() / 4 * 3);
  for (size_t i = 0; i < text.size(); i += 4) {
    uint32_t v = 0;
    int pad = 0;
    for (size_t k = 0; k < 4; ++k) {
      const char c = text[i + k];
      int d;
      if (c >= 'A' && c <= 'Z') d = c - 'A';
      else if (c >= 'a' && c <= 'z') d = c - 'a' + 26;
      else if (c >= '0' && c <= '9') d = c - '0' + 52;
      else if (c == '+') d = 62;
      else if (c == '/') d = 63;
      else if (c == '=' && i + 4 == text.size() && k >= 2) { d = 0; ++pad; }
      else return std::nullopt;
      if (pad > 0 && c != '=') return std::nullopt;  // data after padding
      v = (v << 6) | static_cast<uint32_t>(d);
    }
    out += static_cast<char>((v >> 16) & 0xff);
    if (pad < 2) out += static_cast<char>((v >> 8) & 0xff);
    if (pad < 1) out += static_cast<char>(v & 0xff);
  }
  return out;
}

ScramClient::ScramClient(std::string password, std::string nonce, std::string user)
    : password_(std::move(password)), nonce_(std::move(nonce)) {
  if (nonce_.empty()) {
    std::random_device rd;  // /dev/urandom on Linux
    std::string raw(24, '\0');
    for (char& c : raw) c = static_cast<char>(rd() & 0xff);
    nonce_ = Base64Encode(raw);
  }
  // RFC 5802 saslname: ',' and '=' are escaped as =2C and =3D.
  std::string name;
  for (char c : user) {
    if (c == ',') name += "=2C";
    else if (c == '=') name += "=3D";
    else name += c;
  }
  client_first_bare_ = "n=" + name + ",r=" + nonce_;
}

std::string ScramClient::ClientFirstMessage() const { return "n,," + client_first_bare_; }

std::optional<std::string> ScramClient::HandleServerFirst(std::string_view server_first,
                                                          std::string* error) {
  if (auto e = Attribute(server_first, 'e')) {
    *error = "server rejected SCRAM: " + std::string(*e);
    return std::nullopt;
  }
  auto r = Attribute(server_first, 'r');
  auto s = Attribute(server_first, 's');
  auto i = Attribute(server_first, 'i');
  if (!r || !s || !i) {
    *error = "malformed SCRAM server-first-message";
    return std::nullopt;
  }
  if (r->size() <= nonce_.size() || r->substr(0, nonce_.size()) != nonce_) {
    *error = "SCRAM server nonce does not extend the client nonce";
    return std::nullopt;
  }
  auto salt = Base64Decode(*s);
  uint32_t iterations = 0;
  for (char c : *i) {
    if (c < '0' || c > '9' || iterations > kMaxIterations) {
      iterations = 0;
      break;
    }
    iterations = iterations * 10 + static_cast<uint32_t>(c - '0');
  }
  if (!salt || salt->empty() || iterations == 0 || iterations > kMaxIterations) {
    *error = "malformed SCRAM salt or iteration count";
    return std::nullopt;
  }

  const Sha256Digest salted = ScramHi(password_, *salt, iterations);
  const Sha256Digest client_key = HmacSha256(DigestBytes(salted), "Client Key");
  const Sha256Digest stored_key = Sha256(DigestBytes(client_key));
  const std::string without_proof = "c=biws,r=" + std::string(*r);  // biws = base64("n,,")
  const std::string auth_message =
      client_first_bare_ + "," + std::string(server_first) + "," + without_proof;
  const Sha256Digest signature = HmacSha256(DigestBytes(stored_key), auth_message);
  std::string proof(32, '\0');
  for (size_t k = 0; k < 32; ++k) proof[k] = static_cast<char>(client_key[k] ^ signature[k]);
  const Sha256Digest server_key = HmacSha256(DigestBytes(salted), "Server Key");
  expected_server_signature_ = DigestBytes(HmacSha256(DigestBytes(server_key), auth_message));
  return without_proof + ",p=" + Base64Encode(proof);
}

bool ScramClient::VerifyServerFinal(std::string_view server_final, std::string* error) const {
  if (auto e = Attribute(server_final, 'e')) {
    *error = "server rejected SCRAM: " + std::string(*e);
    return false;
  }
  auto v = Attribute(server_final, 'v');
  auto sig = v ? Base64Decode(*v) : std::nullopt;
  if (!sig || expected_server_signature_.empty() ||
      !ConstantTimeEqual(*sig, expected_server_signature_)) {
    *error = "SCRAM server signature is invalid";
    return false;
  }
  return true;
}

}  // namespace hearth::client
