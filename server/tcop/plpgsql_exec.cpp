// tcop/plpgsql_exec.cpp
//
// Principal entry points: CallFunction, CallTrigger, RunInlineBlock and the
// Interpreter's statements. Control flow (EXIT, CONTINUE, RETURN) travels
// back up as a Flow value, errors as DbError; a block with an EXCEPTION
// clause runs in a subtransaction that an error rolls back before the
// matching handler runs (PostgreSQL's semantics: the block's changes are
// undone, the variables keep their values).
#include <algorithm>
#include <cctype>

#include "access/transam/xact.h"
#include "common/error/sqlstate.h"
#include "executor/expr/user_functions.h"
#include "storage/ipc/interrupts.h"
#include "tcop/cursors.h"
#include "tcop/plpgsql_internal.h"
#include "tcop/session.h"
#include "utils/adt/text_io.h"
#include "utils/adt/type_catalog.h"

namespace hearth::tcop::plpgsql {

using types::Oid;
using types::Value;

Interpreter::Interpreter(Session& s, const CompiledBody& f, std::string signature)
    : s_(s), f_(f), signature_(std::move(signature)) {}

void Interpreter::BindArguments(const Value* args, int nargs) {
  const catalog::ProcInfo& p = f_.info;
  const std::vector<std::string> names = p.InputNames();
  for (int i = 0; i < nargs && i < static_cast<int>(p.argtypes.size()); ++i) {
    Var v;
    v.name = i < static_cast<int>(names.size()) ? names[static_cast<size_t>(i)] : "";
    v.type = p.argtypes[static_cast<size_t>(i)];
    v.value = args[i];
    Declare(std::move(v));
  }
  // OUT parameters are variables too; the value of the function is theirs.
  for (const auto& [name, type] : p.OutputColumns()) {
    if (FindVar(name) != nullptr) continue;
    Var v;
    v.name = name;
    v.type = type;
    v.value = Value::Null(type);
    Declare(std::move(v));
  }
  Var found;
  found.name = "found";
  found.type = types::kBoolOid;
  found.value = Value::Bool(false);
  Declare(std::move(found));
}

namespace {

Var TextVar(const std::string& name, const std::string& value) {
  Var v;
  v.name = name;
  v.type = types::kTextOid;
  v.value = Value::Text(value);
  return v;
}

Var RowVar(const std::string& name, const executor::TableInfo& t, const executor::Row* row) {
  Var v;
  v.name = name;
  v.is_record = true;
  v.type = t.oid;
  for (const executor::ColumnInfo& c : t.columns) {
    v.field_names.push_back(c.name);
    v.field_types.push_back(c.type);
    v.field_typmods.push_back(c.typmod);
  }
  v.record_null = row == nullptr;
  if (row != nullptr) v.fields.assign(row->begin(), row->begin() + static_cast<std::ptrdiff_t>(t.columns.size()));
  return v;
}

// TG_ARGV's text: subscripts from 0, as PostgreSQL's.
std::string ArrayLiteral(const std::vector<std::string>& items) {
  std::string out = items.empty() ? "{" : "[0:" + std::to_string(items.size() - 1) + "]={";
  for (size_t i = 0; i < items.size(); ++i) {
    out += i ? ",\"" : "\"";
    for (char c : items[i]) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    out += '"';
  }
  return out + "}";
}

}  // namespace

void Interpreter::BindTrigger(const TriggerCall& call) {
  is_trigger_ = true;
  const executor::TableInfo& t = *call.table;
  Declare(RowVar("new", t, call.new_row));
  Declare(RowVar("old", t, call.old_row));
  Declare(TextVar("tg_name", call.name));
  Declare(TextVar("tg_when", call.when));
  Declare(TextVar("tg_level", call.level));
  Declare(TextVar("tg_op", call.op));
  Declare(TextVar("tg_relname", t.name));
  Declare(TextVar("tg_table_name", t.name));
  Declare(TextVar("tg_table_schema", t.schema));
  Var relid;
  relid.name = "tg_relid";
  relid.type = types::kOidOid;
  relid.value = Value::Int(types::kOidOid, t.oid);
  Declare(std::move(relid));
  Var nargs;
  nargs.name = "tg_nargs";
  nargs.type = types::kInt4Oid;
  nargs.value = Value::Int4(static_cast<int32_t>(call.args.size()));
  Declare(std::move(nargs));
  Var argv;
  argv.name = "tg_argv";
  argv.type = types::ArrayTypeOf(types::kTextOid);
  argv.value = types::InputValue(argv.type, -1, ArrayLiteral(call.args));
  Declare(std::move(argv));
  BindArguments(nullptr, 0);
}

Value Interpreter::Run(std::vector<Value>* set_rows) {
  set_rows_ = set_rows;
  const catalog::ProcInfo& p = f_.info;
  return_value_ = Value::Null(p.rettype);
  const Flow flow = RunBlock(*f_.ast->body);
  const bool is_void = p.rettype == types::kVoidOid || p.kind == 'p';
  if (flow != Flow::kReturn && !is_void && !p.retset && p.OutputColumns().empty()) {
    DbError e("2F005", is_trigger_ ? "control reached end of trigger procedure without RETURN"
                                   : "control reached end of function without RETURN");
    e.WithContext("PL/pgSQL function " + signature_);
    throw e;
  }
  if (!p.OutputColumns().empty() && !p.retset && !returned_record_) {
    if (Var* out = FindVar(p.OutputColumns()[0].first)) return out->value;
  }
  if (is_void) return Value::Null(types::kVoidOid);
  return return_value_;
}

Flow Interpreter::RunBlock(const Block& b) {
  const size_t mark = vars_.size();
  Flow flow;
  try {
    for (const Declaration& d : b.declarations) DeclareOne(d);
    flow = b.handlers.empty() ? RunList(b.body) : RunHandledBlock(b);
  } catch (...) {
    vars_.resize(mark);
    throw;
  }
  vars_.resize(mark);
  if ((flow == Flow::kExit) && !flow_label_.empty() && flow_label_ == b.label) {
    flow_label_.clear();
    return Flow::kNormal;
  }
  return flow;
}

void Interpreter::DeclareOne(const Declaration& d) {
  Var v;
  v.name = d.name;
  v.constant = d.constant;
  v.not_null = d.not_null;
  ResolveDeclaredType(d, &v);
  v.value = Value::Null(v.type);
  Var& declared = Declare(std::move(v));
  if (!d.default_expr.empty()) {
    const bool constant = declared.constant;
    declared.constant = false;
    Assign(d.name, Eval(d.default_expr));
    FindVar(d.name)->constant = constant;
  } else if (d.not_null) {
    throw DbError(sqlstate::kNullValueNotAllowed, "variable \"" + d.name + "\" must have a default value, since it's declared NOT NULL");
  }
}

namespace {

bool Matches(const ExceptionHandler& h, const DbError& e) {
  for (const std::string& c : h.conditions) {
    if (c == "others") {
      if (e.sqlstate() != "57014") return true;  // OTHERS does not catch query_canceled
      continue;
    }
    const std::string code = c.size() == 5 && c != "others" && ConditionSqlstate(c).empty() ? c : ConditionSqlstate(c);
    if (code == e.sqlstate()) return true;
    // A class code (xx000) catches every condition of its class.
    if (code.size() == 5 && code.compare(2, 3, "000") == 0 && e.sqlstate().compare(0, 2, code, 0, 2) == 0) return true;
  }
  return false;
}

}  // namespace

Flow Interpreter::RunHandledBlock(const Block& b) {
  const int level = access::SubTransactionLevel();
  access::BeginSubTransaction();
  const size_t mark = vars_.size();
  try {
    const Flow flow = RunList(b.body);
    access::ReleaseSubTransaction();
    return flow;
  } catch (DbError& e) {
    if (e.severity() >= Severity::kFatal) throw;
    CloseSubtransactionCursors(s_, level + 1);
    while (access::SubTransactionLevel() > level) access::RollbackSubTransaction();
    if (vars_.size() > mark) vars_.resize(mark);
    for (const ExceptionHandler& h : b.handlers) {
      if (!Matches(h, e)) continue;
      const size_t hmark = vars_.size();
      Declare(TextVar("sqlstate", e.sqlstate()));
      Declare(TextVar("sqlerrm", e.message()));
      caught_.push_back(e);
      Flow flow;
      try {
        flow = RunList(h.body);
      } catch (...) {
        caught_.pop_back();
        vars_.resize(hmark);
        throw;
      }
      caught_.pop_back();
      vars_.resize(hmark);
      return flow;
    }
    throw;
  }
}

Flow Interpreter::RunList(const StmtList& list) {
  for (const auto& st : list) {
    const Flow flow = RunStmt(*st);
    if (flow != Flow::kNormal) return flow;
  }
  return Flow::kNormal;
}

void Interpreter::AddContext(DbError& e, const Stmt& st) {
  if (annotated_ == &e) return;
  annotated_ = &e;
  e.WithPosition(0);
  std::string line = "PL/pgSQL function " + signature_ + " line " + std::to_string(st.line) + " at " +
                     StmtContextName(st);
  const std::string& ctx = e.context();
  if (ctx.empty()) {
    e.WithContext(line);
  } else if (std::count(ctx.begin(), ctx.end(), '\n') < 20) {
    e.WithContext(ctx + "\n" + line);
  }
}

Flow Interpreter::RunStmt(const Stmt& st) {
  CheckForInterrupts();
  try {
    return RunStmtInner(st);
  } catch (DbError& e) {
    // A bare RAISE re-throws the handled error with the context it had.
    const bool reraise = st.kind == StmtKind::kRaise && !st.has_format && st.condition.empty() && st.options.empty();
    if (reraise) {
      annotated_ = &e;  // the enclosing statements add nothing either
    } else {
      AddContext(e, st);
    }
    throw;
  }
}

Flow Interpreter::RunStmtInner(const Stmt& st) {
  switch (st.kind) {
    case StmtKind::kBlock: return RunBlock(*st.block);
    case StmtKind::kAssign: Assign(st.target, Eval(st.expr)); return Flow::kNormal;
    case StmtKind::kIf: return RunIf(st);
    case StmtKind::kCase: return RunCase(st);
    case StmtKind::kLoop:
    case StmtKind::kWhile: return RunLoop(st);
    case StmtKind::kForInt: return RunForInt(st);
    case StmtKind::kForQuery: return RunForQuery(st);
    case StmtKind::kForEach: return RunForEach(st);
    case StmtKind::kExit:
    case StmtKind::kContinue:
      if (!st.expr.empty() && !EvalCondition(st.expr)) return Flow::kNormal;
      flow_label_ = st.label;
      return st.kind == StmtKind::kExit ? Flow::kExit : Flow::kContinue;
    case StmtKind::kReturn: return RunReturn(st);
    case StmtKind::kReturnNext: {
      if (set_rows_ == nullptr) throw DbError(sqlstate::kSyntaxError, "cannot use RETURN NEXT in a non-SETOF function");
      Value v = st.expr.empty() ? Value::Null(f_.info.rettype) : Eval(st.expr);
      if (st.expr.empty() && !f_.info.OutputColumns().empty()) v = FindVar(f_.info.OutputColumns()[0].first)->value;
      set_rows_->push_back(CastTo(std::move(v), f_.info.rettype, -1));
      return Flow::kNormal;
    }
    case StmtKind::kReturnQuery: return RunReturnQuery(st);
    case StmtKind::kPerform: {
      QueryResult r = RunQuery(st.query, 1, nullptr, /*as_statement=*/true);
      SetFound(r.processed > 0);
      row_count_ = r.processed;
      return Flow::kNormal;
    }
    case StmtKind::kSql: RunSql(st); return Flow::kNormal;
    case StmtKind::kExecute: RunExecute(st); return Flow::kNormal;
    case StmtKind::kGetDiagnostics: RunGetDiagnostics(st); return Flow::kNormal;
    case StmtKind::kAssert:
      if (!EvalCondition(st.expr)) {
        std::string message = "assertion failed";
        if (!st.args.empty()) {
          const Value m = Eval(st.args[0]);
          if (!m.is_null) message = types::OutputValue(m);
        }
        throw DbError("P0004", message);
      }
      return Flow::kNormal;
    case StmtKind::kRaise: RunRaise(st); return Flow::kNormal;
    case StmtKind::kNull: return Flow::kNormal;
  }
  return Flow::kNormal;
}

Flow Interpreter::RunIf(const Stmt& st) {
  for (size_t i = 0; i < st.conditions.size(); ++i) {
    if (EvalCondition(st.conditions[i])) return RunList(st.branches[i]);
  }
  return RunList(st.else_body);
}

Flow Interpreter::RunCase(const Stmt& st) {
  if (st.expr.empty()) {
    for (size_t i = 0; i < st.conditions.size(); ++i) {
      if (EvalCondition(st.conditions[i])) return RunList(st.branches[i]);
    }
  } else {
    const Value subject = Eval(st.expr);
    // Each WHEN is "subject IN (list)", the subject a hidden variable.
    Var hidden;
    hidden.name = "__case_subject";
    hidden.type = subject.type;
    hidden.value = subject;
    const size_t mark = vars_.size();
    Declare(std::move(hidden));
    for (size_t i = 0; i < st.conditions.size(); ++i) {
      bool hit;
      try {
        const Value v = EvalText(&st.conditions[i], "__case_subject IN (" + st.conditions[i].text + ")");
        hit = !v.is_null && v.b;
      } catch (...) {
        vars_.resize(mark);
        throw;
      }
      if (hit) {
        vars_.resize(mark);
        return RunList(st.branches[i]);
      }
    }
    vars_.resize(mark);
  }
  if (!st.has_else) throw DbError("20000", "case not found").WithHint("CASE statement is missing ELSE part.");
  return RunList(st.else_body);
}

// One pass over a loop's body; false when the loop ends (*out: its Flow).
bool Interpreter::LoopStep(const Stmt& st, Flow* out) {
  const Flow flow = RunList(st.body);
  *out = Flow::kNormal;
  switch (flow) {
    case Flow::kNormal: return true;
    case Flow::kReturn: *out = Flow::kReturn; return false;
    case Flow::kExit:
      if (flow_label_.empty() || flow_label_ == st.label) {
        flow_label_.clear();
        return false;
      }
      *out = Flow::kExit;
      return false;
    case Flow::kContinue:
      if (flow_label_.empty() || flow_label_ == st.label) {
        flow_label_.clear();
        return true;
      }
      *out = Flow::kContinue;
      return false;
  }
  return false;
}

Flow Interpreter::RunLoop(const Stmt& st) {
  Flow out = Flow::kNormal;
  for (;;) {
    if (st.kind == StmtKind::kWhile && !EvalCondition(st.expr)) break;
    if (!LoopStep(st, &out)) break;
  }
  return out;
}

Flow Interpreter::RunForInt(const Stmt& st) {
  auto as_int = [&](const SqlText& e, const char* what) {
    Value v = CastTo(Eval(e), types::kInt4Oid, -1);
    if (v.is_null) throw DbError(sqlstate::kNullValueNotAllowed, std::string(what) + " of FOR loop cannot be null");
    return v.i;
  };
  const int64_t lower = as_int(st.expr, "lower bound");
  const int64_t upper = as_int(st.expr2, "upper bound");
  int64_t step = 1;
  if (!st.step.empty()) {
    step = as_int(st.step, "BY value");
    if (step <= 0) throw DbError(sqlstate::kInvalidParameterValue, "BY value of FOR loop must be greater than zero");
  }
  const size_t mark = vars_.size();
  Var loop_var;
  loop_var.name = st.target;
  loop_var.type = types::kInt4Oid;
  Declare(std::move(loop_var));
  const size_t at = vars_.size() - 1;
  Flow out = Flow::kNormal;
  bool found = false;
  try {
    for (int64_t i = lower; st.reverse ? i >= upper : i <= upper; i += st.reverse ? -step : step) {
      found = true;
      vars_[at].value = Value::Int4(static_cast<int32_t>(i));
      if (!LoopStep(st, &out)) break;
    }
  } catch (...) {
    vars_.resize(mark);
    throw;
  }
  vars_.resize(mark);
  SetFound(found);
  return out;
}

Flow Interpreter::RunForQuery(const Stmt& st) {
  QueryResult r = st.dynamic ? RunExecuteText(st, 0) : RunQuery(st.query, 0);
  const size_t mark = vars_.size();
  Var* target = FindVar(st.target);
  if (target == nullptr) {
    Var rec;
    rec.name = st.target;
    rec.is_record = true;
    rec.type = types::kRecordOid;
    Declare(std::move(rec));
  }
  Flow out = Flow::kNormal;
  try {
    for (const executor::Row& row : r.rows) {
      AssignRow({st.target}, r.columns, &row);
      if (!LoopStep(st, &out)) break;
    }
  } catch (...) {
    vars_.resize(mark);
    throw;
  }
  vars_.resize(mark);
  SetFound(!r.rows.empty());
  return out;
}

Flow Interpreter::RunForEach(const Stmt& st) {
  const Value arr = Eval(st.expr);
  if (arr.is_null) throw DbError(sqlstate::kNullValueNotAllowed, "FOREACH expression must not be null");
  const Oid elem = types::ElementTypeOf(arr.type);
  if (elem == types::kInvalidOid) throw DbError(sqlstate::kDatatypeMismatch, "FOREACH expression must yield an array, not type " + types::FormatType(arr.type));
  // The elements, through unnest (one code path for every element type).
  SqlText q;
  q.text = "SELECT unnest($1)";
  QueryResult r = RunDynamic(q.text, {arr}, 0);
  Flow out = Flow::kNormal;
  for (const executor::Row& row : r.rows) {
    Assign(st.target, row[0]);
    if (!LoopStep(st, &out)) break;
  }
  return out;
}

Flow Interpreter::RunReturn(const Stmt& st) {
  if (st.expr.empty()) return Flow::kReturn;
  if (is_trigger_) {
    std::string name = st.expr.text;
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    Var* rec = FindVar(name);
    if (rec != nullptr && rec->is_record) {
      trigger_result_.is_null = rec->record_null;
      trigger_result_.row = rec->fields;
      return Flow::kReturn;
    }
    if (!Eval(st.expr).is_null) {
      throw DbError(sqlstate::kDatatypeMismatch, "returned row structure does not match the structure of the triggering table");
    }
    trigger_result_.is_null = true;
    return Flow::kReturn;
  }
  if (set_rows_ != nullptr) throw DbError(sqlstate::kSyntaxError, "RETURN cannot have a parameter in function returning set");
  const catalog::ProcInfo& p = f_.info;
  if (p.rettype == types::kVoidOid) {
    throw DbError(sqlstate::kSyntaxError, "RETURN cannot have a parameter in function returning void");
  }
  return_value_ = CastTo(Eval(st.expr), p.rettype, -1);
  returned_record_ = true;
  return Flow::kReturn;
}

Flow Interpreter::RunReturnQuery(const Stmt& st) {
  if (set_rows_ == nullptr) throw DbError(sqlstate::kSyntaxError, "cannot use RETURN QUERY in a non-SETOF function");
  QueryResult r = st.dynamic ? RunExecuteText(st, 0) : RunQuery(st.query, 0);
  if (r.columns.size() != 1) {
    throw DbError(sqlstate::kDatatypeMismatch, "structure of query does not match function result type");
  }
  for (executor::Row& row : r.rows) set_rows_->push_back(CastTo(std::move(row[0]), f_.info.rettype, -1));
  row_count_ = r.processed;
  SetFound(!r.rows.empty());
  return Flow::kNormal;
}

void Interpreter::RunSql(const Stmt& st) {
  FinishInto(st, RunQuery(st.query, st.into.empty() ? 1 : 2, nullptr, /*as_statement=*/true));
}

void Interpreter::RunExecute(const Stmt& st) { FinishInto(st, RunExecuteText(st, st.into.empty() ? 1 : 2)); }

// ROW_COUNT and FOUND from a statement's result, and its INTO [STRICT] targets.
void Interpreter::FinishInto(const Stmt& st, const QueryResult& r) {
  row_count_ = r.processed;
  SetFound(r.processed > 0);
  if (st.into.empty()) return;
  if (st.strict && r.rows.empty()) throw DbError("P0002", "query returned no rows");
  if (st.strict && r.rows.size() > 1) {
    DbError e("P0003", "query returned more than one row");
    if (st.kind == StmtKind::kSql) e.WithHint("Make sure the query returns a single row, or use LIMIT 1.");
    throw e;
  }
  AssignRow(st.into, r.columns, r.rows.empty() ? nullptr : &r.rows[0]);
}

QueryResult Interpreter::RunExecuteText(const Stmt& st, size_t max_rows) {
  const Value text = Eval(st.expr);
  if (text.is_null) throw DbError(sqlstate::kNullValueNotAllowed, "query string argument of EXECUTE is null");
  return RunDynamic(text.str, EvalAll(st.using_args), max_rows);
}

std::vector<Value> Interpreter::EvalAll(const std::vector<SqlText>& exprs) {
  std::vector<Value> out;
  for (const SqlText& e : exprs) out.push_back(Eval(e));
  return out;
}

void Interpreter::RunGetDiagnostics(const Stmt& st) {
  if (st.stacked && caught_.empty()) {
    throw DbError("0Z002", "GET STACKED DIAGNOSTICS cannot be used outside an exception handler");
  }
  for (size_t i = 0; i < st.diag_targets.size(); ++i) {
    const std::string& item = st.diag_items[i];
    if (!st.stacked) {
      Assign(st.diag_targets[i], Value::Int8(static_cast<int64_t>(row_count_)));
      continue;
    }
    const DbError& e = caught_.back();
    const std::string text = item == "returned_sqlstate"      ? e.sqlstate()
                             : item == "message_text"         ? e.message()
                             : item == "pg_exception_detail"  ? e.detail()
                             : item == "pg_exception_hint"    ? e.hint()
                             : item == "pg_exception_context" ? e.context()
                             : item == "column_name"          ? e.column_name()
                             : item == "constraint_name"      ? e.constraint_name()
                             : item == "table_name"           ? e.table_name()
                                                              : e.schema_name();
    Assign(st.diag_targets[i], Value::Text(text));
  }
}

void Interpreter::SetFound(bool found) {
  if (Var* v = FindVar("found")) v->value = Value::Bool(found);
}

void Interpreter::RunRaise(const Stmt& st) {
  if (!st.has_format && st.condition.empty() && st.options.empty()) {
    if (caught_.empty()) throw DbError("0Z002", "RAISE without parameters cannot be used outside an exception handler");
    throw caught_.back();
  }
  std::string message, detail, hint;
  std::string code = st.condition.empty() ? "" : (ConditionSqlstate(st.condition).empty() ? st.condition : ConditionSqlstate(st.condition));
  if (!st.condition.empty()) message = st.condition;
  if (st.has_format) {
    const std::vector<Value> args = EvalAll(st.args);
    size_t next = 0;
    for (size_t i = 0; i < st.format.size(); ++i) {
      const char c = st.format[i];
      if (c == '%' && i + 1 < st.format.size() && st.format[i + 1] == '%') {
        message += '%';
        ++i;
      } else if (c == '%' && next < args.size()) {
        const Value& v = args[next++];
        message += v.is_null ? "<NULL>" : types::OutputValue(v);
      } else {
        message += c;
      }
    }
  }
  for (const RaiseOption& o : st.options) {
    const Value v = Eval(o.expr);
    const std::string text = v.is_null ? "" : types::OutputValue(v);
    if (o.name == "message") {
      message = text;
    } else if (o.name == "detail") {
      detail = text;
    } else if (o.name == "hint") {
      hint = text;
    } else if (o.name == "errcode") {
      code = ConditionSqlstate(text).empty() ? text : ConditionSqlstate(text);
    } else {
      throw DbError(sqlstate::kSyntaxError, "unrecognized RAISE statement option \"" + o.name + "\"");
    }
  }
  if (st.level == "exception") {
    if (code.empty()) code = "P0001";
    if (message.empty()) message = code;
    DbError e(code, message);
    if (!detail.empty()) e.WithDetail(detail);
    if (!hint.empty()) e.WithHint(hint);
    throw e;
  }
  if (st.level == "log" || st.level == "debug") return;  // below client_min_messages
  const Severity sev = st.level == "warning" ? Severity::kWarning : st.level == "info" ? Severity::kInfo : Severity::kNotice;
  s_.Notice(sev, code.empty() ? (sev == Severity::kWarning ? "01000" : "00000") : code, message);
}

namespace {

std::string Signature(const catalog::ProcInfo& p) { return executor::FunctionSignatureText(p.name, p.argtypes); }

}  // namespace

Value CallFunction(Session& s, const CompiledBody& f, const Value* args, int nargs, std::vector<Value>* set_rows) {
  Interpreter in(s, f, Signature(f.info));
  in.BindArguments(args, nargs);
  return in.Run(set_rows);
}

TriggerResult CallTrigger(Session& s, const CompiledBody& f, const TriggerCall& call) {
  Interpreter in(s, f, Signature(f.info));
  in.BindTrigger(call);
  in.Run(nullptr);
  return in.trigger_result();
}

void RunInlineBlock(Session& s, const std::string& src) {
  std::shared_ptr<CompiledBody> body;
  try {
    body = AnonymousBody("inline_code_block", src);
  } catch (DbError& e) {
    e.WithPosition(0);  // a position inside the code block means nothing in the DO statement's text
    AddCompileContext(e, "inline_code_block");
    throw;
  }
  Interpreter in(s, *body, "inline_code_block");
  in.BindArguments(nullptr, 0);
  in.Run(nullptr);
}

bool EvalTriggerCondition(Session& s, const TriggerCall& call, const std::string& condition) {
  std::shared_ptr<CompiledBody> body = AnonymousBody(call.name, "");
  Interpreter in(s, *body, call.name);
  in.BindTrigger(call);
  SqlText cond;
  cond.text = condition;
  return in.EvalCondition(cond);
}

}  // namespace hearth::tcop::plpgsql
