// server/catalog/temp_namespace.h
//
// Temporary relations (CREATE TEMP TABLE / SEQUENCE): each backend owns the
// namespace pg_temp_N, N its proc slot number, whose oid is
// kTempNamespaceBase + N. Unqualified names look there first (before
// pg_catalog and public, as PostgreSQL's implicit search path); other
// sessions reach another backend's temporary relations only by their
// qualified name. The namespace is claimed by the first temporary relation a
// backend creates; claiming drops whatever a previous owner of the slot left
// behind (a backend that crashed), and a backend drops its temporary
// relations when it exits. Their data is WAL-logged like any table's.
#pragma once

#include <optional>
#include <string>

#include "utils/adt/type_oid.h"

namespace hearth::catalog {

using types::Oid;

inline constexpr Oid kTempNamespaceBase = 0xF0000000u;

bool IsTempNamespace(Oid ns);
// "pg_temp_N" for a temporary namespace oid.
std::string TempNamespaceName(Oid ns);
// pg_temp_N's oid for a "pg_temp_N" name; nullopt for other names.
std::optional<Oid> TempNamespaceByName(const std::string& name);
// This backend's temporary namespace (its oid even before it is claimed).
Oid MyTempNamespaceOid();
// This backend's temporary namespace if it has created a temporary
// relation (so lookups should search it); 0 otherwise.
Oid ActiveTempNamespace();
// Claims this backend's namespace for a new temporary relation (first
// time: drops leftovers of a previous owner, in the current transaction).
Oid ClaimTempNamespace();
// DISCARD TEMP / ALL: drops this backend's temporary relations in the
// current transaction.
void DropTempRelations();
// At backend exit, in a transaction of its own: drops this backend's
// temporary relations. Never throws (logs what failed).
void DropTempRelationsAtExit();

}  // namespace hearth::catalog
