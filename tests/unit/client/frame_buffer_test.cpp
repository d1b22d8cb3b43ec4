// FrameBuffer: reassembly from arbitrary splits and clean failure on bad lengths.
#include <catch2/catch.hpp>

#include "client/frame_buffer.h"
#include "common/protocol/wire.h"

using hearth::client::FrameBuffer;

namespace {

std::string Frame(char type, const std::string& body) {
  hearth::protocol::MessageWriter w(type);
  w.Bytes(body);
  return w.Finish();
}

}  // namespace

TEST_CASE("FrameBuffer reassembles messages split at every byte", "[client][frame]") {
  const std::string stream = Frame('Z', "I") + Frame('C', std::string("SELECT 1\0", 9)) +
                             Frame('n', "");
  for (size_t split = 0; split <= stream.size(); ++split) {
    FrameBuffer fb;
    char type = 0;
    std::string_view body;
    std::string error;
    fb.Append(stream.substr(0, split));
    std::vector<std::pair<char, std::string>> got;
    while (fb.Next(&type, &body, &error) == FrameBuffer::Status::kReady) {
      got.emplace_back(type, std::string(body));
    }
    fb.Append(stream.substr(split));
    while (fb.Next(&type, &body, &error) == FrameBuffer::Status::kReady) {
      got.emplace_back(type, std::string(body));
    }
    REQUIRE(got.size() == 3);
    CHECK(got[0] == std::make_pair('Z', std::string("I")));
    CHECK(got[1].first == 'C');
    CHECK(got[1].second == std::string("SELECT 1\0", 9));
    CHECK(got[2] == std::make_pair('n', std::string()));
    CHECK(fb.buffered() == 0);
  }
}

TEST_CASE("FrameBuffer rejects impossible and oversized lengths", "[client][frame]") {
  char type = 0;
  std::string_view body;
  std::string error;
  {
    FrameBuffer fb;
    fb.Append(std::string("Z\0\0\0\x03", 5));  // length < 4 cannot count itself
    CHECK(fb.Next(&type, &body, &error) == FrameBuffer::Status::kMalformed);
    CHECK(error.find("invalid message length 3") != std::string::npos);
  }
  {
    FrameBuffer fb(1024);
    fb.Append(std::string("D\0\0\x10\x00", 5));  // 4096 > bound 1024
    CHECK(fb.Next(&type, &body, &error) == FrameBuffer::Status::kMalformed);
  }
  {
    FrameBuffer fb;
    fb.Append(std::string("D\xff\xff\xff\xff", 5));  // negative length
    CHECK(fb.Next(&type, &body, &error) == FrameBuffer::Status::kMalformed);
  }
  {
    FrameBuffer fb(1024);
    fb.Append(std::string("D\0\0\x04\x04", 5));  // exactly at the bound: waits for the body
    CHECK(fb.Next(&type, &body, &error) == FrameBuffer::Status::kNeedMore);
  }
}
