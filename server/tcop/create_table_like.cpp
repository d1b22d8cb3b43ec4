// tcop/create_table_like.cpp
//
// Principal entry point: ExpandTableLike.
#include "tcop/create_table_like.h"

#include <cctype>
#include <string>

#include "catalog/catalog_defs.h"
#include "catalog/relcache.h"
#include "common/error/db_error.h"
#include "parser/parser.h"
#include "utils/adt/regclass.h"
#include "utils/adt/type_catalog.h"

namespace hearth::tcop {

namespace {

// The source's columns (and CHECKs) as CREATE TABLE elements.
std::string LikeElements(const parser::CreateTableStmt& stmt, const parser::TableLikeClause& like) {
  const std::string& schema = like.relation.schema;
  if (!schema.empty() && catalog::NamespaceOid(schema) == types::kInvalidOid) {
    throw DbError("3F000", "schema \"" + schema + "\" does not exist");
  }
  catalog::RelationRef e = catalog::OpenRelation(schema, like.relation.name, storage::LockMode::kAccessShare);
  if (e == nullptr) {
    DbError err("42P01", "relation \"" + like.relation.name + "\" does not exist");
    if (stmt.location == 0) err.WithPosition(parser::ErrorPosition(stmt.text, like.relation.location));
    throw err;
  }
  std::string out;
  auto add = [&out](const std::string& element) { out += (out.empty() ? "" : ", ") + element; };
  for (const executor::ColumnInfo& c : e->info.columns) {
    if (c.system_column) continue;
    std::string col = types::QuoteIdentifier(c.name) + " " + types::FormatType(c.type, c.typmod);
    if (c.not_null) col += " NOT NULL";
    if (like.defaults && c.has_default() && c.identity == 0) col += " DEFAULT " + c.default_expr;
    add(col);
  }
  if (like.constraints) {
    for (const executor::CheckConstraintInfo& ck : e->info.checks) {
      add("CONSTRAINT " + types::QuoteIdentifier(ck.name) + " CHECK (" + ck.expr + ")");
    }
  }
  return out;
}

}  // namespace

const parser::CreateTableStmt& ExpandTableLike(const parser::CreateTableStmt& stmt,
                                               std::vector<parser::StmtPtr>* holder) {
  if (stmt.likes.empty()) return stmt;
  std::string text;
  size_t from = 0;
  for (const parser::TableLikeClause& like : stmt.likes) {
    const size_t begin = static_cast<size_t>(like.begin - stmt.location);
    const size_t end = static_cast<size_t>(like.end - stmt.location);
    if (like.begin < stmt.location || end > stmt.text.size() || begin < from) {
      throw DbError("XX000", "cannot locate the LIKE clause in the statement text");
    }
    std::string elements = LikeElements(stmt, like);
    text += stmt.text.substr(from, begin - from);
    if (elements.empty()) {
      // A source without columns: drop the clause and one neighbouring comma.
      while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
      from = end;
      if (!text.empty() && text.back() == ',') {
        text.pop_back();
      } else {  // the first element: drop the comma after it instead
        while (from < stmt.text.size() && std::isspace(static_cast<unsigned char>(stmt.text[from]))) ++from;
        if (from < stmt.text.size() && stmt.text[from] == ',') ++from;
      }
      continue;
    }
    text += elements + " ";
    from = end;
  }
  text += stmt.text.substr(from);
  *holder = parser::ParseStatements(text);
  if (holder->size() != 1 || (*holder)[0]->kind != parser::StmtKind::kCreateTable) {
    throw DbError("XX000", "LIKE expanded to an unexpected statement");
  }
  return (*holder)[0]->As<parser::CreateTableStmt>();
}

}  // namespace hearth::tcop
