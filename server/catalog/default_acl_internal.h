// catalog/default_acl_internal.h
//
// INTERNAL to catalog/default_acl_*.cpp: the row writes of
// hearth_default_acl (each followed by a CommandCounterIncrement and a
// cache invalidation) and the 2BP01 wording of an entry.
#pragma once

#include <string>

#include "catalog/default_acl.h"

namespace hearth::catalog {

// "default privileges on new relations belonging to role r [in schema s]".
std::string DefaultAclDescription(const DefaultAclEntry& e);

namespace internal {

// Replaces the entry with e.oid (or inserts a new one when e.oid is 0).
void WriteDefaultAcl(const DefaultAclEntry& e);
void DeleteDefaultAcl(Oid oid);

}  // namespace internal

}  // namespace hearth::catalog
