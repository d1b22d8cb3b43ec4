// catalog/catalog_rows.h
//
// INTERNAL to server/catalog: reading and writing rows of hearth_class and
// hearth_attribute. Reads use a "catalog snapshot" — a fresh MVCC snapshot
// with the current command id, so a transaction sees its own DDL (after the
// CommandCounterIncrement every DDL function does) and everything committed
// so far, whatever its isolation level (as PostgreSQL's catalog snapshots).
// Sequential scans: there are no catalog indexes yet.
//
// Process safety: per-backend; REQUIRES a transaction in progress.
#pragma once

#include <optional>
#include <string>
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

// Row builders (values typed as the catalog columns).
struct ClassFields {
  Oid oid = 0;
  std::string relname;
  Oid relnamespace = kPublicNamespace;
  Oid relfilenode = 0;
  int relnatts = 0;
  int fillfactor = 100;
};
heap::Row MakeClassRow(const ClassFields& f);

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

// Accessors for deformed rows.
inline Oid RowOid(const heap::Row& r, int col) { return static_cast<Oid>(r[static_cast<size_t>(col)].i); }

}  // namespace hearth::catalog::internal
