// tcop/dest.h
//
// Encoders for the backend's outgoing protocol messages: row descriptions,
// data rows, command completion, errors and notices, parameter status.
// They append to the socket's output buffer; nothing here blocks.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/error/db_error.h"
#include "utils/adt/value.h"

namespace hearth::tcop {

// One output column as RowDescription describes it.
struct ColumnDesc {
  std::string name;
  uint32_t table_oid = 0;
  int16_t attnum = 0;
  types::Oid type_oid = types::kTextOid;
  int16_t typlen = -1;
  int32_t typmod = -1;
};

// Result format codes as Bind gives them: empty = all text, one = applies to
// all columns, else one per column. 0 = text, 1 = binary.
int16_t FormatFor(const std::vector<int16_t>& formats, size_t column);

void PutRowDescription(std::string& out, const std::vector<ColumnDesc>& cols, const std::vector<int16_t>& formats);
// Encodes one DataRow. `scratch` is reused between rows to avoid allocation.
void PutDataRow(std::string& out, const std::vector<types::Value>& row, const std::vector<int16_t>& formats,
                std::string& scratch);
void PutCommandComplete(std::string& out, const std::string& tag);
void PutReadyForQuery(std::string& out, char status);
void PutParameterStatus(std::string& out, const std::string& name, const std::string& value);
void PutError(std::string& out, const DbError& e);
void PutNotice(std::string& out, Severity severity, const std::string& sqlstate, const std::string& message,
               const std::string& detail = {});
void PutSimple(std::string& out, char type);  // a body-less message ('1', '2', '3', 'n', 'I', 's', 'c')

}  // namespace hearth::tcop
