// tcop/plpgsql_sql.cpp
//
// Principal entry points: Interpreter::RunQuery, Eval, Assign, AssignRow —
// the SQL side of the interpreter. Each piece of SQL is planned through
// PlanStatement with the visible variables as named parameters; the plan
// is kept in the body's PlanCache under (text, variable names and types)
// and reused by later executions while no statement of the body changed
// the catalog (any utility statement clears the cache).
#include <algorithm>
#include <cctype>
#include <map>

#include "access/transam/xact.h"
#include "catalog/catalog_shared.h"
#include "common/error/sqlstate.h"
#include "executor/expr/user_functions.h"
#include "parser/parser.h"
#include "tcop/plpgsql_internal.h"
#include "tcop/session.h"
#include "utils/adt/cast.h"
#include "utils/adt/text_io.h"
#include "utils/adt/type_catalog.h"

namespace hearth::tcop::plpgsql {

using types::Oid;
using types::Value;

struct PlanCache {
  struct Entry {
    std::vector<parser::StmtPtr> stmts;
    std::unique_ptr<Plan> plan;
    bool is_dml = false;
  };
  uint64_t catalog_version = 0;
  std::map<std::pair<const void*, std::string>, std::shared_ptr<Entry>> entries;

  void ClearIfStale() {
    const uint64_t v = catalog::CatalogVersion();
    if (v != catalog_version) {
      entries.clear();
      catalog_version = v;
    }
  }
};

std::shared_ptr<CompiledBody> CompileBody(const catalog::ProcInfo& p) {
  auto c = std::make_shared<CompiledBody>();
  c->info = p;
  c->ast = ParsePlpgsql(p.src);
  c->plans = std::make_shared<PlanCache>();
  return c;
}

std::shared_ptr<CompiledBody> AnonymousBody(const std::string& name, const std::string& src) {
  auto c = std::make_shared<CompiledBody>();
  c->info.name = name;
  c->info.rettype = types::kVoidOid;
  c->info.src = src;
  if (!src.empty()) c->ast = ParsePlpgsql(src);
  c->plans = std::make_shared<PlanCache>();
  return c;
}

namespace {

class Collect : public RowConsumer {
 public:
  Collect(QueryResult* out, size_t max_rows) : out_(out), max_rows_(max_rows) {}
  void Row(const std::vector<Value>& row) override {
    ++seen_;
    if (max_rows_ == 0 || out_->rows.size() < max_rows_) out_->rows.push_back(row);
  }
  uint64_t seen() const { return seen_; }

