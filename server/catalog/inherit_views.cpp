// catalog/inherit_views.cpp
//
// pg_inherits (2611) as a view over hearth_class.relinherits: one row per
// (child, parent) with the parent's 1-based position as inhseqno; and
// pg_partitioned_table (3350) over relpartkey / relpartbound.
#include <map>

#include "catalog/inherit_catalog.h"
#include "catalog/pg_catalog_views.h"

namespace hearth::catalog::internal {

void AddPgInherits(SystemViewProvider& p) {
  p.AddView(PgViewInfo(kPgInheritsOid, "pg_inherits",
                       {{"inhrelid", types::kOidOid},
                        {"inhparent", types::kOidOid},
                        {"inhseqno", types::kInt4Oid},
                        {"inhdetachpending", types::kBoolOid}}),
            [&p] {
              std::vector<executor::Row> out;
              for (const executor::Row& c : ScanCatalog(p.wrapped(), kHearthClassName)) {
                const std::vector<Oid> parents = ParentsInClassRow(c);
                for (size_t i = 0; i < parents.size(); ++i) {
                  out.push_back({OidValue(static_cast<Oid>(c[kClassOid].i)), OidValue(parents[i]),
                                 types::Value::Int4(static_cast<int32_t>(i) + 1), types::Value::Bool(false)});
                }
              }
              return out;
            });
}


// pg_partitioned_table (3350): one row per partitioned table (relpartkey
// "<strategy> attnum ..."), partdefid its DEFAULT partition (else 0).
void AddPgPartitionedTable(SystemViewProvider& p) {
  p.AddView(PgViewInfo(kPgPartitionedTableOid, "pg_partitioned_table",
                       {{"partrelid", types::kOidOid},
                        {"partstrat", types::kTextOid},
                        {"partnatts", types::kInt2Oid},
                        {"partdefid", types::kOidOid},
                        {"partattrs", types::kTextOid},
                        {"partclass", types::kOidArrayOid},
                        {"partcollation", types::kTextOid},
                        {"partexprs", types::kTextOid}}),
            [&p] {
              const std::vector<executor::Row> classes = ScanCatalog(p.wrapped(), kHearthClassName);
              std::map<Oid, Oid> defaults;  // partitioned table → its DEFAULT partition
              for (const executor::Row& c : classes) {
                if (c.size() <= kClassRelpartbound || c[kClassRelpartbound].is_null) continue;
                const std::vector<Oid> parents = ParentsInClassRow(c);
                if (c[kClassRelpartbound].str == "DEFAULT" && !parents.empty()) {
                  defaults[parents[0]] = static_cast<Oid>(c[kClassOid].i);
                }
              }
              std::vector<executor::Row> out;
              for (const executor::Row& c : classes) {
                if (c.size() <= kClassRelpartkey || c[kClassRelpartkey].is_null) continue;
                const std::string& key = c[kClassRelpartkey].str;
                const std::string attrs = key.size() > 2 ? key.substr(2) : "";
                const int natts = static_cast<int>(ParseOidList(attrs).size());
                std::string collations;
                for (int i = 0; i < natts; ++i) collations += i > 0 ? " 0" : "0";
                const Oid oid = static_cast<Oid>(c[kClassOid].i);
                out.push_back({OidValue(oid), CharValue(key.empty() ? 'r' : key[0]), Int2Value(natts),
                               OidValue(defaults.count(oid) != 0 ? defaults[oid] : 0), types::Value::Text(attrs),
                               types::Value::Null(types::kOidArrayOid), types::Value::Text(collations),
                               types::Value::Null(types::kTextOid)});
              }
              return out;
            });
}

}  // namespace hearth::catalog::internal
