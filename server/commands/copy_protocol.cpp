// commands/copy_protocol.cpp
//
// Principal entry points: CopyInSession::Run, CopyOutSession::{Begin, Row,
// End}.
#include "commands/copy_protocol.h"

#include <cstdio>

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "common/protocol/wire.h"

namespace hearth::commands {

namespace {

// CopyInResponse / CopyOutResponse: int8 overall format (0 = text, 1 =
// binary), int16 column count, int16 format per column (all the same).
void PutCopyResponse(std::string& out, char type, size_t ncols, bool binary) {
  size_t at = 0;
  protocol::BeginMessage(out, type, &at);
  out.push_back(binary ? '\1' : '\0');
  protocol::PutInt16(out, static_cast<int16_t>(ncols));
  for (size_t i = 0; i < ncols; i++) protocol::PutInt16(out, binary ? 1 : 0);
  protocol::EndMessage(out, at);
}

}  // namespace

void CopyInSession::SendCopyInResponse() {
  PutCopyResponse(ch_.out(), protocol::be::kCopyInResponse, parser_.columns().size(), parser_.binary());
  ch_.Flush();
}

void CopyInSession::Read(char* type) {
  switch (ch_.ReadMessage(type, &body_)) {
    case ChannelRead::kOk:
      return;
    case ChannelRead::kEof:
      throw DbError("08006", "unexpected EOF on client connection with an open transaction", Severity::kFatal);
    case ChannelRead::kTooLarge:
      throw DbError(sqlstate::kProtocolViolation, "invalid message length", Severity::kFatal);
    case ChannelRead::kMalformed:
      throw DbError(sqlstate::kProtocolViolation, "invalid message format", Severity::kFatal);
  }
}

void CopyRowInput::DeliverRows(CopyRowSink& sink) {
  CopyFields fields;
  while (parser_.NextRow(&fields)) {
    conv_.Convert(fields, parser_, &row_);
    sink.Row(row_);
    rows_++;
  }
}

void CopyInSession::Drain() {
  char type = 0;
  for (;;) {
    Read(&type);
    switch (type) {
      case protocol::fe::kCopyDone:
      case protocol::fe::kCopyFail:
        return;
      case protocol::fe::kCopyData:
      case protocol::fe::kFlush:
      case protocol::fe::kSync:
        break;
      default: {
        // The client left copy mode some other way; this message cannot be
        // put back, so report it as PostgreSQL would during COPY.
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(type));
        throw DbError(sqlstate::kProtocolViolation,
                      std::string("unexpected message type ") + hex + " during COPY from stdin");
      }
    }
  }
}

uint64_t CopyInSession::Run(CopyRowSink& sink) {
  SendCopyInResponse();
  bool client_finished = false;  // CopyDone/CopyFail (or a foreign message) consumed
  try {
    char type = 0;
    for (;;) {
      Read(&type);
      switch (type) {
        case protocol::fe::kCopyData:
          if (check_interrupts_ != nullptr) check_interrupts_();
          parser_.Feed(body_);
          DeliverRows(sink);
          bytes_ += body_.size();
          if (progress_ != nullptr) progress_->Report(bytes_, rows_);
          break;
        case protocol::fe::kCopyDone:
          client_finished = true;
          parser_.Finish();
          DeliverRows(sink);
          if (progress_ != nullptr) progress_->Report(bytes_, rows_);
          return rows_;
        case protocol::fe::kCopyFail: {
          client_finished = true;
          std::string_view msg(body_);
          if (!msg.empty() && msg.back() == '\0') msg.remove_suffix(1);
          throw DbError(sqlstate::kQueryCanceled, "COPY from stdin failed: " + std::string(msg));
        }
        case protocol::fe::kFlush:
        case protocol::fe::kSync:
          // Clients may send these without noticing the command was COPY.
          break;
        default: {
          client_finished = true;
          char hex[8];
          std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(type));
          throw DbError(sqlstate::kProtocolViolation,
                        std::string("unexpected message type ") + hex + " during COPY from stdin");
        }
      }
    }
  } catch (const DbError& e) {
    if (client_finished || e.severity() >= Severity::kFatal) throw;
    Drain();
    throw;
  }
}

void CopyOutSession::Begin() {
  std::string& out = ch_.out();
  const bool binary = fmt_.options().binary();
  PutCopyResponse(out, protocol::be::kCopyOutResponse, names_.size(), binary);
  // The binary file header goes out with the first row (or the trailer),
  // in the same CopyData, as PostgreSQL frames it.
  binary_header_pending_ = binary;
  if (fmt_.options().header != CopyHeader::kNone) {
    size_t at = 0;
    protocol::BeginMessage(out, protocol::be::kCopyData, &at);
    fmt_.AppendHeader(names_, &out);
    protocol::EndMessage(out, at);
    bytes_ += out.size() - at - 4;  // payload after the length word
  }
  ch_.MaybeFlush();
}

void CopyOutSession::Row(const std::vector<types::Value>& row) {
  std::string& out = ch_.out();
  size_t at = 0;
  protocol::BeginMessage(out, protocol::be::kCopyData, &at);
  AppendPendingHeader();
  fmt_.AppendRow(row, &out);
  protocol::EndMessage(out, at);
  bytes_ += out.size() - at - 4;  // payload after the length word
  rows_++;
  if (progress_ != nullptr && rows_ % kCopyProgressRows == 0) progress_->Report(bytes_, rows_);
  ch_.MaybeFlush();
}

void CopyOutSession::AppendPendingHeader() {
  if (!binary_header_pending_) return;
  CopyToFormatter::AppendBinaryHeader(&ch_.out());
  binary_header_pending_ = false;
}

void CopyOutSession::End() {
  size_t at = 0;
  if (fmt_.options().binary()) {
    // The trailer travels in its own CopyData, as PostgreSQL sends it.
    protocol::BeginMessage(ch_.out(), protocol::be::kCopyData, &at);
    AppendPendingHeader();
    CopyToFormatter::AppendBinaryTrailer(&ch_.out());
    protocol::EndMessage(ch_.out(), at);
    bytes_ += ch_.out().size() - at - 4;
  }
  if (progress_ != nullptr) progress_->Report(bytes_, rows_);
  protocol::BeginMessage(ch_.out(), protocol::be::kCopyDone, &at);
  protocol::EndMessage(ch_.out(), at);
}

}  // namespace hearth::commands
