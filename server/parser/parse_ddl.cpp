// server/parser/parse_ddl.cpp
//
// CREATE TABLE [AS], CREATE INDEX, ALTER TABLE, DROP, TRUNCATE, and the
// CREATE dispatcher (CREATE DATABASE / ROLE live in parse_utility.cpp).
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "parser/parser_internal.h"

namespace hearth::parser {

bool Parser::ParseIfNotExists() {
  if (IsKw("if") && PeekKw(1, "not") && PeekKw(2, "exists")) {
    Advance();
    Advance();
    Advance();
    return true;
  }
  return false;
}

bool Parser::ParseIfExists() {
  if (IsKw("if") && PeekKw(1, "exists")) {
    Advance();
    Advance();
    return true;
  }
  return false;
}

DropBehavior Parser::ParseDropBehavior() {
  if (AcceptKw("cascade")) return DropBehavior::kCascade;
  if (AcceptKw("restrict")) return DropBehavior::kRestrict;
  return DropBehavior::kDefault;
}

StmtPtr Parser::ParseCreate() {
  int loc = Loc();
  Advance();  // CREATE
  bool or_replace = false;
  if (IsKw("or") && PeekKw(1, "replace")) {
    Advance();
    Advance();
    or_replace = true;
  }
  if (IsKw("function") || IsKw("procedure")) return ParseCreateFunction(or_replace, loc);
  if (IsKw("trigger")) return ParseCreateTrigger(or_replace, loc);
  if (!or_replace && IsKw("type")) return ParseCreateType(loc);
  if (!or_replace && IsKw("domain")) return ParseCreateDomain(loc);
  bool temp = false, unlogged = false;
  if (IsKw("global") || IsKw("local")) {
    Advance();
    if (!IsKw("temp") && !IsKw("temporary")) SyntaxError();
  }
  if (AcceptKw("temp") || AcceptKw("temporary")) {
    temp = true;
  } else if (AcceptKw("unlogged")) {
    unlogged = true;
  }
  if (!unlogged && (IsKw("view") || (IsKw("recursive") && PeekKw(1, "view")))) {
    return ParseCreateView(or_replace, temp, loc);  // parse_view.cpp
  }
  if (or_replace) SyntaxError();
  if (IsKw("table")) return ParseCreateTable(temp, unlogged, loc);
  if (IsKw("sequence") && !unlogged) return ParseCreateSequence(temp, loc);
  if (temp || unlogged) SyntaxError();
  if (IsKw("unique") || IsKw("index")) return ParseCreateIndex(loc);
  if (AcceptKw("database")) return ParseCreateDatabase(loc);
  if (AcceptKw("extension")) return ParseCreateExtension(loc);
  if (AcceptKw("schema")) return ParseCreateSchema(loc);
  if (AcceptKw("role")) return ParseCreateRole(RoleStmtKind::kRole, loc);
  if (AcceptKw("user")) return ParseCreateRole(RoleStmtKind::kUser, loc);
  if (AcceptKw("group")) return ParseCreateRole(RoleStmtKind::kGroup, loc);
  SyntaxError();
}

StmtPtr Parser::ParseCreateTable(bool temp, bool unlogged, int location) {
  Advance();  // TABLE
  bool if_not_exists = ParseIfNotExists();
  RangeVar table = ParseQualifiedName();
  // "(a, b) AS ..." (CTAS column names) vs "(a int, ...)" (definitions).
  bool name_list = IsOp("(") && IsColId(Peek(1)) && (IsOpTok(Peek(2), ",") || IsOpTok(Peek(2), ")"));
  const bool partition_of = IsKw("partition") && PeekKw(1, "of");
  if ((IsOp("(") && !name_list) || partition_of) {
    auto s = std::make_unique<CreateTableStmt>();
    s->location = location;
    s->temp = temp;
    s->unlogged = unlogged;
    s->if_not_exists = if_not_exists;
    s->table = std::move(table);
    if (partition_of) {
      ParsePartitionOf(*s);  // parse_partition.cpp
      return s;
    }
    Advance();
    if (!IsOp(")")) {
      do {
        if (IsTableConstraintStart()) {
          s->constraints.push_back(ParseTableConstraint());
        } else if (IsKw("like")) {
          s->likes.push_back(ParseTableLikeClause());
        } else {
          s->columns.push_back(ParseColumnDef());
        }
      } while (AcceptOp(","));
    }
    ExpectOp(")");
    if (AcceptKw("inherits")) {
      ExpectOp("(");
      do s->inherits.push_back(ParseQualifiedName()); while (AcceptOp(","));
      ExpectOp(")");
    }
    if (IsKw("partition") && PeekKw(1, "by")) s->partition_by = ParsePartitionSpec();
    for (;;) {
      if (IsKw("with") && IsOpTok(Peek(1), "(")) {
        Advance();
        s->with_options = ParseParenOptions();
      } else if (IsKw("without") && PeekKw(1, "oids")) {
        Advance();
        Advance();
      } else if (IsKw("on") && PeekKw(1, "commit")) {
        Advance();
        Advance();
        if (AcceptKw("preserve")) {
          ExpectKw("rows");
          s->on_commit = "preserve rows";
        } else if (AcceptKw("delete")) {
          ExpectKw("rows");
          s->on_commit = "delete rows";
        } else {
          ExpectKw("drop");
          s->on_commit = "drop";
        }
      } else if (AcceptKw("tablespace")) {
        ParseColId();
      } else {
        break;
      }
    }
    return s;
  }
  auto s = std::make_unique<CreateTableAsStmt>();
  s->location = location;
  s->temp = temp;
  s->unlogged = unlogged;
  s->if_not_exists = if_not_exists;
  s->table = std::move(table);
  if (IsOp("(")) s->column_names = ParseParenNameList();
  if (IsKw("with") && IsOpTok(Peek(1), "(")) {
    Advance();
    s->with_options = ParseParenOptions();
  }
  ExpectKw("as");
  s->query = ParseSelect();
  if (AcceptKw("with")) {
    if (AcceptKw("no")) s->with_data = false;
    ExpectKw("data");
  }
  return s;
}

ColumnDef Parser::ParseColumnDef() {
  ColumnDef cd;
  cd.location = Loc();
  cd.name = ParseColId();
  cd.type = ParseTypeName();
  if (AcceptKw("collate")) cd.collation = ParseAnyName();
  while (ParseColumnConstraint(cd.constraints)) {
  }
  return cd;
}

bool Parser::IsTableConstraintStart() const {
  return IsKw("constraint") || IsKw("primary") || IsKw("unique") || IsKw("foreign") ||
         IsKw("check") || IsKw("exclude");
}

void Parser::ParseIndexConstraintOptions(Constraint& c) {
  for (;;) {
    if (AcceptKw("include")) {
      ParseParenNameList();
    } else if (IsKw("with") && IsOpTok(Peek(1), "(")) {
      Advance();
      c.with_options = ParseParenOptions();
    } else if (IsKw("using") && PeekKw(1, "index")) {
      Advance();
      Advance();
      ExpectKw("tablespace");
      ParseColId();
    } else {
      return;
    }
  }
}

bool Parser::ParseColumnConstraint(std::vector<Constraint>& out) {
  Constraint c;
  c.location = Loc();
  if (AcceptKw("constraint")) c.name = ParseColId();
  if (IsKw("not") && PeekKw(1, "null")) {
    Advance();
    Advance();
    c.kind = ConstraintKind::kNotNull;
  } else if (AcceptKw("null")) {
    c.kind = ConstraintKind::kNull;
  } else if (AcceptKw("default")) {
    c.kind = ConstraintKind::kDefault;
    c.expr = ParseBExpr();
  } else if (AcceptKw("primary")) {
    ExpectKw("key");
    c.kind = ConstraintKind::kPrimaryKey;
    ParseIndexConstraintOptions(c);
  } else if (AcceptKw("unique")) {
    c.kind = ConstraintKind::kUnique;
    if (AcceptKw("nulls")) {
      AcceptKw("not");
      ExpectKw("distinct");
    }
    ParseIndexConstraintOptions(c);
  } else if (AcceptKw("references")) {
    c.kind = ConstraintKind::kForeignKey;
    ParseReferences(c);
  } else if (AcceptKw("check")) {
    ParseCheckClause(c);
  } else if (IsKw("generated")) {
    ParseIdentityConstraint(c);
  } else {
    if (!c.name.empty()) SyntaxError();
    return false;
  }
  ParseConstraintAttributes(c);
  out.push_back(std::move(c));
  return true;
}

// CHECK (expr) [NO INHERIT], after the CHECK keyword: the same for column
// and table constraints.
void Parser::ParseCheckClause(Constraint& c) {
  c.kind = ConstraintKind::kCheck;
  ExpectOp("(");
  c.expr = ParseExpr();
  ExpectOp(")");
  if (IsKw("no") && PeekKw(1, "inherit")) {
    Advance();
    Advance();
  }
}

void Parser::ParseReferences(Constraint& c) {
  c.ref_table = ParseQualifiedName();
  if (IsOp("(")) c.ref_columns = ParseParenNameList();
  if (AcceptKw("match")) {
    if (!AcceptKw("full") && !AcceptKw("simple")) ExpectKw("partial");
  }
  while (IsKw("on") && (PeekKw(1, "delete") || PeekKw(1, "update"))) {
    Advance();
    bool on_delete = IsKw("delete");
    Advance();
    FkAction a;
    if (AcceptKw("cascade")) {
      a = FkAction::kCascade;
    } else if (AcceptKw("restrict")) {
      a = FkAction::kRestrict;
    } else if (AcceptKw("no")) {
      ExpectKw("action");
      a = FkAction::kNoAction;
    } else {
      ExpectKw("set");
      if (AcceptKw("null")) {
        a = FkAction::kSetNull;
      } else {
        ExpectKw("default");
        a = FkAction::kSetDefault;
      }
      if (IsOp("(")) ParseParenNameList();
    }
    (on_delete ? c.on_delete : c.on_update) = a;
  }
}

void Parser::ParseConstraintAttributes(Constraint& c) {
  for (;;) {
    if (AcceptKw("deferrable")) {
      c.deferrable = true;
    } else if (IsKw("not") && PeekKw(1, "deferrable")) {
      Advance();
      Advance();
      c.deferrable = false;
    } else if (IsKw("not") && PeekKw(1, "valid")) {
      Advance();
      Advance();
      c.not_valid = true;
    } else if (AcceptKw("initially")) {
      if (AcceptKw("deferred")) {
        c.initially_deferred = true;
      } else {
        ExpectKw("immediate");
      }
    } else {
      return;
    }
  }
}

Constraint Parser::ParseTableConstraint() {
  Constraint c;
  c.location = Loc();
  if (AcceptKw("constraint")) c.name = ParseColId();
  if (AcceptKw("primary")) {
    ExpectKw("key");
    c.kind = ConstraintKind::kPrimaryKey;
    c.columns = ParseParenNameList();
    ParseIndexConstraintOptions(c);
  } else if (AcceptKw("unique")) {
    c.kind = ConstraintKind::kUnique;
    if (AcceptKw("nulls")) {
      AcceptKw("not");
      ExpectKw("distinct");
    }
    c.columns = ParseParenNameList();
    ParseIndexConstraintOptions(c);
  } else if (AcceptKw("foreign")) {
    ExpectKw("key");
    c.kind = ConstraintKind::kForeignKey;
    c.columns = ParseParenNameList();
    ExpectKw("references");
    ParseReferences(c);
  } else if (AcceptKw("check")) {
    ParseCheckClause(c);
  } else if (IsKw("exclude")) {
    ErrorAt(sqlstate::kFeatureNotSupported, "EXCLUDE constraints are not supported yet", Loc());
  } else {
    SyntaxError();
  }
  ParseConstraintAttributes(c);
  return c;
}

StmtPtr Parser::ParseCreateIndex(int location) {
  auto s = std::make_unique<CreateIndexStmt>();
  s->location = location;
  if (AcceptKw("unique")) s->unique = true;
  ExpectKw("index");
  s->concurrently = AcceptKw("concurrently");
  s->if_not_exists = ParseIfNotExists();
  if (!IsKw("on")) {
    s->name = ParseColId();
  } else if (s->if_not_exists) {
    SyntaxError();
  }
  ExpectKw("on");
  bool only = AcceptKw("only");
  s->table = ParseQualifiedName();
  s->table.inh = !only;
  if (AcceptKw("using")) s->method = ParseColLabel();
  ExpectOp("(");
  do {
    IndexElem e;
    e.location = Loc();
    if (IsOp("(")) {
      Advance();
      e.expr = ParseExpr();
      ExpectOp(")");
    } else if ((IsColId(Cur()) || IsTypeFuncName(Cur())) && IsOpTok(Peek(1), "(")) {
      e.expr = ParsePrimary();
    } else {
      e.column = ParseColId();
    }
    if (AcceptKw("collate")) e.collation = ParseAnyName();
    if (IsColId(Cur()) && !IsKw("nulls")) e.opclass = ParseAnyName();
    if (AcceptKw("asc")) {
      e.dir = SortDir::kAsc;
    } else if (AcceptKw("desc")) {
      e.dir = SortDir::kDesc;
    }
    if (AcceptKw("nulls")) {
      if (AcceptKw("first")) {
        e.nulls = NullsOrder::kFirst;
      } else {
        ExpectKw("last");
        e.nulls = NullsOrder::kLast;
      }
    }
    s->elems.push_back(std::move(e));
  } while (AcceptOp(","));
  ExpectOp(")");
  if (AcceptKw("include")) s->include = ParseParenNameList();
  if (AcceptKw("nulls")) {
    AcceptKw("not");
    ExpectKw("distinct");
  }
  if (IsKw("with") && IsOpTok(Peek(1), "(")) {
    Advance();
    s->with_options = ParseParenOptions();
  }
  if (AcceptKw("tablespace")) ParseColId();
  if (AcceptKw("where")) s->where = ParseExpr();
  return s;
}

StmtPtr Parser::ParseAlter() {
  int loc = Loc();
  Advance();  // ALTER
  if (AcceptKw("database")) return ParseAlterDatabase(loc);
  if (IsKw("default") && PeekKw(1, "privileges")) return ParseAlterDefaultPrivileges(loc);
  if (IsKw("type") || IsKw("domain")) return ParseAlterType(loc);
  if (StmtPtr owner = TryParseAlterOwner(loc)) return owner;
  if (StmtPtr rename = TryParseAlterViewRename(loc)) return rename;  // parse_view.cpp
  if (StmtPtr rename = TryParseAlterRename(loc)) return rename;
  if (IsKw("table")) return ParseAlterTable(loc);
  if (IsKw("sequence")) return ParseAlterSequence(loc);
  if (AcceptKw("schema")) return ParseAlterSchema(loc);
  if (AcceptKw("role")) return ParseAlterRole(RoleStmtKind::kRole, loc);
  if (AcceptKw("user")) return ParseAlterRole(RoleStmtKind::kUser, loc);
  if (AcceptKw("group")) return ParseAlterRole(RoleStmtKind::kGroup, loc);
  SyntaxError();
}

namespace {

bool IsRenameCmd(AlterTableCmdKind k) {
  return k == AlterTableCmdKind::kRenameTable || k == AlterTableCmdKind::kRenameColumn ||
         k == AlterTableCmdKind::kRenameConstraint;
}

}  // namespace

StmtPtr Parser::ParseAlterTable(int location) {
  auto s = std::make_unique<AlterTableStmt>();
  s->location = location;
  Advance();  // TABLE
  s->if_exists = ParseIfExists();
  bool only = AcceptKw("only");
  s->table = ParseQualifiedName();
  s->table.inh = !only;
  AcceptOp("*");
  do {
    // RENAME stands alone, as in PostgreSQL's grammar.
    if (!s->cmds.empty() && IsKw("rename")) SyntaxError();
    s->cmds.push_back(ParseAlterTableCmd());
  } while (!IsRenameCmd(s->cmds.back().kind) && AcceptOp(","));
  return s;
}

AlterTableCmd Parser::ParseAlterTableCmd() {
  AlterTableCmd c;
  c.location = Loc();
  if (IsKw("attach") || IsKw("detach")) {
    c.kind = AcceptKw("attach") ? AlterTableCmdKind::kAttachPartition : AlterTableCmdKind::kDetachPartition;
    if (c.kind == AlterTableCmdKind::kDetachPartition) ExpectKw("detach");
    ExpectKw("partition");
    c.parent = ParseQualifiedName();
    c.name = c.parent.name;
    if (c.kind == AlterTableCmdKind::kAttachPartition) c.bound = ParsePartitionBoundSpec();
    return c;
  }
  if (IsKw("inherit") || (IsKw("no") && PeekKw(1, "inherit"))) {
    c.kind = AcceptKw("no") ? AlterTableCmdKind::kNoInherit : AlterTableCmdKind::kInherit;
    ExpectKw("inherit");
    c.parent = ParseQualifiedName();
    c.name = c.parent.name;
    return c;
  }
  if (AcceptKw("add")) {
    if (IsTableConstraintStart()) {
      c.kind = AlterTableCmdKind::kAddConstraint;
      c.constraint = std::make_unique<Constraint>(ParseTableConstraint());
      c.name = c.constraint->name;
    } else {
      AcceptKw("column");
      c.kind = AlterTableCmdKind::kAddColumn;
      c.if_not_exists = ParseIfNotExists();
      c.column = std::make_unique<ColumnDef>(ParseColumnDef());
      c.name = c.column->name;
    }
  } else if (AcceptKw("drop")) {
    if (AcceptKw("constraint")) {
      c.kind = AlterTableCmdKind::kDropConstraint;
    } else {
      AcceptKw("column");
      c.kind = AlterTableCmdKind::kDropColumn;
    }
    c.if_exists = ParseIfExists();
    c.name = ParseColId();
    c.behavior = ParseDropBehavior();
  } else if (AcceptKw("alter")) {
    AcceptKw("column");
    c.name = ParseColId();
    if ((IsKw("set") && PeekKw(1, "data")) || IsKw("type")) {
      if (AcceptKw("set")) ExpectKw("data");
      ExpectKw("type");
      c.kind = AlterTableCmdKind::kAlterColumnType;
      c.type = ParseTypeName();
      if (AcceptKw("collate")) ParseAnyName();
      if (AcceptKw("using")) c.expr = ParseExpr();
    } else if (AcceptKw("add")) {
      if (!IsKw("generated")) SyntaxError();
      c.kind = AlterTableCmdKind::kAddIdentity;
      c.constraint = std::make_unique<Constraint>();
      c.constraint->location = Loc();
      ParseIdentityConstraint(*c.constraint);
    } else if (AcceptKw("set")) {
      if (AcceptKw("default")) {
        c.kind = AlterTableCmdKind::kSetDefault;
        c.expr = ParseExpr();
      } else {
        ExpectKw("not");
        ExpectKw("null");
        c.kind = AlterTableCmdKind::kSetNotNull;
      }
    } else {
      ExpectKw("drop");
      if (AcceptKw("default")) {
        c.kind = AlterTableCmdKind::kDropDefault;
      } else {
        ExpectKw("not");
        ExpectKw("null");
        c.kind = AlterTableCmdKind::kDropNotNull;
      }
    }
  } else if (AcceptKw("rename")) {
    if (AcceptKw("to")) {
      c.kind = AlterTableCmdKind::kRenameTable;
    } else {
      if (AcceptKw("constraint")) {
        c.kind = AlterTableCmdKind::kRenameConstraint;
      } else {
        AcceptKw("column");
        c.kind = AlterTableCmdKind::kRenameColumn;
      }
      c.name = ParseColId();
      ExpectKw("to");
    }
    c.new_name = ParseColId();
  } else if (IsKw("set") && IsOpTok(Peek(1), "(")) {
    Advance();
    c.kind = AlterTableCmdKind::kSetOptions;
    c.options = ParseParenOptions();
  } else if (IsKw("enable") || IsKw("disable")) {
    c.kind = IsKw("enable") ? AlterTableCmdKind::kEnableTrigger : AlterTableCmdKind::kDisableTrigger;
    Advance();
    ExpectKw("trigger");
    if (!AcceptKw("all") && !AcceptKw("user")) c.name = ParseColId();
  } else {
    SyntaxError();
  }
  return c;
}

TableLikeClause Parser::ParseTableLikeClause() {
  TableLikeClause like;
  like.begin = Loc();
  Advance();  // LIKE
  like.relation = ParseQualifiedName();
  while (IsKw("including") || IsKw("excluding")) {
    const bool on = IsKw("including");
    Advance();
    static const char* const kOptions[] = {"comments", "compression", "constraints", "defaults", "generated",
                                           "identity", "indexes", "statistics", "storage", "all"};
    bool known = false;
    for (const char* o : kOptions) {
      if (!IsKw(o)) continue;
      known = true;
      const std::string opt = o;
      if (opt == "defaults" || opt == "all") like.defaults = on;
      if (opt == "constraints" || opt == "all") like.constraints = on;
      Advance();
      break;
    }
    if (!known) SyntaxError();
  }
  like.end = Loc();
  return like;
}

StmtPtr Parser::ParseDrop() {
  if (PeekKw(1, "owned")) return ParseOwned();
  if (PeekKw(1, "type") || PeekKw(1, "domain")) {
    const int loc = Loc();
    Advance();  // DROP
    return ParseDropType(loc);
  }
  if (PeekKw(1, "trigger")) {
    const int loc = Loc();
    Advance();  // DROP
    return ParseDropTrigger(loc);
  }
  if (PeekKw(1, "function") || PeekKw(1, "procedure") || PeekKw(1, "routine")) {
    const int loc = Loc();
    Advance();  // DROP
    return ParseDropFunction(loc);
  }
  auto s = std::make_unique<DropStmt>();
  s->location = Loc();
  Advance();  // DROP
  if (AcceptKw("table")) {
    s->object_type = ObjectType::kTable;
  } else if (AcceptKw("index")) {
    s->object_type = ObjectType::kIndex;
    s->concurrently = AcceptKw("concurrently");
  } else if (AcceptKw("view")) {
    s->object_type = ObjectType::kView;
  } else if (AcceptKw("sequence")) {
    s->object_type = ObjectType::kSequence;
  } else if (AcceptKw("schema")) {
    s->object_type = ObjectType::kSchema;
  } else if (AcceptKw("database")) {
    s->object_type = ObjectType::kDatabase;
  } else if (AcceptKw("role") || AcceptKw("user") || AcceptKw("group")) {
    s->object_type = ObjectType::kRole;
  } else if (AcceptKw("extension")) {
    s->object_type = ObjectType::kExtension;
  } else {
    SyntaxError();
  }
  s->if_exists = ParseIfExists();
  bool simple_names = s->object_type == ObjectType::kDatabase || s->object_type == ObjectType::kSchema ||
                      s->object_type == ObjectType::kRole || s->object_type == ObjectType::kExtension;
  if (simple_names) {
    do {
      RangeVar rv;
      rv.location = Loc();
      rv.name = ParseColId();
      s->objects.push_back(std::move(rv));
    } while (s->object_type != ObjectType::kDatabase && AcceptOp(","));
  } else {
    s->objects = ParseQualifiedNameList();
  }
  if (s->object_type == ObjectType::kDatabase) {
    if (AcceptKw("with") || IsOp("(")) {
      ExpectOp("(");
      ExpectKw("force");
      ExpectOp(")");
      s->force = true;
    }
  } else if (s->object_type != ObjectType::kRole) {
    s->behavior = ParseDropBehavior();
  }
  return s;
}

StmtPtr Parser::ParseTruncate() {
  auto s = std::make_unique<TruncateStmt>();
  s->location = Loc();
  Advance();  // TRUNCATE
  AcceptKw("table");
  do {
    bool only = AcceptKw("only");
    RangeVar rv = ParseQualifiedName();
    rv.inh = !only;
    AcceptOp("*");
    s->tables.push_back(std::move(rv));
  } while (AcceptOp(","));
  if (AcceptKw("restart")) {
    ExpectKw("identity");
    s->restart_identity = true;
  } else if (AcceptKw("continue")) {
    ExpectKw("identity");
  }
  s->behavior = ParseDropBehavior();
  return s;
}

}  // namespace hearth::parser
