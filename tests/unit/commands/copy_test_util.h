// Helpers shared by the COPY tests: run a CopyFromParser over chunked input
// and collect rows or the error it raises.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "commands/copy_from_parser.h"
#include "common/error/db_error.h"
#include "parser/parser.h"

namespace copytest {

using Row = std::vector<std::optional<std::string>>;

inline hearth::commands::CopyOptions Options(const std::string& sql) {
  auto stmts = hearth::parser::ParseStatements(sql);
  const auto& copy = stmts.at(0)->As<hearth::parser::CopyStmt>();
  return hearth::commands::ParseCopyOptions(copy.options, copy.is_from, sql);
}

inline void Collect(hearth::commands::CopyFromParser& p, std::vector<Row>* rows) {
  hearth::commands::CopyFields f;
  while (p.NextRow(&f)) {
    Row r;
    for (const auto& v : f) r.push_back(v ? std::optional<std::string>(std::string(*v)) : std::nullopt);
    rows->push_back(std::move(r));
  }
}

// Feeds `chunks` one by one, then finishes; returns every row.
inline std::vector<Row> ParseChunks(const hearth::commands::CopyOptions& o, const std::vector<std::string>& cols,
                                    const std::vector<std::string>& chunks,
                                    hearth::commands::CopyColumnFlags flags = {}) {
  hearth::commands::CopyFromParser p(o, "t", cols, flags);
  std::vector<Row> rows;
  for (const std::string& c : chunks) {
    p.Feed(c);
    Collect(p, &rows);
  }
  p.Finish();
  Collect(p, &rows);
  return rows;
}

inline std::vector<Row> Parse(const hearth::commands::CopyOptions& o, const std::vector<std::string>& cols,
                              const std::string& input, hearth::commands::CopyColumnFlags flags = {}) {
  return ParseChunks(o, cols, {input}, flags);
}

// Every way of cutting `input` in two, plus one byte per chunk.
inline std::vector<std::vector<std::string>> Splits(const std::string& input) {
  std::vector<std::vector<std::string>> out;
  for (size_t k = 0; k <= input.size(); k++) out.push_back({input.substr(0, k), input.substr(k)});
  std::vector<std::string> bytes;
  for (char c : input) bytes.emplace_back(1, c);
  out.push_back(bytes);
  return out;
}

struct Error {
  std::string sqlstate;
  std::string message;
  std::string context;
  std::string hint;
  bool thrown = false;
};

inline Error ErrorOfChunks(const hearth::commands::CopyOptions& o, const std::vector<std::string>& cols,
                           const std::vector<std::string>& chunks) {
  try {
    ParseChunks(o, cols, chunks);
  } catch (const hearth::DbError& e) {
    return {e.sqlstate(), e.message(), e.context(), e.hint(), true};
  }
  return {};
}

}  // namespace copytest
