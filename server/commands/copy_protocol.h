// commands/copy_protocol.h
//
// COPY's sub-protocol on the client connection, independent of tables:
//   CopyInSession  — COPY ... FROM STDIN: sends CopyInResponse ('G'), reads
//                    CopyData ('d') until CopyDone ('c') or CopyFail ('f'),
//                    parses and converts rows and hands each to a sink.
//   CopyOutSession — COPY ... TO STDOUT: sends CopyOutResponse ('H'), one
//                    CopyData per row, then CopyDone ('c'). In binary
//                    format the file header rides in the first CopyData
//                    and the trailer in a last one of its own.
// The caller (tcop) sends CommandComplete "COPY n" afterwards, or the
// ErrorResponse when these throw. They reach the socket through
// CopyChannel, which tcop implements over its ClientSocket (this library
// sits below tcop and does not include it).
// One session per COPY statement, in the backend process; not thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "commands/copy_from_parser.h"
#include "commands/copy_row_converter.h"
#include "commands/copy_to_formatter.h"
#include "utils/adt/value.h"

namespace hearth::commands {

enum class ChannelRead { kOk, kEof, kTooLarge, kMalformed };

// The client connection as COPY sees it.
class CopyChannel {
 public:
  virtual ~CopyChannel() = default;
  // Blocks for the next frontend message: its type byte and its body
  // (without type and length). Queued output must be sent before blocking
  // (the session also calls Flush() after its CopyInResponse). May throw
  // (e.g. a termination request noticed while waiting).
  virtual ChannelRead ReadMessage(char* type, std::string* body) = 0;
  // The output buffer; complete messages are appended to it.
  virtual std::string& out() = 0;
  // Sends the buffer if it has grown large.
  virtual void MaybeFlush() = 0;
  // Sends the buffer now.
  virtual void Flush() = 0;
};

// Where loaded rows go (the insert path). May move Values out of `row`.
// Throws DbError to abort the COPY.
class CopyRowSink {
 public:
  virtual ~CopyRowSink() = default;
  virtual void Row(std::vector<types::Value>& row) = 0;
};

// Observer of a COPY's running totals (pg_stat_progress_copy). The sessions
// call Report after each CopyData message they consumed (FROM) or every
// kCopyProgressRows rows they sent (TO), and once at the end, so an
// implementation may publish on every call.
class CopyProgress {
 public:
  virtual ~CopyProgress() = default;
  virtual void Report(uint64_t bytes_processed, uint64_t tuples_processed) = 0;
};
inline constexpr uint64_t kCopyProgressRows = 1024;

// Where COPY FROM's bytes come from: the client (CopyInSession) or a server
// file or program (CopyFileInSession, copy_file_session.h).
// Both share the parser, the converter and the delivery of rows.
class CopyRowInput {
 public:
  virtual ~CopyRowInput() = default;
  // Reads everything, handing each converted row to `sink`; returns the
  // number of rows.
  virtual uint64_t Run(CopyRowSink& sink) = 0;
  // Optional; must outlive Run.
  void SetProgress(CopyProgress* progress) { progress_ = progress; }

 protected:
  // `check_interrupts` (may be null) runs before each chunk of data is
  // parsed and may throw (57014 on cancel).
  CopyRowInput(CopyFromParser& parser, const CopyRowConverter& converter, void (*check_interrupts)())
      : parser_(parser), conv_(converter), check_interrupts_(check_interrupts) {}
  // Converts and delivers every complete row the parser holds.
  void DeliverRows(CopyRowSink& sink);

  CopyFromParser& parser_;
  const CopyRowConverter& conv_;
  void (*check_interrupts_)();
  std::vector<types::Value> row_;
  uint64_t rows_ = 0;
  CopyProgress* progress_ = nullptr;
};

// Where COPY TO's rows go: the client (CopyOutSession) or a server file or
// program (CopyFileOutSession).
class CopyRowOutput {
 public:
  virtual ~CopyRowOutput() = default;
  // Starts the output (the header line when the options ask for one).
  virtual void Begin() = 0;
  // REQUIRES: Begin() called, row.size() == column count.
  virtual void Row(const std::vector<types::Value>& row) = 0;
  // Ends the output; the caller then sends CommandComplete "COPY <rows()>".
  virtual void End() = 0;
  virtual uint64_t rows() const = 0;
  // Optional; must outlive the last call.
  virtual void SetProgress(CopyProgress* progress) = 0;
};

class CopyInSession : public CopyRowInput {
 public:
  // `check_interrupts` (may be null) runs before each CopyData chunk is
  // parsed and may throw (57014 on cancel).
  CopyInSession(CopyChannel& channel, CopyFromParser& parser, const CopyRowConverter& converter,
                void (*check_interrupts)() = nullptr)
      : CopyRowInput(parser, converter, check_interrupts), ch_(channel) {}

  // Runs COPY FROM STDIN to completion and returns the number of rows given
  // to `sink`. Flush ('H') and Sync ('S') are ignored while copying; data
  // after the `\.` marker is ignored up to CopyDone.
  // Throws DbError:
  //   57014 `COPY from stdin failed: <client message>` on CopyFail;
  //   08P01 `unexpected message type 0x51 during COPY from stdin` for any
  //         other message type;
  //   a parse, conversion or sink error (22P04, 22P02, 23502 ...). Before
  //         rethrowing such an error the session reads and discards the
  //         client's remaining messages up to CopyDone/CopyFail, so the
  //         connection is back in step when the caller sends ErrorResponse;
  //   FATAL 08006/08P01 when the connection ends or breaks framing.
  uint64_t Run(CopyRowSink& sink) override;

 private:
  void SendCopyInResponse();
  // Reads one message; maps channel failures to FATAL errors.
  void Read(char* type);
  // After an error: swallows messages up to CopyDone/CopyFail.
  void Drain();

  CopyChannel& ch_;
  std::string body_;
  uint64_t bytes_ = 0;  // CopyData payload consumed
};

class CopyOutSession : public CopyRowOutput {
 public:
  // `column_names` are written as the header line when the formatter's
  // options ask for HEADER; their count is the column count in 'H'.
  CopyOutSession(CopyChannel& channel, CopyToFormatter& formatter, std::vector<std::string> column_names)
      : ch_(channel), fmt_(formatter), names_(std::move(column_names)) {}

  // Sends CopyOutResponse (and the header line as the first CopyData).
  void Begin() override;
  // Sends one row as one CopyData message (PostgreSQL's framing).
  // REQUIRES: Begin() called, row.size() == column count.
  void Row(const std::vector<types::Value>& row) override;
  // Sends CopyDone. The caller then sends CommandComplete "COPY <rows()>".
  // If the COPY fails midway, the caller sends ErrorResponse instead, which
  // also ends copy-out mode on the client.
  void End() override;
  uint64_t rows() const override { return rows_; }

  void SetProgress(CopyProgress* progress) override { progress_ = progress; }

 private:
  CopyChannel& ch_;
  // Binary format: writes the file header if not sent yet.
  void AppendPendingHeader();

  CopyToFormatter& fmt_;
  std::vector<std::string> names_;
  bool binary_header_pending_ = false;
  uint64_t rows_ = 0;
  CopyProgress* progress_ = nullptr;
  uint64_t bytes_ = 0;  // CopyData payload sent
};

}  // namespace hearth::commands
