// tests/unit/executor/sql_harness.h — an in-memory database for planner and
// executor tests: CREATE TABLE into an InMemoryCatalog, then parse → plan →
// run statements and compare rows as text ("1|abc|NULL").
#pragma once

#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "common/error/db_error.h"
#include "executor/executor.h"
#include "executor/in_memory_catalog.h"
#include "parser/parser.h"
#include "planner/deparse.h"
#include "planner/planner.h"
#include "utils/adt/text_io.h"
#include "utils/adt/type_catalog.h"

namespace sqlh {

using hearth::DbError;
using hearth::executor::ExecContext;
using hearth::executor::InMemoryCatalog;
using hearth::executor::PlannedStatement;
using hearth::executor::Row;
using hearth::types::Value;

struct Result {
  std::vector<std::string> rows;  // values joined by '|', NULL as "NULL"
  std::vector<std::string> names;
  std::vector<hearth::types::Oid> types;
  std::string tag;
};

inline std::string RowText(const Row& r) {
  std::string s;
  for (size_t i = 0; i < r.size(); ++i) {
    if (i) s += "|";
    s += r[i].is_null ? "NULL" : hearth::types::OutputValue(r[i]);
  }
  return s;
}

class Db {
 public:
  Db() {
    ctx.tables = &cat;
    temp_dir = (std::filesystem::temp_directory_path() /
                ("hearth_exec_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter_++)))
                   .string();
    ctx.temp_dir = temp_dir;
  }
  ~Db() {
    std::error_code ec;
    std::filesystem::remove_all(temp_dir, ec);
  }

  // CREATE TABLE via the parser (test convenience; DDL is not the planner's job).
  void Create(const std::string& sql) {
    auto stmts = hearth::parser::ParseStatements(sql);
    const auto& ct = stmts.at(0)->As<hearth::parser::CreateTableStmt>();
    std::vector<hearth::executor::ColumnInfo> cols;
    for (const auto& cd : ct.columns) {
      hearth::executor::ColumnInfo c;
      c.name = cd.name;
      const auto* ti = hearth::types::LookupTypeByName(cd.type.name);
      REQUIRE(ti != nullptr);
      c.type = ti->oid;
      if (!cd.type.typmods.empty()) {
        c.typmod = hearth::types::TypmodFromModifiers(c.type, cd.type.typmods.data(),
                                                      static_cast<int>(cd.type.typmods.size()));
      }
      for (const auto& con : cd.constraints) {
        if (con.kind == hearth::parser::ConstraintKind::kNotNull ||
            con.kind == hearth::parser::ConstraintKind::kPrimaryKey) {
          c.not_null = true;
        }
        if (con.kind == hearth::parser::ConstraintKind::kDefault) c.default_expr = hearth::planner::Deparse(*con.expr);
      }
      cols.push_back(c);
    }
    cat.CreateTable("", ct.table.name, cols);
  }

  PlannedStatement Plan(const std::string& sql, const std::vector<hearth::types::Oid>& ptypes = {}) {
    auto stmts = hearth::parser::ParseStatements(sql);
    REQUIRE(stmts.size() == 1);
    return hearth::planner::PlanStatement(*stmts[0], cat, ptypes);
  }

  Result Run(PlannedStatement& p, const std::vector<Value>& params = {}) {
    ExecContext c = ctx;
    c.params = params.data();
    c.nparams = params.size();
    Result r;
    for (const auto& col : p.columns) {
      r.names.push_back(col.name);
      r.types.push_back(col.type);
    }
    r.tag = hearth::executor::RunPlan(p, c, [&](const Row& row) { r.rows.push_back(RowText(row)); });
    return r;
  }

  Result Exec(const std::string& sql, const std::vector<Value>& params = {}) {
    PlannedStatement p = Plan(sql);
    return Run(p, params);
  }

  std::vector<std::string> Rows(const std::string& sql) { return Exec(sql).rows; }

  std::vector<std::string> Explain(const std::string& sql) { return Exec("EXPLAIN " + sql).rows; }

  // Runs sql expecting a DbError; returns it.
  DbError Error(const std::string& sql, const std::vector<Value>& params = {}) {
    try {
      Exec(sql, params);
    } catch (const DbError& e) {
      return e;
    }
    FAIL("no error from: " << sql);
    return DbError("00000", "");
  }

  size_t TempFiles() const {
    if (!std::filesystem::exists(temp_dir)) return 0;
    size_t n = 0;
    for (const auto& e : std::filesystem::directory_iterator(temp_dir)) {
      (void)e;
      ++n;
    }
    return n;
  }

  InMemoryCatalog cat;
  ExecContext ctx;
  std::string temp_dir;

 private:
  static inline int counter_ = 0;
};

using V = std::vector<std::string>;

}  // namespace sqlh
