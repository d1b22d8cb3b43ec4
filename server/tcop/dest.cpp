// tcop/dest.cpp
//
// Principal entry points: PutRowDescription, PutDataRow, PutError.
#include "tcop/dest.h"

#include "common/protocol/wire.h"
#include "utils/adt/binary_io.h"
#include "utils/adt/text_io.h"

namespace hearth::tcop {

using protocol::BeginMessage;
using protocol::EndMessage;
using protocol::PutInt16;
using protocol::PutInt32;

int16_t FormatFor(const std::vector<int16_t>& formats, size_t column) {
  if (formats.empty()) return 0;
  if (formats.size() == 1) return formats[0];
  return column < formats.size() ? formats[column] : 0;
}

void PutRowDescription(std::string& out, const std::vector<ColumnDesc>& cols, const std::vector<int16_t>& formats) {
  size_t at;
  BeginMessage(out, protocol::be::kRowDescription, &at);
  PutInt16(out, static_cast<int16_t>(cols.size()));
  for (size_t i = 0; i < cols.size(); i++) {
    const ColumnDesc& c = cols[i];
    out.append(c.name);
    out.push_back('\0');
    PutInt32(out, static_cast<int32_t>(c.table_oid));
    PutInt16(out, c.attnum);
    PutInt32(out, static_cast<int32_t>(c.type_oid));
    PutInt16(out, c.typlen);
    PutInt32(out, c.typmod);
    PutInt16(out, FormatFor(formats, i));
  }
  EndMessage(out, at);
}

void PutDataRow(std::string& out, const std::vector<types::Value>& row, const std::vector<int16_t>& formats,
                std::string& scratch) {
  size_t at;
  BeginMessage(out, protocol::be::kDataRow, &at);
  PutInt16(out, static_cast<int16_t>(row.size()));
  for (size_t i = 0; i < row.size(); i++) {
    const types::Value& v = row[i];
    if (v.is_null) {
      PutInt32(out, -1);
      continue;
    }
    scratch.clear();
    if (FormatFor(formats, i) == 1) {
      types::AppendBinary(v, &scratch);
    } else {
      types::AppendOutput(v, &scratch);
    }
    PutInt32(out, static_cast<int32_t>(scratch.size()));
    out.append(scratch);
  }
  EndMessage(out, at);
}

void PutCommandComplete(std::string& out, const std::string& tag) {
  size_t at;
  BeginMessage(out, protocol::be::kCommandComplete, &at);
  out.append(tag);
  out.push_back('\0');
  EndMessage(out, at);
}

void PutReadyForQuery(std::string& out, char status) {
  size_t at;
  BeginMessage(out, protocol::be::kReadyForQuery, &at);
  out.push_back(status);
  EndMessage(out, at);
}

void PutParameterStatus(std::string& out, const std::string& name, const std::string& value) {
  size_t at;
  BeginMessage(out, protocol::be::kParameterStatus, &at);
  out.append(name);
  out.push_back('\0');
  out.append(value);
  out.push_back('\0');
  EndMessage(out, at);
}

void PutError(std::string& out, const DbError& e) {
  protocol::ErrorFields f;
  f.severity = SeverityName(e.severity());
  f.sqlstate = e.sqlstate();
  f.message = e.message();
  f.detail = e.detail();
  f.hint = e.hint();
  f.where = e.context();
  f.schema = e.schema_name();
  f.table = e.table_name();
  f.column = e.column_name();
  f.constraint = e.constraint_name();
  if (e.position() > 0) f.position = std::to_string(e.position());
  bool notice = e.severity() < Severity::kError;
  out.append(protocol::EncodeErrorFields(notice ? protocol::be::kNoticeResponse : protocol::be::kErrorResponse, f));
}

void PutNotice(std::string& out, Severity severity, const std::string& sqlstate, const std::string& message,
               const std::string& detail) {
  protocol::ErrorFields f;
  f.severity = SeverityName(severity);
  f.sqlstate = sqlstate;
  f.message = message;
  f.detail = detail;
  out.append(protocol::EncodeErrorFields(protocol::be::kNoticeResponse, f));
}

void PutSimple(std::string& out, char type) {
  size_t at;
  BeginMessage(out, type, &at);
  EndMessage(out, at);
}

}  // namespace hearth::tcop
