// catalog/inherit_ddl.cpp
//
// Principal entry points: MergeInheritedColumns, AlterTableInherit,
// InheritedDropVictims.
#include "catalog/inherit_ddl.h"

#include <algorithm>
#include <set>

#include "catalog/ddl_internal.h"
#include "catalog/inherit_catalog.h"
#include "catalog/pending_delete.h"
#include "catalog/privileges.h"
#include "catalog/temp_namespace.h"
#include "common/error/db_error.h"
#include "utils/adt/type_catalog.h"

namespace hearth::catalog {

namespace {

std::string TypeText(Oid type, int32_t typmod) { return types::FormatType(type, typmod); }

RelationRef OpenParent(const parser::RangeVar& rv) {
  const std::string name = internal::DdlTruncateName(rv.name);
  RelationRef p = OpenRelation(rv.schema, name, storage::LockMode::kShareUpdateExclusive);
  if (p == nullptr) {
    throw DbError("42P01", "relation \"" + (rv.schema.empty() ? "" : rv.schema + ".") + name + "\" does not exist");
  }
  if (p->relkind != 'r') {
    throw DbError("42809", "inherited relation \"" + name + "\" is not a table or foreign table");
  }
  return p;
}

std::string JoinLines(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += (out.empty() ? "" : "\n") + l;
  return out;
}

std::vector<internal::AttributeFields>::iterator FindAttr(std::vector<internal::AttributeFields>& attrs,
                                                          const std::string& name) {
  return std::find_if(attrs.begin(), attrs.end(), [&](const auto& a) { return a.attname == name; });
}

}  // namespace

std::vector<Oid> MergeInheritedColumns(const parser::CreateTableStmt& stmt,
                                       std::vector<internal::AttributeFields>* attrs,
                                       std::vector<ColumnSequencePlan>* sequences, std::vector<DdlNotice>* notices) {
  std::vector<Oid> parents;
  if (stmt.inherits.empty()) return parents;
  std::vector<internal::AttributeFields> merged;
  for (const parser::RangeVar& rv : stmt.inherits) {
    RelationRef p = OpenParent(rv);
    if (std::find(parents.begin(), parents.end(), p->oid) != parents.end()) {
      throw DbError("42P07", "relation \"" + p->info.name + "\" would be inherited from more than once");
    }
    if (IsTempNamespace(p->namespace_oid) && !stmt.temp) {
      throw DbError("42809", "cannot inherit from temporary relation \"" + p->info.name + "\"");
    }
    if (p->partition_key != nullptr && !stmt.partition_of) {
      throw DbError("42809", "cannot inherit from partitioned table \"" + p->info.name + "\"");
    }
    if (p->partition_bound != nullptr && !stmt.partition_of) {
      throw DbError("42809", "cannot inherit from partition \"" + p->info.name + "\"");
    }
    parents.push_back(p->oid);
    for (const executor::ColumnInfo& c : p->info.columns) {
      if (c.system_column) continue;
      auto it = FindAttr(merged, c.name);
      if (it != merged.end()) {
        notices->push_back({"00000", "merging multiple inherited definitions of column \"" + c.name + "\""});
        if (it->atttypid != c.type || it->atttypmod != c.typmod) {
          throw DbError("42804", "inherited column \"" + c.name + "\" has a type conflict")
              .WithDetail(TypeText(it->atttypid, it->atttypmod) + " versus " + TypeText(c.type, c.typmod));
        }
        it->attnotnull = it->attnotnull || c.not_null;
        continue;
      }
      internal::AttributeFields a;
      a.attname = c.name;
      a.atttypid = c.type;
      a.atttypmod = c.typmod;
      a.attnotnull = c.not_null;
      a.attdefault = c.default_expr;
      merged.push_back(std::move(a));
    }
  }
  // The local columns: merged into an inherited one of the same name, or
  // appended after them.
  const size_t inherited_count = merged.size();
  for (internal::AttributeFields& local : *attrs) {
    const int old_attnum = local.attnum;
    auto it = FindAttr(merged, local.attname);
    if (it == merged.end()) {
      merged.push_back(local);
      it = merged.end() - 1;
    } else if (stmt.partition_of) {
      // A partition's column options merge silently.
    } else if (it - merged.begin() + 1 == old_attnum) {
      notices->push_back({"00000", "merging column \"" + local.attname + "\" with inherited definition"});
    } else {
      notices->push_back({"00000", "moving and merging column \"" + local.attname + "\" with inherited definition", "",
                          "User-specified column moved to the position of the inherited column."});
    }
    if (it - merged.begin() + 1 <= static_cast<long>(inherited_count)) {
      if (it->atttypid != local.atttypid || it->atttypmod != local.atttypmod) {
        throw DbError("42804", "column \"" + local.attname + "\" has a type conflict")
            .WithDetail(TypeText(it->atttypid, it->atttypmod) + " versus " + TypeText(local.atttypid, local.atttypmod));
      }
      it->attnotnull = it->attnotnull || local.attnotnull;
      if (!local.attdefault.empty()) it->attdefault = local.attdefault;
    }
    const int new_attnum = static_cast<int>(it - merged.begin()) + 1;
    for (ColumnSequencePlan& sp : *sequences) {
      if (sp.attnum == old_attnum) sp.attnum = -new_attnum;  // negative: already moved
    }
  }
  for (ColumnSequencePlan& sp : *sequences) sp.attnum = -sp.attnum;
  for (size_t i = 0; i < merged.size(); ++i) merged[i].attnum = static_cast<int>(i) + 1;
  if (merged.size() > 1600) throw DbError("54011", "tables can have at most 1600 columns");
  *attrs = std::move(merged);
  return parents;
}

void AlterTableInherit(const RelationEntry& child, const parser::RangeVar& parent_rv, bool inherit) {
  RelationRef parent = OpenParent(parent_rv);
  std::vector<Oid> parents = child.parents;
  const auto at = std::find(parents.begin(), parents.end(), parent->oid);
  if (!inherit) {
    if (at == parents.end()) {
      throw DbError("42P01", "relation \"" + parent->info.name + "\" is not a parent of relation \"" + child.info.name +
                                 "\"");
    }
    parents.erase(at);
    MarkCatalogChanged(parent->oid);
    WriteInheritance(child.oid, parents, /*child_row=*/true);
    return;
  }
  CheckOwnership(*parent);
  if (parent->oid == child.oid) throw DbError("42P07", "circular inheritance not allowed")
                                    .WithDetail("\"" + child.info.name + "\" is already a child of \"" +
                                                child.info.name + "\".");
  if (at != parents.end()) {
    throw DbError("42P07", "relation \"" + parent->info.name + "\" would be inherited from more than once");
  }
  const std::vector<Oid> below = FindAllInheritors(child.oid);
  if (std::find(below.begin(), below.end(), parent->oid) != below.end()) {
    throw DbError("42P07", "circular inheritance not allowed")
        .WithDetail("\"" + parent->info.name + "\" is already a child of \"" + child.info.name + "\".");
  }
  for (const executor::ColumnInfo& pc : parent->info.columns) {
    if (pc.system_column) continue;
    auto cc = std::find_if(child.info.columns.begin(), child.info.columns.end(),
                           [&](const executor::ColumnInfo& c) { return c.name == pc.name; });
    if (cc == child.info.columns.end()) {
      throw DbError("42804", "child table is missing column \"" + pc.name + "\"");
    }
    if (cc->type != pc.type || cc->typmod != pc.typmod) {
      throw DbError("42804", "child table \"" + child.info.name + "\" has different type for column \"" + pc.name +
                                 "\"");
    }
    if (pc.not_null && !cc->not_null) {
      throw DbError("42804", "column \"" + pc.name + "\" in child table must be marked NOT NULL");
    }
  }
  parents.push_back(parent->oid);
  WriteInheritance(child.oid, parents, /*child_row=*/true);
}

namespace {

struct Dependent {
  RelationRef rel;
  std::string depends_on;
};

// PostgreSQL's order of dependent objects: a depth-first walk visiting the
// newest (highest oid) children first, each recorded after its own
// dependents, then reported in reverse.
void CollectDependents(const RelationEntry& parent, std::set<Oid>* seen, std::vector<Dependent>* post) {
  for (auto it = parent.children.rbegin(); it != parent.children.rend(); ++it) {
    if (!seen->insert(*it).second) continue;
    RelationRef child = OpenRelationByOid(*it, storage::LockMode::kAccessExclusive);
    if (child == nullptr) continue;
    CollectDependents(*child, seen, post);
    post->push_back({child, parent.info.name});
  }
}

}  // namespace

std::vector<parser::RangeVar> InheritedDropVictims(const std::vector<parser::RangeVar>& names, bool cascade,
                                                   std::vector<DdlNotice>* notices) {
  std::set<Oid> named;
  std::vector<RelationRef> roots;
  for (const parser::RangeVar& rv : names) {
    if (NamespaceOid(rv.schema) == types::kInvalidOid) continue;
    RelationRef e = OpenRelation(rv.schema, internal::DdlTruncateName(rv.name), storage::LockMode::kAccessExclusive);
    if (e == nullptr || e->relkind != 'r') continue;
    named.insert(e->oid);
    if (!e->children.empty()) roots.push_back(std::move(e));
  }
  std::vector<parser::RangeVar> extra;
  std::vector<std::string> depends, cascades;
  for (const RelationRef& root : roots) {
    std::set<Oid> seen = named;
    std::vector<Dependent> post;
    CollectDependents(*root, &seen, &post);
    if (root->partition_key != nullptr) {
      // Partitions go with their partitioned table, silently.
      for (const Dependent& d : post) {
        named.insert(d.rel->oid);
        parser::RangeVar rv;
        rv.schema = d.rel->info.schema;
        rv.name = d.rel->info.name;
        extra.push_back(std::move(rv));
      }
      continue;
    }
    for (auto it = post.rbegin(); it != post.rend(); ++it) {
      named.insert(it->rel->oid);
      depends.push_back("table " + it->rel->info.name + " depends on table " + it->depends_on);
      cascades.push_back("drop cascades to table " + it->rel->info.name);
      parser::RangeVar rv;
      rv.schema = it->rel->info.schema;
      rv.name = it->rel->info.name;
      extra.push_back(std::move(rv));
    }
    if (!cascade && !depends.empty()) {
      throw DbError("2BP01", "cannot drop table " + root->info.name + " because other objects depend on it")
          .WithDetail(JoinLines(depends))
          .WithHint("Use DROP ... CASCADE to drop the dependent objects too.");
    }
  }
  if (cascades.size() == 1) {
    notices->push_back({"00000", cascades[0]});
  } else if (!cascades.empty()) {
    notices->push_back(
        {"00000", "drop cascades to " + std::to_string(cascades.size()) + " other objects", "", JoinLines(cascades)});
  }
  return extra;
}

std::vector<parser::RangeVar> InheritedTruncateTargets(const std::vector<parser::RangeVar>& names) {
  std::vector<parser::RangeVar> out;
  std::set<Oid> seen;
  std::vector<Oid> roots;
  for (const parser::RangeVar& rv : names) {
    if (NamespaceOid(rv.schema) == types::kInvalidOid) continue;
    RelationRef e = LookupRelation(rv.schema, internal::DdlTruncateName(rv.name));
    if (e == nullptr) continue;
    seen.insert(e->oid);
    if (rv.inh && !e->children.empty()) roots.push_back(e->oid);
  }
  for (Oid root : roots) {
    for (Oid c : FindAllInheritors(root)) {
      if (!seen.insert(c).second) continue;
      RelationRef e = LookupRelationByOid(c);
      if (e == nullptr) continue;
      parser::RangeVar rv;
      rv.schema = e->info.schema;
      rv.name = e->info.name;
      out.push_back(std::move(rv));
    }
  }
  return out;
}

}  // namespace hearth::catalog
