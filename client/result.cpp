// client/result.cpp
//
// Principal entry points: Result::AffectedRows, IsNumericTypeOid.
#include "client/result.h"

namespace hearth::client {

uint64_t Result::AffectedRows() const {
  size_t end = command_tag.size();
  size_t begin = end;
  while (begin > 0 && command_tag[begin - 1] >= '0' && command_tag[begin - 1] <= '9') --begin;
  if (begin == end || (begin > 0 && command_tag[begin - 1] != ' ')) return 0;
  uint64_t n = 0;
  for (size_t i = begin; i < end; ++i) n = n * 10 + static_cast<uint64_t>(command_tag[i] - '0');
  return n;
}

bool IsNumericTypeOid(uint32_t type_oid) {
  switch (type_oid) {
    case 20:    // int8
    case 21:    // int2
    case 23:    // int4
    case 26:    // oid
    case 28:    // xid
    case 29:    // cid
    case 700:   // float4
    case 701:   // float8
    case 790:   // money
    case 1700:  // numeric
    case 5069:  // xid8
      return true;
    default:
      return false;
  }
}

}  // namespace hearth::client
