// config/options_parse.cpp
//
// Principal entry points: ParseOptionsString(), ParseOptionWords().

#include "config/options_parse.h"

#include <cctype>

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"

namespace hearth::config {

std::vector<std::string> SplitOptionsString(std::string_view options) {
  std::vector<std::string> words;
  std::string cur;
  bool in_word = false;
  for (size_t i = 0; i < options.size(); ++i) {
    char c = options[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (in_word) words.push_back(std::move(cur));
      cur.clear();
      in_word = false;
      continue;
    }
    in_word = true;
    if (c == '\\' && i + 1 < options.size()) {
      cur += options[++i];
    } else {
      cur += c;
    }
  }
  if (in_word) words.push_back(std::move(cur));
  return words;
}

std::pair<std::string, std::string> SplitAssignment(std::string_view assignment,
                                                    std::string_view what) {
  size_t eq = assignment.find('=');
  std::string name(assignment.substr(0, eq));
  for (char& c : name) {
    if (c == '-') c = '_';
  }
  if (eq == std::string_view::npos || name.empty()) {
    std::string sep = what == "--" ? "" : " ";
    throw DbError(sqlstate::kSyntaxError,
                  std::string(what) + sep + std::string(assignment) + " requires a value");
  }
  return {std::move(name), std::string(assignment.substr(eq + 1))};
}

std::vector<std::pair<std::string, std::string>> ParseOptionWords(
    const std::vector<std::string>& words) {
  std::vector<std::pair<std::string, std::string>> out;
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (w == "-c") {
      if (i + 1 >= words.size()) {
        throw DbError(sqlstate::kSyntaxError, "option -c requires an argument");
      }
      out.push_back(SplitAssignment(words[++i], "-c"));
    } else if (w.size() > 2 && w.starts_with("-c")) {
      out.push_back(SplitAssignment(std::string_view(w).substr(2), "-c"));
    } else if (w.size() > 2 && w.starts_with("--")) {
      out.push_back(SplitAssignment(std::string_view(w).substr(2), "--"));
    } else {
      throw DbError(sqlstate::kSyntaxError,
                    "invalid command-line argument for server process: " + w)
          .WithHint("Only -c name=value and --name=value are supported.");
    }
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> ParseOptionsString(std::string_view options) {
  return ParseOptionWords(SplitOptionsString(options));
}

}  // namespace hearth::config
