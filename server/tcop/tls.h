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
#include <string>

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

}  // namespace hearth::tcop
