// tcop/tls.cpp
//
// Principal entry point: MakeServerSslContext.
#include "tcop/tls.h"

#include <openssl/err.h>
#include <openssl/ssl.h>

#include <stdexcept>

#include "config/settings.h"

namespace hearth::tcop {

namespace {

std::string InDataDir(const std::string& name, const std::string& datadir) {
  return !name.empty() && name[0] == '/' ? name : datadir + "/" + name;
}

std::string OpenSslError() {
  const unsigned long e = ERR_get_error();
  char buf[256] = "unknown error";
  if (e != 0) ERR_error_string_n(e, buf, sizeof(buf));
  return buf;
}

}  // namespace

void SslContextDeleter::operator()(SSL_CTX* ctx) const { SSL_CTX_free(ctx); }

SslContext MakeServerSslContext(const config::Settings& settings, const std::string& datadir) {
  if (!settings.GetBool("ssl")) return nullptr;
  SslContext ctx(SSL_CTX_new(TLS_server_method()));
  if (!ctx) throw std::runtime_error("could not create SSL context: " + OpenSslError());
  SSL_CTX_set_min_proto_version(ctx.get(), TLS1_2_VERSION);  // ssl_min_protocol_version's default
  const std::string cert = InDataDir(settings.GetString("ssl_cert_file"), datadir);
  const std::string key = InDataDir(settings.GetString("ssl_key_file"), datadir);
  if (SSL_CTX_use_certificate_chain_file(ctx.get(), cert.c_str()) != 1) {
    throw std::runtime_error("could not load server certificate file \"" + cert + "\": " + OpenSslError());
  }
  if (SSL_CTX_use_PrivateKey_file(ctx.get(), key.c_str(), SSL_FILETYPE_PEM) != 1) {
    throw std::runtime_error("could not load private key file \"" + key + "\": " + OpenSslError());
  }
  if (SSL_CTX_check_private_key(ctx.get()) != 1) {
    throw std::runtime_error("check of private key failed: " + OpenSslError());
  }
  return ctx;
}

}  // namespace hearth::tcop
