// catalog/cluster_catalog.cpp
//
// Principal entry points: WriteInitialClusterCatalog, DatabaseExists.
#include "catalog/cluster_catalog.h"

#include "catalog/role_catalog.h"

#include <algorithm>
#include <fstream>

namespace hearth::catalog {

namespace {

std::vector<std::string> ReadNames(const std::string& path) {
  std::vector<std::string> names;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) names.push_back(line);
  }
  return names;
}

bool WriteNames(const std::string& path, const std::vector<std::string>& names, std::string* error) {
  std::ofstream out(path, std::ios::trunc);
  for (const auto& n : names) out << n << '\n';
  out.flush();
  if (!out) {
    *error = "could not write " + path;
    return false;
  }
  return true;
}

bool Contains(const std::string& path, const std::string& name) {
  auto names = ReadNames(path);
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

bool WriteInitialClusterCatalog(const std::string& datadir, const std::string& dbname, std::string* error) {
  return WriteNames(datadir + "/" + kDatabasesFile, {dbname}, error);
}

bool DatabaseExists(const std::string& datadir, const std::string& name) {
  return Contains(datadir + "/" + kDatabasesFile, name);
}

std::vector<std::string> ListDatabases(const std::string& datadir) {
  return ReadNames(datadir + "/" + kDatabasesFile);
}

std::string RoleNameByOid(const std::string& datadir, unsigned oid) {
  if (oid == kPgDatabaseOwnerOid) return "pg_database_owner";
  if (auto role = FindRoleByOid(oid)) return role->role.name;
  return "unknown (OID=" + std::to_string(oid) + ")";
}

}  // namespace hearth::catalog
