// SHA-256, HMAC, PBKDF2 and SCRAM-SHA-256 against published vectors
// (FIPS 180-4 examples, RFC 4231, RFC 7914 §11 style PBKDF2 vectors, RFC 7677).
#include <catch2/catch.hpp>

#include "client/scram.h"
#include "client/sha256.h"

using namespace hearth::client;

namespace {

std::string Hex(const Sha256Digest& d) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (uint8_t b : d) {
    out += kDigits[b >> 4];
    out += kDigits[b & 15];
  }
  return out;
}

}  // namespace

TEST_CASE("SHA-256 vectors", "[client][scram]") {
  CHECK(Hex(Sha256("abc")) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(Hex(Sha256("")) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(Hex(Sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")) ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(Hex(Sha256(std::string(1000, 'a'))) ==
        "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3");
}

TEST_CASE("HMAC-SHA-256 and PBKDF2 vectors", "[client][scram]") {
  CHECK(Hex(HmacSha256("Jefe", "what do ya want for nothing?")) ==
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  // Keys longer than the block size are hashed first.
  CHECK(Hex(HmacSha256(std::string(100, 'k'), "data")) ==
        "09380ee4b802da2363bc96e8e0d133ba275458ea8ddbc564f986fc12b31f8cb1");
  CHECK(Hex(ScramHi("password", "salt", 1)) ==
        "120fb6cffcf8b32c43e7225256c4f837a86548c92ccc35480805987cb70be17b");
  CHECK(Hex(ScramHi("password", "salt", 2)) ==
        "ae4d0c95af6b46d32d0adff928f06dd02a303f8ef3c251dfd6e2d85a95474c43");
  CHECK(Hex(ScramHi("password", "salt", 4096)) ==
        "c5e478d59288c841aa530db6845c4c8d962893a001ce4e11a4963873aa98134a");
}

TEST_CASE("base64 round trips and rejects garbage", "[client][scram]") {
  CHECK(Base64Encode("") == "");
  CHECK(Base64Encode("f") == "Zg==");
  CHECK(Base64Encode("fo") == "Zm8=");
  CHECK(Base64Encode("foo") == "Zm9v");
  CHECK(Base64Encode("n,,") == "biws");
  CHECK(Base64Decode("Zm9vYg==") == std::optional<std::string>("foob"));
  CHECK(Base64Decode("Zm9vYmE=") == std::optional<std::string>("fooba"));
  CHECK_FALSE(Base64Decode("Zm9").has_value());
  CHECK_FALSE(Base64Decode("Zm!v").has_value());
  CHECK_FALSE(Base64Decode("Z===").has_value());
  CHECK_FALSE(Base64Decode("Zg=a").has_value());
}

TEST_CASE("SCRAM-SHA-256 exchange from RFC 7677", "[client][scram]") {
  ScramClient c("pencil", "rOprNGfwEbeRWgbNEkqO", "user");
  CHECK(c.ClientFirstMessage() == "n,,n=user,r=rOprNGfwEbeRWgbNEkqO");
  std::string error;
  auto final_msg = c.HandleServerFirst(
      "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096",
      &error);
  REQUIRE(final_msg);
  CHECK(*final_msg ==
        "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
        "p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=");
  CHECK(c.VerifyServerFinal("v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=", &error));
  CHECK_FALSE(c.VerifyServerFinal("v=AAAATRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=", &error));
  CHECK(error == "SCRAM server signature is invalid");
}

TEST_CASE("SCRAM refuses hostile server messages", "[client][scram]") {
  std::string error;
  ScramClient c("pw", "clientnonce");
  CHECK(c.ClientFirstMessage() == "n,,n=,r=clientnonce");
  CHECK_FALSE(c.HandleServerFirst("r=othernonce123,s=c2FsdA==,i=4096", &error));
  CHECK(error == "SCRAM server nonce does not extend the client nonce");
  CHECK_FALSE(c.HandleServerFirst("r=clientnonce,s=c2FsdA==,i=4096", &error));  // not extended
  CHECK_FALSE(c.HandleServerFirst("r=clientnonceXY,s=c2FsdA==,i=0", &error));
  CHECK_FALSE(c.HandleServerFirst("r=clientnonceXY,s=c2FsdA==,i=99999999999", &error));
  CHECK_FALSE(c.HandleServerFirst("r=clientnonceXY,s=!!!!,i=4096", &error));
  CHECK_FALSE(c.HandleServerFirst("r=clientnonceXY,i=4096", &error));
  CHECK_FALSE(c.HandleServerFirst("e=other-error", &error));
  CHECK(error == "server rejected SCRAM: other-error");
  // No signature is accepted before a successful server-first.
  CHECK_FALSE(c.VerifyServerFinal("v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=", &error));
  // Random nonces differ between exchanges.
  CHECK(ScramClient("pw").ClientFirstMessage() != ScramClient("pw").ClientFirstMessage());
}
