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
#include <vector>

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
  // Namespace oid of `name`, and the name of namespace `oid` (regnamespace).
  std::optional<Oid> (*namespace_oid)(const std::string& name) = nullptr;
  std::optional<std::string> (*namespace_name)(Oid oid) = nullptr;
  // regproc: oids of the user functions named `name` (any signature), and
  // the name of function `oid` (nullopt: none). Must not throw outside a
  // transaction (return nothing).
  std::vector<Oid> (*function_oids)(const std::string& name) = nullptr;
  std::optional<std::string> (*function_name)(Oid oid) = nullptr;
};

// The hooks installed for this process (all null before backend start).
const RelationNameHooks& CurrentRelationNameHooks();

// Installs the hooks for this process (backend start). Not thread-safe.
void SetRelationNameHooks(const RelationNameHooks& hooks);

Oid RegclassIn(std::string_view text);
void AppendRegclass(Oid oid, std::string* out);

// regtype: a type name as SQL spells it ("integer", "pg_catalog.int4",
// "character varying") ↔ oid; output is format_type's spelling. 42704 for
// an unknown name. regproc: Hearth's built-ins have no oids, so only "-"
// (0) and numeric oids are accepted (42883 for a name). regnamespace: a
// schema name ↔ oid through the hooks (3F000 for an unknown one). Each
// prints an oid it cannot name as the number, "-" for 0 (regtype/regproc).
Oid RegtypeIn(std::string_view text);
void AppendRegtype(Oid oid, std::string* out);
Oid RegprocIn(std::string_view text);
void AppendRegproc(Oid oid, std::string* out);
Oid RegnamespaceIn(std::string_view text);
void AppendRegnamespace(Oid oid, std::string* out);

// PostgreSQL's SplitIdentifierString on '.' (quoted parts keep their case,
// unquoted ones are lower-cased); 42602 on bad syntax.
std::vector<std::string> SplitQualifiedName(std::string_view s);
bool AllDigits(std::string_view s);

// PostgreSQL's quote_identifier without the keyword check: double-quotes a
// name unless it is a plain lower-case identifier.
std::string QuoteIdentifier(std::string_view name);

}  // namespace hearth::types
