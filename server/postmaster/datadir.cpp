// postmaster/datadir.cpp
//
// Principal entry points: InitDataDirectory, CheckDataDirectory.
#include "postmaster/datadir.h"

#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "catalog/bootstrap.h"
#include "catalog/cluster_catalog.h"
#include "config/sample_conf.h"
#include "tcop/auth.h"
#include "tcop/hba.h"

namespace hearth::postmaster {

namespace fs = std::filesystem;

namespace {

bool WriteFile(const fs::path& path, const std::string& content, std::string* error) {
  std::ofstream out(path, std::ios::trunc);
  out << content;
  out.flush();
  if (!out) {
    *error = "could not write file \"" + path.string() + "\"";
    return false;
  }
  return true;
}

}  // namespace

bool InitDataDirectory(const InitOptions& opts, std::string* error) {
  std::error_code ec;
  fs::path dir(opts.datadir);
  if (fs::exists(dir, ec) && !fs::is_empty(dir, ec)) {
    *error = "directory \"" + opts.datadir + "\" exists but is not empty";
    return false;
  }
  for (const char* sub : {"", "base", "global", "pg_wal", "log"}) {
    fs::create_directories(dir / sub, ec);
    if (ec) {
      *error = "could not create directory \"" + (dir / sub).string() + "\": " + ec.message();
      return false;
    }
  }
  fs::permissions(dir, fs::perms::owner_all, fs::perm_options::replace, ec);
  if (!WriteFile(dir / "hearth.conf", config::InitialConf(), error)) return false;
  if (!WriteFile(dir / "pg_hba.conf", tcop::InitialHbaConf(), error)) return false;
  if (!tcop::WriteAuthSecret(opts.datadir, error)) return false;
  try {
    // The system catalogs as heap relations, written by this one process
    // with the bootstrap transaction id.
    catalog::BootstrapCatalog(opts.datadir, opts.username, opts.dbname);
  } catch (const std::exception& e) {
    *error = std::string("could not create the system catalogs: ") + e.what();
    return false;
  }
  // The version file goes last: its presence means the directory is complete.
  return WriteFile(dir / "HEARTH_VERSION", std::string(kLayoutVersion) + "\n", error);
}

bool CheckDataDirectory(const std::string& datadir, std::string* error) {
  struct stat st{};
  if (stat(datadir.c_str(), &st) == 0 && (st.st_mode & 0027) != 0) {
    *error = "data directory \"" + datadir + "\" has invalid permissions: permissions should be u=rwx (0700) "
             "or u=rwx,g=rx (0750)";
    return false;
  }
  std::ifstream in(fs::path(datadir) / "HEARTH_VERSION");
  std::string version;
  if (!in || !std::getline(in, version)) {
    *error = "\"" + datadir + "\" is not a Hearth data directory (no HEARTH_VERSION); run `hearthd init -D " +
             datadir + "`";
    return false;
  }
  if (version != kLayoutVersion) {
    *error = "data directory \"" + datadir + "\" has layout version " + version + ", this server needs " +
             kLayoutVersion;
    return false;
  }
  return true;
}

}  // namespace hearth::postmaster
