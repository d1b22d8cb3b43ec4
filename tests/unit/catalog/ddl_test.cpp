// tests/unit/catalog/ddl_test.cpp — bootstrap, CREATE/DROP/TRUNCATE, errors, OIDs.
#include <fstream>

#include "catalog/catalog_rows.h"
#include "catalog/pending_delete.h"
#include "catalog/role_catalog.h"
#include "catalog_test_util.h"
#include "utils/adt/type_catalog.h"

using namespace hearth;
using namespace hearth::catalog;
using namespace hearth::catalog::testing;
using types::Value;

namespace {

// Rows the bootstrap writes: hearth_class, hearth_attribute, hearth_index,
// hearth_sequence, hearth_constraint, pg_authid, pg_auth_members,
// hearth_namespace, hearth_proc, hearth_trigger, hearth_description,
// hearth_shdescription, hearth_database, hearth_default_acl, hearth_type,
// hearth_enum and their 19 + 9 + 10 + 11 + 13 + 12 + 4 + 3 + 19 + 9 + 4 + 4 +
// 9 + 5 + 11 + 4 columns, and nspacl.
constexpr int kSystemClassRows = 16;
constexpr int kSystemAttributeRows = 147;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::string s((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return s;
}

}  // namespace

TEST_CASE("Bootstrap writes self-describing catalogs and the OID control file", "[catalog][bootstrap]") {
  CatalogCluster c;
  CHECK(c.FileExists(ClassRel()));
  CHECK(c.FileExists(AttributeRel()));
  CHECK(ReadFile(c.dir + "/global/oid_control") == "hearth-oid-control 1 16384\n");
  InTransaction([&] {
    AcceptInvalidations();
    RelationRef cls = LookupRelation("pg_catalog", "hearth_class");
    REQUIRE(cls != nullptr);
    CHECK(cls->oid == 1259);
    CHECK(cls->rel.number.value == 1259);
    REQUIRE(cls->info.columns.size() == 19);
    CHECK(cls->info.columns[1].name == "relname");
    CHECK(cls->info.columns[10].name == "reloptions");
    CHECK(cls->info.columns[11].name == "relowner");
    CHECK(cls->info.columns[12].name == "relacl");
    CHECK(cls->info.columns[13].name == "relviewdef");
    CHECK(cls->info.columns[14].name == "relviewdeps");
    CHECK(cls->info.columns[15].name == "relinherits");
    CHECK(cls->info.columns[16].name == "relhassubclass");
    CHECK(cls->info.columns[17].name == "relpartkey");
    CHECK(cls->info.columns[18].name == "relpartbound");
    // pg_authid and pg_auth_members keep PostgreSQL's oids, with the
    // bootstrap superuser as oid 10.
    RelationRef authid = LookupRelation("pg_catalog", "pg_authid");
    REQUIRE(authid != nullptr);
    CHECK(authid->oid == 1260);
    CHECK(authid->info.columns.size() == 12);
    auto hearth = FindRoleByName("hearth");
    REQUIRE(hearth.has_value());
    CHECK(hearth->role.oid == 10);
    CHECK(hearth->role.superuser);
    REQUIRE(LookupRelation("pg_catalog", "pg_auth_members") != nullptr);
    CHECK(LookupRelation("pg_catalog", "pg_auth_members")->oid == 1261);
    CHECK(cls->info.columns[1].type == types::kNameOid);
    CHECK(cls->info.schema == "pg_catalog");
    RelationRef att = LookupRelation("pg_catalog", "hearth_attribute");
    REQUIRE(att != nullptr);
    CHECK(att->info.columns.size() == 9);
    CHECK(att->info.columns[7].name == "attdefault");
    // Not in public.
    CHECK(LookupRelation("", "hearth_class") == nullptr);
    CHECK(LookupRelation("nosuch", "hearth_class") == nullptr);
  });
  // A second bootstrap of the same directory is refused.
  pid_t pid = fork();
  if (pid == 0) {
    try {
      BootstrapCatalog(c.dir, "hearth");
    } catch (const std::runtime_error&) {
      _exit(7);
    }
    _exit(0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  CHECK(WEXITSTATUS(status) == 7);
}

TEST_CASE("CREATE TABLE records columns, types, typmods, NOT NULL, defaults and fillfactor", "[catalog][ddl]") {
  CatalogCluster c;
  Oid oid = 0;
  InTransaction([&] {
    DdlResult r = Create(
        "create table acct (id int primary key, name varchar(20) not null default 'x''y', bal numeric(10,2) "
        "default -1.5, flag boolean, note text default null, ts timestamp, ch char(3), unique (name)) with "
        "(fillfactor=70)");
    CHECK(r.notices.empty());
    CHECK(r.count == 1);
    oid = r.oid;
    CHECK(oid >= kFirstNormalObjectId);
    // Visible to the creating transaction at once.
    RelationRef e = LookupRelation("public", "acct");
    REQUIRE(e != nullptr);
    CHECK(e->oid == oid);
  });
  CHECK(c.FileExists(storage::RelFileLocator(storage::kDefaultDatabaseId, oid)));
  InTransaction([&] {
    AcceptInvalidations();
    RelationRef e = LookupRelation("", "acct");
    REQUIRE(e != nullptr);
    CHECK(e->fillfactor == 70);
    CHECK(e->rel.number.value == oid);
    CHECK(e->info.name == "acct");
    CHECK(e->info.schema == "public");
    const auto& cols = e->info.columns;
    REQUIRE(cols.size() == 7);
    CHECK(cols[0].name == "id");
    CHECK(cols[0].type == types::kInt4Oid);
    CHECK(cols[0].not_null);  // PRIMARY KEY implies NOT NULL
    CHECK(cols[1].type == types::kVarcharOid);
    CHECK(cols[1].typmod == 24);
    CHECK(cols[1].not_null);
    CHECK(cols[1].default_expr == "'x''y'");
    CHECK(cols[2].type == types::kNumericOid);
    CHECK(cols[2].typmod == types::NumericTypmod(10, 2));
    CHECK(cols[2].default_expr == "-1.5");
    CHECK_FALSE(cols[3].not_null);
    CHECK_FALSE(cols[3].has_default());
    CHECK_FALSE(cols[4].has_default());  // DEFAULT NULL = no default
    CHECK(cols[5].type == types::kTimestampOid);
    CHECK(cols[6].type == types::kBpcharOid);
    CHECK(cols[6].typmod == 7);
    CHECK(e->desc.natts() == 7);
  });
}

TEST_CASE("CREATE TABLE errors and IF NOT EXISTS notices", "[catalog][ddl][errors]") {
  CatalogCluster c;
  InTransaction([&] { Create("create table t (a int)"); });
  access::StartTransaction();
  RequireDbError([] { Create("create table t (b int)"); }, "42P07", "relation \"t\" already exists");
  access::AbortTransaction();
  InTransaction([&] {
    DdlResult r = Create("create table if not exists t (b int)");
    REQUIRE(r.notices.size() == 1);
    CHECK(r.notices[0].sqlstate == "42P07");
    CHECK(r.notices[0].message == "relation \"t\" already exists, skipping");
    CHECK(r.oid == 0);
    CHECK(r.count == 0);
  });
  access::StartTransaction();
  try {
    Create("create table u (a nosuchtype)");
    FAIL("no error");
  } catch (const DbError& e) {
    CHECK(e.sqlstate() == "42704");
    CHECK(e.message() == "type \"nosuchtype\" does not exist");
    CHECK(e.position() == 19);
  }
  RequireDbError([] { Create("create table u (a int, b text, a int)"); }, "42701", "column \"a\" specified more than once");
  RequireDbError([] { Create("create table u (a int null not null)"); }, "42601",
                 "conflicting NULL/NOT NULL declarations for column \"a\" of table \"u\"");
  RequireDbError([] { Create("create table u (a int default 1 default 2)"); }, "42601",
                 "multiple default values specified for column \"a\" of table \"u\"");
  RequireDbError([] { Create("create table u (a int primary key, b int, primary key (b))"); }, "42P16",
                 "multiple primary keys for table \"u\" are not allowed");
  RequireDbError([] { Create("create table u (a int, primary key (zz))"); }, "42703",
                 "column \"zz\" named in key does not exist");
  RequireDbError([] { Create("create table u (a int) with (fillfactor=5)"); }, "22023",
                 "value 5 out of bounds for option \"fillfactor\"");
  RequireDbError([] { Create("create table u (a int) with (bogus=1)"); }, "22023", "unrecognized parameter \"bogus\"");
  RequireDbError([] { Create("create table nosuch.u (a int)"); }, "3F000", "schema \"nosuch\" does not exist");
  RequireDbError([] { Create("create table u (a int default (1 + 2))"); }, "0A000",
                 "this DEFAULT expression is not supported yet");
  access::AbortTransaction();
  // None of the failed statements left anything behind.
  InTransaction([&] {
    AcceptInvalidations();
    CHECK(LookupRelation("", "u") == nullptr);
  });
  CHECK(CatalogRowCount("hearth_class") == kSystemClassRows + 1);  // the catalogs and t
  CHECK(CatalogRowCount("hearth_attribute") == kSystemAttributeRows + 1);
}

namespace {

void InsertInts(const std::string& table, std::initializer_list<int> values) {
  HeapTableProvider prov;
  prov.StartStatement();
  auto info = prov.Lookup("", table);
  REQUIRE(info.has_value());
  auto mod = prov.OpenModifier(*info);
  executor::Row row(1);
  for (int v : values) {
    row[0] = Value::Int4(v);
    mod->Insert(row);
  }
}

int RowCount(const std::string& table) {
  HeapTableProvider prov;
  return static_cast<int>(ScanAll(prov, table).size());
}

}  // namespace

TEST_CASE("A rolled-back CREATE TABLE leaves no catalog row and no file", "[catalog][ddl]") {
  CatalogCluster c;
  access::StartTransaction();
  DdlResult r = Create("create table gone (a int)");
  InsertInts("gone", {1, 2, 3});
  storage::RelFileLocator rel(storage::kDefaultDatabaseId, r.oid);
  CHECK(c.FileExists(rel));
  CHECK(PendingDeletes(false) == std::vector<storage::RelFileLocator>{rel});
  access::AbortTransaction();
  CHECK_FALSE(c.FileExists(rel));
  CHECK(storage::CountBuffersOfRelation(rel) == 0);
  CHECK(PendingDeletes(false).empty());
  InTransaction([&] {
    AcceptInvalidations();
    CHECK(LookupRelation("", "gone") == nullptr);
  });
  CHECK(CatalogRowCount("hearth_class") == kSystemClassRows);
  CHECK(CatalogRowCount("hearth_attribute") == kSystemAttributeRows);
}

TEST_CASE("DROP TABLE: committed removes rows, buffers and file; rolled back keeps table and data", "[catalog][ddl]") {
  CatalogCluster c;
  Oid oid = 0;
  InTransaction([&] {
    oid = Create("create table d (a int)").oid;
    InsertInts("d", {10, 20});
  });
  storage::RelFileLocator rel(storage::kDefaultDatabaseId, oid);
  CHECK(storage::CountBuffersOfRelation(rel) > 0);

  // Rolled back: everything stays.
  access::StartTransaction();
  DdlResult r = DropTables(Names({"d"}), false);
  CHECK(r.count == 1);
  CHECK(LookupRelation("", "d") == nullptr);  // the dropping transaction no longer sees it
  CHECK(storage::LockHeldByMe(RelationLockTag(oid), storage::LockMode::kAccessExclusive));
  access::AbortTransaction();
  CHECK(c.FileExists(rel));
  InTransaction([&] { CHECK(RowCount("d") == 2); });

  // Committed: catalog rows, buffers and the file are gone.
  InTransaction([&] {
    AcceptInvalidations();
    DropTables(Names({"d"}), false);
    CHECK(c.FileExists(rel));  // only at commit
    CHECK(PendingDeletes(true) == std::vector<storage::RelFileLocator>{rel});
  });
  CHECK_FALSE(c.FileExists(rel));
  CHECK(storage::CountBuffersOfRelation(rel) == 0);
  InTransaction([&] {
    AcceptInvalidations();
    CHECK(LookupRelation("", "d") == nullptr);
  });
  CHECK(CatalogRowCount("hearth_class") == kSystemClassRows);
  CHECK(CatalogRowCount("hearth_attribute") == kSystemAttributeRows);
}

TEST_CASE("DROP TABLE of 100 tables in one transaction drops them as one batch", "[catalog][ddl]") {
  CatalogCluster c;
  std::vector<Oid> oids;
  std::vector<std::string> names;
  InTransaction([&] {
    for (int i = 0; i < 100; ++i) {
      names.push_back("t" + std::to_string(i));
      oids.push_back(Create("create table " + names.back() + " (a int)").oid);
      InsertInts(names.back(), {i});
    }
  });
  CHECK(CatalogRowCount("hearth_class") == kSystemClassRows + 100);
  std::vector<parser::RangeVar> rvs;
  for (const std::string& n : names) {
    parser::RangeVar rv;
    rv.name = n;
    rvs.push_back(rv);
  }
  InTransaction([&] {
    AcceptInvalidations();
    CHECK(DropTables(rvs, false).count == 100);
    CHECK(PendingDeletes(true).size() == 100);
  });
  for (Oid oid : oids) {
    CHECK_FALSE(c.FileExists(storage::RelFileLocator(storage::kDefaultDatabaseId, oid)));
    CHECK(storage::CountBuffersOfRelation(storage::RelFileLocator(storage::kDefaultDatabaseId, oid)) == 0);
  }
  CHECK(CatalogRowCount("hearth_class") == kSystemClassRows);
  CHECK(CatalogRowCount("hearth_attribute") == kSystemAttributeRows);
}

TEST_CASE("DROP/TRUNCATE errors and IF EXISTS notices", "[catalog][ddl][errors]") {
  CatalogCluster c;
  InTransaction([&] { Create("create table keep (a int)"); });
  InTransaction([&] {
    DdlResult r = DropTables(Names({"nope", "nope2"}), true);
    REQUIRE(r.notices.size() == 2);
    CHECK(r.notices[0].sqlstate == "00000");
    CHECK(r.notices[0].message == "table \"nope\" does not exist, skipping");
    CHECK(r.notices[1].message == "table \"nope2\" does not exist, skipping");
    CHECK(r.count == 0);
  });
  access::StartTransaction();
  RequireDbError([] { DropTables(Names({"keep", "nope"}), false); }, "42P01", "table \"nope\" does not exist");
  access::AbortTransaction();
  InTransaction([&] {
    AcceptInvalidations();
    CHECK(LookupRelation("", "keep") != nullptr);  // the failed DROP rolled back
  });
  access::StartTransaction();
  RequireDbError([] { TruncateTables(Names({"nope"})); }, "42P01", "relation \"nope\" does not exist");
  access::AbortTransaction();
  access::StartTransaction();
  parser::RangeVar sys;
  sys.schema = "pg_catalog";
  sys.name = "hearth_class";
  RequireDbError([&] { DropTables({sys}, false); }, "42501", "permission denied: \"hearth_class\" is a system catalog");
  access::AbortTransaction();
}

TEST_CASE("TRUNCATE swaps the file and keeps the table; rollback keeps the data", "[catalog][ddl]") {
  CatalogCluster c;
  Oid oid = 0;
  InTransaction([&] {
    oid = Create("create table tr (a int)").oid;
    InsertInts("tr", {1, 2, 3});
  });
  storage::RelFileLocator old_rel(storage::kDefaultDatabaseId, oid);

  // Rolled back: same file, same rows; the new file is gone.
  access::StartTransaction();
  AcceptInvalidations();
  TruncateTables(Names({"tr"}));
  RelationRef mid = LookupRelation("", "tr");
  REQUIRE(mid != nullptr);
  storage::RelFileLocator aborted_rel = mid->rel;
  CHECK(aborted_rel != old_rel);
  CHECK(c.FileExists(aborted_rel));
  CHECK(RowCount("tr") == 0);
  access::AbortTransaction();
  CHECK_FALSE(c.FileExists(aborted_rel));
  CHECK(c.FileExists(old_rel));
  InTransaction([&] {
    AcceptInvalidations();
    CHECK(RowCount("tr") == 3);
  });

  // Committed: new relfilenode, same oid and columns, no rows, old file unlinked.
  storage::RelFileLocator new_rel;
  InTransaction([&] {
    AcceptInvalidations();
    CHECK(TruncateTables(Names({"tr", "tr"})).count == 1);
    InsertInts("tr", {42});
    new_rel = LookupRelation("", "tr")->rel;
  });
  CHECK_FALSE(c.FileExists(old_rel));
  CHECK(storage::CountBuffersOfRelation(old_rel) == 0);
  CHECK(c.FileExists(new_rel));
  InTransaction([&] {
    AcceptInvalidations();
    RelationRef e = LookupRelation("", "tr");
    REQUIRE(e != nullptr);
    CHECK(e->oid == oid);
    CHECK(e->rel == new_rel);
    CHECK(e->info.columns.size() == 1);
    auto rows = [&] {
      HeapTableProvider prov;
      return ScanAll(prov, "tr");
    }();
    REQUIRE(rows.size() == 1);
    CHECK(rows[0][0].i == 42);
  });
}

TEST_CASE("OIDs are never reused across a crash or a clean restart", "[catalog][oid]") {
  CatalogCluster c;
  Oid first = 0, second = 0, third = 0;
  InTransaction([&] { first = Create("create table o1 (a int)").oid; });
  CHECK(first == kFirstNormalObjectId);
  CHECK(ReadOidControlFile(c.dir) == kFirstNormalObjectId + kOidPrefetch);
  c.Checkpoint();
  c.Restart();  // crash: the exact counter was never written
  InTransaction([&] { second = Create("create table o2 (a int)").oid; });
  CHECK(second > first);
  CHECK(second == kFirstNormalObjectId + kOidPrefetch);
  c.Shutdown();
  c.Restart();  // clean: continues exactly
  InTransaction([&] {
    AcceptInvalidations();
    CHECK(LookupRelation("", "o1") != nullptr);
    CHECK(LookupRelation("", "o2") != nullptr);
    third = Create("create table o3 (a int)").oid;
  });
  CHECK(third == second + 1);
}

TEST_CASE("Relation stats and the list of user tables", "[catalog][ddl]") {
  CatalogCluster c;
  Oid b = 0;
  InTransaction([&] {
    Create("create table bb (a int)");
    Create("create table aa (a int)");
    b = LookupRelation("", "bb")->oid;
    RelationStats st = GetRelationStats(b);
    CHECK(st.relpages == 0);
    CHECK(st.reltuples == -1);
  });
  InTransaction([&] { UpdateRelationStats(b, 7, 1234); });
  InTransaction([&] {
    RelationStats st = GetRelationStats(b);
    CHECK(st.relpages == 7);
    CHECK(st.reltuples == 1234);
    auto tables = ListUserTables();
    REQUIRE(tables.size() == 2);
    CHECK(tables[0]->info.name == "aa");
    CHECK(tables[1]->info.name == "bb");
    RequireDbError([] { GetRelationStats(99999); }, "42P01", "relation with OID 99999 does not exist");
  });
}
