// catalog/inherit_catalog.h
//
// Table inheritance in hearth_class: a child lists its parents in
// relinherits (space-separated oids, PostgreSQL's inhseqno order) and a
// parent has relhassubclass set once some table inherits from it (left set
// after the last child goes, as in PostgreSQL; readers find no children
// then). pg_inherits is a view over these columns.
//
// Process safety: per-backend; REQUIRES a transaction (catalog reads).
#pragma once

#include <string>
#include <vector>

#include "access/heap/heap_tuple.h"
#include "catalog/catalog_defs.h"

namespace hearth::catalog {

// The parents a hearth_class row records (empty for none / older rows).
std::vector<Oid> ParentsInClassRow(const heap::Row& cls);
// True when the row's relhassubclass is set.
bool HasSubclassInClassRow(const heap::Row& cls);
// Space-separated oids (relinherits' text).
std::string FormatOidList(const std::vector<Oid>& oids);
std::vector<Oid> ParseOidList(const std::string& text);

// The direct children of `parent` in oid order (one scan of hearth_class;
// the relcache calls it only for rows with relhassubclass).
std::vector<Oid> FindInheritanceChildren(Oid parent);

// Every descendant of `root` (not root itself): breadth-first, each
// level's children in oid order, each table once (PostgreSQL's
// find_all_inheritors order, which Append follows). Through the relcache.
std::vector<Oid> FindAllInheritors(Oid root);

// Sets relhassubclass on each parent and, with `child_row`, replaces the
// child's relinherits by `parents` (empty: NULL); invalidates all of them.
void WriteInheritance(Oid child, const std::vector<Oid>& parents, bool child_row);

}  // namespace hearth::catalog
