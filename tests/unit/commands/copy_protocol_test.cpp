// Tests for commands/copy_protocol: CopyInSession and CopyOutSession against
// a scripted fake client connection.
#include <catch2/catch.hpp>

#include <deque>

#include "commands/copy_protocol.h"
#include "common/error/db_error.h"
#include "copy_test_util.h"

using namespace copytest;
using hearth::DbError;
using hearth::Severity;
using namespace hearth::commands;
namespace types = hearth::types;

namespace {

// A client that sends a fixed script of messages and records what the
// server sends.
class FakeChannel : public CopyChannel {
 public:
  explicit FakeChannel(std::deque<std::pair<char, std::string>> script) : script_(std::move(script)) {}

  ChannelRead ReadMessage(char* type, std::string* body) override {
    if (script_.empty()) return ChannelRead::kEof;
    *type = script_.front().first;
    *body = script_.front().second;
    script_.pop_front();
    return ChannelRead::kOk;
  }
  std::string& out() override { return out_; }
  void MaybeFlush() override {}
  void Flush() override { flushes_++; }

  std::deque<std::pair<char, std::string>> script_;
  std::string out_;
  int flushes_ = 0;
};

struct Msg {
  char type;
  std::string body;
};

// Splits the server's output into messages.
std::vector<Msg> Messages(const std::string& out) {
  std::vector<Msg> msgs;
  size_t i = 0;
  while (i < out.size()) {
    REQUIRE(i + 5 <= out.size());
    uint32_t len = (static_cast<uint8_t>(out[i + 1]) << 24) | (static_cast<uint8_t>(out[i + 2]) << 16) |
                   (static_cast<uint8_t>(out[i + 3]) << 8) | static_cast<uint8_t>(out[i + 4]);
    REQUIRE(i + 1 + len <= out.size());
    msgs.push_back({out[i], out.substr(i + 5, len - 4)});
    i += 1 + len;
  }
  return msgs;
}

class CollectSink : public CopyRowSink {
 public:
  void Row(std::vector<types::Value>& row) override {
    if (fail_at_ != 0 && rows_.size() + 1 == fail_at_) {
      throw DbError("23502", "null value in column \"a\" of relation \"t\" violates not-null constraint");
    }
    rows_.push_back(row);
  }
  std::vector<std::vector<types::Value>> rows_;
  size_t fail_at_ = 0;
};

struct Fixture {
  CopyOptions opts = Options("copy t from stdin");
  CopyRowConverter conv{{{"a", types::kInt4Oid, -1}, {"b", types::kTextOid, -1}}};
  CopyFromParser parser{opts, "t", conv.Names()};
};

std::pair<char, std::string> D(std::string s) { return {'d', std::move(s)}; }
std::pair<char, std::string> M(char t, std::string s = "") { return {t, std::move(s)}; }

int g_interrupt_calls = 0;
void CancelOnThirdCheck() {
  if (++g_interrupt_calls == 3) throw DbError("57014", "canceling statement due to user request");
}

}  // namespace

TEST_CASE("copy in: CopyInResponse, chunked data, Flush/Sync ignored", "[copy][protocol]") {
  Fixture fx;
  FakeChannel ch({D("1\tone\n2\tt"), M('H'), D("wo\n3"), M('S'), D("\t\\N\n"), M('c'), M('Q', "select 1\0")});
  CollectSink sink;
  CopyInSession s(ch, fx.parser, fx.conv);
  CHECK(s.Run(sink) == 3);
  REQUIRE(sink.rows_.size() == 3);
  CHECK(sink.rows_[0][0].i == 1);
  CHECK(sink.rows_[1][1].str == "two");
  CHECK(sink.rows_[2][1].is_null);
  // 'G': format 0, 2 columns, both text.
  auto msgs = Messages(ch.out_);
  REQUIRE(msgs.size() == 1);
  CHECK(msgs[0].type == 'G');
  CHECK(msgs[0].body == std::string("\0\0\2\0\0\0\0", 7));
  CHECK(ch.flushes_ >= 1);
  // The next query is left for the main loop.
  REQUIRE(ch.script_.size() == 1);
  CHECK(ch.script_.front().first == 'Q');
}

