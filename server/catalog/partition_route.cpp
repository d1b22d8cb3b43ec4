// catalog/partition_route.cpp
//
// Principal entry points: PartitionRouter::Route, OpenRoutingModifier,
// OpenRoutingBulkInserter, WrapPartitionCheck.
#include "catalog/partition_route.h"

#include "catalog/partition_bound.h"
#include "common/error/db_error.h"
#include "executor/row_checks.h"

namespace hearth::catalog {

namespace {

using executor::Row;
using executor::RowId;

std::vector<size_t> ColumnMap(const executor::TableInfo& from, const executor::TableInfo& to) {
  std::vector<size_t> map;
  for (const executor::ColumnInfo& c : to.columns) {
    size_t pos = 0;
    while (pos < from.columns.size() && from.columns[pos].name != c.name) ++pos;
    map.push_back(pos);  // == from.columns.size(): no such column (NULL)
  }
  return map;
}

bool IsIdentity(const std::vector<size_t>& map, size_t from_width) {
  if (map.size() != from_width) return false;
  for (size_t i = 0; i < map.size(); ++i) {
    if (map[i] != i) return false;
  }
  return true;
}

void Project(const std::vector<size_t>& map, const Row& in, Row* out) {
  out->resize(map.size());
  for (size_t j = 0; j < map.size(); ++j) {
    (*out)[j] = map[j] < in.size() ? in[map[j]] : types::Value::Null(types::kTextOid);
  }
}

// A partition's own rows against its bound: the parent's key and the
// key columns' positions in the partition, found once per statement.
class BoundCheck {
 public:
  explicit BoundCheck(const RelationEntry& part) {
    if (part.partition_bound == nullptr || part.partition_bound->strategy == 'd' || part.parents.empty()) return;
    parent_ = LookupRelationByOid(part.parents[0]);
    if (parent_ == nullptr || parent_->partition_key == nullptr) return;
    bound_ = part.partition_bound;
    for (const std::string& name : parent_->partition_key->names) {
      size_t pos = 0;
      while (pos < part.info.columns.size() && part.info.columns[pos].name != name) ++pos;
      positions_.push_back(pos);
    }
  }
  bool Fits(const Row& row) {
    if (bound_ == nullptr) return true;
    keyvals_.resize(positions_.size());
    for (size_t i = 0; i < positions_.size(); ++i) {
      keyvals_[i] = positions_[i] < row.size() ? row[positions_[i]] : types::Value::Null(types::kTextOid);
    }
    return KeyInBound(*parent_->partition_key, *bound_, keyvals_);
  }

 private:
  RelationRef parent_;
  std::shared_ptr<const PartitionBound> bound_;
  std::vector<size_t> positions_;
  Row keyvals_;
};

[[noreturn]] void ThrowViolation(const RelationEntry& part, const Row& row) {
  throw DbError("23514", "new row for relation \"" + part.info.name + "\" violates partition constraint")
      .WithDetail(executor::FailingRowDetail(part.info, row));
}

class RoutingModifier final : public executor::TableModifier {
 public:
  RoutingModifier(executor::TableProvider& tables, RelationRef root) : tables_(tables), router_(std::move(root)) {}

  RowId Insert(const Row& row) override {
    const PartitionRouter::Leaf& leaf = router_.Route(row, &leaf_row_);
    std::unique_ptr<executor::TableModifier>& mod = mods_[leaf.oid];
    if (!mod) mod = tables_.OpenModifier(leaf.info);
    return mod->Insert(leaf.identity ? row : leaf_row_);
  }
  // A partitioned table has no rows of its own: scans reach its partitions
  // through the inheritance wrappers, which never ask it.
  executor::ModifyResult Delete(RowId) override { return executor::ModifyResult::kNotFound; }
  executor::ModifyResult Update(RowId, const Row&, RowId*, bool) override { return executor::ModifyResult::kNotFound; }
  bool FetchLatestVersion(RowId, Row*, RowId*) override { return false; }
  bool FindConflict(const Row&, const std::vector<types::Oid>&, RowId*) override {
    throw DbError("0A000", "ON CONFLICT on a partitioned table is not supported yet");
  }

