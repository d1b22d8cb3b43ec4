// server/utils/adt/bytea.h
//
// bytea (oid 17): binary strings, raw bytes in Value::str. Text input takes
// PostgreSQL's hex format (\x followed by hex digit pairs, whitespace
// between pairs) and its escape format (\\ and \ooo octal escapes); output
// is the hex format (bytea_output = 'hex', PostgreSQL's default). encode()
// and decode() formats: hex, base64, escape. Stateless; thread-safe.
#pragma once

#include <string>
#include <string_view>

namespace hearth::types {

// byteain. Throws 22023 for bad hex digits and odd digit counts, 22P02 for
// bad escapes.
std::string ParseBytea(std::string_view text);
// byteaout in hex format: "\x0a1b".
void AppendByteaHex(std::string_view bytes, std::string* out);

// encode(bytes, format) / decode(text, format). Throws 22023
// `unrecognized encoding: "x"`, 22P02 for malformed input to decode.
std::string EncodeBytes(std::string_view bytes, std::string_view format);
std::string DecodeText(std::string_view text, std::string_view format);

// Raw digest of `data` by OpenSSL's algorithm `name` ("md5", "sha256", ...).
std::string DigestBytes(std::string_view data, const char* name);
// Value of a hex digit (either case), -1 for any other character.
int HexDigitValue(char c);
// Lower-case hex of `bytes`, no prefix.
std::string HexOf(std::string_view bytes);

}  // namespace hearth::types
