// commands/copy_file_session.cpp
//
// Principal entry points: CopyFileInSession::Run, CopyFileOutSession::{Begin,
// Row, End}.
#include "commands/copy_file_session.h"

namespace hearth::commands {

uint64_t CopyFileInSession::Run(CopyRowSink& sink) {
  chunk_.resize(kCopyFileChunk);
  uint64_t bytes = 0;
  for (;;) {
    if (check_interrupts_ != nullptr) check_interrupts_();
    const size_t n = stream_.Read(chunk_.data(), chunk_.size(), check_interrupts_);
    if (n == 0) break;
    parser_.Feed(std::string_view(chunk_.data(), n));
    DeliverRows(sink);
    bytes += n;
    if (progress_ != nullptr) progress_->Report(bytes, rows_);
  }
  parser_.Finish();
  DeliverRows(sink);
  // A program that failed fails the COPY, even after all its rows loaded.
  stream_.Close(check_interrupts_);
  if (progress_ != nullptr) progress_->Report(bytes, rows_);
  return rows_;
}

void CopyFileOutSession::Begin() {
  buf_.reserve(kCopyFileChunk * 2);
  if (fmt_.options().binary()) CopyToFormatter::AppendBinaryHeader(&buf_);
  if (fmt_.options().header != CopyHeader::kNone) fmt_.AppendHeader(names_, &buf_);
}

void CopyFileOutSession::Row(const std::vector<types::Value>& row) {
  fmt_.AppendRow(row, &buf_);
  rows_++;
  if (buf_.size() >= kCopyFileChunk) WriteBuffer();
  if (progress_ != nullptr && rows_ % kCopyProgressRows == 0) progress_->Report(bytes_ + buf_.size(), rows_);
}

void CopyFileOutSession::End() {
  if (fmt_.options().binary()) CopyToFormatter::AppendBinaryTrailer(&buf_);
  WriteBuffer();
  stream_.Close(check_interrupts_);
  if (progress_ != nullptr) progress_->Report(bytes_, rows_);
}

void CopyFileOutSession::WriteBuffer() {
  if (check_interrupts_ != nullptr) check_interrupts_();
  stream_.Write(buf_, check_interrupts_);
  bytes_ += buf_.size();
  buf_.clear();
}

}  // namespace hearth::commands
