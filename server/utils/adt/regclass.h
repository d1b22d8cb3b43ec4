// server/utils/adt/regclass.h
//
// The regclass type's text input and output. A regclass Value holds a
// relation OID in `i`; its text form is the relation's name, so reading and
// printing it needs the catalog, which this library cannot see. The backend
// installs RelationNameHooks once at start (process-global: type I/O has no
// per-call context). Without hooks (tools, unit tests) input accepts only
// numeric OIDs and output prints the number.
//
// Input ('t'::regclass, PostgreSQL's regclassin): "-" = 0; all digits = that
// OID unchecked; otherwise a possibly qualified, possibly quoted name
// (unquoted parts are lower-cased), resolved through the hook; a missing
// relation is 42P01 `relation "x" does not exist`.
// Output (regclassout): 0 = "-"; a known OID = its name, quoted when needed
// and qualified when its schema is not on the search path; an unknown OID =
// the number.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "utils/adt/type_oid.h"

namespace hearth::types {

struct RelationNameHooks {
  // OID of the relation `name` in `schema` (empty: the search path), or
  // nullopt. May throw DbError (e.g. 25P01 when no catalog can be read now).
  std::optional<Oid> (*lookup)(const std::string& schema, const std::string& name) = nullptr;
  // Schema and name of relation `oid`, or nullopt. Must not throw.
  struct Name {
    std::string schema;
    std::string name;
    bool on_search_path = true;
  };
  std::optional<Name> (*name_of)(Oid oid) = nullptr;
};

// Installs the hooks for this process (backend start). Not thread-safe.
void SetRelationNameHooks(const RelationNameHooks& hooks);

Oid RegclassIn(std::string_view text);
void AppendRegclass(Oid oid, std::string* out);

// PostgreSQL's quote_identifier without the keyword check: double-quotes a
// name unless it is a plain lower-case identifier.
std::string QuoteIdentifier(std::string_view name);

}  // namespace hearth::types
