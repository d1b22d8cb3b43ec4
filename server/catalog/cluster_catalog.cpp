// catalog/cluster_catalog.cpp
//
// Principal entry points: WriteInitialClusterCatalog, DatabaseExists.
#include "catalog/cluster_catalog.h"

#include "catalog/role_catalog.h"

#include <algorithm>
#include <fstream>

namespace hearth::catalog {

namespace {

struct CatalogLine {
  std::string name;
  std::string attributes;  // after the first tab; empty when none
};

std::vector<CatalogLine> ReadLines(const std::string& path) {
  std::vector<CatalogLine> lines;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const size_t tab = line.find('\t');
    if (tab == std::string::npos) {
      lines.push_back({line, {}});
    } else {
      lines.push_back({line.substr(0, tab), line.substr(tab + 1)});
    }
  }
  return lines;
}

std::vector<std::string> ReadNames(const std::string& path) {
  std::vector<std::string> names;
  for (CatalogLine& l : ReadLines(path)) names.push_back(std::move(l.name));
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