 private:
  executor::TableProvider& tables_;
  PartitionRouter router_;
  std::map<Oid, std::unique_ptr<executor::TableModifier>> mods_;
  Row leaf_row_;
};

class RoutingBulkInserter final : public executor::TableBulkInserter {
 public:
  RoutingBulkInserter(executor::TableProvider& tables, RelationRef root) : tables_(tables), router_(std::move(root)) {}

  void Insert(const Row& row, uint64_t tag) override {
    tag_ = tag;
    current_ = nullptr;  // a routing failure is this row's
    const PartitionRouter::Leaf& leaf = router_.Route(row, &leaf_row_);
    std::unique_ptr<executor::TableBulkInserter>& ins = inserters_[leaf.oid];
    if (!ins) ins = tables_.OpenBulkInserter(leaf.info);
    current_ = ins.get();
    ins->Insert(leaf.identity ? row : leaf_row_, tag);
  }
  void Finish() override {
    for (auto& [oid, ins] : inserters_) {
      current_ = ins.get();
      ins->Finish();
    }
  }
  uint64_t failing_tag() const override { return current_ != nullptr ? current_->failing_tag() : tag_; }

 private:
  executor::TableProvider& tables_;
  PartitionRouter router_;
  std::map<Oid, std::unique_ptr<executor::TableBulkInserter>> inserters_;
  executor::TableBulkInserter* current_ = nullptr;
  Row leaf_row_;
  uint64_t tag_ = 0;
};

class CheckingModifier final : public executor::TableModifier {
 public:
  CheckingModifier(RelationRef part, std::unique_ptr<executor::TableModifier> inner)
      : part_(std::move(part)), check_(*part_), inner_(std::move(inner)) {}
  RowId Insert(const Row& row) override {
    if (!check_.Fits(row)) ThrowViolation(*part_, row);
    return inner_->Insert(row);
  }
  executor::ModifyResult Delete(RowId rid) override { return inner_->Delete(rid); }
  executor::ModifyResult Update(RowId rid, const Row& row, RowId* new_rid, bool key_update) override {
    if (!check_.Fits(row)) ThrowViolation(*part_, row);
    return inner_->Update(rid, row, new_rid, key_update);
  }
  bool FetchLatestVersion(RowId rid, Row* row, RowId* latest) override {
    return inner_->FetchLatestVersion(rid, row, latest);
  }
  bool FindConflict(const Row& row, const std::vector<types::Oid>& arbiters, RowId* conflict) override {
    return inner_->FindConflict(row, arbiters, conflict);
  }
  bool InsertSpeculative(const Row& row, const std::vector<types::Oid>& arbiters, RowId* rid) override {
    if (!check_.Fits(row)) ThrowViolation(*part_, row);
    return inner_->InsertSpeculative(row, arbiters, rid);
  }
  void CheckConflictVisible(RowId rid) override { inner_->CheckConflictVisible(rid); }
  ConflictLock LockConflicting(RowId rid, Row* row) override { return inner_->LockConflicting(rid, row); }

 private:
  RelationRef part_;
  BoundCheck check_;
  std::unique_ptr<executor::TableModifier> inner_;
};

class CheckingBulkInserter final : public executor::TableBulkInserter {
 public:
  CheckingBulkInserter(RelationRef part, std::unique_ptr<executor::TableBulkInserter> inner)
      : part_(std::move(part)), check_(*part_), inner_(std::move(inner)) {}
  void Insert(const Row& row, uint64_t tag) override {
    tag_ = tag;
    if (!check_.Fits(row)) {
      checked_failure_ = true;
      ThrowViolation(*part_, row);
    }
    inner_->Insert(row, tag);
  }
  void Finish() override { inner_->Finish(); }
  uint64_t failing_tag() const override { return checked_failure_ ? tag_ : inner_->failing_tag(); }

