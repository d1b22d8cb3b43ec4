// catalog/view_ddl.cpp
//
// Principal entry points: CreateView, DropViews, DropDependentViews,
// RenameView.
#include "catalog/view_ddl.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "access/transam/xact.h"
#include "catalog/catalog_indexes.h"
#include "catalog/default_acl.h"
#include "catalog/catalog_rows.h"
#include "catalog/catalog_shared.h"
#include "catalog/ddl_internal.h"
#include "catalog/inherit_catalog.h"
#include "catalog/description_catalog.h"
#include "catalog/pending_delete.h"
#include "catalog/privileges.h"
#include "catalog/temp_namespace.h"
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "utils/adt/type_catalog.h"

namespace hearth::catalog {

namespace {

void RequireTransaction() {
  if (!access::IsTransactionInProgress()) throw std::logic_error("catalog DDL outside a transaction");
}

const char* KindName(char relkind) {
  switch (relkind) {
    case 'v': return "view";
    case 'S': return "sequence";
    default: return "table";
  }
}

// Space-separated oid lists (relviewdeps): inherit_catalog.h's.
std::string FormatOids(const std::vector<Oid>& oids) { return FormatOidList(oids); }
std::vector<Oid> ParseOids(const std::string& text) { return ParseOidList(text); }

// Every view's name and direct dependencies (one scan of hearth_class).
struct ViewRow {
  std::string name;
  std::vector<Oid> deps;
};
std::map<Oid, ViewRow> AllViews() {
  std::map<Oid, ViewRow> out;
  for (const internal::CatalogTuple& t : internal::FindClassesInNamespace(0)) {
    if (t.row[kClassRelkind].str != "v" || t.row.size() <= kClassRelviewdeps) continue;
    const heap::Row& r = t.row;
    out[internal::RowOid(r, kClassOid)] =
        ViewRow{r[kClassRelname].str, r[kClassRelviewdeps].is_null ? std::vector<Oid>{} : ParseOids(r[kClassRelviewdeps].str)};
  }
  return out;
}

void DeleteRelationRows(Oid oid) {
  const access::TransactionId xid = access::GetCurrentTransactionId();
  const access::CommandId cid = access::GetCurrentCommandId(true);
  auto cls = internal::FindClassByOid(oid);
  if (!cls) throw DbError(sqlstate::kInternalError, "cache lookup failed for relation " + std::to_string(oid));
  internal::DdlDeleteCatalogTuple(ClassRel(), cls->tid, xid, cid);
  for (const internal::CatalogTuple& a : internal::FindAttributes(oid)) {
    internal::DdlDeleteCatalogTuple(AttributeRel(), a.tid, xid, cid);
  }
  DeleteDescriptions(oid, kPgClassClassOid);
}

// OR REPLACE: the new columns must extend the old ones (42P16 as PostgreSQL).
void CheckReplacedColumns(const RelationEntry& old, const std::vector<ViewColumnSpec>& cols) {
  const std::vector<executor::ColumnInfo>& prev = old.info.columns;
  if (cols.size() < prev.size()) throw DbError("42P16", "cannot drop columns from view");
  for (size_t i = 0; i < prev.size(); ++i) {
    if (prev[i].name != cols[i].name) {
      throw DbError("42P16", "cannot change name of view column \"" + prev[i].name + "\" to \"" + cols[i].name + "\"")
          .WithHint("Use ALTER VIEW ... RENAME COLUMN ... to change name of view column instead.");
    }
    if (prev[i].type != cols[i].type || prev[i].typmod != cols[i].typmod) {
      throw DbError("42P16", "cannot change data type of view column \"" + prev[i].name + "\" from " +
                                 types::FormatType(prev[i].type, prev[i].typmod) + " to " +
                                 types::FormatType(cols[i].type, cols[i].typmod));
    }
  }
}

void InsertColumns(Oid view, const std::vector<ViewColumnSpec>& cols, size_t from) {
  const access::TransactionId xid = access::GetCurrentTransactionId();
  const access::CommandId cid = access::GetCurrentCommandId(true);
  for (size_t i = from; i < cols.size(); ++i) {
    internal::AttributeFields a;
    a.attrelid = view;
    a.attname = cols[i].name;
    a.atttypid = cols[i].type;
    a.atttypmod = cols[i].typmod;
    a.attnum = static_cast<int>(i) + 1;
    internal::CatalogInsert(kHearthAttributeOid, internal::MakeAttributeRow(a), xid, cid);
  }
}

DdlResult ReplaceView(const ViewDefinition& def, Oid oid) {
  RelationRef old = OpenRelationByOid(oid, storage::LockMode::kAccessExclusive);
  if (old == nullptr) throw DbError(sqlstate::kUndefinedTable, "relation \"" + def.name.name + "\" does not exist");
  if (old->relkind != 'v') throw DbError("42809", "\"" + old->info.name + "\" is not a view");
  CheckOwnership(*old);
  CheckReplacedColumns(*old, def.columns);
  auto cls = internal::FindClassByOid(oid);
  if (!cls) throw DbError(sqlstate::kInternalError, "cache lookup failed for relation " + std::to_string(oid));
  heap::Row row = cls->row;
  row.resize(kClassNatts, types::Value::Null(types::kTextOid));
  row[kClassRelnatts] = types::Value::Int(types::kInt2Oid, static_cast<int64_t>(def.columns.size()));
  row[kClassRelviewdef] = types::Value::Text(def.query);
  row[kClassRelviewdeps] = types::Value::Text(FormatOids(def.depends_on));
  MarkCatalogChanged(oid);
  internal::CatalogUpdate(kHearthClassOid, cls->tid, row, access::GetCurrentTransactionId(),
                          access::GetCurrentCommandId(true));
  InsertColumns(oid, def.columns, old->info.columns.size());
  access::CommandCounterIncrement();
  DdlResult result;
  result.oid = oid;
  result.count = 1;
  return result;
}

// Appends the views depending on `oid` (not in `skip`), depth first, with
// PostgreSQL's detail lines.
void CollectDependents(Oid oid, const std::string& what, const std::map<Oid, ViewRow>& views, std::set<Oid>* skip,
                       std::vector<Oid>* found, std::vector<std::string>* lines) {
  for (const auto& [view, row] : views) {
    if (skip->count(view) != 0 || std::find(row.deps.begin(), row.deps.end(), oid) == row.deps.end()) continue;
    skip->insert(view);
    found->push_back(view);
    lines->push_back("view " + row.name + " depends on " + what);
    CollectDependents(view, "view " + row.name, views, skip, found, lines);
  }
}

std::string JoinLines(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += (out.empty() ? "" : "\n") + l;
  return out;
}

}  // namespace

DdlResult CreateView(const ViewDefinition& def) {
  RequireTransaction();
  const std::string relname = internal::DdlTruncateName(def.name.name);
  std::set<std::string> names;
  for (const ViewColumnSpec& c : def.columns) {
    if (!names.insert(c.name).second) throw DbError("42701", "column \"" + c.name + "\" specified more than once");
  }
  DdlResult result;
  bool temp = def.temp;
  if (!temp && def.name.schema.empty()) {
    for (Oid dep : def.depends_on) {
      RelationRef r = LookupRelationByOid(dep);
      if (r != nullptr && IsTempNamespace(r->namespace_oid)) temp = true;
    }
    if (temp) result.notices.push_back({"00000", "view \"" + relname + "\" will be a temporary view"});
  }
  const Oid ns = internal::DdlNamespaceForCreate(def.name, relname, temp);
  internal::LockRelationName(ns, relname);
  if (auto existing = internal::FindClassByName(ns, relname)) {
    if (!def.or_replace) throw DbError("42P07", "relation \"" + relname + "\" already exists");
    DdlResult replaced = ReplaceView(def, internal::RowOid(existing->row, kClassOid));
    replaced.notices = std::move(result.notices);
    return replaced;
  }
  if (internal::FindIndexByName(ns, relname)) throw DbError("42P07", "relation \"" + relname + "\" already exists");
  NoteViewCreated();
  const Oid oid = GetNewObjectId();
  internal::ClassFields cf;
  cf.oid = oid;
  cf.relname = relname;
  cf.relnamespace = ns;
  cf.relfilenode = 0;
  cf.relnatts = static_cast<int>(def.columns.size());
  cf.relkind = 'v';
  cf.owner = OwnerForNewObject();
  cf.acl = NewRelationAcl(cf.relkind, cf.owner, ns);  // ALTER DEFAULT PRIVILEGES
  cf.viewdef = def.query;
  cf.viewdeps = FormatOids(def.depends_on);
  MarkCatalogChanged(oid);
  internal::CatalogInsert(kHearthClassOid, internal::MakeClassRow(cf), access::GetCurrentTransactionId(),
                          access::GetCurrentCommandId(true));
  InsertColumns(oid, def.columns, 0);
  access::CommandCounterIncrement();
  result.oid = oid;
  result.count = 1;
  return result;
}

DdlResult DropDependentViews(const std::vector<RelationRef>& relations, parser::DropBehavior behavior) {
  RequireTransaction();
  DdlResult result;
  if (relations.empty() || ViewsExist() == ViewsKnown::kNone) return result;
  const std::map<Oid, ViewRow> views = AllViews();
  if (views.empty()) {
    NoteNoViews();
    return result;
  }
  std::set<Oid> skip;
  for (const RelationRef& r : relations) skip.insert(r->oid);
  std::vector<Oid> found;
  std::vector<std::string> depends;
  for (const RelationRef& r : relations) {
    CollectDependents(r->oid, std::string(KindName(r->relkind)) + " " + r->info.name, views, &skip, &found, &depends);
  }
  if (found.empty()) return result;
  if (behavior != parser::DropBehavior::kCascade) {
    const std::string what = relations.size() == 1
                                 ? std::string(KindName(relations[0]->relkind)) + " " + relations[0]->info.name
                                 : "desired object(s)";
    throw DbError("2BP01", "cannot drop " + what + " because other objects depend on " +
                               (relations.size() == 1 ? "it" : "them"))
        .WithDetail(JoinLines(depends))
        .WithHint("Use DROP ... CASCADE to drop the dependent objects too.");
  }
  std::vector<std::string> cascades;
  for (Oid v : found) cascades.push_back("drop cascades to view " + views.at(v).name);
  if (found.size() == 1) {
    result.notices.push_back({"00000", cascades[0]});
  } else {
    result.notices.push_back(
        {"00000", "drop cascades to " + std::to_string(found.size()) + " other objects", "", JoinLines(cascades)});
  }
  for (Oid v : found) {
    if (OpenRelationByOid(v, storage::LockMode::kAccessExclusive) == nullptr) continue;
    MarkCatalogChanged(v);
    DeleteRelationRows(v);
    ++result.count;
  }
  access::CommandCounterIncrement();
  return result;
}

DdlResult DropViews(const std::vector<parser::RangeVar>& names, bool if_exists, parser::DropBehavior behavior) {
  RequireTransaction();
  DdlResult result;
  std::vector<RelationRef> victims;
  std::set<Oid> seen;
  for (const parser::RangeVar& rv : names) {
    const std::string name = internal::DdlTruncateName(rv.name);
    if (NamespaceOid(rv.schema) == types::kInvalidOid) {
      if (if_exists) {
        result.notices.push_back({"00000", "schema \"" + rv.schema + "\" does not exist, skipping"});
        continue;
      }
      throw DbError("3F000", "schema \"" + rv.schema + "\" does not exist");
    }
    RelationRef e = OpenRelation(rv.schema, name, storage::LockMode::kAccessExclusive);
    if (e == nullptr) {
      if (if_exists) {
        result.notices.push_back({"00000", "view \"" + name + "\" does not exist, skipping"});
        continue;
      }
      throw DbError("42P01", "view \"" + name + "\" does not exist");
    }
    if (e->relkind != 'v') {
      throw DbError("42809", "\"" + name + "\" is not a view")
          .WithHint(std::string("Use DROP ") + (e->relkind == 'S' ? "SEQUENCE to remove a sequence."
                                                                   : "TABLE to remove a table."));
    }
    CheckOwnership(*e);
    if (seen.insert(e->oid).second) victims.push_back(std::move(e));
  }
  DdlResult cascaded = DropDependentViews(victims, behavior);
  result.notices.insert(result.notices.end(), cascaded.notices.begin(), cascaded.notices.end());
  for (const RelationRef& v : victims) {
    MarkCatalogChanged(v->oid);
    DeleteRelationRows(v->oid);
    ++result.count;
  }
  if (!victims.empty()) access::CommandCounterIncrement();
  return result;
}

DdlResult RenameView(const parser::RenameRelationStmt& stmt) {
  RequireTransaction();
  DdlResult result;
  const std::string name = internal::DdlTruncateName(stmt.object.name);
  RelationRef e = NamespaceOid(stmt.object.schema) == types::kInvalidOid
                      ? nullptr
                      : OpenRelation(stmt.object.schema, name, storage::LockMode::kAccessExclusive);
  if (e == nullptr) {
    if (stmt.if_exists) {
      result.notices.push_back({"00000", "relation \"" + name + "\" does not exist, skipping"});
      return result;
    }
    throw DbError("42P01", "relation \"" + name + "\" does not exist");
  }
  if (e->relkind != 'v') throw DbError("42809", "\"" + name + "\" is not a view");
  CheckOwnership(*e);
  const std::string new_name = internal::DdlTruncateName(stmt.new_name);
  internal::LockRelationName(e->namespace_oid, new_name);
  if (internal::FindClassByName(e->namespace_oid, new_name) || internal::FindIndexByName(e->namespace_oid, new_name)) {
    throw DbError("42P07", "relation \"" + new_name + "\" already exists");
  }
  for (const auto& [view, row] : AllViews()) {
    // Dependent views name this one in their stored text.
    if (std::find(row.deps.begin(), row.deps.end(), e->oid) != row.deps.end()) {
      throw DbError(sqlstate::kFeatureNotSupported,
                    "cannot rename view \"" + name + "\" because view \"" + row.name + "\" depends on it");
    }
  }
  auto cls = internal::FindClassByOid(e->oid);
  if (!cls) throw DbError(sqlstate::kInternalError, "cache lookup failed for relation " + std::to_string(e->oid));
  heap::Row row = cls->row;
  row[kClassRelname] = types::Value::Bytes(types::kNameOid, new_name);
  MarkCatalogChanged(e->oid);
  internal::CatalogUpdate(kHearthClassOid, cls->tid, row, access::GetCurrentTransactionId(),
                          access::GetCurrentCommandId(true));
  access::CommandCounterIncrement();
  result.count = 1;
  return result;
}

namespace {
ViewDefinitionPrinter& Printer() {
  static ViewDefinitionPrinter printer;
  return printer;
}
}  // namespace

void SetViewDefinitionPrinter(ViewDefinitionPrinter printer) { Printer() = std::move(printer); }

std::string PrintViewDefinition(const executor::TableInfo& view, bool pretty) {
  if (Printer()) return Printer()(view, pretty);
  return " " + view.view_query + ";";
}

std::vector<Oid> ViewDependencies(Oid view) {
  auto cls = internal::FindClassByOid(view);
  if (!cls || cls->row.size() <= kClassRelviewdeps || cls->row[kClassRelviewdeps].is_null) return {};
  return ParseOids(cls->row[kClassRelviewdeps].str);
}

}  // namespace hearth::catalog