TEST_CASE("copy in: pgbench's row-per-message and end marker", "[copy][protocol]") {
  Fixture fx;
  FakeChannel ch({D("1\ta\n"), D("2\tb\n"), D("\\.\n"), D("ignored\tafter marker\n"), M('c')});
  CollectSink sink;
  CopyInSession s(ch, fx.parser, fx.conv);
  CHECK(s.Run(sink) == 2);
  CHECK(ch.script_.empty());
}

TEST_CASE("copy in: last line without newline at CopyDone", "[copy][protocol]") {
  Fixture fx;
  FakeChannel ch({D("1\ta\n2\tb"), M('c')});
  CollectSink sink;
  CHECK(CopyInSession(ch, fx.parser, fx.conv).Run(sink) == 2);
  CHECK(sink.rows_[1][1].str == "b");
}

TEST_CASE("copy in: CopyFail", "[copy][protocol]") {
  Fixture fx;
  FakeChannel ch({D("1\ta\n"), M('f', std::string("aborted by user\0", 16)), M('Q', "x")});
  CollectSink sink;
  try {
    CopyInSession(ch, fx.parser, fx.conv).Run(sink);
    FAIL("expected CopyFail error");
  } catch (const DbError& e) {
    CHECK(e.sqlstate() == "57014");
    CHECK(e.message() == "COPY from stdin failed: aborted by user");
    CHECK(e.severity() == Severity::kError);
  }
  CHECK(sink.rows_.size() == 1);
  REQUIRE(ch.script_.size() == 1);  // nothing past CopyFail was read
}

TEST_CASE("copy in: CopyFail after the end marker still fails", "[copy][protocol]") {
  Fixture fx;
  FakeChannel ch({D("1\ta\n\\.\n"), M('f', std::string("no\0", 3))});
  CollectSink sink;
  CHECK_THROWS_WITH(CopyInSession(ch, fx.parser, fx.conv).Run(sink), "COPY from stdin failed: no");
}

TEST_CASE("copy in: a bad row drains the rest, then reports", "[copy][protocol]") {
  Fixture fx;
  FakeChannel ch({D("1\ta\n"), D("x\tb\n"), D("3\tc\n"), M('S'), M('H'), D("4\td\n"), M('c'), M('Q', "next")});
  CollectSink sink;
  try {
    CopyInSession(ch, fx.parser, fx.conv).Run(sink);
    FAIL("expected a conversion error");
  } catch (const DbError& e) {
    CHECK(e.sqlstate() == "22P02");
    CHECK(e.message() == "invalid input syntax for type integer: \"x\"");
    CHECK(e.context() == "COPY t, line 2, column a: \"x\"");
  }
  CHECK(sink.rows_.size() == 1);
  // Drained exactly up to CopyDone: the next query is still unread.
  REQUIRE(ch.script_.size() == 1);
  CHECK(ch.script_.front().second == "next");
}

TEST_CASE("copy in: a sink error drains too, and CopyFail ends the drain", "[copy][protocol]") {
  Fixture fx;
  FakeChannel ch({D("1\ta\n2\tb\n"), D("3\tc\n"), M('f', std::string("gave up\0", 8)), M('Q', "next")});
  CollectSink sink;
  sink.fail_at_ = 2;
  try {
    CopyInSession(ch, fx.parser, fx.conv).Run(sink);
    FAIL("expected the sink's error");
  } catch (const DbError& e) {
    CHECK(e.sqlstate() == "23502");
  }
  REQUIRE(ch.script_.size() == 1);
  CHECK(ch.script_.front().first == 'Q');
}

TEST_CASE("copy in: a parse error (22P04) is reported after the drain", "[copy][protocol]") {
  Fixture fx;
  FakeChannel ch({D("1\ta\textra\n"), D("more\n"), M('c')});
  CollectSink sink;
  try {
    CopyInSession(ch, fx.parser, fx.conv).Run(sink);
    FAIL("expected 22P04");
  } catch (const DbError& e) {
    CHECK(e.sqlstate() == "22P04");
    CHECK(e.message() == "extra data after last expected column");
    CHECK(e.context() == "COPY t, line 1: \"1\ta\textra\"");
  }
  CHECK(ch.script_.empty());
}

