// server/utils/adt/record_text.cpp
//
// Principal entry point: RecordValue (PostgreSQL's record_out).
#include "utils/adt/record_text.h"

#include <cctype>
#include <string>

#include "utils/adt/text_io.h"

namespace hearth::types {

Value RecordValue(const Value* fields, int nfields) {
  std::string out = "(";
  std::string field;
  for (int i = 0; i < nfields; ++i) {
    if (i > 0) out.push_back(',');
    if (fields[i].is_null) continue;
    field.clear();
    AppendOutput(fields[i], &field);
    bool quote = field.empty();
    for (char c : field) {
      quote = quote || c == '"' || c == '\\' || c == '(' || c == ')' || c == ',' ||
              std::isspace(static_cast<unsigned char>(c));
    }
    if (!quote) {
      out += field;
      continue;
    }
    out.push_back('"');
    for (char c : field) {
      if (c == '"' || c == '\\') out.push_back(c);
      out.push_back(c);
    }
    out.push_back('"');
  }
  out.push_back(')');
  return Value::Bytes(kRecordOid, std::move(out));
}

}  // namespace hearth::types
