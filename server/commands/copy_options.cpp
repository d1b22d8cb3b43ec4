// commands/copy_options.cpp
//
// Principal entry points: ParseCopyOptions, ResolveCopyColumnFlags.
// The checks and their order follow PostgreSQL 15's ProcessCopyOptions so a
// statement with several problems reports the same one PostgreSQL does.
#include "commands/copy_options.h"

#include <algorithm>
#include <cctype>

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "parser/parser.h"

namespace hearth::commands {

namespace {

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); i++) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

// Encoding names as PostgreSQL compares them: lowercase, punctuation dropped
// ("UTF-8" == "utf8"). Only UTF8 is supported; the others are recognised so
// a valid-but-unsupported name gets 0A000 rather than "not a valid name".
std::string CleanEncodingName(std::string_view name) {
  std::string out;
  for (char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c))) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

bool IsUtf8Name(const std::string& clean) { return clean == "utf8" || clean == "unicode"; }

bool IsKnownEncodingName(const std::string& clean) {
  static const char* const kNames[] = {
      "sqlascii", "eucjp",   "euccn",   "euckr",   "euctw",   "eucjis2004", "mulecinternal", "latin1",
      "latin2",   "latin3",  "latin4",  "latin5",  "latin6",  "latin7",     "latin8",        "latin9",
      "latin10",  "win1256", "win1258", "win866",  "win874",  "koi8r",      "koi8u",         "win1251",
      "win1252",  "win1250", "win1253", "win1254", "win1255", "win1257",    "iso88595",      "iso88596",
      "iso88597", "iso88598", "sjis",   "big5",    "gbk",     "uhc",        "gb18030",       "johab",
      "shiftjis2004", "iso88591", "iso88592", "iso88593", "iso88594", "iso88599", "iso885910", "iso885913",
      "iso885914", "iso885915", "iso885916", "windows1252", "windows1251", "windows1250", "alt", "koi8",
      "tcvn", "tcvn5712", "vscii", "win", "abc", "shiftjis", "mskanji", "cp932", "cp936", "cp949", "cp1250",
      "cp1251", "cp1252", "cp866"};
  return std::find(std::begin(kNames), std::end(kNames), clean) != std::end(kNames);
}

class OptionReader {
 public:
  explicit OptionReader(std::string_view sql) : sql_(sql) {}

