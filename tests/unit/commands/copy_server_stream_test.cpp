// Tests for commands/copy_server_stream and copy_file_session: files and
// programs as COPY's byte stream, without tables or a server. The SQL path
// (privileges, paths, tables) is tested over the wire in
// tests/integration/copy_server_file_test.cpp.
#include <catch2/catch.hpp>

#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "commands/copy_file_session.h"
#include "common/error/db_error.h"
#include "copy_test_util.h"

using namespace copytest;
using hearth::DbError;
using namespace hearth::commands;
namespace types = hearth::types;

namespace {

using Direction = CopyServerStream::Direction;

class CollectSink : public CopyRowSink {
 public:
  void Row(std::vector<types::Value>& row) override { rows_.push_back(row); }
  std::vector<std::vector<types::Value>> rows_;
};

struct TempFile {
  std::string path;
  TempFile() {
    char tmpl[] = "/tmp/hearth-copystream-XXXXXX";
    const int fd = ::mkstemp(tmpl);
    REQUIRE(fd >= 0);
    ::close(fd);
    path = tmpl;
  }
  ~TempFile() { ::unlink(path.c_str()); }
  std::string Read() const {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
};

// The error `f` throws (sqlstate empty when none).
template <typename F>
DbError ErrorOf(F f) {
  try {
    f();
  } catch (const DbError& e) {
    return e;
  }
  return DbError("", "");
}

// Rows "i\tvalue-i" for i in [1, n]; long enough to cross chunk borders.
std::string Rows(int n) {
  std::string d;
  for (int i = 1; i <= n; i++) d += std::to_string(i) + "\tvalue-" + std::to_string(i) + "\n";
  return d;
}

struct Fixture {
  CopyOptions opts = Options("copy t from stdin");
  CopyRowConverter conv{{{"a", types::kInt4Oid, -1}, {"b", types::kTextOid, -1}}};
  CopyFromParser parser{opts, "t", conv.Names()};
};

}  // namespace

TEST_CASE("copy stream: a file larger than a chunk loads every row", "[copy][stream]") {
  TempFile f;
  std::ofstream(f.path, std::ios::binary) << Rows(20000);  // ~300 kB
  Fixture fx;
  CopyServerStream s = CopyServerStream::OpenFile(f.path, Direction::kRead);
  CHECK(s.file_size() == static_cast<int64_t>(Rows(20000).size()));
  CollectSink sink;
  CopyFileInSession in(s, fx.parser, fx.conv);
  CHECK(in.Run(sink) == 20000);
  CHECK(sink.rows_.back()[0].i == 20000);
  CHECK(sink.rows_.back()[1].str == "value-20000");
}

TEST_CASE("copy stream: rows written to a file are the text format", "[copy][stream]") {
  TempFile f;
  CopyOptions opts = Options("copy t to stdout (format csv, header)");
  CopyToFormatter fmt(opts);
  CopyServerStream s = CopyServerStream::OpenFile(f.path, Direction::kWrite);
  CopyFileOutSession out(s, fmt, {"a", "b"});
  out.Begin();
  std::vector<types::Value> row{types::Value::Int(types::kInt4Oid, 1), types::Value::Null(types::kTextOid)};
  for (int i = 0; i < 10000; i++) out.Row(row);
  out.End();
  CHECK(out.rows() == 10000);
  std::string expect = "a,b\n";
  for (int i = 0; i < 10000; i++) expect += "1,\n";
  CHECK(f.Read() == expect);
}

TEST_CASE("copy stream: open errors as PostgreSQL's errcode_for_file_access", "[copy][stream]") {
  DbError e = ErrorOf([] { CopyServerStream::OpenFile("/nonexistent-dir/x", Direction::kRead); });
  CHECK(e.sqlstate() == "58P01");
  CHECK(e.message() == "could not open file \"/nonexistent-dir/x\" for reading: No such file or directory");
  e = ErrorOf([] { CopyServerStream::OpenFile("/tmp", Direction::kRead); });
  CHECK(e.sqlstate() == "42809");
  CHECK(e.message() == "\"/tmp\" is a directory");
  e = ErrorOf([] { CopyServerStream::OpenFile("/tmp", Direction::kWrite); });
  CHECK(e.sqlstate() == "42809");
  CHECK(e.message() == "could not open file \"/tmp\" for writing: Is a directory");
}

TEST_CASE("copy stream: a program's output, and its exit status checked at the end", "[copy][stream]") {
  Fixture fx;
  CopyServerStream s = CopyServerStream::OpenProgram("seq 1 30000 | sed 's/$/\tv/'", Direction::kRead);
  CollectSink sink;
  CopyFileInSession in(s, fx.parser, fx.conv);
  CHECK(in.Run(sink) == 30000);

  for (const auto& [cmd, detail] : std::vector<std::pair<std::string, std::string>>{
           {"exit 3", "child process exited with exit code 3"},
           {"no_such_program_for_copy_test 2>/dev/null", "command not found"},
           {"kill -9 $$", "child process was terminated by signal 9: Killed"}}) {
    Fixture f2;
    CopyServerStream p = CopyServerStream::OpenProgram(cmd, Direction::kRead);
    CollectSink s2;
    CopyFileInSession in2(p, f2.parser, f2.conv);
    DbError e = ErrorOf([&] { in2.Run(s2); });
    CHECK(e.sqlstate() == "38000");
    CHECK(e.message() == "program \"" + cmd + "\" failed");
    CHECK(e.detail() == detail);
  }
}

TEST_CASE("copy stream: a program that stops reading", "[copy][stream]") {
  ::signal(SIGPIPE, SIG_IGN);  // as in the backend (InstallBackendSignalHandlers)
  std::string big(1 << 20, 'x');
  for (const auto& [cmd, state] :
       std::vector<std::pair<std::string, std::string>>{{"exit 4", "38000"}, {"exec 0<&-; exit 0", "XX000"}}) {
    CopyServerStream p = CopyServerStream::OpenProgram(cmd, Direction::kWrite);
    DbError e = ErrorOf([&] {
      for (int i = 0; i < 64; i++) p.Write(big, nullptr);
    });
    CHECK(e.sqlstate() == state);
    if (state == "XX000") CHECK(e.message() == "could not write to COPY program: Broken pipe");
  }
  // Dropped without Close (the COPY failed): killed and reaped at once.
  { CopyServerStream p = CopyServerStream::OpenProgram("sleep 600", Direction::kRead); }
}
