// replication/backup_files.cpp
//
// Principal entry point: ListBackupFiles.
#include "replication/backup_files.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>

namespace hearth::replication {

namespace {

bool EndsWith(const std::string& s, const char* suffix) {
  const std::string t(suffix);
  return s.size() >= t.size() && s.compare(s.size() - t.size(), t.size(), t) == 0;
}

// Top-level files never copied. pg_tblspc (a copy made by pg_basebackup has
// one) is sent by the backup itself, before the files: a second entry would
// make pg_basebackup fail with "could not create directory".
bool ExcludedFile(const std::string& rel) {
  return rel == "postmaster.pid" || rel == "postmaster.opts" || rel == "backup_label" ||
         rel == "backup_label.old" || rel == "backup_manifest" || rel == "pg_tblspc";
}

// Directories copied empty.
bool ContentsExcluded(const std::string& rel) { return rel == "pg_wal" || rel == "log" || rel == "pg_replslot"; }

bool Temporary(const std::string& name) { return name.rfind("pgsql_tmp", 0) == 0 || EndsWith(name, ".tmp"); }

void Walk(const std::string& datadir, const std::string& rel, std::vector<BackupEntry>* out) {
  const std::string dir = rel.empty() ? datadir : datadir + "/" + rel;
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return;  // removed meanwhile (a dropped database's directory)
  std::vector<std::string> names;
  while (dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name != "." && name != "..") names.push_back(name);
  }
  ::closedir(d);
  std::sort(names.begin(), names.end());
  for (const std::string& name : names) {
    const std::string child = rel.empty() ? name : rel + "/" + name;
    if (ExcludedFile(child) || Temporary(name)) continue;
    struct stat st;
    if (::lstat((datadir + "/" + child).c_str(), &st) != 0) continue;  // gone meanwhile
    if (S_ISDIR(st.st_mode)) {
      out->push_back({child, true, static_cast<uint32_t>(st.st_mode), 0, st.st_mtime});
      if (!ContentsExcluded(child)) Walk(datadir, child, out);
    } else if (S_ISREG(st.st_mode)) {
      out->push_back({child, false, static_cast<uint32_t>(st.st_mode), static_cast<uint64_t>(st.st_size),
                      st.st_mtime});
    }
  }
}

}  // namespace

std::vector<BackupEntry> ListBackupFiles(const std::string& datadir) {
  std::vector<BackupEntry> out;
  Walk(datadir, "", &out);
  // pg_control last.
  auto it = std::find_if(out.begin(), out.end(), [](const BackupEntry& e) { return e.path == "global/pg_control"; });
  if (it != out.end()) std::rotate(it, it + 1, out.end());
  return out;
}

}  // namespace hearth::replication
