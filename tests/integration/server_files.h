// Files of a test server written at test time: TLS certificates made with
// the openssl command, and settings / pg_hba.conf reloaded with SIGHUP.
#pragma once

#include <signal.h>

#include <catch2/catch.hpp>

#include <fstream>
#include <string>

#include "test_server.h"

namespace hearth::testing {

// A self-signed server.crt / server.key for CN=localhost in `dir`.
inline void MakeSelfSignedCertificate(const std::string& dir) {
  auto r = RunCommand({"openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost",
                       "-keyout", dir + "/server.key", "-out", dir + "/server.crt", "-days", "2"});
  REQUIRE(r.exit_code == 0);
  REQUIRE(RunCommand({"chmod", "600", dir + "/server.key"}).exit_code == 0);
}

// A test CA (ca.crt) and the server.crt / server.key it signs, for
// CN=localhost with subjectAltName IP 127.0.0.1 and DNS localhost (so
// verify-full accepts host 127.0.0.1), plus other_ca.crt: a CA that signed
// nothing here, which verify-full must refuse.
inline void MakeTestCa(const std::string& dir) {
  for (const char* name : {"ca", "other_ca"}) {
    auto r = RunCommand({"openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj",
                         std::string("/CN=Hearth test ") + name, "-keyout", dir + "/" + name + ".key", "-out",
                         dir + "/" + name + ".crt", "-days", "2"});
    REQUIRE(r.exit_code == 0);
  }
  auto csr = RunCommand({"openssl", "req", "-new", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost",
                         "-keyout", dir + "/server.key", "-out", dir + "/server.csr"});
  REQUIRE(csr.exit_code == 0);
  {
    std::ofstream ext(dir + "/san.ext");
    ext << "subjectAltName=IP:127.0.0.1,DNS:localhost\n";
  }
  auto sign = RunCommand({"openssl", "x509", "-req", "-in", dir + "/server.csr", "-CA", dir + "/ca.crt", "-CAkey",
                          dir + "/ca.key", "-CAcreateserial", "-out", dir + "/server.crt", "-days", "2", "-extfile",
                          dir + "/san.ext"});
  INFO(sign.err);
  REQUIRE(sign.exit_code == 0);
  REQUIRE(RunCommand({"chmod", "600", dir + "/server.key"}).exit_code == 0);
}

// Appends `conf_lines` to hearth.conf and replaces pg_hba.conf with `hba`
// (either may be empty: left alone), sends SIGHUP and waits until the
// postmaster has re-read its files.
inline void ReloadServerConfig(const TestServer& s, const std::string& conf_lines, const std::string& hba) {
  auto sighups = [&] {
    const std::string log = s.log();
    size_t n = 0;
    for (size_t p = log.find("received SIGHUP"); p != std::string::npos; p = log.find("received SIGHUP", p + 1)) ++n;
    return n;
  };
  const size_t before = sighups();
  if (!conf_lines.empty()) {
    std::ofstream conf(s.datadir() + "/hearth.conf", std::ios::app);
    conf << conf_lines;
  }
  if (!hba.empty()) {
    std::ofstream out(s.datadir() + "/pg_hba.conf", std::ios::trunc);
    out << hba;
  }
  REQUIRE(kill(s.pid(), SIGHUP) == 0);
  REQUIRE(WaitFor([&] { return sighups() > before; }, 20000));
}

}  // namespace hearth::testing
