// server/executor/in_memory_catalog.cpp
//
// Principal entry points: InMemoryCatalog::CreateTable, OpenScan, OpenModifier.
#include "executor/in_memory_catalog.h"

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"

namespace hearth::executor {

namespace {

class MemScan : public TableScan {
 public:
  explicit MemScan(InMemoryCatalog::Table* t) : t_(t), end_(t->rows.size()) {}
  bool Next(Row& row, RowId* rid) override {
    while (pos_ < end_ && pos_ < t_->rows.size()) {
      size_t i = pos_++;
      const std::optional<Row>& r = t_->rows[i];
      if (!r) continue;
      row.resize(r->size());
      for (size_t c = 0; c < r->size(); ++c) row[c] = (*r)[c];
      if (rid) *rid = i;
      return true;
    }
    return false;
  }

 private:
  InMemoryCatalog::Table* t_;
  size_t pos_ = 0;
  size_t end_;  // rows appended after Open are not seen
};

class MemModifier : public TableModifier {
 public:
  explicit MemModifier(InMemoryCatalog::Table* t) : t_(t) {}
  RowId Insert(const Row& row) override {
    t_->rows.emplace_back(row);
    return t_->rows.size() - 1;
  }
  ModifyResult Delete(RowId rid) override {
    if (rid >= t_->rows.size() || !t_->rows[rid]) return ModifyResult::kNotFound;
    t_->rows[rid].reset();
    return ModifyResult::kOk;
  }
  ModifyResult Update(RowId rid, const Row& row, RowId* new_rid, bool /*key_update*/) override {
    if (rid >= t_->rows.size() || !t_->rows[rid]) return ModifyResult::kNotFound;
    *t_->rows[rid] = row;
    if (new_rid) *new_rid = rid;
    return ModifyResult::kOk;
  }
  bool FetchLatestVersion(RowId rid, Row* row, RowId* latest) override {
    if (rid >= t_->rows.size() || !t_->rows[rid]) return false;
    *row = *t_->rows[rid];
    *latest = rid;
    return true;
  }

 private:
  InMemoryCatalog::Table* t_;
};

}  // namespace

std::string InMemoryCatalog::Key(const std::string& schema, const std::string& name) {
  return (schema.empty() ? std::string("public") : schema) + "." + name;
}

const TableInfo& InMemoryCatalog::CreateTable(std::string schema, std::string name,
                                              std::vector<ColumnInfo> columns) {
  if (schema.empty()) schema = "public";
  std::string key = Key(schema, name);
  if (tables_.count(key)) {
    throw DbError(sqlstate::kDuplicateTable, "relation \"" + name + "\" already exists");
  }
  auto t = std::make_unique<Table>();
  t->info.oid = next_oid_++;
  t->info.schema = std::move(schema);
  t->info.name = std::move(name);
  t->info.columns = std::move(columns);
  const TableInfo& info = t->info;
  tables_[key] = std::move(t);
  return info;
}

bool InMemoryCatalog::DropTable(const std::string& schema, const std::string& name) {
  return tables_.erase(Key(schema, name)) > 0;
}

void InMemoryCatalog::AppendRow(const std::string& name, Row row) {
  tables_.at(Key("", name))->rows.emplace_back(std::move(row));
}

std::vector<Row> InMemoryCatalog::Rows(const std::string& name) const {
  std::vector<Row> out;
  for (const auto& r : tables_.at(Key("", name))->rows) {
    if (r) out.push_back(*r);
  }
  return out;
}

std::optional<TableInfo> InMemoryCatalog::Lookup(const std::string& schema, const std::string& name) {
  auto it = tables_.find(Key(schema, name));
  if (it == tables_.end()) return std::nullopt;
  return it->second->info;
}

InMemoryCatalog::Table* InMemoryCatalog::Find(types::Oid oid) {
  for (auto& [k, t] : tables_) {
    if (t->info.oid == oid) return t.get();
  }
  throw DbError(sqlstate::kUndefinedTable,
                "could not open relation with OID " + std::to_string(oid));
}

std::unique_ptr<TableScan> InMemoryCatalog::OpenScan(const TableInfo& table, bool /*bulk*/) {
  return std::make_unique<MemScan>(Find(table.oid));
}

namespace {
class InMemoryRowLocker final : public TableRowLocker {
 public:
  LockRowResult Lock(RowId, Row*, RowId*) override { return LockRowResult::kLocked; }
};
}  // namespace

std::unique_ptr<TableRowLocker> InMemoryCatalog::OpenRowLocker(const TableInfo&, RowLockStrength, RowLockPolicy) {
  return std::make_unique<InMemoryRowLocker>();
}

std::unique_ptr<TableModifier> InMemoryCatalog::OpenModifier(const TableInfo& table) {
  return std::make_unique<MemModifier>(Find(table.oid));
}

}  // namespace hearth::executor
