// config/conf_file.cpp
//
// Principal entry points: ParseConfText(), ReadConfFile().

#include "config/conf_file.h"

#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "common/error/db_error.h"

namespace hearth::config {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }
bool IsNameStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool IsNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
}

DbError LineError(std::string_view filename, int line, const std::string& what) {
  return DbError(kConfigFileError,
                 std::string(filename) + ":" + std::to_string(line) + ": " + what);
}

// Parses one line into `out`; returns false for blank/comment-only lines.
bool ParseLine(std::string_view l, std::string_view filename, int lineno, ConfEntry& out) {
  size_t p = 0;
  auto skip_space = [&] {
    while (p < l.size() && IsSpace(l[p])) ++p;
  };
  auto near = [&](size_t at) {
    size_t end = at;
    while (end < l.size() && !IsSpace(l[end])) ++end;
    std::string tok(l.substr(at, end - at));
    return LineError(filename, lineno,
                     tok.empty() ? "syntax error at end of line"
                                 : "syntax error near \"" + tok + "\"");
  };
  skip_space();
  if (p == l.size() || l[p] == '#') return false;
  if (!IsNameStart(l[p])) throw near(p);
  size_t name_start = p;
  while (p < l.size() && IsNameChar(l[p])) ++p;
  out.name = std::string(l.substr(name_start, p - name_start));
  out.line = lineno;
  skip_space();
  if (p < l.size() && l[p] == '=') {
    ++p;
    skip_space();
  }
  if (p == l.size() || l[p] == '#') throw near(p);
  out.value.clear();
  if (l[p] == '\'') {
    ++p;
    bool closed = false;
    while (p < l.size()) {
      char c = l[p];
      if (c == '\'') {
        if (p + 1 < l.size() && l[p + 1] == '\'') {  // '' is a literal quote
          out.value += '\'';
          p += 2;
          continue;
        }
        ++p;
        closed = true;
        break;
      }
      if (c == '\\' && p + 1 < l.size()) {
        char e = l[p + 1];
        switch (e) {
          case 'n': out.value += '\n'; break;
          case 't': out.value += '\t'; break;
          case 'r': out.value += '\r'; break;
          case 'b': out.value += '\b'; break;
          case 'f': out.value += '\f'; break;
          default: out.value += e; break;  // \\ \' and anything else: literal
        }
        p += 2;
        continue;
      }
      out.value += c;
      ++p;
    }
    if (!closed) throw LineError(filename, lineno, "unterminated quoted string");
  } else {
    size_t v = p;
    while (p < l.size() && !IsSpace(l[p]) && l[p] != '#' && l[p] != '\'') ++p;
    out.value = std::string(l.substr(v, p - v));
  }
  skip_space();
  if (p < l.size() && l[p] != '#') throw near(p);
  return true;
}

}  // namespace

std::vector<ConfEntry> ParseConfText(std::string_view text, std::string_view filename) {
  std::vector<ConfEntry> entries;
  int lineno = 0;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t nl = text.find('\n', pos);
    std::string_view line =
        text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    ++lineno;
    ConfEntry e;
    if (ParseLine(line, filename, lineno, e)) entries.push_back(std::move(e));
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  return entries;
}

namespace {

std::string ReadConfText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw DbError(kConfigFileError, "could not open configuration file \"" + path +
                                        "\": " + std::strerror(errno));
  }
  std::ostringstream buf;
  buf << in.rdbuf();
  return buf.str();
}

}  // namespace

std::vector<ConfEntry> ReadConfFile(const std::string& path) { return ParseConfText(ReadConfText(path), path); }

std::string ReadServerConfText(const std::string& datadir) {
  std::string text;
  for (const std::string& path : ConfigFiles(datadir)) {
    std::string part = ReadConfText(path);
    ParseConfText(part, path);  // syntax errors name the file they are in
    text += part;
    text += "\n";
  }
  return text;
}

std::vector<std::string> ConfigFiles(const std::string& datadir) {
  std::vector<std::string> files{datadir + "/hearth.conf"};
  const std::string auto_conf = datadir + "/" + kAutoConfFile;
  if (::access(auto_conf.c_str(), F_OK) == 0) files.push_back(auto_conf);
  return files;
}

}  // namespace hearth::config
