// MD5 against RFC 1321 appendix A.5 vectors and PostgreSQL's md5 password format.
#include <catch2/catch.hpp>

#include "client/md5.h"

using hearth::client::Md5Hex;
using hearth::client::PgMd5PasswordResponse;

TEST_CASE("MD5 matches the RFC 1321 test suite", "[client][md5]") {
  CHECK(Md5Hex("") == "d41d8cd98f00b204e9800998ecf8427e");
  CHECK(Md5Hex("a") == "0cc175b9c0f1b6a831c399e269772661");
  CHECK(Md5Hex("abc") == "900150983cd24fb0d6963f7d28e17f72");
  CHECK(Md5Hex("message digest") == "f96b697d7cb7938d525a2f31aaf161d0");
  CHECK(Md5Hex("abcdefghijklmnopqrstuvwxyz") == "c3fcd3d76192e4007dfb496cca67e13b");
  CHECK(Md5Hex("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789") ==
        "d174ab98d277d9f5a5611c2c9f419d9f");
  CHECK(Md5Hex("1234567890123456789012345678901234567890123456789012345678901234567890123456"
               "7890") == "57edf4a22be3c955ac49da2e2107b67a");
}

TEST_CASE("MD5 handles every padding boundary", "[client][md5]") {
  // 55, 56 and 64 bytes straddle the one-block / two-block padding cases.
  CHECK(Md5Hex(std::string(55, 'a')) == "ef1772b6dff9a122358552954ad0df65");
  CHECK(Md5Hex(std::string(56, 'a')) == "3b0c8ac703f828b04c6c197006d17218");
  CHECK(Md5Hex(std::string(64, 'a')) == "014842d480b571495a4a0363793f7367");
}

TEST_CASE("PostgreSQL md5 password hashing", "[client][md5]") {
  // pg_authid.rolpassword for role "m" with password "secret" (PostgreSQL 15,
  // password_encryption = md5): "md5" || md5(password || user).
  CHECK("md5" + Md5Hex("secretm") == "md5b52328d7451bfeace80c4b8c338106f9");
  // The wire response salts the stored hash: md5(hex || salt).
  const std::string salt("\x01\x02\x03\x04", 4);
  const std::string expected = "md5" + Md5Hex("b52328d7451bfeace80c4b8c338106f9" + salt);
  CHECK(PgMd5PasswordResponse("m", "secret", salt) == expected);
  CHECK(PgMd5PasswordResponse("m", "secret", salt).size() == 35);
  CHECK(PgMd5PasswordResponse("m", "secret", salt) !=
        PgMd5PasswordResponse("m", "secret", std::string("\x01\x02\x03\x05", 4)));
}
