// catalog/namespace_catalog.cpp
//
// Principal entry points: UserSchemaOid, SearchPathNamespaces,
// CreationNamespace.
#include "catalog/namespace_catalog.h"

#include <unordered_map>

#include "access/transam/xact.h"
#include "catalog/catalog_shared.h"
#include "catalog/privileges.h"
#include "catalog/role_catalog.h"
#include "catalog/temp_namespace.h"
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"

namespace hearth::catalog {

using types::Value;

const heap::TupleDesc& NamespaceTupleDesc() {
  using heap::ColumnDesc;
  // Order must match NamespaceCol.
  static const heap::TupleDesc desc({
      ColumnDesc::ForType(types::kOidOid),   // oid
      ColumnDesc::ForType(types::kNameOid),  // nspname
      ColumnDesc::ForType(types::kOidOid),   // nspowner
      ColumnDesc::ForType(types::kTextOid),  // nspacl
  });
  return desc;
}

heap::Row MakeSchemaRow(const SchemaFields& f) {
  heap::Row r(kNspNatts);
  r[kNspOid] = Value::Int(types::kOidOid, f.oid);
  r[kNspName] = Value::Bytes(types::kNameOid, f.name);
  r[kNspOwner] = Value::Int(types::kOidOid, f.owner);
  r[kNspAcl] = f.acl ? Value::Text(*f.acl) : Value::Null(types::kTextOid);
  return r;
}

namespace {

SchemaFields ParseSchemaRow(const heap::Row& r) {
  SchemaFields f{internal::RowOid(r, kNspOid), r[kNspName].str, internal::RowOid(r, kNspOwner), std::nullopt};
  if (r.size() > kNspAcl && !r[kNspAcl].is_null) f.acl = r[kNspAcl].str;
  return f;
}

struct SchemaCache {
  bool loaded = false;
  uint64_t version = 0;
  std::unordered_map<std::string, SchemaFields> by_name;
  std::unordered_map<Oid, SchemaFields> by_oid;
  uint64_t generation = 0;  // moves with every reload (search path cache key)
};

SchemaCache& Cache() {
  static SchemaCache c;
  return c;
}

// The cache, reloaded when stale and a transaction can read the catalog.
const SchemaCache& Fresh() {
  SchemaCache& c = Cache();
  const uint64_t v = CatalogVersion();
  if (c.loaded && c.version == v) return c;
  if (!access::IsTransactionInProgress()) return c;
  c.by_name.clear();
  c.by_oid.clear();
  for (const auto& t : internal::ScanCatalogWhere(NamespaceCatalogRel(), NamespaceTupleDesc(),
                                                  [](const heap::Row&) { return true; }, false)) {
    SchemaFields f = ParseSchemaRow(t.row);
    c.by_oid[f.oid] = f;
    c.by_name[f.name] = std::move(f);
  }
  c.loaded = true;
  c.version = v;
  ++c.generation;
  return c;
}

std::function<const std::string&()>& PathSource() {
  static std::function<const std::string&()> source;
  return source;
}

// The path's entries as written: unquoted names folded to lower case,
// quoted ones kept, "$user" kept as is.
std::vector<std::string> SplitSearchPath(const std::string& text) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == ',' || text[i] == '\t')) ++i;
    if (i >= text.size()) break;
    std::string item;
    if (text[i] == '"') {
      for (++i; i < text.size(); ++i) {
        if (text[i] == '"') {
          if (i + 1 < text.size() && text[i + 1] == '"') {
            item += '"';
            ++i;
            continue;
          }
          ++i;
          break;
        }
        item += text[i];
      }
    } else {
      while (i < text.size() && text[i] != ',') item += static_cast<char>(std::tolower(static_cast<unsigned char>(text[i++])));
      while (!item.empty() && (item.back() == ' ' || item.back() == '\t')) item.pop_back();
    }
    out.push_back(item);
  }
  return out;
}

struct ResolvedPath {
  std::vector<Oid> explicit_ns;  // the path's schemas that exist, in order
  std::vector<Oid> full;         // with the implicit temporary namespace and pg_catalog
};

