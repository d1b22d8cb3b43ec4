// commands/copy_file_session.h
//
// COPY's rows over a server file or program instead of the client
// connection (COPY ... FROM 'file' | PROGRAM 'cmd', COPY ... TO 'file' |
// PROGRAM 'cmd'): the same parser, converter and formatter as
// CopyInSession / CopyOutSession, with a CopyServerStream as the bytes.
//   CopyFileInSession  — reads the stream in 64 kB chunks, feeds the
//                        parser, converts and delivers each row; at end of
//                        data closes the stream (a failed program is 38000).
//   CopyFileOutSession — formats rows into a buffer written to the stream
//                        whenever it passes 64 kB; End() writes the rest
//                        (and the binary trailer) and closes the stream.
// Errors keep the CONTEXT of the client path (`COPY t, line N, column c`).
// One session per COPY statement, in the backend process; not thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "commands/copy_protocol.h"
#include "commands/copy_server_stream.h"

namespace hearth::commands {

// Read and write size: large enough that the per-chunk syscall is noise.
inline constexpr size_t kCopyFileChunk = 64 * 1024;

class CopyFileInSession : public CopyRowInput {
 public:
  // `check_interrupts` (may be null) runs before each chunk is parsed and
  // while waiting on a program; it may throw (57014 on cancel).
  CopyFileInSession(CopyServerStream& stream, CopyFromParser& parser, const CopyRowConverter& converter,
                    void (*check_interrupts)() = nullptr)
      : CopyRowInput(parser, converter, check_interrupts), stream_(stream) {}

  uint64_t Run(CopyRowSink& sink) override;

 private:
  CopyServerStream& stream_;
  std::string chunk_;
};

class CopyFileOutSession : public CopyRowOutput {
 public:
  CopyFileOutSession(CopyServerStream& stream, CopyToFormatter& formatter, std::vector<std::string> column_names,
                     void (*check_interrupts)() = nullptr)
      : stream_(stream), fmt_(formatter), names_(std::move(column_names)), check_interrupts_(check_interrupts) {}

  void Begin() override;
  void Row(const std::vector<types::Value>& row) override;
  void End() override;
  uint64_t rows() const override { return rows_; }
  void SetProgress(CopyProgress* progress) override { progress_ = progress; }

 private:
  // Writes the buffer out and empties it.
  void WriteBuffer();

  CopyServerStream& stream_;
  CopyToFormatter& fmt_;
  std::vector<std::string> names_;
  void (*check_interrupts_)();
  std::string buf_;
  uint64_t rows_ = 0;
  uint64_t bytes_ = 0;  // bytes written so far
  CopyProgress* progress_ = nullptr;
};

}  // namespace hearth::commands
