// client/md5.h
//
// MD5 (RFC 1321) and PostgreSQL's "md5" password-exchange hash. Used only by
// the client's AuthenticationMD5Password step; MD5 is not a security
// primitive here, just what the v3 protocol prescribes. Pure functions,
// thread-safe.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace hearth::client {

// Raw 16-byte digest of `data`.
std::array<uint8_t, 16> Md5Digest(std::string_view data);

// Lower-case 32-character hex digest of `data`.
std::string Md5Hex(std::string_view data);

// What a client sends in PasswordMessage for AuthenticationMD5Password:
// "md5" + hex(md5(hex(md5(password + user)) + salt)). `salt` is the 4 bytes
// from the server. The stored form on the server is "md5" + hex(md5(password + user)).
std::string PgMd5PasswordResponse(std::string_view user, std::string_view password,
                                  std::string_view salt);

}  // namespace hearth::client
