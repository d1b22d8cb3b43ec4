// replication/repl_command.cpp
//
// Principal entry points: ParseReplCommand, OptionBool. A hand-written
// tokenizer (identifiers are lower-cased unless quoted, 'strings', numbers,
// X/Y positions, punctuation) and one small function per command.
#include "replication/repl_command.h"

#include <cctype>
#include <cstdlib>

#include "access/transam/xlog_backup_label.h"
#include "common/error/db_error.h"

namespace hearth::replication {

namespace {

enum class Tok { kEnd, kIdent, kQuotedIdent, kString, kNumber, kLsn, kPunct };

struct Token {
  Tok kind = Tok::kEnd;
  std::string text;  // identifiers lower-cased; strings unquoted
};

[[noreturn]] void SyntaxError() { throw DbError(sqlstate::kSyntaxError, "syntax error"); }

// End of a position "X/Y" (hex digits, slash, hex digits) starting at i; 0
// when there is none.
size_t LsnEnd(const std::string& s, size_t i) {
  size_t j = i;
  while (j < s.size() && std::isxdigit(static_cast<unsigned char>(s[j]))) j++;
  if (j == i || j >= s.size() || s[j] != '/') return 0;
  size_t k = j + 1;
  while (k < s.size() && std::isxdigit(static_cast<unsigned char>(s[k]))) k++;
  return k == j + 1 ? 0 : k;
}

std::vector<Token> Tokenize(const std::string& s) {
  std::vector<Token> out;
  size_t i = 0;
  auto quoted = [&](char q) {
    std::string v;
    for (i++;; i++) {
      if (i >= s.size()) SyntaxError();
      if (s[i] == q) {
        if (i + 1 < s.size() && s[i + 1] == q) {
          v += q;
          i++;
          continue;
        }
        i++;
        return v;
      }
      v += s[i];
    }
  };
  while (i < s.size()) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (std::isspace(c)) {
      i++;
    } else if (c == '\'') {
      out.push_back({Tok::kString, quoted('\'')});
    } else if (c == '"') {
      out.push_back({Tok::kQuotedIdent, quoted('"')});
    } else if (const size_t lsn_end = LsnEnd(s, i); lsn_end != 0) {
      out.push_back({Tok::kLsn, s.substr(i, lsn_end - i)});
      i = lsn_end;
    } else if (std::isdigit(c)) {
      size_t k = i;
      while (k < s.size() && std::isdigit(static_cast<unsigned char>(s[k]))) k++;
      out.push_back({Tok::kNumber, s.substr(i, k - i)});
      i = k;
    } else if (std::isalpha(c) || c == '_') {
      std::string v;
      while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_' || s[i] == '.')) {
        v += static_cast<char>(std::tolower(static_cast<unsigned char>(s[i])));
        i++;
      }
      out.push_back({Tok::kIdent, v});
    } else if (c == '(' || c == ')' || c == ',' || c == ';') {
      out.push_back({Tok::kPunct, std::string(1, static_cast<char>(c))});
      i++;
    } else {
      SyntaxError();
    }
  }
  // A trailing semicolon is allowed.
  if (!out.empty() && out.back().kind == Tok::kPunct && out.back().text == ";") out.pop_back();
  return out;
}

class Parser {
 public:
  explicit Parser(std::vector<Token> toks) : toks_(std::move(toks)) {}

