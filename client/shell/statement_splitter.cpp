// client/shell/statement_splitter.cpp
//
// Principal entry points: StatementSplitter::AddLine, Finish.
// A small hand-written lexer that knows only what decides where a statement
// ends: quotes, dollar quotes, comments and parenthesis depth.
#include "client/shell/statement_splitter.h"

#include <cctype>

namespace hearth::client {
namespace {

bool IsIdentChar(char c) {
  const auto u = static_cast<unsigned char>(c);
  return std::isalnum(u) || c == '_' || c == '$' || u >= 0x80;
}

bool IsIdentStart(char c) {
  const auto u = static_cast<unsigned char>(c);
  return std::isalpha(u) || c == '_' || u >= 0x80;
}

}  // namespace

std::string_view TrimLeadingWhitespaceAndComments(std::string_view sql) {
  size_t i = 0;
  for (;;) {
    while (i < sql.size() && std::isspace(static_cast<unsigned char>(sql[i]))) ++i;
    if (sql.compare(i, 2, "--") == 0) {
      size_t nl = sql.find('\n', i);
      i = nl == std::string_view::npos ? sql.size() : nl + 1;
      continue;
    }
    return sql.substr(i);
  }
}

std::vector<std::string> StatementSplitter::AddLine(std::string_view line) {
  buf_.append(line);
  buf_.push_back('\n');
  std::vector<std::string> out;
  Scan(&out);
  return out;
}

void StatementSplitter::Emit(size_t end, std::vector<std::string>* out) {
  std::string_view stmt = TrimLeadingWhitespaceAndComments(std::string_view(buf_).substr(0, end));
  out->emplace_back(stmt);
  buf_.erase(0, end);
  scan_ = 0;
  paren_depth_ = 0;
}

void StatementSplitter::Scan(std::vector<std::string>* out) {
  size_t i = scan_;
  while (i < buf_.size()) {
    const char c = buf_[i];
    const char next = i + 1 < buf_.size() ? buf_[i + 1] : '\0';
    switch (state_) {
      case State::kNormal:
        if (c == '-' && next == '-') {
          size_t nl = buf_.find('\n', i);
          i = nl == std::string::npos ? buf_.size() : nl + 1;
          continue;
        }
        if (c == '/' && next == '*') {
          state_ = State::kBlockComment;
          comment_depth_ = 1;
          i += 2;
          continue;
        }
        if (c == '\'') {
          // E'...' (not the tail of an identifier like "type'") honours backslashes.
          const bool escape = i > 0 && (buf_[i - 1] == 'E' || buf_[i - 1] == 'e') &&
                              (i < 2 || !IsIdentChar(buf_[i - 2]));
          state_ = escape ? State::kEscapeString : State::kSingle;
        } else if (c == '"') {
          state_ = State::kDouble;
        } else if (c == '$' && (i == 0 || !IsIdentChar(buf_[i - 1]))) {
          size_t j = i + 1;
          if (j < buf_.size() && IsIdentStart(buf_[j])) {
            while (j < buf_.size() && IsIdentChar(buf_[j]) && buf_[j] != '$') ++j;
          }
          if (j < buf_.size() && buf_[j] == '$') {
            dollar_tag_ = buf_.substr(i, j - i + 1);
            state_ = State::kDollar;
            i = j + 1;
            continue;
          }
        } else if (c == '(') {
          ++paren_depth_;
        } else if (c == ')') {
          if (paren_depth_ > 0) --paren_depth_;
        } else if (c == '\\') {
          // Meta-command: the rest of this line. The newline stays so the
          // statement text continues on the next line.
          size_t nl = buf_.find('\n', i);
          if (nl == std::string::npos) nl = buf_.size();
          meta_ = buf_.substr(i, nl - i);
          buf_.erase(i, nl - i);
          continue;
        } else if (c == ';' && paren_depth_ == 0) {
          Emit(i + 1, out);
          i = 0;
          continue;
        }
        ++i;
        break;
      case State::kSingle:
      case State::kEscapeString:
        if (state_ == State::kEscapeString && c == '\\') {
          i += 2;
          continue;
        }
        if (c == '\'') {
          if (next == '\'') {
            i += 2;
            continue;
          }
          state_ = State::kNormal;
        }
        ++i;
        break;
      case State::kDouble:
        if (c == '"') {
          if (next == '"') {
            i += 2;
            continue;
          }
          state_ = State::kNormal;
        }
        ++i;
        break;
      case State::kDollar:
        if (c == '$' && buf_.compare(i, dollar_tag_.size(), dollar_tag_) == 0) {
          i += dollar_tag_.size();
          state_ = State::kNormal;
          continue;
        }
        ++i;
        break;
      case State::kBlockComment:
        if (c == '/' && next == '*') {
          ++comment_depth_;
          i += 2;
          continue;
        }
        if (c == '*' && next == '/') {
          if (--comment_depth_ == 0) state_ = State::kNormal;
          i += 2;
          continue;
        }
        ++i;
        break;
    }
  }
  // A quote closed by "''" may straddle the end of the buffer only at a
  // newline, which we always append, so stopping here is safe.
  scan_ = i > buf_.size() ? buf_.size() : i;
}

std::optional<std::string> StatementSplitter::TakeMetaCommand() {
  std::optional<std::string> m = std::move(meta_);
  meta_.reset();
  return m;
}

std::optional<std::string> StatementSplitter::Finish() {
  std::string_view rest = TrimLeadingWhitespaceAndComments(buf_);
  std::optional<std::string> out;
  // Trailing whitespace (the newlines we added) is not part of the statement.
  size_t end = rest.size();
  while (end > 0 && std::isspace(static_cast<unsigned char>(rest[end - 1]))) --end;
  if (end > 0) out = std::string(rest.substr(0, end));
  Reset();
  return out;
}

bool StatementSplitter::empty() const {
  return state_ == State::kNormal && TrimLeadingWhitespaceAndComments(buf_).empty();
}

char StatementSplitter::ContinuationChar() const {
  switch (state_) {
    case State::kSingle:
    case State::kEscapeString:
      return '\'';
    case State::kDouble:
      return '"';
    case State::kDollar:
      return '$';
    case State::kBlockComment:
      return '*';
    case State::kNormal:
      break;
  }
  return paren_depth_ > 0 ? '(' : '-';
}

void StatementSplitter::Reset() {
  buf_.clear();
  scan_ = 0;
  state_ = State::kNormal;
  dollar_tag_.clear();
  comment_depth_ = 0;
  paren_depth_ = 0;
  meta_.reset();
}

}  // namespace hearth::client
