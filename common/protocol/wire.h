// common/protocol/wire.h
//
// PostgreSQL v3 wire-protocol constants and the two codecs every peer needs:
// MessageWriter builds one outgoing message, MessageReader walks the body of
// one incoming message. Both are plain values with no I/O, so the server, the
// client library and the unit tests share them. Not thread-safe per object.
//
// Frame layout: type byte (absent in the startup packet), int32 length in
// network order that counts itself but not the type byte, then the body.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hearth::protocol {

inline constexpr int32_t kProtocolVersion3 = 196608;  // 3.0
inline constexpr int32_t kSslRequestCode = 80877103;
inline constexpr int32_t kGssEncRequestCode = 80877104;
inline constexpr int32_t kCancelRequestCode = 80877102;
// A startup packet is small; anything larger is an attack or garbage.
inline constexpr uint32_t kMaxStartupPacket = 10000;

// Frontend (client → server) message types.
namespace fe {
inline constexpr char kQuery = 'Q';
inline constexpr char kParse = 'P';
inline constexpr char kBind = 'B';
inline constexpr char kDescribe = 'D';
inline constexpr char kExecute = 'E';
inline constexpr char kSync = 'S';
inline constexpr char kClose = 'C';
inline constexpr char kFlush = 'H';
inline constexpr char kTerminate = 'X';
inline constexpr char kCopyData = 'd';
inline constexpr char kCopyDone = 'c';
inline constexpr char kCopyFail = 'f';
inline constexpr char kPassword = 'p';
}  // namespace fe

// Backend (server → client) message types.
namespace be {
inline constexpr char kAuthentication = 'R';
inline constexpr char kParameterStatus = 'S';
inline constexpr char kBackendKeyData = 'K';
inline constexpr char kReadyForQuery = 'Z';
inline constexpr char kRowDescription = 'T';
inline constexpr char kDataRow = 'D';
inline constexpr char kCommandComplete = 'C';
inline constexpr char kEmptyQueryResponse = 'I';
inline constexpr char kErrorResponse = 'E';
inline constexpr char kNoticeResponse = 'N';
inline constexpr char kParseComplete = '1';
inline constexpr char kBindComplete = '2';
inline constexpr char kCloseComplete = '3';
inline constexpr char kNoData = 'n';
inline constexpr char kParameterDescription = 't';
inline constexpr char kPortalSuspended = 's';
inline constexpr char kCopyInResponse = 'G';
inline constexpr char kCopyOutResponse = 'H';
inline constexpr char kCopyData = 'd';
inline constexpr char kCopyDone = 'c';
inline constexpr char kNegotiateProtocolVersion = 'v';
}  // namespace be

// Authentication request codes carried in 'R'.
inline constexpr int32_t kAuthOk = 0;
inline constexpr int32_t kAuthCleartext = 3;
inline constexpr int32_t kAuthMd5 = 5;
inline constexpr int32_t kAuthSasl = 10;
inline constexpr int32_t kAuthSaslContinue = 11;
inline constexpr int32_t kAuthSaslFinal = 12;

// Builds one message. Usage:
//   MessageWriter w('Z'); w.Byte('I'); sock.write(w.Finish());
// A type of '\0' builds an untyped startup packet.
class MessageWriter {
 public:
  explicit MessageWriter(char type) { Reset(type); }

  void Reset(char type);
  MessageWriter& Byte(uint8_t b) { buf_.push_back(static_cast<char>(b)); return *this; }
  MessageWriter& Int16(int16_t v);
  MessageWriter& Int32(int32_t v);
  MessageWriter& Int64(int64_t v);
  // NUL-terminated string.
  MessageWriter& CString(std::string_view s);
  // Raw bytes, no terminator.
  MessageWriter& Bytes(std::string_view s) { buf_.append(s.data(), s.size()); return *this; }
  // Patches the length field and returns the complete frame.
  const std::string& Finish();

 private:
  std::string buf_;
  size_t length_at_ = 0;
};

// Appends a complete frame to `out` without a MessageWriter object, for hot
// paths that batch many messages (DataRow) into one send buffer.
void BeginMessage(std::string& out, char type, size_t* length_at);
void EndMessage(std::string& out, size_t length_at);
void PutInt16(std::string& out, int16_t v);
void PutInt32(std::string& out, int32_t v);

// Walks one message body. Every getter returns std::nullopt (and marks the
// reader failed) instead of reading past the end: a malformed message never
// makes us read out of bounds.
class MessageReader {
 public:
  explicit MessageReader(std::string_view body) : data_(body) {}

  std::optional<uint8_t> Byte();
  std::optional<int16_t> Int16();
  std::optional<int32_t> Int32();
  std::optional<int64_t> Int64();
  std::optional<std::string_view> CString();
  std::optional<std::string_view> Bytes(size_t n);
  size_t remaining() const { return failed_ ? 0 : data_.size() - pos_; }
  bool failed() const { return failed_; }
  bool AtEnd() const { return !failed_ && pos_ == data_.size(); }

 private:
  std::string_view data_;
  size_t pos_ = 0;
  bool failed_ = false;
};

inline int32_t ReadInt32BE(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return static_cast<int32_t>(__builtin_bswap32(v));
}
inline int16_t ReadInt16BE(const char* p) {
  uint16_t v;
  std::memcpy(&v, p, 2);
  return static_cast<int16_t>(__builtin_bswap16(v));
}

// Fields of ErrorResponse / NoticeResponse, by their one-byte codes.
struct ErrorFields {
  std::string severity;           // 'S' localized
  std::string severity_nonlocal;  // 'V'
  std::string sqlstate;           // 'C'
  std::string message;            // 'M'
  std::string detail;             // 'D'
  std::string hint;               // 'H'
  std::string position;           // 'P'
  std::string where;              // 'W'
  std::string schema;             // 's'
  std::string table;              // 't'
  std::string column;             // 'c'
  std::string constraint;         // 'n'
};

// Encodes ErrorFields as an 'E' or 'N' message (empty fields are omitted).
std::string EncodeErrorFields(char type, const ErrorFields& f);
// Decodes the body of an 'E' or 'N' message. Unknown field codes are skipped.
std::optional<ErrorFields> DecodeErrorFields(std::string_view body);

}  // namespace hearth::protocol