  const Token& Peek() const { return pos_ < toks_.size() ? toks_[pos_] : end_; }
  bool AtEnd() const { return pos_ >= toks_.size(); }
  Token Next() {
    if (AtEnd()) SyntaxError();
    return toks_[pos_++];
  }
  bool AcceptWord(const char* w) {
    if (Peek().kind == Tok::kIdent && Peek().text == w) {
      pos_++;
      return true;
    }
    return false;
  }
  bool AcceptPunct(char p) {
    if (Peek().kind == Tok::kPunct && Peek().text[0] == p) {
      pos_++;
      return true;
    }
    return false;
  }
  void ExpectEnd() const {
    if (!AtEnd()) SyntaxError();
  }
  // An identifier, quoted or not (slot and variable names).
  std::string Name() {
    Token t = Next();
    if (t.kind != Tok::kIdent && t.kind != Tok::kQuotedIdent) SyntaxError();
    return t.text;
  }
  uint32_t Number() {
    Token t = Next();
    if (t.kind != Tok::kNumber || t.text.size() > 10) SyntaxError();
    const uint64_t v = std::strtoull(t.text.c_str(), nullptr, 10);
    if (v > UINT32_MAX) SyntaxError();
    return static_cast<uint32_t>(v);
  }
  uint64_t Lsn() {
    Token t = Next();
    uint64_t lsn = 0;
    if (t.kind != Tok::kLsn || !access::ParseLsn(t.text, &lsn)) SyntaxError();
    return lsn;
  }
  // "( name [value] , ... )" (PostgreSQL 15) or bare "name [value] ..." words.
  std::vector<ReplOption> Options() {
    std::vector<ReplOption> out;
    const bool parens = AcceptPunct('(');
    while (!AtEnd()) {
      if (parens && AcceptPunct(')')) {
        ExpectEnd();
        return out;
      }
      Token name = Next();
      if (name.kind != Tok::kIdent) SyntaxError();
      ReplOption opt{name.text, std::nullopt};
      const Tok k = Peek().kind;
      if (k == Tok::kString || k == Tok::kNumber || (parens && (k == Tok::kIdent || k == Tok::kQuotedIdent))) {
        opt.second = Next().text;
      }
      out.push_back(std::move(opt));
      if (parens && !AcceptPunct(',') && !(Peek().kind == Tok::kPunct && Peek().text == ")")) SyntaxError();
    }
    if (parens) SyntaxError();  // no closing parenthesis
    return out;
  }

 private:
  std::vector<Token> toks_;
  size_t pos_ = 0;
  Token end_;
};

ReplCommand ParseCreateSlot(Parser& p) {
  ReplCommand c;
  c.kind = ReplCommandKind::kCreateSlot;
  c.name = p.Name();
  c.temporary = p.AcceptWord("temporary");
  if (p.AcceptWord("logical")) {
    c.logical = true;
    p.Name();  // output plugin
  } else if (!p.AcceptWord("physical")) {
    SyntaxError();
  }
  if (p.AcceptWord("reserve_wal")) c.options.push_back({"reserve_wal", std::nullopt});
  if (!p.AtEnd()) {
    for (ReplOption& o : p.Options()) c.options.push_back(std::move(o));
  }
  p.ExpectEnd();
  return c;
}

ReplCommand ParseStartReplication(Parser& p) {
  ReplCommand c;
  c.kind = ReplCommandKind::kStartReplication;
  if (p.AcceptWord("slot")) c.name = p.Name();
  if (p.AcceptWord("logical")) {
    c.logical = true;
    return c;
  }
  p.AcceptWord("physical");
  c.lsn = p.Lsn();
  if (p.AcceptWord("timeline")) c.timeline = p.Number();
  p.ExpectEnd();
  return c;
}

}  // namespace

ReplCommand ParseReplCommand(const std::string& text) {
  std::vector<Token> toks = Tokenize(text);
  ReplCommand c;
  if (toks.empty() || toks[0].kind != Tok::kIdent) return c;  // SQL (or empty)
  const std::string head = toks[0].text;
  Parser p(std::move(toks));
  p.Next();
  if (head == "identify_system") {
    c.kind = ReplCommandKind::kIdentifySystem;
  } else if (head == "show") {
    c.kind = ReplCommandKind::kShow;
    c.name = p.Name();
  } else if (head == "timeline_history") {
    c.kind = ReplCommandKind::kTimelineHistory;
    c.timeline = p.Number();
  } else if (head == "create_replication_slot") {
    return ParseCreateSlot(p);
  } else if (head == "drop_replication_slot") {
    c.kind = ReplCommandKind::kDropSlot;
    c.name = p.Name();
    c.wait = p.AcceptWord("wait");
  } else if (head == "read_replication_slot") {
    c.kind = ReplCommandKind::kReadSlot;
    c.name = p.Name();
  } else if (head == "base_backup") {
    c.kind = ReplCommandKind::kBaseBackup;
    c.options = p.Options();
  } else if (head == "start_replication") {
    return ParseStartReplication(p);
  } else {
    return c;
  }
  p.ExpectEnd();
  return c;
}

bool OptionBool(const ReplOption& opt) {
  if (!opt.second) return true;
  std::string v;
  for (char ch : *opt.second) v += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  for (const char* t : {"true", "on", "1", "yes"}) {
    if (v == t) return true;
  }
  for (const char* f : {"false", "off", "0", "no"}) {
    if (v == f) return false;
  }
  throw DbError(sqlstate::kInvalidParameterValue, opt.first + " requires a Boolean value");
}

}  // namespace hearth::replication
