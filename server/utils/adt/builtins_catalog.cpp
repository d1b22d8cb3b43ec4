// server/utils/adt/builtins_catalog.cpp
//
// PostgreSQL's system information functions that psql's \d family and
// pg_dump call: format_type, pg_get_userbyid, pg_get_indexdef,
// pg_get_constraintdef, pg_get_expr, the *_is_visible family,
// obj_description & co., pg_encoding_to_char, pg_tablespace_location,
// quote_ident, quote_literal, array_to_string. Those that need the catalog
// go through the session's CatalogCallbacks. Facts Hearth fixes today:
// every relation lives in public or pg_catalog, both on the search path
// (so every relation and type is visible), one tablespace without a location,
// and array values are their text form ('{a,b}').
#include <algorithm>
#include <cctype>
#include <string>

#include "common/error/db_error.h"
#include "utils/adt/builtins.h"
#include "utils/adt/regclass.h"
#include "utils/adt/type_catalog.h"

namespace hearth::types::internal {
namespace {

const CatalogCallbacks* Catalog(FuncCallContext& c) { return c.session ? &c.session->catalog : nullptr; }

// format_type(type, typmod): NULL type → NULL; NULL typmod → no modifier.
Value FormatTypeFn(const Value* a, int, FuncCallContext&) {
  if (a[0].is_null) return Value::Null(kTextOid);
  return Value::Text(FormatType(static_cast<Oid>(a[0].i), a[1].is_null ? kNoTypmod : static_cast<int32_t>(a[1].i)));
}

Value UserById(const Value* a, int, FuncCallContext& c) {
  const auto* cat = Catalog(c);
  const auto oid = static_cast<uint32_t>(a[0].i);
  if (cat == nullptr || !cat->role_name) return Value::Bytes(kNameOid, "unknown (OID=" + std::to_string(oid) + ")");
  return Value::Bytes(kNameOid, cat->role_name(oid));
}

Value AlwaysVisible(const Value*, int, FuncCallContext&) { return Value::Bool(true); }

// A relation is visible when its unqualified name finds it (another
// session's temporary tables are not; a temporary table hides a public one).
Value TableIsVisible(const Value* a, int, FuncCallContext&) {
  const RelationNameHooks& hooks = CurrentRelationNameHooks();
  if (hooks.name_of == nullptr) return Value::Bool(true);
  auto name = hooks.name_of(static_cast<Oid>(a[0].i));
  return Value::Bool(!name || name->on_search_path);
}

Value IndexDef(const Value* a, int n, FuncCallContext& c) {
  const auto* cat = Catalog(c);
  if (cat == nullptr || !cat->index_def) return Value::Null(kTextOid);
  auto def = cat->index_def(static_cast<uint32_t>(a[0].i), n > 1 ? static_cast<int>(a[1].i) : 0);
  return def ? Value::Text(*def) : Value::Null(kTextOid);
}

// pg_get_partkeydef: NULL for a relation that is not partitioned.
Value PartKeyDef(const Value* a, int, FuncCallContext& c) {
  const auto* cat = Catalog(c);
  if (cat == nullptr || !cat->partkey_def) return Value::Null(kTextOid);
  auto def = cat->partkey_def(static_cast<uint32_t>(a[0].i));
  return def ? Value::Text(*def) : Value::Null(kTextOid);
}

Value ConstraintDef(const Value* a, int n, FuncCallContext& c) {
  const auto* cat = Catalog(c);
  if (cat == nullptr || !cat->constraint_def) return Value::Null(kTextOid);
  auto def = cat->constraint_def(static_cast<uint32_t>(a[0].i), n > 1 && !a[1].is_null && a[1].b);
  if (!def) return Value::Null(kTextOid);
  // A foreign key's table in public is named bare; qualified, as
  // PostgreSQL does, when public is not on search_path (pg_dump sets '').
  const std::string references = ") REFERENCES ";
  const size_t at = def->find(references);
  if (at != std::string::npos && def->rfind("FOREIGN KEY", 0) == 0) {
    const size_t name = at + references.size();
    const size_t paren = def->find('(', name);
    const std::vector<std::string> path = SearchPathSchemas(c);
    const bool public_visible = std::find(path.begin(), path.end(), "public") != path.end();
    if (!public_visible && paren != std::string::npos && def->find('.', name) > paren) def->insert(name, "public.");
  }
  return Value::Text(*def);
}

// pg_get_functiondef & co (user functions; NULL for unknown oids).
template <int kWhat>
Value FunctionDef(const Value* a, int, FuncCallContext& c) {
  const auto* cat = Catalog(c);
  if (cat == nullptr || !cat->function_def) return Value::Null(kTextOid);
  auto def = cat->function_def(static_cast<uint32_t>(a[0].i), kWhat);
  return def ? Value::Text(*def) : Value::Null(kTextOid);
}

// function_def's `what` for these two (catalog/proc_catalog.h).
constexpr int kFunctionArgDefault = 1000;
constexpr int kFunctionExecutePrivilege = 2000;

// pg_get_function_arg_default(function, position).
Value FunctionArgDefault(const Value* a, int, FuncCallContext& c) {
  const auto* cat = Catalog(c);
  if (cat == nullptr || !cat->function_def || a[1].i < 1 || a[1].i >= 1000) return Value::Null(kTextOid);
  auto def = cat->function_def(static_cast<uint32_t>(a[0].i), kFunctionArgDefault + static_cast<int>(a[1].i));
  return def ? Value::Text(*def) : Value::Null(kTextOid);
}

// has_function_privilege(function, privileges) for the current user:
// EXECUTE [WITH GRANT OPTION] in a comma-separated list, 22023 for
// anything else; NULL for no such function.
Value FunctionPrivilege(const Value* a, int, FuncCallContext& c) {
  const std::string& list = a[1].str;
  for (size_t start = 0; start <= list.size();) {
    size_t comma = list.find(',', start);
    if (comma == std::string::npos) comma = list.size();
    std::string word;
    for (size_t i = start; i < comma; ++i) word += static_cast<char>(std::toupper(static_cast<unsigned char>(list[i])));
    const size_t b = word.find_first_not_of(" \t\n");
    word = b == std::string::npos ? std::string() : word.substr(b, word.find_last_not_of(" \t\n") - b + 1);
    if (word != "EXECUTE" && word != "EXECUTE WITH GRANT OPTION") {
      throw DbError("22023", "unrecognized privilege type: \"" + list.substr(start, comma - start) + "\"");
    }
    start = comma + 1;
  }
  const auto* cat = Catalog(c);
  if (cat == nullptr || !cat->function_def) return Value::Null(kBoolOid);
  auto r = cat->function_def(static_cast<uint32_t>(a[0].i), kFunctionExecutePrivilege);
  return r ? Value::Bool(*r == "t") : Value::Null(kBoolOid);
}

// pg_get_triggerdef(trigger [, pretty]): asked of function_def with
// catalog/trigger_catalog.h's kTriggerDefinition / kTriggerDefinitionPretty
// (100 / 101), so the callbacks need no member of their own.
Value TriggerDef(const Value* a, int n, FuncCallContext& c) {
  const auto* cat = Catalog(c);
  if (cat == nullptr || !cat->function_def) return Value::Null(kTextOid);
  const bool pretty = n > 1 && !a[1].is_null && a[1].b;
  auto def = cat->function_def(static_cast<uint32_t>(a[0].i), pretty ? 101 : 100);
  return def ? Value::Text(*def) : Value::Null(kTextOid);
}

// pg_get_viewdef(view [, pretty | wrap column]) by oid or by name.
Value ViewDefOf(Oid oid, bool pretty, FuncCallContext& c) {
  const auto* cat = Catalog(c);
  if (cat == nullptr || !cat->view_def) return Value::Null(kTextOid);
  auto def = cat->view_def(oid, pretty);
  return def ? Value::Text(*def) : Value::Null(kTextOid);
}
Value ViewDef(const Value* a, int n, FuncCallContext& c) {
  return ViewDefOf(static_cast<Oid>(a[0].i), n > 1 && a[1].b, c);
}
Value ViewDefWrap(const Value* a, int, FuncCallContext& c) { return ViewDefOf(static_cast<Oid>(a[0].i), true, c); }
Value ViewDefByName(const Value* a, int n, FuncCallContext& c) {
  return ViewDefOf(RegclassIn(a[0].str), n > 1 && a[1].b, c);
}

// Expressions are stored as their SQL text (pg_attrdef.adbin), so
// decompiling one is the identity, but for relation names: printed as
// regclass prints them, qualified when public is off the search path.
Value GetExpr(const Value* a, int, FuncCallContext& c) {
  const std::vector<std::string> path = SearchPathSchemas(c);
  const bool public_visible = std::find(path.begin(), path.end(), "public") != path.end();
  return Value::Text(RegclassLiteralsAsPrinted(a[0].str, !public_visible));
}

Value NoDescription(const Value*, int, FuncCallContext&) { return Value::Null(kTextOid); }

// obj_description(oid [, catalog]), col_description(table, column),
// shobj_description(oid, catalog): the comment, NULL when there is none.
template <bool kColumn>
Value Description(const Value* a, int n, FuncCallContext& c) {
  const auto* cat = Catalog(c);
  if (cat == nullptr || !cat->description) return Value::Null(kTextOid);
  const auto objoid = static_cast<uint32_t>(a[0].i);
  std::optional<std::string> text =
      kColumn ? cat->description(objoid, "pg_class", static_cast<int32_t>(a[1].i))
              : cat->description(objoid, n > 1 ? a[1].str : std::string(), 0);
  return text ? Value::Text(*text) : Value::Null(kTextOid);
}

// has_table_privilege(oid, text), has_any_column_privilege(oid, text),
// has_column_privilege(oid, int2, text) for the current user.
template <int kWhat>  // 0 table, -1 any column, 1 the column in a[1]
Value RelationPrivilege(const Value* a, int, FuncCallContext& c) {
  const auto* cat = Catalog(c);
  if (cat == nullptr || !cat->relation_privilege) return Value::Null(kBoolOid);
  const int32_t attnum = kWhat == 1 ? static_cast<int32_t>(a[1].i) : kWhat;
  std::optional<bool> r = cat->relation_privilege(static_cast<uint32_t>(a[0].i), attnum, a[kWhat == 1 ? 2 : 1].str);
  return r ? Value::Bool(*r) : Value::Null(kBoolOid);
}

Value HasRole(const Value* a, int, FuncCallContext& c) {
  const auto* cat = Catalog(c);
  if (cat == nullptr || !cat->has_role) return Value::Bool(true);
  return Value::Bool(cat->has_role(static_cast<uint32_t>(a[0].i), a[1].str));
}

Value IsOtherTempSchema(const Value* a, int, FuncCallContext& c) {
  const auto* cat = Catalog(c);
  return Value::Bool(cat != nullptr && cat->is_other_temp_schema &&
                     cat->is_other_temp_schema(static_cast<uint32_t>(a[0].i)));
}

// There are no publications, so no relation is published.
Value NotPublishable(const Value*, int, FuncCallContext&) { return Value::Bool(false); }

Value EncodingToChar(const Value* a, int, FuncCallContext&) {
  switch (a[0].i) {
    case 0: return Value::Bytes(kNameOid, "SQL_ASCII");
    case 6: return Value::Bytes(kNameOid, "UTF8");
    default: return Value::Bytes(kNameOid, "");
  }
}

// to_regclass(name): the relation's oid, or NULL where a regclass cast would
// fail for want of the relation or its schema (a malformed name still fails;
// digits are a name here).
Value ToRegclass(const Value* a, int, FuncCallContext&) {
  const std::vector<std::string> parts = SplitQualifiedName(a[0].str);
  const RelationNameHooks& hooks = CurrentRelationNameHooks();
  if (parts.size() > 2 || hooks.lookup == nullptr) return Value::Null(kRegclassOid);
  std::optional<Oid> oid;
  try {
    oid = hooks.lookup(parts.size() == 2 ? parts[0] : std::string(), parts.back());
  } catch (const DbError& e) {
    if (e.sqlstate() != sqlstate::kInvalidSchemaName) throw;
  }
  return oid ? Value::Int(kRegclassOid, *oid) : Value::Null(kRegclassOid);
}

Value TablespaceLocation(const Value*, int, FuncCallContext&) { return Value::Text(""); }

// array_to_string(array, sep) over an array's text form: the elements of
// '{a,"b c",NULL}' joined by sep (NULL elements skipped, as PostgreSQL).
Value ArrayToString(const Value* a, int, FuncCallContext&) {
  std::string out;
  bool first = true;
  for (const std::optional<std::string>& elem : ArrayTextElements(a[0].str)) {
    if (!elem) continue;
    if (!first) out += a[1].str;
    out += *elem;
    first = false;
  }
  return Value::Text(out);
}

}  // namespace

void AddCatalogBuiltins(std::vector<FuncSignature>* t) {
  constexpr FuncKind kFn = FuncKind::kFunction;
  // Reads of the catalog are "volatile" here: never folded at bind time,
  // so a prepared statement sees later DDL.
  auto cat = [&](const char* name, std::initializer_list<Oid> args, Oid result, BuiltinFn fn) {
    t->push_back(Row(name, kFn, args, result, fn, /*strict=*/true, false, /*is_volatile=*/true));
  };
  t->push_back(Row("format_type", kFn, {kOidOid, kInt4Oid}, kTextOid, FormatTypeFn, /*strict=*/false));
  cat("pg_get_userbyid", {kOidOid}, kNameOid, UserById);
  cat("pg_table_is_visible", {kOidOid}, kBoolOid, TableIsVisible);
  cat("pg_type_is_visible", {kOidOid}, kBoolOid, AlwaysVisible);
  cat("pg_function_is_visible", {kOidOid}, kBoolOid, AlwaysVisible);
  cat("pg_get_indexdef", {kOidOid}, kTextOid, IndexDef);
  cat("pg_get_functiondef", {kOidOid}, kTextOid, FunctionDef<kFunctionDef>);
  cat("pg_get_function_arguments", {kOidOid}, kTextOid, FunctionDef<kFunctionArguments>);
  cat("pg_get_function_identity_arguments", {kOidOid}, kTextOid, FunctionDef<kFunctionIdentityArguments>);
  cat("pg_get_function_result", {kOidOid}, kTextOid, FunctionDef<kFunctionResult>);
  cat("pg_get_indexdef", {kOidOid, kInt4Oid, kBoolOid}, kTextOid, IndexDef);
  cat("pg_get_constraintdef", {kOidOid}, kTextOid, ConstraintDef);
  cat("pg_get_viewdef", {kOidOid}, kTextOid, ViewDef);
  cat("pg_get_viewdef", {kOidOid, kBoolOid}, kTextOid, ViewDef);
  cat("pg_get_viewdef", {kOidOid, kInt4Oid}, kTextOid, ViewDefWrap);
  cat("pg_get_viewdef", {kTextOid}, kTextOid, ViewDefByName);
  cat("pg_get_viewdef", {kTextOid, kBoolOid}, kTextOid, ViewDefByName);
  cat("pg_get_constraintdef", {kOidOid, kBoolOid}, kTextOid, ConstraintDef);
  cat("pg_get_triggerdef", {kOidOid}, kTextOid, TriggerDef);
  cat("pg_get_triggerdef", {kOidOid, kBoolOid}, kTextOid, TriggerDef);
  t->push_back(Row("pg_get_partkeydef", kFn, {kOidOid}, kTextOid, PartKeyDef));
  // Partition constraints are not derived as expressions yet: NULL (psql
  // then prints no "Partition constraint:" line).
  t->push_back(Row("pg_get_partition_constraintdef", kFn, {kOidOid}, kTextOid, NoDescription));
  t->push_back(Row("pg_get_expr", kFn, {kTextOid, kOidOid}, kTextOid, GetExpr));
  t->push_back(Row("pg_get_expr", kFn, {kTextOid, kOidOid, kBoolOid}, kTextOid, GetExpr));
  for (auto args : {std::initializer_list<Oid>{kOidOid}, {kOidOid, kNameOid}}) {
    cat("obj_description", args, kTextOid, Description<false>);
  }
  cat("col_description", {kOidOid, kInt4Oid}, kTextOid, Description<true>);
  cat("shobj_description", {kOidOid, kNameOid}, kTextOid, Description<false>);
  cat("pg_relation_is_publishable", {kRegclassOid}, kBoolOid, NotPublishable);
  cat("to_regclass", {kTextOid}, kRegclassOid, ToRegclass);
  cat("has_table_privilege", {kOidOid, kTextOid}, kBoolOid, RelationPrivilege<0>);
  cat("has_sequence_privilege", {kOidOid, kTextOid}, kBoolOid, RelationPrivilege<0>);
  cat("has_any_column_privilege", {kOidOid, kTextOid}, kBoolOid, RelationPrivilege<-1>);
  cat("has_column_privilege", {kOidOid, kInt2Oid, kTextOid}, kBoolOid, RelationPrivilege<1>);
  cat("pg_has_role", {kOidOid, kTextOid}, kBoolOid, HasRole);
  cat("has_function_privilege", {kOidOid, kTextOid}, kBoolOid, FunctionPrivilege);
  cat("pg_get_function_arg_default", {kOidOid, kInt4Oid}, kTextOid, FunctionArgDefault);
  cat("pg_is_other_temp_schema", {kOidOid}, kBoolOid, IsOtherTempSchema);
  t->push_back(Row("pg_get_statisticsobjdef_columns", kFn, {kOidOid}, kTextOid, NoDescription));
  // There are no rules besides views' (pg_rewrite is empty): psql's \d of a view asks.
  t->push_back(Row("pg_get_ruledef", kFn, {kOidOid}, kTextOid, NoDescription));
  t->push_back(Row("pg_get_ruledef", kFn, {kOidOid, kBoolOid}, kTextOid, NoDescription));
  t->push_back(Row("pg_get_function_result", kFn, {kOidOid}, kTextOid, NoDescription));
  // psql's \df+ shows COALESCE(pg_get_function_sqlbody(oid), prosrc): the body as written.
  t->push_back(Row("pg_get_function_sqlbody", kFn, {kOidOid}, kTextOid, NoDescription));
  t->push_back(Row("pg_get_function_arguments", kFn, {kOidOid}, kTextOid, NoDescription));
  t->push_back(Row("pg_encoding_to_char", kFn, {kInt4Oid}, kNameOid, EncodingToChar));
  t->push_back(Row("pg_tablespace_location", kFn, {kOidOid}, kTextOid, TablespaceLocation));
  t->push_back(Row("array_to_string", kFn, {kTextOid, kTextOid}, kTextOid, ArrayToString));
}

}  // namespace hearth::types::internal
