// client/md5.cpp
//
// Principal entry points: Md5Digest, Md5Hex, PgMd5PasswordResponse (over
// common/auth's OpenSSL-backed MD5 and stored-form helpers).
#include "client/md5.h"

#include "common/auth/crypto.h"
#include "common/auth/scram.h"

namespace hearth::client {

std::array<uint8_t, 16> Md5Digest(std::string_view data) { return auth::Md5Digest(data); }

std::string Md5Hex(std::string_view data) { return auth::Md5Hex(data); }

std::string PgMd5PasswordResponse(std::string_view user, std::string_view password, std::string_view salt) {
  return auth::Md5SaltedResponse(auth::Md5PasswordHash(user, password), salt);
}

}  // namespace hearth::client
