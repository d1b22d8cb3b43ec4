// config/options_parse.h
//
// Parsing of command-line style setting assignments, shared by hearthd's argv
// (`-c name=value`, `--name=value`) and the startup packet's `options` value
// (libpq's PGOPTIONS, e.g. "-c search_path=app -c statement_timeout=5s").
// Stateless; safe from any thread.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hearth::config {

// Splits an `options` string into words at unescaped whitespace; a backslash
// makes the next character literal ("a\ b" is one word "a b", "\\" is "\").
std::vector<std::string> SplitOptionsString(std::string_view options);

// Turns words into (name, value) pairs. Accepted forms: "-c" "name=value",
// "-cname=value", "--name=value". Dashes in names become underscores, as in
// PostgreSQL. Names are not validated here.
// Throws DbError 42601:
//   "-c name" requires a value            (no '=')
//   invalid command-line argument for server process: <word>
std::vector<std::pair<std::string, std::string>> ParseOptionWords(
    const std::vector<std::string>& words);

// SplitOptionsString + ParseOptionWords.
std::vector<std::pair<std::string, std::string>> ParseOptionsString(std::string_view options);

// Splits one "name=value" assignment (dashes in the name → underscores).
// Throws DbError 42601 "<what> <name> requires a value" when '=' is missing.
std::pair<std::string, std::string> SplitAssignment(std::string_view assignment,
                                                    std::string_view what = "-c");

}  // namespace hearth::config
