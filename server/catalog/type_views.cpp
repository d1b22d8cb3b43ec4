// catalog/type_views.cpp
//
// Principal entry points: internal::AppendUserTypeRows (pg_type's rows of
// enums, their array types and domains), AddPgEnumView (pg_enum over
// hearth_enum), AppendDomainConstraintRows (pg_constraint's domain CHECKs),
// DomainConstraintDefinition (pg_get_constraintdef of those).
#include "catalog/constraint_catalog.h"
#include "catalog/pg_catalog_views.h"
#include "catalog/type_catalog_rows.h"
#include "utils/adt/type_catalog.h"
#include "utils/adt/user_types.h"

namespace hearth::catalog::internal {

namespace {

using executor::Row;
using types::Value;
using namespace types;

// PostgreSQL's pg_proc oids of enum_in / enum_out / enum_recv / enum_send
// and array_in / array_out / array_recv / array_send.
constexpr Oid kEnumIn = 3504, kEnumOut = 3505, kEnumRecv = 3532, kEnumSend = 3533;
constexpr Oid kArrayIn = 750, kArrayOut = 751, kArrayRecv = 2400, kArraySend = 2401;
constexpr Oid kArraySubscriptHandler = 6179;

// The 32 columns of AddPgType's view.
Row TypeRow(Oid oid, const std::string& name, Oid ns, Oid owner, int16_t len, char typtype, char category,
            Oid elem, Oid array, const Oid (&io)[4], char align, char storage, bool not_null, Oid base, int32_t typmod,
            Oid collation, const std::optional<std::string>& def) {
  const bool byval = len == 1 || len == 2 || len == 4 || len == 8;
  const Value def_value = def ? Value::Text(*def) : Value::Null(kTextOid);
  return {OidValue(oid), NameValue(name), OidValue(ns), OidValue(owner), Int2Value(len), Value::Bool(byval),
          CharValue(typtype), CharValue(category), Value::Bool(false), Value::Bool(true), CharValue(','),
          OidValue(0), OidValue(elem != 0 ? kArraySubscriptHandler : 0), OidValue(elem), OidValue(array),
          OidValue(io[0]), OidValue(io[1]), OidValue(io[2]), OidValue(io[3]), OidValue(0), OidValue(0), OidValue(0),
          CharValue(align), CharValue(storage), Value::Bool(not_null), OidValue(base), Value::Int4(typmod),
          Value::Int4(0), OidValue(collation), def_value, def_value, Value::Null(kTextOid)};
}

}  // namespace

void AppendUserTypeRows(std::vector<Row>* out) {
  std::shared_ptr<const UserTypeSet> set = CurrentUserTypes();
  for (const std::unique_ptr<UserType>& t : set->types) {
    if (t->typtype == 'e') {
      const Oid io[4] = {kEnumIn, kEnumOut, kEnumRecv, kEnumSend};
      out->push_back(TypeRow(t->oid, t->name, t->namespace_oid, t->owner, 4, 'e', 'E', 0, t->array_oid, io, 'i', 'p',
                             false, 0, -1, 0, std::nullopt));
      const Oid aio[4] = {kArrayIn, kArrayOut, kArrayRecv, kArraySend};
      out->push_back(TypeRow(t->array_oid, "_" + t->name, t->namespace_oid, t->owner, -1, 'b', 'A', t->oid, 0, aio,
                             'i', 'x', false, 0, -1, 0, std::nullopt));
      continue;
    }
    const Oid base = DomainBaseType(t->oid);
    const TypeInfo* b = LookupType(base);
    const int16_t len = b ? b->typlen : -1;
    const char align = len == 8 ? 'd' : len == 2 ? 's' : (len == 1 || len == 64 || len == -2) ? 'c' : 'i';
    const char storage = base == kNumericOid ? 'm' : len == -1 ? 'x' : 'p';
    const Oid io[4] = {0, 0, 0, 0};  // domain_in / domain_recv in PostgreSQL; the base's output
    out->push_back(TypeRow(t->oid, t->name, t->namespace_oid, t->owner, len, 'd',
                           static_cast<char>(b ? b->category : TypeCategory::kUser), 0, 0, io, align, storage,
                           t->not_null, t->base_type, t->base_typmod, TypeCollation(base), t->default_expr));
  }
}

void AddPgEnumView(SystemViewProvider& p) {
  p.AddView(PgViewInfo(kPgEnumOid, "pg_enum",
                       {{"oid", kOidOid}, {"enumtypid", kOidOid}, {"enumsortorder", kFloat4Oid}, {"enumlabel", kNameOid}}),
            [] {
              std::vector<Row> out;
              std::shared_ptr<const UserTypeSet> set = CurrentUserTypes();
              for (const std::unique_ptr<UserType>& t : set->types) {
                for (const EnumLabel& l : t->labels) {
                  out.push_back({OidValue(l.oid), OidValue(t->oid), Value::Float(kFloat4Oid, static_cast<float>(l.sort_order)),
                                 NameValue(l.label)});
                }
              }
              return out;
            });
}

void AppendDomainConstraintRows(std::vector<Row>* out) {
  std::shared_ptr<const UserTypeSet> set = CurrentUserTypes();
  for (const std::unique_ptr<UserType>& t : set->types) {
    for (const DomainCheck& c : t->checks) {
      const Value none = Value::Null(kTextOid);
      out->push_back({OidValue(c.oid), NameValue(c.name), OidValue(t->namespace_oid), CharValue('c'),
                      Value::Bool(false), Value::Bool(false), Value::Bool(true), OidValue(0), OidValue(t->oid),
                      OidValue(0), OidValue(0), OidValue(0), CharValue(' '), CharValue(' '), CharValue(' '),
                      Value::Bool(true), Value::Int4(0), Value::Bool(false), none, none, none, none, none, none,
                      none, Value::Text(c.expr)});
    }
  }
}

}  // namespace hearth::catalog::internal

namespace hearth::catalog {

std::optional<std::string> DomainConstraintDefinition(Oid oid, bool pretty) {
  std::shared_ptr<const types::UserTypeSet> set = types::CurrentUserTypes();
  for (const std::unique_ptr<types::UserType>& t : set->types) {
    for (const types::DomainCheck& c : t->checks) {
      if (c.oid != oid) continue;
      ConstraintFields f;
      f.type = 'c';
      f.bin = c.expr;
      return FormatConstraintDefinition(f, pretty);
    }
  }
  return std::nullopt;
}

}  // namespace hearth::catalog
