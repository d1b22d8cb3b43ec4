// Unit tests for config/conf_file (hearth.conf syntax) and options_parse.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>

#include "config/conf_file.h"
#include "config/options_parse.h"
#include "error_capture.h"

using namespace hearth;
using namespace hearth::config;
using hearth::config::testing::CaptureDbError;

TEST_CASE("conf file: names, values, quotes and comments", "[config][conf]") {
  const char* text =
      "# leading comment\n"
      "\n"
      "shared_buffers = 256MB\n"
      "port 5440   # no equals sign\n"
      "  work_mem=8MB\n"
      "log_file = 'logs/hearth.log'\n"
      "search_path = '\"$user\", public'\n"
      "application_name = 'it''s here'\n"
      "lc_messages = 'a\\\\b\\'c'\n"
      "TimeZone = 'Europe/Paris' # zone\n"
      "empty = ''\n"
      "\t# indented comment\n"
      "statement_timeout = 5s";  // no trailing newline
  std::vector<ConfEntry> e = ParseConfText(text, "hearth.conf");
  REQUIRE(e.size() == 10);
  CHECK(e[0].name == "shared_buffers");
  CHECK(e[0].value == "256MB");
  CHECK(e[0].line == 3);
  CHECK(e[1].name == "port");
  CHECK(e[1].value == "5440");
  CHECK(e[2].name == "work_mem");
  CHECK(e[2].value == "8MB");
  CHECK(e[3].value == "logs/hearth.log");
  CHECK(e[4].value == "\"$user\", public");
  CHECK(e[5].value == "it's here");
  CHECK(e[6].value == "a\\b'c");
  CHECK(e[7].name == "TimeZone");
  CHECK(e[7].value == "Europe/Paris");
  CHECK(e[8].value.empty());
  CHECK(e[9].value == "5s");
  CHECK(e[9].line == 13);
}

TEST_CASE("conf file: syntax errors carry file and line", "[config][conf]") {
  DbError err = CaptureDbError([] { ParseConfText("port = 1\nwork_mem = 'abc\n", "x.conf"); });
  CHECK(err.sqlstate() == kConfigFileError);
  CHECK(err.message() == "x.conf:2: unterminated quoted string");

  err = CaptureDbError([] { ParseConfText("\n\nport = 1 2\n", "x.conf"); });
  CHECK(err.message() == "x.conf:3: syntax error near \"2\"");

  err = CaptureDbError([] { ParseConfText("port =\n", "x.conf"); });
  CHECK(err.message() == "x.conf:1: syntax error at end of line");

  err = CaptureDbError([] { ParseConfText("port = # nothing\n", "x.conf"); });
  CHECK(err.message() == "x.conf:1: syntax error near \"#\"");

  err = CaptureDbError([] { ParseConfText("= 5\n", "x.conf"); });
  CHECK(err.message() == "x.conf:1: syntax error near \"=\"");

  err = CaptureDbError([] { ParseConfText("9port = 5\n", "x.conf"); });
  CHECK(err.message() == "x.conf:1: syntax error near \"9port\"");
}

TEST_CASE("conf file: ReadConfFile reads from disk and reports open errors", "[config][conf]") {
  std::string path = "conf_file_test_tmp.conf";
  {
    std::ofstream out(path);
    out << "port = 6000\nfsync = off\n";
  }
  std::vector<ConfEntry> e = ReadConfFile(path);
  REQUIRE(e.size() == 2);
  CHECK(e[1].name == "fsync");
  CHECK(e[1].value == "off");
  std::remove(path.c_str());

  DbError err = CaptureDbError([] { ReadConfFile("/nonexistent/hearth.conf"); });
  CHECK(err.sqlstate() == kConfigFileError);
  CHECK(err.message() ==
        "could not open configuration file \"/nonexistent/hearth.conf\": "
        "No such file or directory");
}

TEST_CASE("options string: escapes and -c / --name forms", "[config][options]") {
  std::vector<std::string> words = SplitOptionsString("  -c a=b\\ c   --x-y=1 \\\\z ");
  REQUIRE(words.size() == 4);
  CHECK(words[0] == "-c");
  CHECK(words[1] == "a=b c");
  CHECK(words[2] == "--x-y=1");
  CHECK(words[3] == "\\z");

  auto kv = ParseOptionsString(
      "-c search_path=app,public -cstatement_timeout=5s --lock-timeout=1s "
      "-c application_name=my\\ app");
  REQUIRE(kv.size() == 4);
  CHECK(kv[0] == std::make_pair(std::string("search_path"), std::string("app,public")));
  CHECK(kv[1] == std::make_pair(std::string("statement_timeout"), std::string("5s")));
  CHECK(kv[2] == std::make_pair(std::string("lock_timeout"), std::string("1s")));
  CHECK(kv[3] == std::make_pair(std::string("application_name"), std::string("my app")));
  CHECK(ParseOptionsString("").empty());
  CHECK(ParseOptionsString("-c x=").at(0).second.empty());

  DbError err = CaptureDbError([] { ParseOptionsString("-c work_mem"); });
  CHECK(err.sqlstate() == "42601");
  CHECK(err.message() == "-c work_mem requires a value");
  err = CaptureDbError([] { ParseOptionsString("--work_mem"); });
  CHECK(err.message() == "--work_mem requires a value");
  err = CaptureDbError([] { ParseOptionsString("-c"); });
  CHECK(err.message() == "option -c requires an argument");
  err = CaptureDbError([] { ParseOptionsString("-B 100"); });
  CHECK(err.sqlstate() == "42601");
  CHECK(err.message() == "invalid command-line argument for server process: -B");
}
