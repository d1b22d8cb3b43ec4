// catalog/constraint_catalog.h
//
// hearth_constraint (oid 2606, PostgreSQL's pg_constraint for the kinds not
// kept as indexes): one row per CHECK ('c') or FOREIGN KEY ('f')
// constraint. PRIMARY KEY and UNIQUE constraints stay hearth_index rows.
// A CHECK row keeps its condition as SQL text (`conbin`, the planner's
// deparsed form, e.g. "(a > 0)"), bound by the planner once per statement.
// A FOREIGN KEY row names both tables, both column lists (1-based attnums)
// and the referenced table's unique index it is checked through.
//
// The relcache loads every row naming a table (as conrelid or confrelid)
// into its TableInfo (checks, foreign_keys, referenced_by). No catalog
// index yet: the lookups scan the catalog (one scan per relcache load).
//
// Process safety: per-backend; REQUIRES a transaction in progress.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog_defs.h"
#include "catalog/catalog_rows.h"

namespace hearth::catalog {

inline constexpr Oid kHearthConstraintOid = 2606;  // pg_constraint's oid
inline constexpr char kHearthConstraintName[] = "hearth_constraint";
inline storage::RelFileLocator ConstraintCatalogRel() { return CatalogRel(kHearthConstraintOid); }

// Column numbers (0-based positions) of hearth_constraint.
enum ConstraintCol : int {
  kConOid = 0,       // oid
  kConName,          // name (unique per table)
  kConNamespace,     // oid
  kConType,          // text: "c" check, "f" foreign key
  kConRelid,         // oid: the constrained table
  kConFrelid,        // oid: the referenced table (0 for CHECK)
  kConIndid,         // oid: the referenced unique index (0 for CHECK)
  kConKey,           // text: 1-based attnums of conrelid ("1 2"; "" for CHECK)
  kConFkey,          // text: 1-based attnums of confrelid
  kConUpdType,       // text: ON UPDATE action a/r/c/n/d ("" for CHECK)
  kConDelType,       // text: ON DELETE action
  kConValidated,     // bool: false after ADD ... NOT VALID
  kConBin,           // text: CHECK condition as SQL text ("" for FOREIGN KEY)
  kConNatts
};

const heap::TupleDesc& ConstraintCatalogTupleDesc();

struct ConstraintFields {
  Oid oid = 0;
  std::string name;
  Oid ns = kPublicNamespace;
  char type = 'c';
  Oid relid = 0;
  Oid frelid = 0;
  Oid indid = 0;
  std::vector<int> key;   // 1-based
  std::vector<int> fkey;  // 1-based
  char upd_type = 'a';
  char del_type = 'a';
  bool validated = true;
  std::string bin;
};

heap::Row MakeConstraintRow(const ConstraintFields& f);
ConstraintFields ParseConstraintRow(const heap::Row& r);

// True when this data directory has hearth_constraint (made by `hearthd
// init` since constraints exist).
bool ConstraintCatalogExists();
// Rows naming `relid` as conrelid or (with `referencing`) confrelid.
std::vector<internal::CatalogTuple> FindConstraintsOf(Oid relid, bool referencing);
// The row of `relid`'s constraint `name`.
std::optional<internal::CatalogTuple> FindConstraintByName(Oid relid, const std::string& name);
// The row with oid `oid`.
std::optional<internal::CatalogTuple> FindConstraintByOid(Oid oid);

// pg_get_constraintdef's text: `CHECK ((a > 0))` (pretty: `CHECK (a > 0)`),
// `FOREIGN KEY (a) REFERENCES p(id) ON DELETE CASCADE`, `... NOT VALID`.
std::string FormatConstraintDefinition(const ConstraintFields& f, bool pretty);

}  // namespace hearth::catalog
