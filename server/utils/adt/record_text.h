// server/utils/adt/record_text.h
//
// Anonymous records (ROW(1, 'a'), json_each's rows in a select list) as
// their record_out text, the form a kRecordOid Value holds. Stateless.
#pragma once

#include "utils/adt/value.h"

namespace hearth::types {

// "(f1,f2,...)": NULL fields empty; a field that is empty or has a quote,
// backslash, parenthesis, comma or white space is quoted with quotes and
// backslashes doubled.
Value RecordValue(const Value* fields, int nfields);

}  // namespace hearth::types