// Resolved once per (path text, schema cache generation, current user).
const ResolvedPath& Resolved() {
  static ResolvedPath cached;
  static std::string cached_text;
  static uint64_t cached_generation = ~uint64_t{0};
  static Oid cached_user = ~Oid{0};
  static Oid cached_temp = ~Oid{0};
  static const std::string kDefault = "\"$user\", public";
  const std::string& text = PathSource() ? PathSource()() : kDefault;
  const SchemaCache& c = Fresh();
  const Oid user = GetCurrentUserId();
  const Oid temp = ActiveTempNamespace();
  if (text == cached_text && c.generation == cached_generation && user == cached_user && temp == cached_temp) {
    return cached;
  }
  ResolvedPath r;
  bool names_pg_catalog = false, names_temp = false;
  for (const std::string& item : SplitSearchPath(text)) {
    std::string name = item;
    if (name == "$user") {
      auto role = access::IsTransactionInProgress() ? FindRoleByOid(user) : std::nullopt;
      if (!role) continue;
      name = role->role.name;
    }
    if (name == "pg_temp") {
      names_temp = true;
      if (temp != 0) r.explicit_ns.push_back(temp);
      continue;
    }
    // Schemas the user may not use are left out (PostgreSQL's rule).
    const Oid ns = NamespaceOidUnchecked(name);
    if (ns == types::kInvalidOid) continue;
    if (UserSchema(ns) != nullptr && !SchemaUsable(ns, user)) continue;
    if (ns == kPgCatalogNamespace) names_pg_catalog = true;
    if (std::find(r.explicit_ns.begin(), r.explicit_ns.end(), ns) == r.explicit_ns.end()) r.explicit_ns.push_back(ns);
  }
  if (!names_temp && temp != 0) r.full.push_back(temp);
  if (!names_pg_catalog) r.full.push_back(kPgCatalogNamespace);
  r.full.insert(r.full.end(), r.explicit_ns.begin(), r.explicit_ns.end());
  cached = std::move(r);
  cached_text = text;
  cached_temp = temp;
  cached_generation = c.generation;
  cached_user = user;
  return cached;
}

}  // namespace

std::optional<SchemaTuple> FindSchemaRow(const std::string& name) {
  auto rows = internal::ScanCatalogWhere(NamespaceCatalogRel(), NamespaceTupleDesc(),
                                         [&](const heap::Row& r) { return r[kNspName].str == name; }, true);
  if (rows.empty()) return std::nullopt;
  return SchemaTuple{rows[0].tid, ParseSchemaRow(rows[0].row)};
}

std::optional<Oid> UserSchemaOid(const std::string& name) {
  const SchemaCache& c = Fresh();
  auto it = c.by_name.find(name);
  if (it == c.by_name.end()) return std::nullopt;
  return it->second.oid;
}

std::string UserSchemaName(Oid oid) {
  const SchemaCache& c = Fresh();
  auto it = c.by_oid.find(oid);
  return it == c.by_oid.end() ? std::string() : it->second.name;
}

Oid SchemaOwner(Oid ns) {
  const SchemaCache& c = Fresh();
  auto it = c.by_oid.find(ns);
  return it == c.by_oid.end() ? kBootstrapSuperuserOid : it->second.owner;
}

const SchemaFields* UserSchema(Oid ns) {
  const SchemaCache& c = Fresh();
  auto it = c.by_oid.find(ns);
  return it == c.by_oid.end() ? nullptr : &it->second;
}

std::vector<SchemaFields> ListUserSchemas() {
  std::vector<SchemaFields> out;
  for (const auto& [oid, f] : Fresh().by_oid) out.push_back(f);
  std::sort(out.begin(), out.end(), [](const SchemaFields& a, const SchemaFields& b) { return a.name < b.name; });
  return out;
}

void InvalidateSchemaCache() { Cache().loaded = false; }

void SetSearchPathSource(std::function<const std::string&()> source) { PathSource() = std::move(source); }

const std::vector<Oid>& SearchPathNamespaces() { return Resolved().full; }

Oid CreationNamespace() {
  const ResolvedPath& r = Resolved();
  if (r.explicit_ns.empty()) throw DbError(sqlstate::kInvalidSchemaName, "no schema has been selected to create in");
  return r.explicit_ns.front();
}

std::optional<Oid> CurrentSchemaOid() {
  const ResolvedPath& r = Resolved();
  if (r.explicit_ns.empty()) return std::nullopt;
  return r.explicit_ns.front();
}

std::optional<std::string> CurrentSchemaName() {
  std::optional<Oid> ns = CurrentSchemaOid();
  if (!ns) return std::nullopt;
  return NamespaceName(*ns);
}

}  // namespace hearth::catalog
