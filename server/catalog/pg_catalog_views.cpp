// catalog/pg_catalog_views.cpp
//
// Principal entry point: AddPgCatalogRelationViews — pg_namespace,
// pg_class, pg_attribute, pg_attrdef, pg_index, pg_constraint, pg_sequence
// and pg_depend computed from hearth_class / hearth_attribute /
// hearth_index / hearth_sequence at scan time (PostgreSQL 15's columns).
#include "catalog/pg_catalog_views.h"

#include "catalog/inherit_catalog.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <unordered_map>

#include "access/heap/heap_toast.h"
#include "catalog/catalog_defs.h"
#include "catalog/catalog_rows.h"
#include "catalog/cluster_catalog.h"
#include "catalog/constraint_catalog.h"
#include "catalog/sequence_catalog.h"
#include "catalog/namespace_catalog.h"
#include "catalog/temp_namespace.h"
#include "catalog/trigger_catalog.h"
#include "utils/adt/array.h"
#include "utils/adt/type_catalog.h"

namespace hearth::catalog::internal {

namespace {

using executor::Row;
using types::Value;
using namespace types;

// Which columns of which table an index covers, and whether a relation has
// indexes (hearth_class.relhasindex is not maintained).
struct IndexRows {
  std::vector<Row> rows;
  std::set<Oid> tables_with_indexes;
};

IndexRows LoadIndexes(executor::TableProvider& tables) {
  IndexRows out;
  out.rows = ScanCatalog(tables, kHearthIndexName);
  for (const Row& r : out.rows) out.tables_with_indexes.insert(static_cast<Oid>(r[kIndIndrelid].i));
  return out;
}

// The key columns (1-based attnums) of a hearth_index row.
std::vector<int> KeyAttnums(const Row& index_row) { return ParseIndexRow(index_row).attnums; }

// Identity columns: (table, attnum) → 'a' / 'd', from hearth_sequence.
std::map<std::pair<Oid, int>, char> IdentityColumns(const std::vector<Row>& seqs) {
  std::map<std::pair<Oid, int>, char> out;
  for (const Row& s : seqs) {
    const std::string& ident = s[kSeqIdentity].str;
    if (!s[kSeqIdentity].is_null && !ident.empty()) {
      out[{static_cast<Oid>(s[kSeqOwnerRel].i), static_cast<int>(s[kSeqOwnerCol].i)}] = ident[0];
    }
  }
  return out;
}

// PostgreSQL 15's ACL of schema public (pg_dump compares it with this
// standard value and writes GRANT/REVOKE for any difference).
constexpr const char* kPublicNamespaceAcl = "{pg_database_owner=UC/pg_database_owner,=U/pg_database_owner}";

void AddPgNamespace(SystemViewProvider& p) {
  p.AddView(PgViewInfo(kPgNamespaceOid, "pg_namespace",
                       {{"oid", kOidOid}, {"nspname", kNameOid}, {"nspowner", kOidOid}, {"nspacl", kTextOid}}),
            [] {
              std::vector<Row> rows{
                  {OidValue(kPgCatalogNamespace), NameValue("pg_catalog"), OidValue(kBootstrapSuperuserOid),
                   Value::Null(kTextOid)},
                  {OidValue(kPublicNamespace), NameValue("public"), OidValue(kPgDatabaseOwnerOid),
                   Value::Text(kPublicNamespaceAcl)},
                  {OidValue(kPgToastNamespace), NameValue("pg_toast"), OidValue(kBootstrapSuperuserOid),
                   Value::Null(kTextOid)}};
              if (const Oid temp = ActiveTempNamespace(); temp != 0) {
                rows.push_back({OidValue(temp), NameValue(TempNamespaceName(temp)), OidValue(kBootstrapSuperuserOid),
                                Value::Null(kTextOid)});
              }
              for (const SchemaFields& f : ListUserSchemas()) {
                rows.push_back({OidValue(f.oid), NameValue(f.name), OidValue(f.owner),
                                f.acl ? Value::Text(*f.acl) : Value::Null(kTextOid)});
              }
              return rows;
            });
}

executor::TableInfo PgClassInfo() {
  return PgViewInfo(
      kPgClassOid, "pg_class",
      {{"oid", kOidOid},           {"relname", kNameOid},          {"relnamespace", kOidOid},
       {"reltype", kOidOid},       {"reloftype", kOidOid},         {"relowner", kOidOid},
       {"relam", kOidOid},         {"relfilenode", kOidOid},       {"reltablespace", kOidOid},
       {"relpages", kInt4Oid},     {"reltuples", kFloat4Oid},      {"relallvisible", kInt4Oid},
       {"reltoastrelid", kOidOid}, {"relhasindex", kBoolOid},      {"relisshared", kBoolOid},
       {"relpersistence", kTextOid}, {"relkind", kTextOid},        {"relnatts", kInt2Oid},
       {"relchecks", kInt2Oid},    {"relhasrules", kBoolOid},      {"relhastriggers", kBoolOid},
       {"relhassubclass", kBoolOid}, {"relrowsecurity", kBoolOid}, {"relforcerowsecurity", kBoolOid},
       {"relispopulated", kBoolOid}, {"relreplident", kTextOid},   {"relispartition", kBoolOid},
       {"relrewrite", kOidOid},    {"relfrozenxid", kInt8Oid},     {"relminmxid", kInt8Oid},
       {"relacl", kTextOid},       {"reloptions", kTextArrayOid},  {"relpartbound", kTextOid}});
}

struct ClassRowFields {
  Oid oid;
  std::string name;
  Oid ns;
  Oid am;
  Oid filenode;
  int pages;
  double tuples;
  bool hasindex;
  char kind;
  int natts;
  std::vector<std::string> options;  // name=value items; none → NULL
  Oid owner = kBootstrapSuperuserOid;
  std::string acl;  // "" → NULL (the owner's default)
  int checks = 0;            // CHECK constraints
  bool has_triggers = false;  // PostgreSQL's foreign keys are triggers on both tables
  bool has_subclass = false;  // relhassubclass
  std::string partbound;      // relpartbound ("" → NULL; set: relispartition)
  Oid toast = 0;              // reltoastrelid
};

// pg_class.reloptions: a text[] of name=value items, NULL when none.
Value RelOptions(const std::vector<std::string>& items) {
  if (items.empty()) return Value::Null(kTextArrayOid);
  std::vector<Value> elems;
  for (const std::string& i : items) elems.push_back(Value::Text(i));
  return MakeArray1D(kTextOid, std::move(elems));
}

// The WITH (...) options of a hearth_class row: fillfactor unless 100,
// then what reloptions keeps (autovacuum_enabled=...).
std::vector<std::string> ClassOptions(const Row& c) {
  std::vector<std::string> out;
  const int64_t fill = c[kClassRelfillfactor].is_null ? 100 : c[kClassRelfillfactor].i;
  if (fill != 100) out.push_back("fillfactor=" + std::to_string(fill));
  if (!c[kClassReloptions].is_null && !c[kClassReloptions].str.empty()) out.push_back(c[kClassReloptions].str);
  return out;
}

Row ClassRow(const ClassRowFields& f) {
  const char replident = f.kind == 'r' ? 'd' : 'n';
  return {OidValue(f.oid),  NameValue(f.name),      OidValue(f.ns),       OidValue(0),
          OidValue(0),      OidValue(f.owner),      OidValue(f.am), OidValue(f.filenode),
          OidValue(0),      Value::Int4(f.pages),   Float4Value(f.tuples), Value::Int4(0),
          OidValue(f.toast), Value::Bool(f.hasindex), Value::Bool(false),  CharValue('p'),
          CharValue(f.kind), Int2Value(f.natts),    Int2Value(f.checks),  Value::Bool(f.kind == 'v'),
          Value::Bool(f.has_triggers), Value::Bool(f.has_subclass), Value::Bool(false), Value::Bool(false),
          Value::Bool(true), CharValue(replident),  Value::Bool(!f.partbound.empty()), OidValue(0),
          Value::Int8(0),   Value::Int8(0),         f.acl.empty() ? Value::Null(kTextOid) : Value::Text(f.acl),
          RelOptions(f.options), f.partbound.empty() ? Value::Null(kTextOid) : Value::Text(f.partbound)};
}

constexpr size_t kPgClassReltoastrelid = 12;  // position of reltoastrelid in ClassRow

// Tables with a varlena column: those have a toast relation (relcache.cpp).
std::set<Oid> RelationsWithVarlenaColumns(executor::TableProvider& tables) {
  std::set<Oid> out;
  for (const Row& a : ScanCatalog(tables, kHearthAttributeName)) {
    if (TypeLength(static_cast<Oid>(a[kAttAtttypid].i)) == -1) out.insert(static_cast<Oid>(a[kAttAttrelid].i));
  }
  return out;
}

// A table's toast relation pg_toast.pg_toast_<oid> (relkind 't') and its
// index, as PostgreSQL lists them (heap_toast.h: no hearth_class rows).
void AddToastClassRows(Oid table, storage::RelFileLocator file, Oid owner, std::vector<Row>* out) {
  const std::string name = "pg_toast_" + std::to_string(table);
  out->push_back(ClassRow({ToastRelationOid(table), name, kPgToastNamespace, kHeapAmOid,
                           heap::ToastRelOf(file).number.value, 0, -1, true, 't', 3, {}, owner, "", 0, false, false, ""}));
  out->push_back(ClassRow({ToastIndexOid(table), name + "_index", kPgToastNamespace, kBtreeAmOid,
                           heap::ToastIndexOf(file).number.value, 1, 0, false, 'i', 2, {}, owner, "", 0, false, false, ""}));
}

void AddPgClass(SystemViewProvider& p) {
  p.AddView(PgClassInfo(), [&p] {
    executor::TableProvider& tables = p.wrapped();
    IndexRows indexes = LoadIndexes(tables);
    std::unordered_map<Oid, int> checks;
    std::set<Oid> with_foreign_keys;
    for (const Row& con : ScanCatalog(tables, kHearthConstraintName)) {
      if (con[kConType].str == "c") ++checks[static_cast<Oid>(con[kConRelid].i)];
      if (con[kConType].str != "f") continue;
      with_foreign_keys.insert(static_cast<Oid>(con[kConRelid].i));
      with_foreign_keys.insert(static_cast<Oid>(con[kConFrelid].i));
    }
    // relhastriggers: foreign keys (triggers in PostgreSQL) and hearth_trigger rows.
    for (const TriggerFields& t : AllTriggers()) with_foreign_keys.insert(t.relid);
    std::vector<Row> out;
    std::unordered_map<Oid, Oid> owners;  // an index is owned by its table's owner
    const std::set<Oid> toasted = RelationsWithVarlenaColumns(tables);
    for (const Row& c : ScanCatalog(tables, kHearthClassName)) {
      const Oid oid = static_cast<Oid>(c[kClassOid].i);
      const Oid owner = c[kClassRelowner].is_null ? kBootstrapSuperuserOid : static_cast<Oid>(c[kClassRelowner].i);
      owners[oid] = owner;
      const bool partitioned = c.size() > kClassRelpartkey && !c[kClassRelpartkey].is_null;
      const char kind = partitioned ? 'p' : c[kClassRelkind].str.empty() ? 'r' : c[kClassRelkind].str[0];
      const bool partition = c.size() > kClassRelpartbound && !c[kClassRelpartbound].is_null;
      out.push_back(ClassRow({oid, c[kClassRelname].str, static_cast<Oid>(c[kClassRelnamespace].i),
                              kind == 'S' || kind == 'v' || kind == 'p' ? 0 : kHeapAmOid,
                              kind == 'p' ? 0 : static_cast<Oid>(c[kClassRelfilenode].i),
                              static_cast<int>(c[kClassRelpages].i), c[kClassReltuples].f,
                              indexes.tables_with_indexes.count(oid) != 0, kind,
                              static_cast<int>(c[kClassRelnatts].i),
                              ClassOptions(c),
                              owner, c[kClassRelacl].is_null ? "" : c[kClassRelacl].str, checks[oid],
                              with_foreign_keys.count(oid) != 0, HasSubclassInClassRow(c),
                              partition ? c[kClassRelpartbound].str : ""}));
      if (kind == 'r' && oid >= kFirstNormalObjectId && toasted.count(oid) != 0) {
        out.back()[kPgClassReltoastrelid] = OidValue(ToastRelationOid(oid));
        AddToastClassRows(oid, DatabaseRel(static_cast<Oid>(c[kClassRelfilenode].i)), owner, &out);
      }
    }
    for (const Row& i : indexes.rows) {
      out.push_back(ClassRow({static_cast<Oid>(i[kIndIndexrelid].i), i[kIndName].str,
                              static_cast<Oid>(i[kIndNamespace].i), kBtreeAmOid,
                              static_cast<Oid>(i[kIndRelfilenode].i), 1, 0, false, 'i',
                              static_cast<int>(KeyAttnums(i).size()), {},
                              owners[static_cast<Oid>(i[kIndIndrelid].i)], "", 0, false, false, ""}));
    }
    return out;
  });
}

// Storage and alignment PostgreSQL gives a column of this type.
char TypeStorage(Oid type) {
  if (type == kNumericOid) return 'm';
  return TypeLength(type) == -1 ? 'x' : 'p';
}
char TypeAlign(Oid type) {
  switch (TypeLength(type)) {
    case 1: case 64: return 'c';
    case 2: return 's';
    case 8: return 'd';
    default: return 'i';
  }
}

constexpr size_t kPgAttributeAttacl = 22;  // position of attacl in AttributeRow

struct AttributeFields {
  Oid relid;
  std::string name;
  Oid type;
  int32_t typmod;
  int attnum;
  bool notnull;
  bool hasdef;
  char identity;  // 0: none
};

Row AttributeRow(const AttributeFields& f) {
  const int16_t len = TypeLength(f.type);
  const bool byval = len == 1 || len == 2 || len == 4 || len == 8;
  return {OidValue(f.relid),   NameValue(f.name),     OidValue(f.type),       Value::Int4(-1),
          Int2Value(len),      Int2Value(f.attnum),   Value::Int4(0),         Value::Int4(-1),
          Value::Int4(f.typmod), Value::Bool(byval),  CharValue(TypeAlign(f.type)), CharValue(TypeStorage(f.type)),
          Value::Text(""),     Value::Bool(f.notnull), Value::Bool(f.hasdef), Value::Bool(false),
          Value::Text(f.identity ? std::string(1, f.identity) : ""), Value::Text(""), Value::Bool(false),
          Value::Bool(true),   Value::Int4(0),        OidValue(TypeCollation(f.type)), Value::Null(kTextOid),
          Value::Null(kTextOid), Value::Null(kTextOid), Value::Null(kTextOid)};
}

void AddPgAttribute(SystemViewProvider& p) {
  executor::TableInfo info = PgViewInfo(
      kPgAttributeOid, "pg_attribute",
      {{"attrelid", kOidOid},     {"attname", kNameOid},        {"atttypid", kOidOid},     {"attstattarget", kInt4Oid},
       {"attlen", kInt2Oid},      {"attnum", kInt2Oid},         {"attndims", kInt4Oid},    {"attcacheoff", kInt4Oid},
       {"atttypmod", kInt4Oid},   {"attbyval", kBoolOid},       {"attalign", kTextOid},    {"attstorage", kTextOid},
       {"attcompression", kTextOid}, {"attnotnull", kBoolOid},  {"atthasdef", kBoolOid},   {"atthasmissing", kBoolOid},
       {"attidentity", kTextOid}, {"attgenerated", kTextOid},   {"attisdropped", kBoolOid}, {"attislocal", kBoolOid},
       {"attinhcount", kInt4Oid}, {"attcollation", kOidOid},    {"attacl", kTextOid},      {"attoptions", kTextOid},
       {"attfdwoptions", kTextOid}, {"attmissingval", kTextOid}});
  p.AddView(std::move(info), [&p] {
    executor::TableProvider& tables = p.wrapped();
    auto identity = IdentityColumns(ScanCatalog(tables, kHearthSequenceName));
    std::vector<Row> out;
    // Each table's columns, kept by relid for the index rows below.
    std::map<Oid, std::vector<AttributeFields>> by_rel;
    for (const Row& a : ScanCatalog(tables, kHearthAttributeName)) {
      const Oid relid = static_cast<Oid>(a[kAttAttrelid].i);
      const int attnum = static_cast<int>(a[kAttAttnum].i);
      auto id = identity.find({relid, attnum});
      AttributeFields f{relid, a[kAttAttname].str, static_cast<Oid>(a[kAttAtttypid].i),
                        static_cast<int32_t>(a[kAttAtttypmod].i), attnum, a[kAttAttnotnull].b,
                        a[kAttAtthasdef].b && id == identity.end(), id == identity.end() ? '\0' : id->second};
      out.push_back(AttributeRow(f));
      if (a.size() > kAttAttacl && !a[kAttAttacl].is_null) out.back()[kPgAttributeAttacl] = Value::Text(a[kAttAttacl].str);
      by_rel[relid].push_back(std::move(f));
    }
    // An index's columns: one row per key column, named and typed as the
    // table's column (PostgreSQL's pg_attribute rows of an index).
    for (const Row& i : ScanCatalog(tables, kHearthIndexName)) {
      const auto& cols = by_rel[static_cast<Oid>(i[kIndIndrelid].i)];
      int n = 0;
      for (int attnum : KeyAttnums(i)) {
        // By attnum: an updated attribute row (an identity column's, a
        // renamed one) is no longer in attnum order in the scan.
        auto col = std::find_if(cols.begin(), cols.end(), [&](const AttributeFields& c) { return c.attnum == attnum; });
        if (col == cols.end()) continue;
        AttributeFields f = *col;
        f.relid = static_cast<Oid>(i[kIndIndexrelid].i);
        f.attnum = ++n;
        f.notnull = false;
        f.hasdef = false;
        f.identity = 0;
        out.push_back(AttributeRow(f));
      }
    }
    return out;
  });
}

// nextval('s') as written: PostgreSQL coerces the literal to regclass when
// it stores the expression, and prints nextval('s'::regclass).
std::string SequenceArgumentsAsRegclass(const std::string& expr) {
  std::string out = expr;
  for (const char* fn : {"nextval('", "currval('"}) {
    for (size_t at = out.find(fn); at != std::string::npos; at = out.find(fn, at + 1)) {
      size_t close = at + std::strlen(fn);
      while (close < out.size() && (out[close] != '\'' || (close + 1 < out.size() && out[close + 1] == '\''))) {
        close += out[close] == '\'' ? 2 : 1;
      }
      if (close >= out.size() || out.compare(close + 1, 2, "::") == 0) continue;
      out.insert(close + 1, "::regclass");
    }
  }
  return out;
}

// PostgreSQL prints a string literal default coerced to its column's type
// ('x'::text); Hearth keeps the literal as written.
std::string DefaultAsPostgresShows(const std::string& expr, Oid type) {
  const bool plain_literal = expr.size() >= 2 && expr.front() == '\'' && expr.back() == '\'' &&
                             expr.find('\'', 1) == expr.size() - 1;
  if (!plain_literal) return SequenceArgumentsAsRegclass(expr);
  return expr + "::" + FormatType(type);
}

// A default's pg_attrdef oid: defaults are no catalog objects of their own
// here, so the oid is made from the column (unique within pg_attrdef, which
// is all pg_dump needs to match pg_depend's rows to pg_attrdef's).
Value AttrdefOid(Oid relid, int64_t attnum) { return OidValue(static_cast<Oid>(relid * 1601u + attnum)); }

void AddPgAttrdef(SystemViewProvider& p) {
  // adbin is the expression's SQL text (PostgreSQL: a pg_node_tree that
  // pg_get_expr turns into this text).
  executor::TableInfo info = PgViewInfo(
      kPgAttrdefOid, "pg_attrdef", {{"oid", kOidOid}, {"adrelid", kOidOid}, {"adnum", kInt2Oid}, {"adbin", kTextOid}});
  p.AddView(std::move(info), [&p] {
    executor::TableProvider& tables = p.wrapped();
    auto identity = IdentityColumns(ScanCatalog(tables, kHearthSequenceName));
    std::vector<Row> out;
    for (const Row& a : ScanCatalog(tables, kHearthAttributeName)) {
      if (!a[kAttAtthasdef].b || a[kAttAttdefault].str.empty()) continue;
      const Oid relid = static_cast<Oid>(a[kAttAttrelid].i);
      if (identity.count({relid, static_cast<int>(a[kAttAttnum].i)}) != 0) continue;  // identity: no default
      out.push_back({AttrdefOid(relid, a[kAttAttnum].i), OidValue(relid), Int2Value(static_cast<int>(a[kAttAttnum].i)),
                     Value::Text(DefaultAsPostgresShows(a[kAttAttdefault].str, static_cast<Oid>(a[kAttAtttypid].i)))});
    }
    return out;
  });
}

void AddPgIndex(SystemViewProvider& p) {
  executor::TableInfo info = PgViewInfo(
      kPgIndexOid, "pg_index",
      {{"indexrelid", kOidOid},      {"indrelid", kOidOid},       {"indnatts", kInt2Oid},
       {"indnkeyatts", kInt2Oid},    {"indisunique", kBoolOid},   {"indnullsnotdistinct", kBoolOid},
       {"indisprimary", kBoolOid},   {"indisexclusion", kBoolOid}, {"indimmediate", kBoolOid},
       {"indisclustered", kBoolOid}, {"indisvalid", kBoolOid},    {"indcheckxmin", kBoolOid},
       {"indisready", kBoolOid},     {"indislive", kBoolOid},     {"indisreplident", kBoolOid},
       {"indkey", kTextOid},         {"indcollation", kTextOid},  {"indclass", kTextOid},
       {"indoption", kTextOid},      {"indexprs", kTextOid},      {"indpred", kTextOid}});
  p.AddView(std::move(info), [&p] {
    std::vector<Row> out;
    for (const Row& i : ScanCatalog(p.wrapped(), kHearthIndexName)) {
      const int n = static_cast<int>(KeyAttnums(i).size());
      out.push_back({OidValue(static_cast<Oid>(i[kIndIndexrelid].i)), OidValue(static_cast<Oid>(i[kIndIndrelid].i)),
                     Int2Value(n), Int2Value(n), Value::Bool(i[kIndIsunique].b), Value::Bool(false),
                     Value::Bool(i[kIndIsprimary].b), Value::Bool(false), Value::Bool(true), Value::Bool(false),
                     Value::Bool(true), Value::Bool(false), Value::Bool(true), Value::Bool(true), Value::Bool(false),
                     Value::Text(i[kIndKey].str), Value::Null(kTextOid), Value::Null(kTextOid),
                     Value::Text(i[kIndOption].str), Value::Null(kTextOid), Value::Null(kTextOid)});
    }
    return out;
  });
}

// "{1,2}" from hearth_constraint's "1 2" (NULL when empty).
Value AttnumArray(const Value& v) {
  if (v.is_null || v.str.empty()) return Value::Null(kTextOid);
  std::string out = "{";
  for (char ch : v.str) out += ch == ' ' ? ',' : ch;
  return Value::Text(out + "}");
}

Row ConstraintViewRow(const Row& con) {
  const bool fk = con[kConType].str == "f";
  return {con[kConOid], con[kConName], con[kConNamespace], CharValue(fk ? 'f' : 'c'), Value::Bool(false),
          Value::Bool(false), con[kConValidated], con[kConRelid], OidValue(0), con[kConIndid], OidValue(0),
          con[kConFrelid], CharValue(fk ? con[kConUpdType].str[0] : ' '), CharValue(fk ? con[kConDelType].str[0] : ' '),
          CharValue(fk ? 's' : ' '), Value::Bool(true), Value::Int4(0), Value::Bool(fk), AttnumArray(con[kConKey]),
          AttnumArray(con[kConFkey]), Value::Null(kTextOid), Value::Null(kTextOid), Value::Null(kTextOid),
          Value::Null(kTextOid), Value::Null(kTextOid),
          fk ? Value::Null(kTextOid) : Value::Text(con[kConBin].str)};
}

// A primary key or UNIQUE constraint is a constraint row whose oid is its
// index's oid (pg_get_constraintdef relies on this); hearth_index marks the
// indexes UNIQUE constraints made (indisconstraint), so a plain unique index
// is not listed, as in PostgreSQL. CHECK and FOREIGN KEY constraints are
// hearth_constraint rows (ConstraintViewRow).
void AddPgConstraint(SystemViewProvider& p) {
  executor::TableInfo info = PgViewInfo(
      kPgConstraintOid, "pg_constraint",
      {{"oid", kOidOid},           {"conname", kNameOid},        {"connamespace", kOidOid},  {"contype", kTextOid},
       {"condeferrable", kBoolOid}, {"condeferred", kBoolOid},   {"convalidated", kBoolOid}, {"conrelid", kOidOid},
       {"contypid", kOidOid},      {"conindid", kOidOid},        {"conparentid", kOidOid},   {"confrelid", kOidOid},
       {"confupdtype", kTextOid},  {"confdeltype", kTextOid},    {"confmatchtype", kTextOid}, {"conislocal", kBoolOid},
       {"coninhcount", kInt4Oid},  {"connoinherit", kBoolOid},   {"conkey", kTextOid},       {"confkey", kTextOid},
       {"conpfeqop", kTextOid},    {"conppeqop", kTextOid},      {"conffeqop", kTextOid},    {"confdelsetcols", kTextOid},
       {"conexclop", kTextOid},    {"conbin", kTextOid}});
  p.AddView(std::move(info), [&p] {
    std::vector<Row> out;
    for (const Row& i : ScanCatalog(p.wrapped(), kHearthIndexName)) {
      const bool primary = i[kIndIsprimary].b;
      if (!primary && !IndexIsConstraint(i)) continue;
      std::string key = "{";
      for (int a : KeyAttnums(i)) key += (key.size() > 1 ? "," : "") + std::to_string(a);
      key += "}";
      const Oid idx = static_cast<Oid>(i[kIndIndexrelid].i);
      out.push_back({OidValue(idx), NameValue(i[kIndName].str), OidValue(static_cast<Oid>(i[kIndNamespace].i)),
                     CharValue(primary ? 'p' : 'u'), Value::Bool(false), Value::Bool(false), Value::Bool(true),
                     OidValue(static_cast<Oid>(i[kIndIndrelid].i)), OidValue(0), OidValue(idx), OidValue(0),
                     OidValue(0), CharValue(' '), CharValue(' '), CharValue(' '), Value::Bool(true), Value::Int4(0),
                     Value::Bool(true), Value::Text(key), Value::Null(kTextOid), Value::Null(kTextOid),
                     Value::Null(kTextOid), Value::Null(kTextOid), Value::Null(kTextOid), Value::Null(kTextOid),
                     Value::Null(kTextOid)});
    }
    for (const Row& con : ScanCatalog(p.wrapped(), kHearthConstraintName)) out.push_back(ConstraintViewRow(con));
    AppendDomainConstraintRows(&out);
    return out;
  });
}

void AddPgSequence(SystemViewProvider& p) {
  executor::TableInfo info = PgViewInfo(
      kPgSequenceOid, "pg_sequence",
      {{"seqrelid", kOidOid}, {"seqtypid", kOidOid}, {"seqstart", kInt8Oid}, {"seqincrement", kInt8Oid},
       {"seqmax", kInt8Oid},  {"seqmin", kInt8Oid},  {"seqcache", kInt8Oid}, {"seqcycle", kBoolOid}});
  p.AddView(std::move(info), [&p] {
    std::vector<Row> out;
    for (const Row& s : ScanCatalog(p.wrapped(), kHearthSequenceName)) {
      out.push_back({s[kSeqRelid], s[kSeqTypid], s[kSeqStart], s[kSeqIncrement], s[kSeqMax], s[kSeqMin],
                     s[kSeqCache], s[kSeqCycle]});
    }
    return out;
  });
}

// pg_depend: the dependencies Hearth acts on — a sequence owned by a
// column ('a' auto, 'i' internal for identity columns), the default of a
// serial column on its sequence ('n'; pg_dump needs it to write that
// default after the sequence it calls) and a view on the relations its
// query reads ('n'; PostgreSQL records those of the view's _RETURN rule,
// Hearth has no rules: pg_dump orders views after their tables either way).
void AddPgDepend(SystemViewProvider& p) {
  executor::TableInfo info = PgViewInfo(
      kPgDependOid, "pg_depend",
      {{"classid", kOidOid}, {"objid", kOidOid}, {"objsubid", kInt4Oid}, {"refclassid", kOidOid},
       {"refobjid", kOidOid}, {"refobjsubid", kInt4Oid}, {"deptype", kTextOid}});
  p.AddView(std::move(info), [&p] {
    std::vector<Row> out;
    for (const Row& s : ScanCatalog(p.wrapped(), kHearthSequenceName)) {
      if (s[kSeqOwnerRel].is_null || s[kSeqOwnerRel].i == 0) continue;
      const bool identity = !s[kSeqIdentity].is_null && !s[kSeqIdentity].str.empty();
      out.push_back({OidValue(kPgClassOid), s[kSeqRelid], Value::Int4(0), OidValue(kPgClassOid), s[kSeqOwnerRel],
                     Value::Int4(static_cast<int32_t>(s[kSeqOwnerCol].i)), CharValue(identity ? 'i' : 'a')});
      if (!identity) {
        out.push_back({OidValue(kPgAttrdefOid), AttrdefOid(static_cast<Oid>(s[kSeqOwnerRel].i), s[kSeqOwnerCol].i),
                       Value::Int4(0), OidValue(kPgClassOid), s[kSeqRelid], Value::Int4(0), CharValue('n')});
      }
    }
    for (const Row& c : ScanCatalog(p.wrapped(), kHearthClassName)) {
      if (c[kClassRelkind].str != "v" || c.size() <= kClassRelviewdeps || c[kClassRelviewdeps].is_null) continue;
      const Oid view = static_cast<Oid>(c[kClassOid].i);
      for (Oid dep : ParseOidList(c[kClassRelviewdeps].str)) {
        out.push_back({OidValue(kPgClassOid), OidValue(view), Value::Int4(0), OidValue(kPgClassOid), OidValue(dep),
                       Value::Int4(0), CharValue('n')});
      }
    }
    return out;
  });
}

}  // namespace

std::vector<executor::Row> ScanCatalog(executor::TableProvider& tables, const char* name) {
  std::vector<executor::Row> rows;
  std::optional<executor::TableInfo> info = tables.Lookup("pg_catalog", name);
  if (!info) return rows;
  std::unique_ptr<executor::TableScan> scan = tables.OpenScan(*info, false);
  executor::Row r;
  while (scan->Next(r, nullptr)) rows.push_back(r);
  return rows;
}

types::Oid TypeCollation(types::Oid type) {
  if (type == kNameOid) return kCCollationOid;
  return CategoryOf(type) == TypeCategory::kString && type != kUnknownOid ? kDefaultCollationOid : 0;
}

void AddPgCatalogRelationViews(SystemViewProvider& p) {
  AddPgNamespace(p);
  AddPgClass(p);
  AddPgAttribute(p);
  AddPgAttrdef(p);
  AddPgIndex(p);
  AddPgConstraint(p);
  AddPgSequence(p);
  AddPgDepend(p);
}

}  // namespace hearth::catalog::internal