 private:
  RelationRef part_;
  BoundCheck check_;
  std::unique_ptr<executor::TableBulkInserter> inner_;
  uint64_t tag_ = 0;
  bool checked_failure_ = false;
};

}  // namespace

const std::vector<RelationRef>& PartitionRouter::PartitionsOf(const RelationEntry& node) {
  auto it = partitions_.find(node.oid);
  if (it != partitions_.end()) return it->second;
  std::vector<RelationRef> parts;
  for (Oid c : node.children) {
    RelationRef e = LookupRelationByOid(c);
    if (e != nullptr && e->partition_bound != nullptr) parts.push_back(std::move(e));
  }
  return partitions_.emplace(node.oid, std::move(parts)).first->second;
}

const std::vector<size_t>& PartitionRouter::MapFor(const RelationEntry& rel) {
  auto it = maps_.find(rel.oid);
  if (it == maps_.end()) it = maps_.emplace(rel.oid, ColumnMap(root_->info, rel.info)).first;
  return it->second;
}

const PartitionRouter::Leaf& PartitionRouter::Route(const Row& row, Row* leaf_row) {
  RelationRef node = root_;
  const Row* cur = &row;
  for (int depth = 0; depth < 64; ++depth) {
    ExtractKey(*node->partition_key, *cur, &keyvals_);
    RelationRef target, fallback;
    for (const RelationRef& e : PartitionsOf(*node)) {
      if (e->partition_bound->strategy == 'd') {
        fallback = e;
      } else if (KeyInBound(*node->partition_key, *e->partition_bound, keyvals_)) {
        target = e;
        break;
      }
    }
    if (target == nullptr) target = std::move(fallback);
    if (target == nullptr) {
      throw DbError("23514", "no partition of relation \"" + node->info.name + "\" found for row")
          .WithDetail("Partition key of the failing row contains " + KeyDetail(*node->partition_key, keyvals_) + ".");
    }
    const std::vector<size_t>& map = MapFor(*target);
    const bool identity = IsIdentity(map, root_->info.columns.size());
    if (target->partition_key != nullptr) {
      if (!identity) {
        Project(map, row, &level_row_);
        cur = &level_row_;
      } else {
        cur = &row;
      }
      node = std::move(target);
      continue;
    }
    auto leaf = leaves_.find(target->oid);
    if (leaf == leaves_.end()) {
      Leaf l;
      l.oid = target->oid;
      l.info = target->info;
      l.map = map;
      l.identity = identity;
      leaf = leaves_.emplace(target->oid, std::move(l)).first;
    }
    if (!leaf->second.identity) Project(leaf->second.map, row, leaf_row);
    return leaf->second;
  }
  throw DbError("XX000", "partition tree of relation \"" + root_->info.name + "\" is too deep");
}

std::unique_ptr<executor::TableModifier> OpenRoutingModifier(executor::TableProvider& tables, RelationRef root) {
  return std::make_unique<RoutingModifier>(tables, std::move(root));
}

std::unique_ptr<executor::TableBulkInserter> OpenRoutingBulkInserter(executor::TableProvider& tables,
                                                                     RelationRef root) {
  return std::make_unique<RoutingBulkInserter>(tables, std::move(root));
}

std::unique_ptr<executor::TableModifier> WrapPartitionCheck(RelationRef part,
                                                            std::unique_ptr<executor::TableModifier> inner) {
  return std::make_unique<CheckingModifier>(std::move(part), std::move(inner));
}

std::unique_ptr<executor::TableBulkInserter> WrapPartitionCheck(RelationRef part,
                                                                std::unique_ptr<executor::TableBulkInserter> inner) {
  return std::make_unique<CheckingBulkInserter>(std::move(part), std::move(inner));
}

}  // namespace hearth::catalog
