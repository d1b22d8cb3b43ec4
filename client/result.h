// client/result.h
//
// Result: what one SQL statement produced, as the client library hands it
// back: column descriptions, rows of text values (NULL = nullopt), the
// command tag, or the server's error. Plain value type; not thread-safe per
// object, safe to move between threads.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/protocol/wire.h"

namespace hearth::client {

using ErrorFields = protocol::ErrorFields;

// One RowDescription field.
struct Column {
  std::string name;
  uint32_t table_oid = 0;  // 0 for expressions
  int16_t attnum = 0;      // 0 for expressions
  uint32_t type_oid = 0;
  int16_t typlen = 0;
  int32_t typmod = -1;
  int16_t format = 0;  // 0 text, 1 binary (we always ask for text)
};

using Row = std::vector<std::optional<std::string>>;

struct Result {
  // True when a RowDescription arrived: the statement returns rows (possibly 0).
  bool has_columns = false;
  std::vector<Column> columns;
  std::vector<Row> rows;
  // CommandComplete tag, e.g. "SELECT 3", "INSERT 0 1", "CREATE TABLE".
  std::string command_tag;
  // EmptyQueryResponse: the statement was blank. command_tag stays empty.
  bool empty_query = false;
  // Execute stopped at max_rows (PortalSuspended); more rows can be fetched.
  bool suspended = false;
  // Set when the server answered with ErrorResponse; other fields then hold
  // whatever arrived before the error (e.g. RowDescription before a cancel).
  std::optional<ErrorFields> error;
  // NoticeResponses received while this result was being produced.
  std::vector<ErrorFields> notices;
  // Prepare(): parameter type OIDs from ParameterDescription.
  std::vector<uint32_t> param_type_oids;
  // CopyOut() without a consumer collects the data here.
  std::string copy_data;
  // The statement was a COPY FROM STDIN / TO STDOUT (data went through the
  // producer/consumer).
  bool copy_in = false;
  bool copy_out = false;

  bool ok() const { return !error.has_value(); }
  // The trailing number of the command tag ("INSERT 0 5" → 5), 0 if none.
  uint64_t AffectedRows() const;
};

// Type OIDs psql right-aligns: int2, int4, int8, float4, float8, numeric, oid
// (and the other numeric-looking ones psql lists: money, xid, cid, xid8).
bool IsNumericTypeOid(uint32_t type_oid);

}  // namespace hearth::client