 private:
  QueryResult* out_;
  size_t max_rows_;
  uint64_t seen_ = 0;
};

// The row count a command tag reports ("INSERT 0 3" → 3), or -1.
int64_t TagCount(const std::string& tag) {
  const size_t sp = tag.rfind(' ');
  if (sp == std::string::npos || sp + 1 >= tag.size()) return -1;
  const std::string n = tag.substr(sp + 1);
  if (!std::all_of(n.begin(), n.end(), [](char c) { return c >= '0' && c <= '9'; })) return -1;
  return std::stoll(n);
}

bool IsDml(const parser::Statement& st) {
  switch (st.kind) {
    case parser::StmtKind::kSelect:
      return !st.As<parser::SelectStmt>().into;
    case parser::StmtKind::kInsert:
    case parser::StmtKind::kUpdate:
    case parser::StmtKind::kDelete:
      return true;
    default:
      return false;
  }
}

}  // namespace

QueryResult Interpreter::Execute(const void* cache_key, const std::string& sql, bool with_vars,
                                 const std::vector<Value>& extra, size_t max_rows, bool as_statement) {
  try {
    return ExecuteInner(cache_key, sql, with_vars, extra, max_rows);
  } catch (DbError& e) {
    if (as_statement) {
      e.WithPosition(0);
      e.WithContext(e.context().empty() ? "SQL statement \"" + sql + "\"" : e.context() + "\nSQL statement \"" + sql + "\"");
    }
    throw;
  }
}

QueryResult Interpreter::ExecuteInner(const void* cache_key, const std::string& sql, bool with_vars,
                                      const std::vector<Value>& extra, size_t max_rows) {
  std::vector<std::string> names;
  std::vector<Oid> types;
  std::vector<Value> values;
  std::string signature;
  if (with_vars) {
    for (const Var& v : vars_) {
      if (!v.is_record) {
        names.push_back(v.name);
        types.push_back(v.type);
        values.push_back(v.value);
        continue;
      }
      for (size_t i = 0; i < v.field_names.size(); ++i) {
        names.push_back(v.name + "." + v.field_names[i]);
        types.push_back(v.field_types[i]);
        values.push_back(v.record_null ? Value::Null(v.field_types[i]) : v.fields[i]);
      }
    }
  }
  for (const Value& e : extra) {
    names.emplace_back();
    types.push_back(e.type == types::kUnknownOid ? types::kTextOid : e.type);
    values.push_back(e.type == types::kUnknownOid && !e.is_null ? Value::Text(e.str) : e);
  }
  for (size_t i = 0; i < names.size(); ++i) signature += names[i] + ":" + std::to_string(types[i]) + ",";
  PlanCache& cache = *f_.plans;
  cache.ClearIfStale();
  std::shared_ptr<PlanCache::Entry> entry;
  const auto key = std::make_pair(cache_key, signature);
  if (cache_key != nullptr) {
    auto it = cache.entries.find(key);
    if (it != cache.entries.end()) entry = it->second;
  }
  if (!entry) {
    entry = std::make_shared<PlanCache::Entry>();
    entry->stmts = parser::ParseStatements(sql);
    if (entry->stmts.size() != 1) {
      throw DbError(sqlstate::kSyntaxError, entry->stmts.empty() ? "empty query" : "cannot insert multiple commands into a prepared statement");
    }
    const parser::Statement& st = *entry->stmts[0];
    if (st.kind == parser::StmtKind::kTransaction) {
      throw DbError(sqlstate::kFeatureNotSupported, "unsupported transaction command in PL/pgSQL");
    }
    entry->is_dml = IsDml(st);
    executor::ParamNameScope scope(f_.info.name, names, types);
    entry->plan = PlanStatement(s_, st, types);
    if (cache_key != nullptr && entry->is_dml) cache.entries[key] = entry;
  }
  QueryResult out;
  if (const std::vector<ColumnDesc>* cols = entry->plan->Columns()) out.columns = *cols;
  Collect sink(&out, max_rows);
  const std::string tag = entry->plan->Run(s_, values, sink);
  const int64_t n = TagCount(tag);
  out.processed = entry->stmts[0]->kind == parser::StmtKind::kSelect || n < 0 ? sink.seen() : static_cast<uint64_t>(n);
  if (!entry->is_dml) {
    cache.entries.clear();  // the statement may have changed what later plans see
  }
  if (entry->stmts[0]->kind != parser::StmtKind::kSelect) access::CommandCounterIncrement();
  return out;
}

QueryResult Interpreter::RunQuery(const SqlText& sql, size_t max_rows, const std::vector<Value>* using_args,
                                  bool as_statement) {
  static const std::vector<Value> kNone;
  return Execute(&sql, sql.text, true, using_args ? *using_args : kNone, max_rows, as_statement);
}

QueryResult Interpreter::RunDynamic(const std::string& sql, const std::vector<Value>& using_args, size_t max_rows) {
  return Execute(nullptr, sql, false, using_args, max_rows);
}

Value Interpreter::Eval(const SqlText& expr) { return EvalText(&expr, expr.text); }

Value Interpreter::EvalText(const void* key, const std::string& text) {
  const std::string sql = "SELECT " + text;
  QueryResult r = Execute(key, sql, true, {}, 2);
  if (r.columns.size() != 1) {
    throw DbError(sqlstate::kSyntaxError,
                  "query \"" + sql + "\" returned " + std::to_string(r.columns.size()) + " columns");
  }
  if (r.rows.size() > 1) {
    throw DbError(sqlstate::kCardinalityViolation, "query \"" + sql + "\" returned more than one row");
  }
  if (r.rows.empty()) return Value::Null(r.columns[0].type_oid);
  return std::move(r.rows[0][0]);
}

bool Interpreter::EvalCondition(const SqlText& expr) {
  Value v = Eval(expr);
  if (v.is_null) return false;
  if (v.type != types::kBoolOid) v = CastTo(std::move(v), types::kBoolOid, -1);
  return v.b;
}

Value Interpreter::CastTo(Value v, Oid type, int32_t typmod) {
  if (type == types::kInvalidOid || type == types::kRecordOid) return v;
  if (v.is_null) return Value::Null(type);
  if (v.type == type && typmod < 0) return v;
  if (v.type == types::kUnknownOid) return types::InputValue(type, typmod, v.str);
  try {
    return types::CastValue(v, type, typmod, types::CoercionContext::kAssignment);
  } catch (const DbError& e) {
    if (e.sqlstate() != "42846") throw;
    // PL/pgSQL falls back to the types' text forms.
    return types::InputValue(type, typmod, types::OutputValue(v));
  }
}

Var* Interpreter::FindVar(const std::string& name) {
  for (size_t i = vars_.size(); i-- > 0;) {
    if (vars_[i].name == name) return &vars_[i];
  }
  return nullptr;
}

Var& Interpreter::Declare(Var v) {
  vars_.push_back(std::move(v));
  return vars_.back();
}

void Interpreter::Assign(const std::string& target, Value v) {
  const size_t dot = target.find('.');
  if (dot != std::string::npos) {
    Var* rec = FindVar(target.substr(0, dot));
    if (rec != nullptr && rec->is_record) {
      const std::string field = target.substr(dot + 1);
      for (size_t i = 0; i < rec->field_names.size(); ++i) {
        if (rec->field_names[i] != field) continue;
        if (rec->record_null) {
          rec->fields.assign(rec->field_names.size(), Value());
          for (size_t k = 0; k < rec->fields.size(); ++k) rec->fields[k] = Value::Null(rec->field_types[k]);
          rec->record_null = false;
        }
        rec->fields[i] = CastTo(std::move(v), rec->field_types[i], rec->field_typmods[i]);
        return;
      }
      throw DbError(sqlstate::kUndefinedColumn,
                    "record \"" + rec->name + "\" has no field \"" + field + "\"");
    }
    Var* qualified = FindVar(target.substr(dot + 1));
    if (qualified == nullptr || target.substr(0, dot) != f_.info.name) {
      throw DbError(sqlstate::kSyntaxError, "\"" + target + "\" is not a known variable");
    }
    return Assign(target.substr(dot + 1), std::move(v));
  }
  Var* var = FindVar(target);
  if (var == nullptr) throw DbError(sqlstate::kSyntaxError, "\"" + target + "\" is not a known variable");
  if (var->constant) throw DbError(sqlstate::kSyntaxError, "variable \"" + target + "\" is declared CONSTANT");
  if (var->is_record) {
    if (!v.is_null) {
      throw DbError(sqlstate::kFeatureNotSupported, "assigning a composite value to record \"" + target +
                                                        "\" is not supported yet");
    }
    var->record_null = true;
    return;
  }
  v = CastTo(std::move(v), var->type, var->typmod);
  if (v.is_null && var->not_null) {
    throw DbError(sqlstate::kNullValueNotAllowed,
                  "null value cannot be assigned to variable \"" + target + "\" declared NOT NULL");
  }
  var->value = std::move(v);
}

void Interpreter::AssignRow(const std::vector<std::string>& targets, const std::vector<ColumnDesc>& columns,
                            const executor::Row* row) {
  if (targets.size() == 1) {
    Var* var = FindVar(targets[0]);
    if (var != nullptr && var->is_record) {
      if (var->type == types::kRecordOid) {  // `record`: takes the row's shape
        var->field_names.clear();
        var->field_types.clear();
        var->field_typmods.clear();
        for (const ColumnDesc& c : columns) {
          var->field_names.push_back(c.name);
          var->field_types.push_back(c.type_oid);
          var->field_typmods.push_back(c.typmod);
        }
      }
      var->record_null = row == nullptr;
      var->fields.assign(var->field_names.size(), Value());
      for (size_t i = 0; i < var->fields.size(); ++i) {
        Value v = row != nullptr && i < row->size() ? (*row)[i] : Value::Null(var->field_types[i]);
        var->fields[i] = CastTo(std::move(v), var->field_types[i], var->field_typmods[i]);
      }
      return;
    }
  }
  for (size_t i = 0; i < targets.size(); ++i) {
    const Oid t = i < columns.size() ? columns[i].type_oid : types::kUnknownOid;
    Assign(targets[i], row != nullptr && i < row->size() ? (*row)[i] : Value::Null(t));
  }
}

// `name type`, `name t.c%TYPE`, `name v%TYPE`, `name t%ROWTYPE`, `name record`.
void Interpreter::ResolveDeclaredType(const Declaration& d, Var* v) {
  std::string t = d.type_text;
  std::string lower = t;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  auto strip = [&](const char* suffix) {
    const size_t n = std::char_traits<char>::length(suffix);
    if (lower.size() > n && lower.compare(lower.size() - n, n, suffix) == 0) {
      t = t.substr(0, t.size() - n);
      return true;
    }
    return false;
  };
  if (lower == "record") {
    v->is_record = true;
    v->type = types::kRecordOid;
    return;
  }
  SqlText probe;
  if (strip("%rowtype")) {
    probe.text = "SELECT * FROM " + t + " LIMIT 0";
    QueryResult r = Execute(nullptr, probe.text, false, {}, 0);
    v->is_record = true;
    v->type = types::kInvalidOid;
    for (const ColumnDesc& c : r.columns) {
      v->field_names.push_back(c.name);
      v->field_types.push_back(c.type_oid);
      v->field_typmods.push_back(c.typmod);
    }
    return;
  }
  if (strip("%type")) {
    if (Var* other = FindVar(t)) {
      v->type = other->type;
      v->typmod = other->typmod;
      return;
    }
    const size_t dot = t.rfind('.');
    if (dot == std::string::npos) throw DbError(sqlstate::kSyntaxError, "invalid type name \"" + d.type_text + "\"");
    probe.text = "SELECT " + t.substr(dot + 1) + " FROM " + t.substr(0, dot) + " LIMIT 0";
  } else {
    probe.text = "SELECT NULL::" + t;
  }
  QueryResult r = Execute(nullptr, probe.text, false, {}, 0);
  v->type = r.columns.at(0).type_oid;
  v->typmod = r.columns.at(0).typmod;
}

}  // namespace hearth::tcop::plpgsql
