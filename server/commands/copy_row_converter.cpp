// commands/copy_row_converter.cpp
//
// Principal entry point: CopyRowConverter::Convert.
#include "commands/copy_row_converter.h"

#include "commands/copy_util.h"
#include "common/error/db_error.h"
#include "utils/adt/binary_io.h"
#include "utils/adt/text_io.h"

namespace hearth::commands {

void CopyRowConverter::Convert(CopyFields fields, const CopyFromParser& where,
                               std::vector<types::Value>* row) const {
  row->resize(columns_.size());
  for (size_t i = 0; i < columns_.size(); i++) {
    const CopyColumn& col = columns_[i];
    const auto& f = fields[i];
    if (!f) {
      (*row)[i] = types::Value::Null(col.type);
      continue;
    }
    try {
      if (where.binary()) {
        (*row)[i] = types::ReceiveBinary(col.type, col.typmod, *f);
      } else {
        types::InputValueInto(col.type, col.typmod, *f, &(*row)[i]);
      }
    } catch (DbError& e) {
      // The field names the column; the parser's context names the line
      // (binary values are not printable: PostgreSQL names only the column).
      std::string ctx = "COPY " + where.relname() + ", line " + std::to_string(where.line_number()) + ", column " +
                        col.name;
      if (!where.binary()) {
        ctx += ": \"";
        ctx += LimitPrintout(*f);
        ctx += '"';
      }
      e.WithContext(e.context().empty() ? ctx : e.context() + "\n" + ctx);
      throw;
    }
  }
}

std::vector<std::string> CopyRowConverter::Names() const {
  std::vector<std::string> out;
  out.reserve(columns_.size());
  for (const CopyColumn& c : columns_) out.push_back(c.name);
  return out;
}

}  // namespace hearth::commands
