// catalog/catalog_defs.h
//
// The fixed shape of Hearth's system catalogs: their OIDs (= relfilenodes,
// PostgreSQL's numbers), column layouts and tuple descriptors, the namespace
// OIDs and the first OID handed to user objects. Constants and pure
// functions only; safe anywhere.
#pragma once

#include <cstdint>
#include <string>

#include "access/heap/heap_tuple.h"
#include "storage/smgr/relfile.h"
#include "utils/adt/type_oid.h"

namespace hearth::catalog {

using types::Oid;

// System catalogs: oid == relfilenode, fixed forever.
inline constexpr Oid kHearthClassOid = 1259;      // pg_class analogue
inline constexpr Oid kHearthAttributeOid = 1249;  // pg_attribute analogue
inline constexpr char kHearthClassName[] = "hearth_class";
inline constexpr char kHearthAttributeName[] = "hearth_attribute";
inline constexpr Oid kHearthIndexOid = 2610;      // pg_index analogue
inline constexpr char kHearthIndexName[] = "hearth_index";

// B-tree indexes on the system catalogs (oid == relfilenode, fixed; each
// described by a hearth_index row, see catalog_indexes.h).
inline constexpr Oid kClassOidIndexOid = 2662;          // hearth_class (oid)
inline constexpr Oid kClassNameNspIndexOid = 2663;      // hearth_class (relname, relnamespace)
inline constexpr Oid kAttributeRelidAttnumIndexOid = 2659;  // hearth_attribute (attrelid, attnum)
inline constexpr Oid kIndexIndrelidIndexOid = 2678;     // hearth_index (indrelid)
inline constexpr Oid kIndexNameNspIndexOid = 2679;      // hearth_index (indname, indnamespace)

// The role `hearthd init` creates (PostgreSQL's BOOTSTRAP_SUPERUSERID); owns
// the system catalogs.
inline constexpr Oid kBootstrapSuperuserOid = 10;

// Namespaces (no namespace catalog yet: these two are built in).
inline constexpr Oid kPgCatalogNamespace = 11;  // system catalogs live here
inline constexpr Oid kPublicNamespace = 2200;   // every user table today

// ---- databases (pg_database 1262; database_catalog.h) ----
// PostgreSQL's fixed oids of the databases `hearthd init` makes: template1
// (1), template0 (4) and the default database (5, the name given to init).
inline constexpr Oid kTemplate1DatabaseOid = 1;
inline constexpr Oid kTemplate0DatabaseOid = 4;
inline constexpr Oid kDefaultDatabaseOid = storage::kDefaultDatabaseId;

// The database this process works in: set once at connection start (before
// any catalog of the database is read), by bootstrap, and by an autovacuum
// worker per database; 0 in processes bound to none (the relations they touch
// are shared ones). Every relation lock and every locator of a non-shared
// relation carries it.
extern Oid g_my_database_oid;
inline Oid MyDatabaseId() { return g_my_database_oid; }
void SetMyDatabaseId(Oid db);
// The shared catalogs (one copy in the cluster, under global/): pg_authid,
// pg_auth_members, pg_database.
inline constexpr bool IsSharedRelation(Oid oid) { return oid == 1260 || oid == 1261 || oid == 1262; }
// Storage of relfilenode `relfilenode` of this database.
inline storage::RelFileLocator DatabaseRel(Oid relfilenode) { return {MyDatabaseId(), relfilenode}; }
// Storage of a catalog (fixed oid = relfilenode): shared ones under global/.
inline storage::RelFileLocator CatalogRel(Oid catalog) {
  return {IsSharedRelation(catalog) ? 0 : MyDatabaseId(), catalog};
}

// OIDs below this are reserved for built-in objects; user objects (and every
// relfilenode made after bootstrap) are numbered from here on.
inline constexpr Oid kFirstNormalObjectId = 16384;
// The pg_class oid of a table's toast relation (and of its index, + 1 in
// the low bits' sense below). Toast relations have no hearth_class row: the
// pg_class view shows one per table with TOAST, in namespace pg_toast.
inline constexpr Oid kToastOidBit = 0x80000000u;
inline constexpr Oid ToastRelationOid(Oid table) { return table | kToastOidBit; }
inline constexpr Oid ToastIndexOid(Oid table) { return table | 0xC0000000u; }
inline constexpr Oid kPgToastNamespace = 99;

// Column numbers (0-based positions) of hearth_class.
enum ClassCol : int {
  kClassOid = 0,
  kClassRelname,       // name
  kClassRelnamespace,  // oid
  kClassRelfilenode,   // oid
  kClassRelkind,       // text, "r" for tables
  kClassRelnatts,      // int2
  kClassRelpages,      // int4
  kClassReltuples,     // float4 (-1: never analyzed)
  kClassRelhasindex,   // bool
  kClassRelfillfactor, // int4, 10..100 (WITH (fillfactor=N))
  kClassReloptions,    // text, NULL or "autovacuum_enabled=<bool>" (WITH (...) options kept)
  kClassRelowner,      // oid: the owning role (pg_authid)
  kClassRelacl,        // text: aclitem[] as PostgreSQL prints it; NULL = the owner's default
  kClassRelviewdef,    // text: a view's query (relkind 'v'); NULL for other relations
  kClassRelviewdeps,   // text: a view's direct dependencies, space-separated relation oids; NULL otherwise
  kClassRelinherits,   // text: the parents (INHERITS), space-separated oids in inhseqno order; NULL for none
  kClassRelhassubclass,  // bool: some table inherits (or inherited) from it; NULL = false
  kClassRelpartkey,    // text: PARTITION BY key, "<r|l|h> attnum ..." (1-based); NULL for others
  kClassRelpartbound,  // text: a partition's bound as pg_get_expr shows it ("FOR VALUES ..."); NULL for others
  kClassNatts
};

// Column numbers (0-based positions) of hearth_attribute.
enum AttrCol : int {
  kAttAttrelid = 0,  // oid
  kAttAttname,       // name
  kAttAtttypid,      // oid
  kAttAtttypmod,     // int4
  kAttAttnum,        // int2, 1-based
  kAttAttnotnull,    // bool
  kAttAtthasdef,     // bool
  kAttAttdefault,    // text: DEFAULT expression as SQL text ("" without one)
  kAttAttacl,        // text: column privileges, aclitem[] as PostgreSQL prints it; NULL = none
  kAttNatts
};

// Column numbers (0-based positions) of hearth_index. Indexes are not in
// hearth_class: this row is the whole description of one B-tree index.
enum IndexCol : int {
  kIndIndexrelid = 0,  // oid: the index's own oid
  kIndIndrelid,        // oid: the table it indexes
  kIndName,            // name (unique among tables and indexes of a namespace)
  kIndNamespace,       // oid
  kIndRelfilenode,     // oid: the index file
  kIndIsunique,        // bool
  kIndIsprimary,       // bool
  kIndKey,             // text: space-separated 1-based attnums ("1 3")
  kIndOption,          // text: space-separated per-column flags (1 = DESC, 2 = NULLS FIRST)
  kIndIsconstraint,    // bool: made by a UNIQUE constraint (pg_constraint shows it as contype 'u')
  kIndNatts
};

// Tuple descriptors of the catalogs (built once, immutable).
const heap::TupleDesc& ClassTupleDesc();
const heap::TupleDesc& AttributeTupleDesc();
const heap::TupleDesc& IndexTupleDesc();

inline storage::RelFileLocator ClassRel() { return CatalogRel(kHearthClassOid); }
inline storage::RelFileLocator AttributeRel() { return CatalogRel(kHearthAttributeOid); }
inline storage::RelFileLocator IndexRel() { return CatalogRel(kHearthIndexOid); }

// "public" → 2200, "pg_catalog" → 11, "" (search path) → 2200,
// "pg_temp" / "pg_temp_N" → a temporary namespace (temp_namespace.h); else 0.
Oid NamespaceOid(const std::string& schema);
// 2200 → "public", 11 → "pg_catalog"; else "".
std::string NamespaceName(Oid ns);

}  // namespace hearth::catalog