  [[noreturn]] void Fail(const char* state, std::string msg, const parser::GenericOption* at = nullptr) const {
    DbError e(state, std::move(msg));
    if (at != nullptr && !sql_.empty() && at->location >= 0) e.WithPosition(parser::ErrorPosition(sql_, at->location));
    throw e;
  }
  [[noreturn]] void Conflict(const parser::GenericOption& o) const {
    Fail(sqlstate::kSyntaxError, "conflicting or redundant options", &o);
  }
  // defGetString: a value is required.
  std::string String(const parser::GenericOption& o) const {
    if (!o.has_value) Fail(sqlstate::kSyntaxError, o.name + " requires a parameter");
    return o.value;
  }
  // defGetBoolean: bare name = true; 0/1/true/false/on/off.
  bool Boolean(const parser::GenericOption& o) const {
    if (!o.has_value) return true;
    if (o.value == "1" || EqualsIgnoreCase(o.value, "true") || EqualsIgnoreCase(o.value, "on")) return true;
    if (o.value == "0" || EqualsIgnoreCase(o.value, "false") || EqualsIgnoreCase(o.value, "off")) return false;
    Fail(sqlstate::kSyntaxError, o.name + " requires a Boolean value");
  }
  CopyHeader Header(const parser::GenericOption& o, bool is_from) const {
    if (!o.has_value) return CopyHeader::kSkip;
    const std::string& v = o.value;
    if (v == "1" || EqualsIgnoreCase(v, "true") || EqualsIgnoreCase(v, "on")) return CopyHeader::kSkip;
    if (v == "0" || EqualsIgnoreCase(v, "false") || EqualsIgnoreCase(v, "off")) return CopyHeader::kNone;
    if (EqualsIgnoreCase(v, "match")) {
      if (!is_from) Fail(sqlstate::kFeatureNotSupported, "cannot use \"" + v + "\" with HEADER in COPY TO");
      return CopyHeader::kMatch;
    }
    Fail(sqlstate::kSyntaxError, o.name + " requires a Boolean value or \"match\"");
  }
  // A column list: "a,b" as the parser flattens `(a, b)` / `FORCE NOT NULL a, b`.
  std::vector<std::string> Columns(const parser::GenericOption& o) const {
    if (!o.has_value || o.value.empty()) {
      Fail(sqlstate::kInvalidParameterValue, "argument to option \"" + o.name + "\" must be a list of column names",
           &o);
    }
    std::vector<std::string> out;
    size_t start = 0;
    for (;;) {
      size_t comma = o.value.find(',', start);
      out.push_back(o.value.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    return out;
  }

 private:
  std::string_view sql_;
};

}  // namespace

CopyOptions ParseCopyOptions(const std::vector<parser::GenericOption>& options, bool is_from,
                             std::string_view source_sql) {
  OptionReader r(source_sql);
  CopyOptions out;
  out.is_from = is_from;
  bool format_seen = false, freeze_seen = false, header_seen = false, force_quote_seen = false;
  bool force_not_null_seen = false, force_null_seen = false, encoding_seen = false;
  const std::string* delim = nullptr;
  const std::string* null_str = nullptr;
  const std::string* quote = nullptr;
  const std::string* escape = nullptr;
  std::string delim_v, null_v, quote_v, escape_v;

  for (const parser::GenericOption& o : options) {
    if (o.name == "format") {
      std::string fmt = r.String(o);
      if (format_seen) r.Conflict(o);
      format_seen = true;
      if (fmt == "text") {
        out.format = CopyFormat::kText;
      } else if (fmt == "csv") {
        out.format = CopyFormat::kCsv;
      } else if (fmt == "binary") {
        out.format = CopyFormat::kBinary;
      } else {
        r.Fail(sqlstate::kInvalidParameterValue, "COPY format \"" + fmt + "\" not recognized", &o);
      }
    } else if (o.name == "freeze") {
      if (freeze_seen) r.Conflict(o);
      freeze_seen = true;
      out.freeze = r.Boolean(o);
    } else if (o.name == "delimiter") {
      if (delim != nullptr) r.Conflict(o);
      delim_v = r.String(o);
      delim = &delim_v;
    } else if (o.name == "null") {
      if (null_str != nullptr) r.Conflict(o);
      null_v = r.String(o);
      null_str = &null_v;
    } else if (o.name == "header") {
      if (header_seen) r.Conflict(o);
      header_seen = true;
      out.header = r.Header(o, is_from);
    } else if (o.name == "quote") {
      if (quote != nullptr) r.Conflict(o);
      quote_v = r.String(o);
      quote = &quote_v;
    } else if (o.name == "escape") {
      if (escape != nullptr) r.Conflict(o);
      escape_v = r.String(o);
      escape = &escape_v;
    } else if (o.name == "force_quote") {
      if (force_quote_seen) r.Conflict(o);
      force_quote_seen = true;
      if (o.has_value && o.value == "*") {
        out.force_quote_all = true;
      } else {
        out.force_quote = r.Columns(o);
      }
    } else if (o.name == "force_not_null") {
      if (force_not_null_seen) r.Conflict(o);
      force_not_null_seen = true;
      out.force_not_null = r.Columns(o);
    } else if (o.name == "force_null") {
      if (force_null_seen) r.Conflict(o);
      force_null_seen = true;
      out.force_null = r.Columns(o);
    } else if (o.name == "encoding") {
      if (encoding_seen) r.Conflict(o);
      encoding_seen = true;
      std::string name = r.String(o);
      std::string clean = CleanEncodingName(name);
      if (!IsUtf8Name(clean)) {
        if (!IsKnownEncodingName(clean)) {
          r.Fail(sqlstate::kInvalidParameterValue, "argument to option \"encoding\" must be a valid encoding name", &o);
        }
        r.Fail(sqlstate::kFeatureNotSupported, "COPY encoding \"" + name + "\" is not supported yet", &o);
      }
    } else {
      r.Fail(sqlstate::kSyntaxError, "option \"" + o.name + "\" not recognized", &o);
    }
  }

  const bool binary = out.format == CopyFormat::kBinary;
  const bool csv = out.csv();
  if (binary && delim != nullptr) r.Fail(sqlstate::kSyntaxError, "cannot specify DELIMITER in BINARY mode");
  if (binary && null_str != nullptr) r.Fail(sqlstate::kSyntaxError, "cannot specify NULL in BINARY mode");

  // Defaults for what was not given.
  std::string d = delim != nullptr ? *delim : (csv ? "," : "\t");
  out.null_string = null_str != nullptr ? *null_str : (csv ? "" : "\\N");
  std::string q = quote != nullptr ? *quote : "\"";
  std::string e = escape != nullptr ? *escape : q;

  if (d.size() != 1) r.Fail(sqlstate::kFeatureNotSupported, "COPY delimiter must be a single one-byte character");
  if (d[0] == '\r' || d[0] == '\n') {
    r.Fail(sqlstate::kInvalidParameterValue, "COPY delimiter cannot be newline or carriage return");
  }
  if (out.null_string.find_first_of("\r\n") != std::string::npos) {
    r.Fail(sqlstate::kInvalidParameterValue, "COPY null representation cannot use newline or carriage return");
  }
  // In text mode a backslash, a dot or an escape letter/digit as delimiter
  // would be ambiguous with the escapes.
  if (!csv && std::string_view("\\.abcdefghijklmnopqrstuvwxyz0123456789").find(d[0]) != std::string_view::npos) {
    r.Fail(sqlstate::kInvalidParameterValue, "COPY delimiter cannot be \"" + d + "\"");
  }
  if (binary && out.header != CopyHeader::kNone) {
    r.Fail(sqlstate::kFeatureNotSupported, "cannot specify HEADER in BINARY mode");
  }
  if (!csv && quote != nullptr) r.Fail(sqlstate::kFeatureNotSupported, "COPY quote available only in CSV mode");
  if (csv && q.size() != 1) r.Fail(sqlstate::kFeatureNotSupported, "COPY quote must be a single one-byte character");
  if (csv && d[0] == q[0]) r.Fail(sqlstate::kInvalidParameterValue, "COPY delimiter and quote must be different");
  if (!csv && escape != nullptr) r.Fail(sqlstate::kFeatureNotSupported, "COPY escape available only in CSV mode");
  if (csv && e.size() != 1) r.Fail(sqlstate::kFeatureNotSupported, "COPY escape must be a single one-byte character");
  const bool any_force_quote = out.force_quote_all || !out.force_quote.empty();
  if (!csv && any_force_quote) r.Fail(sqlstate::kFeatureNotSupported, "COPY force quote available only in CSV mode");
  if (any_force_quote && is_from) {
    r.Fail(sqlstate::kFeatureNotSupported, "COPY force quote only available using COPY TO");
  }
  if (!csv && !out.force_not_null.empty()) {
    r.Fail(sqlstate::kFeatureNotSupported, "COPY force not null available only in CSV mode");
  }
  if (!out.force_not_null.empty() && !is_from) {
    r.Fail(sqlstate::kFeatureNotSupported, "COPY force not null only available using COPY FROM");
  }
  if (!csv && !out.force_null.empty()) {
    r.Fail(sqlstate::kFeatureNotSupported, "COPY force null available only in CSV mode");
  }
  if (!out.force_null.empty() && !is_from) {
    r.Fail(sqlstate::kFeatureNotSupported, "COPY force null only available using COPY FROM");
  }
  if (out.null_string.find(d[0]) != std::string::npos) {
    r.Fail(sqlstate::kFeatureNotSupported, "COPY delimiter must not appear in the NULL specification");
  }
  if (csv && out.null_string.find(q[0]) != std::string::npos) {
    r.Fail(sqlstate::kFeatureNotSupported, "CSV quote character must not appear in the NULL specification");
  }

  out.delimiter = d[0];
  out.quote = q[0];
  out.escape = e[0];
  return out;
}

CopyColumnFlags ResolveCopyColumnFlags(const CopyOptions& opts, const std::vector<std::string>& copied,
                                       const std::vector<std::string>& all_columns, std::string_view relname) {
  CopyColumnFlags out;
  out.force_quote.assign(copied.size(), opts.force_quote_all);
  out.force_not_null.assign(copied.size(), false);
  out.force_null.assign(copied.size(), false);
  auto resolve = [&](const std::vector<std::string>& names, const char* option, std::vector<bool>& flags) {
    for (const std::string& name : names) {
      if (std::find(all_columns.begin(), all_columns.end(), name) == all_columns.end()) {
        std::string msg = relname.empty() ? "column \"" + name + "\" does not exist"
                                          : "column \"" + name + "\" of relation \"" + std::string(relname) +
                                                "\" does not exist";
        throw DbError(sqlstate::kUndefinedColumn, msg);
      }
      auto it = std::find(copied.begin(), copied.end(), name);
      if (it == copied.end()) {
        throw DbError(sqlstate::kInvalidColumnReference,
                      std::string(option) + " column \"" + name + "\" not referenced by COPY");
      }
      flags[static_cast<size_t>(it - copied.begin())] = true;
    }
  };
  resolve(opts.force_quote, "FORCE_QUOTE", out.force_quote);
  resolve(opts.force_not_null, "FORCE_NOT_NULL", out.force_not_null);
  resolve(opts.force_null, "FORCE_NULL", out.force_null);
  return out;
}

}  // namespace hearth::commands
