// catalog/catalog_rows.h
//
// INTERNAL to server/catalog: reading and writing rows of hearth_class and
// hearth_attribute. Reads use a "catalog snapshot" — a fresh MVCC snapshot
// with the current command id, so a transaction sees its own DDL (after the
// CommandCounterIncrement every DDL function does) and everything committed
// so far, whatever its isolation level (as PostgreSQL's catalog snapshots).
// Lookups by key probe the catalog indexes (catalog_indexes.h); listing a
// namespace is a sequential scan.
//
// Process safety: per-backend; REQUIRES a transaction in progress.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "access/heap/heap_tuple.h"
#include "catalog/catalog_defs.h"

namespace hearth::catalog::internal {

// One catalog row and where it is.
struct CatalogTuple {
  heap::ItemPointer tid;
  heap::Row row;
};

// The class row of the relation named `name` in namespace `ns` / with `oid`.
std::optional<CatalogTuple> FindClassByName(Oid ns, const std::string& name);
std::optional<CatalogTuple> FindClassByOid(Oid oid);
// Every class row in namespace `ns` (0: all), in physical order.
std::vector<CatalogTuple> FindClassesInNamespace(Oid ns);
// Every attribute row of relation `relid`, sorted by attnum.
std::vector<CatalogTuple> FindAttributes(Oid relid);

// Every hearth_index row of table `relid` (0: all), in physical order.
std::vector<CatalogTuple> FindIndexes(Oid relid);
// The hearth_index row of index `oid` (a scan: no catalog index has it).
std::optional<CatalogTuple> FindIndexByOid(Oid oid);
// The hearth_index row of the index named `name` in namespace `ns`.
std::optional<CatalogTuple> FindIndexByName(Oid ns, const std::string& name);

// Row builders (values typed as the catalog columns).
struct ClassFields {
  Oid oid = 0;
  std::string relname;
  Oid relnamespace = kPublicNamespace;
  Oid relfilenode = 0;
  int relnatts = 0;
  int fillfactor = 100;
  char relkind = 'r';  // 'S' for sequences, 'v' for views
  std::string reloptions;  // empty: NULL
  Oid owner = kBootstrapSuperuserOid;
  std::string viewdef;   // views: the query text (else NULL)
  std::string viewdeps;  // views: space-separated oids of the relations the query names (else NULL)
  std::string inherits;  // INHERITS: space-separated parent oids (else NULL)
  std::string partkey;    // PARTITION BY: "<r|l|h> attnum ..." (else NULL)
  std::string partbound;  // PARTITION OF: "FOR VALUES ..." / "DEFAULT" (else NULL)
  std::optional<std::string> acl;  // relacl (nullopt: NULL, the owner's default)
};
heap::Row MakeClassRow(const ClassFields& f);

// A boolean reloption value as PostgreSQL's parse_bool reads it (true,
// false, on, off, yes, no, 1, 0 and unique prefixes, any case); nullopt
// when it is none of them.
std::optional<bool> ParseBoolOption(std::string_view text);

struct AttributeFields {
  Oid attrelid = 0;
  std::string attname;
  Oid atttypid = 0;
  int32_t atttypmod = -1;
  int attnum = 0;
  bool attnotnull = false;
  std::string attdefault;  // empty: no default
};
heap::Row MakeAttributeRow(const AttributeFields& f);

struct IndexFields {
  Oid indexrelid = 0;
  Oid indrelid = 0;
  std::string name;
  Oid ns = kPublicNamespace;
  Oid relfilenode = 0;
  bool unique = false;
  bool primary = false;
  bool constraint = false;   // a UNIQUE constraint's index (not a primary key's)
  std::vector<int> attnums;  // 1-based
  std::vector<int> options;  // per column: 1 = DESC, 2 = NULLS FIRST
};
heap::Row MakeIndexRow(const IndexFields& f);
// kIndIsconstraint (false in rows written before the column existed).
inline bool IndexIsConstraint(const heap::Row& r) {
  return r.size() > kIndIsconstraint && !r[kIndIsconstraint].is_null && r[kIndIsconstraint].b;
}
// Parses kIndKey / kIndOption back.
IndexFields ParseIndexRow(const heap::Row& r);

// Accessors for deformed rows.
inline Oid RowOid(const heap::Row& r, int col) { return static_cast<Oid>(r[static_cast<size_t>(col)].i); }

}  // namespace hearth::catalog::internal

namespace hearth::catalog::internal {

// Every row of catalog `rel` matching `match` (catalog snapshot), in
// physical order; at most one when `first_only`. For catalogs defined
// outside this file (hearth_sequence).
std::vector<CatalogTuple> ScanCatalogWhere(storage::RelFileLocator rel, const heap::TupleDesc& desc,
                                           const std::function<bool(const heap::Row&)>& match, bool first_only);

}  // namespace hearth::catalog::internal
