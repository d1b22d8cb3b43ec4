// Unit tests for config/sample_conf: the checked-in hearth.conf.sample must
// equal the generator's output, and generated files must load cleanly.
//
// To refresh the checked-in file after changing the registry:
//   HEARTH_UPDATE_SAMPLE=1 ./config_test "[sample]"
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "config/conf_file.h"
#include "config/sample_conf.h"
#include "config/settings.h"

using namespace hearth::config;

#ifndef HEARTH_CONFIG_SOURCE_DIR
#error "HEARTH_CONFIG_SOURCE_DIR must point at the config/ source folder"
#endif

TEST_CASE("hearth.conf.sample is in sync with the registry", "[config][sample]") {
  const std::string path = std::string(HEARTH_CONFIG_SOURCE_DIR) + "/hearth.conf.sample";
  const std::string generated = GenerateSampleConf();
  if (const char* update = std::getenv("HEARTH_UPDATE_SAMPLE"); update && *update == '1') {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << generated;
    REQUIRE(out.good());
  }
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  std::stringstream buf;
  buf << in.rdbuf();
  INFO("config/hearth.conf.sample is stale; regenerate with "
       "HEARTH_UPDATE_SAMPLE=1 ./config_test \"[sample]\"");
  CHECK(buf.str() == generated);
}

TEST_CASE("sample content: sections, defaults, restart notes", "[config][sample]") {
  std::string s = GenerateSampleConf();
  CHECK(s.find("# WRITE-AHEAD LOG\n") != std::string::npos);
  CHECK(s.find("#shared_buffers = 128MB ") != std::string::npos);
  CHECK(s.find("#checkpoint_timeout = 5min ") != std::string::npos);
  CHECK(s.find("#listen_addresses = '127.0.0.1' ") != std::string::npos);
  CHECK(s.find("#search_path = '\"$user\", public' ") != std::string::npos);
  // Long heads push the description onto the next line, aligned.
  CHECK(s.find("#default_transaction_isolation = 'read committed'\n" + std::string(40, ' ') +
               "# Sets the transaction isolation level") != std::string::npos);
  CHECK(s.find("#synchronous_commit = on ") != std::string::npos);
  size_t port = s.find("#port = 5433");
  REQUIRE(port != std::string::npos);
  size_t next_line = s.find('\n', port) + 1;
  CHECK(s.compare(next_line, 40 + 27, std::string(40, ' ') + "# (change requires restart)") == 0);
  CHECK(s.find("server_version") == std::string::npos);  // internal: omitted
  CHECK(s.find("transaction_isolation =") == s.find("default_transaction_isolation =") + 8);
}

TEST_CASE("generated files load: sample, sample uncommented, InitialConf", "[config][sample]") {
  // The sample as-is sets nothing.
  CHECK(ParseConfText(GenerateSampleConf(), "sample").empty());

  // Uncommenting every setting line yields a valid file of defaults.
  std::string uncommented;
  std::istringstream lines(GenerateSampleConf());
  std::string line;
  int settings_lines = 0;
  while (std::getline(lines, line)) {
    if (line.size() > 1 && line[0] == '#' && std::islower(static_cast<unsigned char>(line[1])) &&
        line.find(" = ") != std::string::npos) {
      line.erase(0, 1);
      ++settings_lines;
    } else if (line.size() > 1 && line[0] == '#' && (line[1] == 'D' || line[1] == 'I' ||
                                                     line[1] == 'T') &&
               line.find(" = ") != std::string::npos) {
      line.erase(0, 1);  // DateStyle, IntervalStyle, TimeZone
      ++settings_lines;
    }
    uncommented += line + "\n";
  }
  CHECK(settings_lines > 40);
  Settings s;
  s.ApplyConfText(uncommented, "uncommented");
  Settings defaults;
  for (const SettingDef& d : AllSettings()) {
    INFO(d.name);
    CHECK(s.Show(d.name) == defaults.Show(d.name));
  }

  std::string init = InitialConf({{"port", "5440"}, {"log_file", "it's.log"}});
  CHECK(init.find("port = '5440'\n") != std::string::npos);
  Settings t;
  t.ApplyConfText(init, "init");
  CHECK(t.GetInt("port") == 5440);
  CHECK(t.GetString("log_file") == "it's.log");
  CHECK(QuoteConfValue("a'b\\c") == "'a''b\\\\c'");
}
