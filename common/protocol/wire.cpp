// common/protocol/wire.cpp
//
// Principal entry points: MessageWriter, MessageReader, EncodeErrorFields,
// DecodeErrorFields. See wire.h for the frame layout.
#include "common/protocol/wire.h"

namespace hearth::protocol {

void MessageWriter::Reset(char type) {
  buf_.clear();
  if (type != '\0') buf_.push_back(type);
  length_at_ = buf_.size();
  buf_.append(4, '\0');
}

MessageWriter& MessageWriter::Int16(int16_t v) {
  PutInt16(buf_, v);
  return *this;
}

MessageWriter& MessageWriter::Int32(int32_t v) {
  PutInt32(buf_, v);
  return *this;
}

MessageWriter& MessageWriter::Int64(int64_t v) {
  uint64_t be = __builtin_bswap64(static_cast<uint64_t>(v));
  buf_.append(reinterpret_cast<const char*>(&be), 8);
  return *this;
}

MessageWriter& MessageWriter::CString(std::string_view s) {
  buf_.append(s.data(), s.size());
  buf_.push_back('\0');
  return *this;
}

const std::string& MessageWriter::Finish() {
  EndMessage(buf_, length_at_);
  return buf_;
}

void BeginMessage(std::string& out, char type, size_t* length_at) {
  out.push_back(type);
  *length_at = out.size();
  out.append(4, '\0');
}

void EndMessage(std::string& out, size_t length_at) {
  uint32_t len = __builtin_bswap32(static_cast<uint32_t>(out.size() - length_at));
  std::memcpy(out.data() + length_at, &len, 4);
}

void PutInt16(std::string& out, int16_t v) {
  uint16_t be = __builtin_bswap16(static_cast<uint16_t>(v));
  out.append(reinterpret_cast<const char*>(&be), 2);
}

void PutInt32(std::string& out, int32_t v) {
  uint32_t be = __builtin_bswap32(static_cast<uint32_t>(v));
  out.append(reinterpret_cast<const char*>(&be), 4);
}

std::optional<uint8_t> MessageReader::Byte() {
  if (failed_ || pos_ + 1 > data_.size()) { failed_ = true; return std::nullopt; }
  return static_cast<uint8_t>(data_[pos_++]);
}

std::optional<int16_t> MessageReader::Int16() {
  if (failed_ || pos_ + 2 > data_.size()) { failed_ = true; return std::nullopt; }
  int16_t v = ReadInt16BE(data_.data() + pos_);
  pos_ += 2;
  return v;
}

std::optional<int32_t> MessageReader::Int32() {
  if (failed_ || pos_ + 4 > data_.size()) { failed_ = true; return std::nullopt; }
  int32_t v = ReadInt32BE(data_.data() + pos_);
  pos_ += 4;
  return v;
}

std::optional<int64_t> MessageReader::Int64() {
  if (failed_ || pos_ + 8 > data_.size()) { failed_ = true; return std::nullopt; }
  uint64_t v;
  std::memcpy(&v, data_.data() + pos_, 8);
  pos_ += 8;
  return static_cast<int64_t>(__builtin_bswap64(v));
}

std::optional<std::string_view> MessageReader::CString() {
  if (failed_) return std::nullopt;
  size_t nul = data_.find('\0', pos_);
  if (nul == std::string_view::npos) { failed_ = true; return std::nullopt; }
  std::string_view s = data_.substr(pos_, nul - pos_);
  pos_ = nul + 1;
  return s;
}

std::optional<std::string_view> MessageReader::Bytes(size_t n) {
  if (failed_ || n > data_.size() - pos_) { failed_ = true; return std::nullopt; }
  std::string_view s = data_.substr(pos_, n);
  pos_ += n;
  return s;
}

std::string EncodeErrorFields(char type, const ErrorFields& f) {
  MessageWriter w(type);
  auto field = [&w](char code, const std::string& v) {
    if (!v.empty()) w.Byte(static_cast<uint8_t>(code)).CString(v);
  };
  field('S', f.severity);
  field('V', f.severity_nonlocal.empty() ? f.severity : f.severity_nonlocal);
  field('C', f.sqlstate);
  field('M', f.message);
  field('D', f.detail);
  field('H', f.hint);
  field('P', f.position);
  field('W', f.where);
  field('s', f.schema);
  field('t', f.table);
  field('c', f.column);
  field('n', f.constraint);
  w.Byte(0);
  return w.Finish();
}

std::optional<ErrorFields> DecodeErrorFields(std::string_view body) {
  MessageReader r(body);
  ErrorFields f;
  for (;;) {
    auto code = r.Byte();
    if (!code) return std::nullopt;
    if (*code == 0) break;
    auto value = r.CString();
    if (!value) return std::nullopt;
    std::string v(*value);
    switch (*code) {
      case 'S': f.severity = v; break;
      case 'V': f.severity_nonlocal = v; break;
      case 'C': f.sqlstate = v; break;
      case 'M': f.message = v; break;
      case 'D': f.detail = v; break;
      case 'H': f.hint = v; break;
      case 'P': f.position = v; break;
      case 'W': f.where = v; break;
      case 's': f.schema = v; break;
      case 't': f.table = v; break;
      case 'c': f.column = v; break;
      case 'n': f.constraint = v; break;
      default: break;
    }
  }
  return f;
}

}  // namespace hearth::protocol
