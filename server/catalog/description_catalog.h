// catalog/description_catalog.h
//
// Comments (COMMENT ON ... IS '...'): hearth_description (2609, PostgreSQL's
// pg_description: objects of this database) and hearth_shdescription (2396,
// PostgreSQL's pg_shdescription: roles and databases). Both have the
// columns `objoid oid, classoid oid, objsubid int4, description text`
// (objsubid is a column's attnum for a column comment, else 0; always 0 in
// hearth_shdescription). pg_description / pg_shdescription are views over
// them with PostgreSQL's names and oids. Transactional like every catalog
// row; an object's comments are deleted by the DDL that drops it.
//
// Reads go through a per-backend cache of every row (rebuilt when the
// catalog version moves or this backend's transaction changed a comment),
// so obj_description per row of a psql listing costs no I/O.
//
// Process safety: per-backend; REQUIRES a transaction in progress.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog_defs.h"

namespace hearth::catalog {

inline constexpr Oid kHearthDescriptionOid = 2609;
inline constexpr char kHearthDescriptionName[] = "hearth_description";
inline constexpr Oid kHearthShdescriptionOid = 2396;
inline constexpr char kHearthShdescriptionName[] = "hearth_shdescription";

// classoid values: the PostgreSQL catalog an object belongs to.
inline constexpr Oid kPgClassClassOid = 1259;       // tables, indexes, sequences, views (and columns)
inline constexpr Oid kPgProcClassOid = 1255;        // functions, procedures
inline constexpr Oid kPgNamespaceClassOid = 2615;   // schemas
inline constexpr Oid kPgConstraintClassOid = 2606;  // constraints
inline constexpr Oid kPgAuthidClassOid = 1260;      // roles (shared)
inline constexpr Oid kPgDatabaseClassOid = 1262;    // databases (shared)

// initdb's comment on schema public (written by the bootstrap).
inline constexpr char kPublicSchemaComment[] = "standard public schema";

enum DescriptionCol : int { kDescObjoid = 0, kDescClassoid, kDescObjsubid, kDescDescription, kDescNatts };

const heap::TupleDesc& DescriptionTupleDesc();

// Roles and databases are described in the shared catalog.
inline bool IsSharedClass(Oid classoid) { return classoid == kPgAuthidClassOid || classoid == kPgDatabaseClassOid; }

// False for a data directory made before comments existed (COMMENT ON is
// then 0A000 and every description is NULL).
bool DescriptionCatalogsExist();

// COMMENT ON: replaces the object's comment; nullopt or "" removes it.
void SetDescription(Oid objoid, Oid classoid, int objsubid, const std::optional<std::string>& text);

// The object's comment, or nullopt (per-backend cache).
std::optional<std::string> FindDescription(Oid objoid, Oid classoid, int objsubid);
// obj_description(oid) without a catalog: the first comment on objoid with objsubid 0.
std::optional<std::string> FindDescriptionAnyClass(Oid objoid);

// DROP: removes every comment of the object (all objsubids when objsubid < 0).
void DeleteDescriptions(Oid objoid, Oid classoid, int objsubid = -1);
// DROP INDEX: the index's comment and, for a primary key or unique
// constraint (whose oid is the index's), the constraint's.
inline void DeleteIndexDescriptions(Oid index) {
  DeleteDescriptions(index, kPgClassClassOid);
  DeleteDescriptions(index, kPgConstraintClassOid);
}
// A table rewrite renumbered its columns: new_pos[attnum - 1] is old
// column attnum's new position (0-based; -1 = dropped, its comment goes).
void RemapColumnDescriptions(Oid relid, const std::vector<int>& new_pos);

}  // namespace hearth::catalog
