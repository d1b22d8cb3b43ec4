// server/utils/adt/user_types.cpp
//
// Principal entry points: FindUserType, LookupTypeByQualifiedName,
// EnumInput, CompareEnumValues.
#include "utils/adt/user_types.h"

#include <cctype>

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"

namespace hearth::types {
namespace {

UserTypeLoader g_loader = nullptr;
UserTypeSearchPath g_search_path = nullptr;

const std::vector<Oid>& SearchPath() {
  static const std::vector<Oid> kNone;
  return g_search_path != nullptr ? g_search_path() : kNone;
}

// Every snapshot handed out stays alive for the process: callers keep
// TypeInfo pointers (and label references) across statements, and a new
// snapshot is made only when the catalog changed, so this grows with DDL
// on types, not with queries.
std::vector<std::shared_ptr<const UserTypeSet>>& Retained() {
  static std::vector<std::shared_ptr<const UserTypeSet>> retained;
  return retained;
}

const UserTypeSet& Current() {
  static const UserTypeSet kEmpty;
  if (g_loader == nullptr) return kEmpty;
  std::shared_ptr<const UserTypeSet> s = g_loader();
  if (s == nullptr) return kEmpty;
  auto& retained = Retained();
  if (retained.empty() || retained.back() != s) retained.push_back(s);
  return *retained.back();
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

std::string QuoteIdentIfNeeded(const std::string& s) {
  bool plain = !s.empty() && (std::islower(static_cast<unsigned char>(s[0])) || s[0] == '_');
  for (char c : s) {
    plain = plain && (std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_');
  }
  if (plain) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace

std::string FormatUserTypeName(const UserType& t) {
  bool visible = false;
  for (Oid ns : SearchPath()) {
    if (ns == t.namespace_oid) {
      visible = FindUserTypeByName("", t.name) == &t;
      break;
    }
  }
  const std::string name = QuoteIdentIfNeeded(t.name);
  return visible ? name : QuoteIdentIfNeeded(t.namespace_name) + "." + name;
}

void UserTypeSet::Index() {
  by_oid.clear();
  labels.clear();
  for (const std::unique_ptr<UserType>& p : types) {
    UserType& t = *p;
    const bool is_enum = t.typtype == 'e';
    Storage storage = Storage::kInt;
    int16_t len = 4;
    TypeCategory category = TypeCategory::kEnum;
    if (!is_enum) {
      // The base is resolved inside this set: the loader is still running.
      const TypeInfo* b = nullptr;
      Oid base = t.base_type;
      for (int depth = 0; depth < 64 && b == nullptr; ++depth) {
        if (base < kFirstUserTypeOid) {
          b = LookupType(base);
          break;
        }
        const UserType* u = nullptr;
        for (const std::unique_ptr<UserType>& q : types) {
          if (q->oid == base) u = q.get();
        }
        if (u == nullptr) break;
        if (u->typtype != 'd') {
          static const TypeInfo kEnumInfo{kInvalidOid, "", "", 4, TypeCategory::kEnum, false, Storage::kInt};
          b = &kEnumInfo;
          break;
        }
        base = u->base_type;
      }
      storage = b ? b->storage : Storage::kBytes;
      len = b ? b->typlen : -1;
      category = b ? b->category : TypeCategory::kUser;
    }
    t.info = TypeInfo{t.oid, t.name.c_str(), t.name.c_str(), len, category, false, storage};
    by_oid[t.oid] = &t;
    if (t.array_oid != kInvalidOid) {
      t.array_name = "_" + t.name;
      t.array_info = TypeInfo{t.array_oid, t.array_name.c_str(), t.array_name.c_str(), -1,
                              TypeCategory::kArray, false, Storage::kBytes, t.oid};
      by_oid[t.array_oid] = &t;
    }
    for (size_t i = 0; i < t.labels.size(); ++i) labels[t.labels[i].oid] = {&t, i};
  }
}

void SetUserTypeLoader(UserTypeLoader loader) { g_loader = loader; }
void SetUserTypeSearchPath(UserTypeSearchPath search_path) { g_search_path = search_path; }

std::shared_ptr<const UserTypeSet> CurrentUserTypes() {
  Current();
  auto& retained = Retained();
  return retained.empty() ? std::make_shared<const UserTypeSet>() : retained.back();
}

const UserType* FindUserType(Oid oid) {
  if (!MayBeUserType(oid) || g_loader == nullptr) return nullptr;
  const UserTypeSet& s = Current();
  auto it = s.by_oid.find(oid);
  return it == s.by_oid.end() ? nullptr : it->second;
}

const UserType* FindEnumType(Oid oid) {
  const UserType* t = FindUserType(oid);
  return t != nullptr && t->oid == oid && t->typtype == 'e' ? t : nullptr;
}

const UserType* FindDomainType(Oid oid) {
  const UserType* t = FindUserType(oid);
  return t != nullptr && t->oid == oid && t->typtype == 'd' ? t : nullptr;
}

const UserType* FindUserTypeByName(std::string_view schema, std::string_view name) {
  if (g_loader == nullptr) return nullptr;
  const UserTypeSet& s = Current();
  auto in = [&](Oid ns) -> const UserType* {
    for (const std::unique_ptr<UserType>& t : s.types) {
      if (t->namespace_oid == ns && t->name == name) return t.get();
    }
    return nullptr;
  };
  if (!schema.empty()) {
    for (const std::unique_ptr<UserType>& t : s.types) {
      if (t->namespace_name == schema && t->name == name) return t.get();
    }
    return nullptr;
  }
  for (Oid ns : SearchPath()) {
    if (const UserType* t = in(ns)) return t;
  }
  return nullptr;
}

const TypeInfo* LookupTypeByQualifiedName(std::string_view schema, std::string_view name) {
  if (schema.empty() || schema == "pg_catalog") {
    const TypeInfo* t = LookupTypeByName(name);
    if (t != nullptr && (schema.empty() || t->oid < kFirstUserTypeOid)) return t;
    if (schema == "pg_catalog") return nullptr;
  }
  if (name.size() > 2 && name.substr(name.size() - 2) == "[]") {
    const UserType* t = FindUserTypeByName(schema, name.substr(0, name.size() - 2));
    return t != nullptr && t->array_oid != kInvalidOid ? &t->array_info : nullptr;
  }
  if (!name.empty() && name[0] == '_') {  // the array type by its pg_type name
    const UserType* t = FindUserTypeByName(schema, name.substr(1));
    if (t != nullptr && t->array_oid != kInvalidOid) return &t->array_info;
  }
  const UserType* t = FindUserTypeByName(schema, name);
  if (t == nullptr && !schema.empty()) {
    // Case-insensitive fallback for names typed unquoted in mixed case.
    for (const std::unique_ptr<UserType>& u : Current().types) {
      if (u->namespace_name == schema && EqualsIgnoreCase(u->name, name)) t = u.get();
    }
  }
  return t ? &t->info : nullptr;
}

Oid DomainBaseType(Oid type, int32_t* typmod) {
  for (int depth = 0; depth < 64; ++depth) {
    const UserType* d = FindDomainType(type);
    if (d == nullptr) return type;
    if (typmod != nullptr && *typmod < 0) *typmod = d->base_typmod;
    type = d->base_type;
  }
  return type;
}

Value EnumInput(const UserType& t, std::string_view text) {
  for (const EnumLabel& l : t.labels) {
    if (l.label == text) return Value::Int(t.oid, l.oid);
  }
  throw DbError(sqlstate::kInvalidTextRepresentation,
                "invalid input value for enum " + t.name + ": \"" + std::string(text) + "\"");
}

const std::string& EnumLabelText(Oid type, Oid label_oid) {
  const UserTypeSet& s = Current();
  auto it = s.labels.find(label_oid);
  if (it == s.labels.end()) {
    throw DbError(sqlstate::kInvalidBinaryRepresentation,
                  "invalid internal value for enum: " + std::to_string(label_oid) + " (type " + std::to_string(type) + ")");
  }
  return it->second.first->labels[it->second.second].label;
}

double EnumSortOrder(Oid label_oid) {
  const UserTypeSet& s = Current();
  auto it = s.labels.find(label_oid);
  if (it == s.labels.end()) {
    throw DbError(sqlstate::kInvalidBinaryRepresentation, "invalid internal value for enum: " + std::to_string(label_oid));
  }
  return it->second.first->labels[it->second.second].sort_order;
}

int CompareEnumValues(const Value& a, const Value& b) {
  if (a.i == b.i) return 0;
  const double x = EnumSortOrder(static_cast<Oid>(a.i)), y = EnumSortOrder(static_cast<Oid>(b.i));
  return x < y ? -1 : (x > y ? 1 : 0);
}

}  // namespace hearth::types
