// server/utils/adt/bytea.cpp
//
// Principal entry points: ParseBytea, AppendByteaHex, EncodeBytes, DecodeText.
#include "utils/adt/bytea.h"

#include <openssl/evp.h>

#include "common/error/db_error.h"

namespace hearth::types {
namespace {

constexpr char kHexDigits[] = "0123456789abcdef";
constexpr char kBase64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool IsOctal(char c) { return c >= '0' && c <= '7'; }

int HexDigit(char c) {
  int v = HexDigitValue(c);
  if (v >= 0) return v;
  throw DbError(sqlstate::kInvalidParameterValue,
                std::string("invalid hexadecimal digit: \"") + c + "\"");
}

// Hex digit pairs, whitespace allowed between pairs (PostgreSQL's hex_decode).
std::string HexDecode(std::string_view s) {
  std::string out;
  out.reserve(s.size() / 2);
  for (size_t i = 0; i < s.size();) {
    if (IsSpace(s[i])) {
      ++i;
      continue;
    }
    int hi = HexDigit(s[i]);
    if (i + 1 >= s.size()) {
      throw DbError(sqlstate::kInvalidParameterValue, "invalid hexadecimal data: odd number of digits");
    }
    int lo = HexDigit(s[i + 1]);
    out.push_back(static_cast<char>(hi * 16 + lo));
    i += 2;
  }
  return out;
}

// The escape format: \\ is a backslash, \ooo (first digit 0-3) an octal byte.
std::string EscapeDecode(std::string_view s, const char* type_name) {
  std::string out;
  for (size_t i = 0; i < s.size();) {
    if (s[i] != '\\') {
      out.push_back(s[i++]);
    } else if (i + 1 < s.size() && s[i + 1] == '\\') {
      out.push_back('\\');
      i += 2;
    } else if (i + 3 < s.size() && s[i + 1] >= '0' && s[i + 1] <= '3' && IsOctal(s[i + 2]) &&
               IsOctal(s[i + 3])) {
      out.push_back(static_cast<char>(((s[i + 1] - '0') << 6) | ((s[i + 2] - '0') << 3) | (s[i + 3] - '0')));
      i += 4;
    } else {
      throw DbError(sqlstate::kInvalidTextRepresentation,
                    std::string("invalid input syntax for type ") + type_name);
    }
  }
  return out;
}

std::string EscapeEncode(std::string_view s) {
  std::string out;
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
    if (c == '\\') {
      out += "\\\\";
    } else if (c == 0 || c >= 0x80) {
      out += '\\';
      out += static_cast<char>('0' + (c >> 6));
      out += static_cast<char>('0' + ((c >> 3) & 7));
      out += static_cast<char>('0' + (c & 7));
    } else {
      out += ch;
    }
  }
  return out;
}

// base64 with a newline after every 76 output characters, as PostgreSQL.
std::string Base64Encode(std::string_view s) {
  std::string out;
  size_t line = 0;
  for (size_t i = 0; i < s.size(); i += 3) {
    uint32_t v = static_cast<unsigned char>(s[i]) << 16;
    if (i + 1 < s.size()) v |= static_cast<unsigned char>(s[i + 1]) << 8;
    if (i + 2 < s.size()) v |= static_cast<unsigned char>(s[i + 2]);
    if (line >= 76) {
      out += '\n';
      line = 0;
    }
    out += kBase64[(v >> 18) & 63];
    out += kBase64[(v >> 12) & 63];
    out += i + 1 < s.size() ? kBase64[(v >> 6) & 63] : '=';
    out += i + 2 < s.size() ? kBase64[v & 63] : '=';
    line += 4;
  }
  return out;
}

std::string Base64Decode(std::string_view s) {
  std::string out;
  uint32_t acc = 0;
  int bits = 0, pad = 0;
  for (char c : s) {
    if (IsSpace(c)) continue;
    int v;
    if (c == '=') {
      ++pad;
      continue;
    }
    const char* p = c == '\0' ? nullptr : std::char_traits<char>::find(kBase64, 64, c);
    if (p == nullptr) {
      throw DbError(sqlstate::kInvalidParameterValue,
                    std::string("invalid symbol \"") + c + "\" found while decoding base64 sequence");
    }
    if (pad > 0) throw DbError(sqlstate::kInvalidParameterValue, "unexpected \"=\" while decoding base64 sequence");
    v = static_cast<int>(p - kBase64);
    acc = (acc << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((acc >> bits) & 0xFF));
    }
  }
  if (bits >= 6 || (bits > 0 && (acc & ((1u << bits) - 1)) != 0 && pad == 0)) {
    throw DbError(sqlstate::kInvalidParameterValue,
                  "invalid base64 end sequence");
  }
  return out;
}

}  // namespace

int HexDigitValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string ParseBytea(std::string_view text) {
  if (text.size() >= 2 && text[0] == '\\' && text[1] == 'x') return HexDecode(text.substr(2));
  return EscapeDecode(text, "bytea");
}

void AppendByteaHex(std::string_view bytes, std::string* out) {
  out->reserve(out->size() + 2 + 2 * bytes.size());
  out->append("\\x");
  for (char ch : bytes) {
    auto c = static_cast<unsigned char>(ch);
    out->push_back(kHexDigits[c >> 4]);
    out->push_back(kHexDigits[c & 0xF]);
  }
}

std::string HexOf(std::string_view bytes) {
  std::string out;
  AppendByteaHex(bytes, &out);
  return out.substr(2);
}

std::string DigestBytes(std::string_view data, const char* name) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  const EVP_MD* md = EVP_get_digestbyname(name);
  if (md == nullptr || EVP_Digest(data.data(), data.size(), digest, &len, md, nullptr) != 1) {
    throw DbError(sqlstate::kInternalError, std::string("could not compute ") + name + " hash");
  }
  return std::string(reinterpret_cast<char*>(digest), len);
}

std::string EncodeBytes(std::string_view bytes, std::string_view format) {
  if (format == "hex") return HexOf(bytes);
  if (format == "base64") return Base64Encode(bytes);
  if (format == "escape") return EscapeEncode(bytes);
  throw DbError(sqlstate::kInvalidParameterValue, "unrecognized encoding: \"" + std::string(format) + "\"");
}

std::string DecodeText(std::string_view text, std::string_view format) {
  if (format == "hex") return HexDecode(text);
  if (format == "base64") return Base64Decode(text);
  if (format == "escape") return EscapeDecode(text, "bytea");
  throw DbError(sqlstate::kInvalidParameterValue, "unrecognized encoding: \"" + std::string(format) + "\"");
}

}  // namespace hearth::types