TEST_CASE("copy in: unexpected message type", "[copy][protocol]") {
  Fixture fx;
  FakeChannel ch({D("1\ta\n"), M('Q', std::string("select 1\0", 9)), M('c')});
  CollectSink sink;
  try {
    CopyInSession(ch, fx.parser, fx.conv).Run(sink);
    FAIL("expected 08P01");
  } catch (const DbError& e) {
    CHECK(e.sqlstate() == "08P01");
    CHECK(e.message() == "unexpected message type 0x51 during COPY from stdin");
  }
  CHECK(ch.script_.size() == 1);  // no drain after a foreign message
}

TEST_CASE("copy in: connection lost is FATAL", "[copy][protocol]") {
  Fixture fx;
  FakeChannel ch({D("1\ta\n")});
  CollectSink sink;
  try {
    CopyInSession(ch, fx.parser, fx.conv).Run(sink);
    FAIL("expected FATAL");
  } catch (const DbError& e) {
    CHECK(e.severity() == Severity::kFatal);
    CHECK(e.sqlstate() == "08006");
  }
  // EOF while draining after an error is FATAL too.
  Fixture fx2;
  FakeChannel ch2({D("bad\ta\n")});
  CHECK_THROWS_AS(CopyInSession(ch2, fx2.parser, fx2.conv).Run(sink), DbError);
}

TEST_CASE("copy in: interrupts are checked between chunks", "[copy][protocol]") {
  Fixture fx;
  g_interrupt_calls = 0;
  FakeChannel ch({D("1\ta\n"), D("2\tb\n"), D("3\tc\n"), D("4\td\n"), M('c'), M('X')});
  CollectSink sink;
  try {
    CopyInSession(ch, fx.parser, fx.conv, CancelOnThirdCheck).Run(sink);
    FAIL("expected cancel");
  } catch (const DbError& e) {
    CHECK(e.sqlstate() == "57014");
    CHECK(e.message() == "canceling statement due to user request");
  }
  CHECK(g_interrupt_calls == 3);
  CHECK(sink.rows_.size() == 2);
  REQUIRE(ch.script_.size() == 1);
  CHECK(ch.script_.front().first == 'X');
}

TEST_CASE("copy out: response, one CopyData per row, CopyDone", "[copy][protocol]") {
  CopyOptions o = Options("copy t to stdout (format csv, header)");
  CopyToFormatter fmt(o);
  FakeChannel ch({});
  CopyOutSession s(ch, fmt, {"a", "b"});
  s.Begin();
  s.Row({types::Value::Int4(1), types::Value::Text("x,y")});
  s.Row({types::Value::Int4(2), types::Value::Null(types::kTextOid)});
  s.End();
  CHECK(s.rows() == 2);
  auto msgs = Messages(ch.out_);
  REQUIRE(msgs.size() == 5);
  CHECK(msgs[0].type == 'H');
  CHECK(msgs[0].body == std::string("\0\0\2\0\0\0\0", 7));
  CHECK(msgs[1].type == 'd');
  CHECK(msgs[1].body == "a,b\n");
  CHECK(msgs[2].type == 'd');
  CHECK(msgs[2].body == "1,\"x,y\"\n");
  CHECK(msgs[3].body == "2,\n");
  CHECK(msgs[4].type == 'c');
  CHECK(msgs[4].body.empty());
}

TEST_CASE("copy out: text rows as psql sees them", "[copy][protocol]") {
  CopyOptions o = Options("copy t to stdout");
  CopyToFormatter fmt(o);
  FakeChannel ch({});
  CopyOutSession s(ch, fmt, {"a", "b", "c"});
  s.Begin();
  s.Row({types::Value::Int4(1), types::Value::Bool(true), types::Value::Float8(1.5)});
  s.End();
  auto msgs = Messages(ch.out_);
  REQUIRE(msgs.size() == 3);  // no header
  CHECK(msgs[1].body == "1\tt\t1.5\n");
  CHECK(ch.out_.substr(ch.out_.size() - 5) == std::string("c\0\0\0\4", 5));
}
