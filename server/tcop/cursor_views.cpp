// tcop/cursor_views.cpp
//
// Principal entry point: AddPgCursors, PostgreSQL 15's pg_cursors (name,
// statement, is_holdable, is_binary, is_scrollable, creation_time) over the
// session's SQL cursors.
#include "catalog/system_views.h"
#include "tcop/session.h"
#include "tcop/session_views.h"

namespace hearth::tcop {

void AddPgCursors(catalog::SystemViewProvider& p, Session& session) {
  using namespace types;
  executor::TableInfo info = catalog::MakeViewInfo(
      catalog::kPgCursorsOid, "pg_cursors",
      {{"name", kTextOid}, {"statement", kTextOid}, {"is_holdable", kBoolOid}, {"is_binary", kBoolOid},
       {"is_scrollable", kBoolOid}, {"creation_time", kTimestampTzOid}});
  p.AddView(std::move(info), [&session] {
    std::vector<executor::Row> out;
    for (const auto& [name, c] : session.sql_cursors) {
      out.push_back({Value::Text(c->name), Value::Text(c->statement), Value::Bool(c->holdable),
                     Value::Bool(c->binary), Value::Bool(c->scrollable),
                     catalog::TimestampTzFromUnixMicros(c->creation_unix_us)});
    }
    return out;
  });
}

}  // namespace hearth::tcop
