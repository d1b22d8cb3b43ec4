// tcop/copy_channel.h
//
// The client socket as COPY's sub-protocol sees it (commands/copy_protocol.h
// sits below tcop and reaches the connection only through this adapter).
#pragma once

#include "commands/copy_protocol.h"
#include "storage/ipc/interrupts.h"
#include "tcop/pqcomm.h"

namespace hearth::tcop {

class SocketCopyChannel : public commands::CopyChannel {
 public:
  SocketCopyChannel(ClientSocket& sock, size_t max_message) : sock_(sock), max_message_(max_message) {}

  commands::ChannelRead ReadMessage(char* type, std::string* body) override {
    if (!sock_.HasBufferedInput()) sock_.Flush();
    switch (sock_.ReadMessage(type, body, max_message_, CheckForTermination)) {
      case ReadStatus::kOk: return commands::ChannelRead::kOk;
      case ReadStatus::kTooLarge: return commands::ChannelRead::kTooLarge;
      case ReadStatus::kMalformed: return commands::ChannelRead::kMalformed;
      default: return commands::ChannelRead::kEof;
    }
  }
  std::string& out() override { return sock_.out(); }
  void MaybeFlush() override { sock_.MaybeFlush(); }
  void Flush() override { sock_.Flush(); }

 private:
  ClientSocket& sock_;
  size_t max_message_;
};

}  // namespace hearth::tcop
