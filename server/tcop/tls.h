// tcop/tls.h
//
// TLS for client connections through OpenSSL, configured as PostgreSQL 15:
// ssl (on/off), ssl_cert_file and ssl_key_file (relative names are in the
// data directory). The postmaster builds the server context at start (a
// broken certificate or key with ssl = on stops it) and again on SIGHUP (a
// failure keeps the old context and is logged); backends inherit it through
// fork and answer SSLRequest with 'S' and a TLS handshake when it exists,
// 'N' otherwise.
#pragma once

#include <memory>
#include <optional>
#include <string>

typedef struct ssl_st SSL;
typedef struct ssl_ctx_st SSL_CTX;

namespace hearth::config {
class Settings;
}

namespace hearth::tcop {

struct SslContextDeleter {
  void operator()(SSL_CTX* ctx) const;
};
using SslContext = std::unique_ptr<SSL_CTX, SslContextDeleter>;

// The server context for `settings`, or null when ssl is off. Throws
// std::runtime_error naming the file that could not be used.
SslContext MakeServerSslContext(const config::Settings& settings, const std::string& datadir);

// The channel-binding data of type tls-server-end-point (RFC 5929 section
// 4.1) for an established connection: the hash of the server's certificate
// with the digest of its signature algorithm, SHA-256 when that is MD5 or
// SHA-1. nullopt when the algorithm has no single digest (e.g. Ed25519),
// in which case SCRAM-SHA-256-PLUS is not offered.
std::optional<std::string> TlsServerEndPoint(SSL* ssl);

}  // namespace hearth::tcop
