// tcop/tls.cpp
//
// Principal entry points: MakeServerSslContext, TlsServerEndPoint.
#include "tcop/tls.h"

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

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

std::optional<std::string> TlsServerEndPoint(SSL* ssl) {
  X509* cert = ssl != nullptr ? SSL_get_certificate(ssl) : nullptr;
  if (cert == nullptr) return std::nullopt;
  int digest_nid = NID_undef;
  if (OBJ_find_sigid_algs(X509_get_signature_nid(cert), &digest_nid, nullptr) != 1) return std::nullopt;
  // RFC 5929: MD5 and SHA-1 are replaced by SHA-256.
  const EVP_MD* md = (digest_nid == NID_md5 || digest_nid == NID_sha1) ? EVP_sha256() : EVP_get_digestbynid(digest_nid);
  if (md == nullptr) return std::nullopt;
  unsigned char hash[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (X509_digest(cert, md, hash, &len) != 1) return std::nullopt;
  return std::string(reinterpret_cast<const char*>(hash), len);
}

}  // namespace hearth::tcop
