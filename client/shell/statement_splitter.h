// client/shell/statement_splitter.h
//
// StatementSplitter: cuts shell input into SQL statements the way psql does.
// A statement ends at a ';' outside quotes ('...', E'...', "..."), dollar
// quotes ($$...$$, $tag$...$tag$), comments (-- to end of line, nested
// /* */) and parentheses; it may span lines. Leading whitespace and "--"
// comments before a statement are dropped; the ';' is kept. Not thread-safe
// per object.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hearth::client {

class StatementSplitter {
 public:
  // Adds one input line (without its newline). Returns the statements it
  // completed, in order; unfinished text stays buffered. A backslash outside
  // quotes and comments starts a meta-command that runs to the end of the
  // line: it is removed from the buffer and handed out by TakeMetaCommand()
  // (to run after the returned statements).
  std::vector<std::string> AddLine(std::string_view line);

  // The meta-command found by the last AddLine ("\\timing on"), if any.
  std::optional<std::string> TakeMetaCommand();

  // Returns the buffered unfinished statement (for psql's \g) and resets;
  // nullopt when it holds only whitespace and comments.
  std::optional<std::string> TakeBuffer() { return Finish(); }

  // End of input: returns the buffered unfinished statement if it holds
  // anything besides whitespace and comments, and resets.
  std::optional<std::string> Finish();

  // True when nothing but whitespace/"--" comments is buffered.
  bool empty() const;

  // psql's %R for the continuation prompt: '\'' inside a string, '"' inside
  // a quoted identifier, '$' inside a dollar quote, '*' inside a block
  // comment, '(' inside parentheses, '-' otherwise.
  char ContinuationChar() const;

  // Drops buffered text and lexer state (psql's \r).
  void Reset();

 private:
  enum class State { kNormal, kSingle, kEscapeString, kDouble, kDollar, kBlockComment };

  // Scans buf_ from scan_ on; appends finished statements to *out.
  void Scan(std::vector<std::string>* out);
  void Emit(size_t end, std::vector<std::string>* out);

  std::string buf_;  // text of the current, unfinished statement (+ newlines)
  std::optional<std::string> meta_;  // meta-command cut from the last line
  size_t scan_ = 0;  // next byte of buf_ to lex
  State state_ = State::kNormal;
  std::string dollar_tag_;  // e.g. "$fn$" while in kDollar
  int comment_depth_ = 0;
  int paren_depth_ = 0;
};

// Drops leading whitespace and "--" comment lines from `sql`.
std::string_view TrimLeadingWhitespaceAndComments(std::string_view sql);

}  // namespace hearth::client
