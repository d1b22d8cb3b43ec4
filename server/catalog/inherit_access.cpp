// catalog/inherit_access.cpp
//
// Principal entry points: OpenInheritanceScan, OpenInheritanceModifier,
// OpenInheritanceRowLocker.
#include "catalog/inherit_access.h"

#include <optional>
#include <vector>

#include "catalog/partition_route.h"
#include "common/error/db_error.h"

namespace hearth::catalog {

namespace {

using executor::Row;
using executor::RowId;
using executor::TableInfo;

// One table of the tree: its own TableInfo and, for each column of the
// named table, the member's column position.
struct Member {
  TableInfo info;
  std::vector<size_t> map;
  bool identity = true;  // same layout: rows pass through unchanged
};

// The members in scan order (0 = the named table). A member dropped since
// the planner looked is skipped (its rows are gone with it).
std::vector<std::optional<Member>> ResolveMembers(executor::TableProvider& tables, const TableInfo& table) {
  std::vector<std::optional<Member>> out;
  Member root;
  root.info = table;
  root.info.DropInheritors();
  for (size_t i = 0; i < table.columns.size(); ++i) root.map.push_back(i);
  out.emplace_back(std::move(root));
  for (types::Oid oid : table.inheritors) {
    std::optional<TableInfo> info = tables.LookupByOid(oid);
    if (!info) {
      out.emplace_back(std::nullopt);
      continue;
    }
    Member m;
    m.info = std::move(*info);
    m.info.DropInheritors();
    for (size_t i = 0; i < table.columns.size(); ++i) {
      size_t pos = m.info.columns.size();
      for (size_t k = 0; k < m.info.columns.size(); ++k) {
        if (m.info.columns[k].name == table.columns[i].name) pos = k;
      }
      if (pos == m.info.columns.size()) {
        throw DbError("XX000", "column \"" + table.columns[i].name + "\" of relation \"" + table.name +
                                   "\" is missing in its child \"" + m.info.name + "\"");
      }
      m.map.push_back(pos);
      if (pos != i) m.identity = false;
    }
    if (m.info.columns.size() != table.columns.size()) m.identity = false;
    out.emplace_back(std::move(m));
  }
  return out;
}

// member layout → named table's layout
void ToParentRow(const Member& m, const Row& in, Row& out) {
  out.resize(m.map.size());
  for (size_t i = 0; i < m.map.size(); ++i) out[i] = in[m.map[i]];
}

RowId Tag(size_t member, RowId rid) { return (static_cast<RowId>(member) << executor::kInheritMemberShift) | rid; }
size_t MemberOf(RowId rid) { return static_cast<size_t>(rid >> executor::kInheritMemberShift); }
RowId Untag(RowId rid) { return rid & executor::kInheritRowIdMask; }

class InheritanceScan final : public executor::TableScan {
 public:
  InheritanceScan(executor::TableProvider& tables, const TableInfo& table, bool bulk)
      : tables_(tables), members_(ResolveMembers(tables, table)), bulk_(bulk),
        current_(table.partitioned ? 1 : 0) {}  // a partitioned table has no rows of its own

  bool Next(Row& row, RowId* rid) override {
    while (current_ < members_.size()) {
      if (!members_[current_]) {
        ++current_;
        continue;
      }
      const Member& m = *members_[current_];
      if (!scan_) scan_ = tables_.OpenScan(m.info, bulk_);
      RowId own = executor::kInvalidRowId;
      Row& target = m.identity ? row : scratch_;
      if (scan_->Next(target, &own)) {
        if (!m.identity) ToParentRow(m, scratch_, row);
        if (rid != nullptr) *rid = Tag(current_, own);
        return true;
      }
      scan_.reset();
      ++current_;
    }
    return false;
  }

 private:
  executor::TableProvider& tables_;
  std::vector<std::optional<Member>> members_;
  bool bulk_;
  size_t current_;
  std::unique_ptr<executor::TableScan> scan_;
  Row scratch_;
};

class InheritanceModifier final : public executor::TableModifier {
 public:
  InheritanceModifier(executor::TableProvider& tables, const TableInfo& table)
      : tables_(tables), members_(ResolveMembers(tables, table)), mods_(members_.size()) {
    if (table.partitioned) {
      if (RelationRef root = LookupRelationByOid(table.oid); root != nullptr && root->partition_key != nullptr) {
        router_ = std::make_unique<PartitionRouter>(std::move(root));
      }
    }
  }

  RowId Insert(const Row& row) override { return Mod(0).Insert(row); }
  executor::ModifyResult Delete(RowId rid) override { return Mod(MemberOf(rid)).Delete(Untag(rid)); }

  executor::ModifyResult Update(RowId rid, const Row& row, RowId* new_rid, bool key_update) override {
    const size_t k = MemberOf(rid);
    executor::TableModifier& mod = Mod(k);
    const Member& m = *members_[k];
    // A new partition key value that belongs elsewhere moves the row:
    // delete here, insert through the routing of the partitioned table.
    if (router_ != nullptr && router_->Route(row, &routed_).oid != m.info.oid) {
      const executor::ModifyResult del = mod.Delete(Untag(rid));
      if (del != executor::ModifyResult::kOk) return del;
      Mod(0).Insert(row);
      if (new_rid != nullptr) *new_rid = executor::kInvalidRowId;
      return executor::ModifyResult::kOk;
    }
    RowId own_new = executor::kInvalidRowId;
    executor::ModifyResult r;
    if (m.identity) {
      r = mod.Update(Untag(rid), row, &own_new, key_update);
    } else {
      // The member's own columns keep their values: start from its row.
      RowId latest = executor::kInvalidRowId;
      if (!mod.FetchLatestVersion(Untag(rid), &scratch_, &latest)) return executor::ModifyResult::kConcurrentlyDeleted;
      for (size_t i = 0; i < m.map.size(); ++i) scratch_[m.map[i]] = row[i];
      r = mod.Update(Untag(rid), scratch_, &own_new, key_update);
    }
    if (new_rid != nullptr && own_new != executor::kInvalidRowId) *new_rid = Tag(k, own_new);
    return r;
  }

  bool FetchLatestVersion(RowId rid, Row* row, RowId* latest) override {
    const size_t k = MemberOf(rid);
    const Member& m = *members_[k];
    RowId own = executor::kInvalidRowId;
    if (!Mod(k).FetchLatestVersion(Untag(rid), m.identity ? row : &fetched_, &own)) return false;
    if (!m.identity) ToParentRow(m, fetched_, *row);
    if (latest != nullptr) *latest = Tag(k, own);
    return true;
  }

  bool FindConflict(const Row& row, const std::vector<types::Oid>& arbiters, RowId* conflict) override {
    return Mod(0).FindConflict(row, arbiters, conflict);
  }
  bool InsertSpeculative(const Row& row, const std::vector<types::Oid>& arbiters, RowId* rid) override {
    return Mod(0).InsertSpeculative(row, arbiters, rid);
  }
  void CheckConflictVisible(RowId rid) override { Mod(0).CheckConflictVisible(rid); }
  ConflictLock LockConflicting(RowId rid, Row* row) override { return Mod(0).LockConflicting(rid, row); }

 private:
  executor::TableModifier& Mod(size_t k) {
    if (k >= members_.size() || !members_[k]) throw DbError("XX000", "row of an unknown inheritance member");
    if (!mods_[k]) mods_[k] = tables_.OpenModifier(members_[k]->info);
    return *mods_[k];
  }

  executor::TableProvider& tables_;
  std::vector<std::optional<Member>> members_;
  std::vector<std::unique_ptr<executor::TableModifier>> mods_;
  std::unique_ptr<PartitionRouter> router_;  // a partitioned table's UPDATE may move rows
  Row scratch_, fetched_, routed_;
};

class InheritanceRowLocker final : public executor::TableRowLocker {
 public:
  InheritanceRowLocker(executor::TableProvider& tables, const TableInfo& table, executor::RowLockStrength strength,
                       executor::RowLockPolicy policy)
      : tables_(tables), members_(ResolveMembers(tables, table)), lockers_(members_.size()),
        strength_(strength), policy_(policy) {}

  executor::LockRowResult Lock(RowId rid, Row* row, RowId* latest) override {
    const size_t k = MemberOf(rid);
    if (k >= members_.size() || !members_[k]) throw DbError("XX000", "row of an unknown inheritance member");
    const Member& m = *members_[k];
    if (!lockers_[k]) lockers_[k] = tables_.OpenRowLocker(m.info, strength_, policy_);
    RowId own = executor::kInvalidRowId;
    const executor::LockRowResult r = lockers_[k]->Lock(Untag(rid), m.identity ? row : &fetched_, &own);
    if (r == executor::LockRowResult::kUpdated) {
      if (!m.identity) ToParentRow(m, fetched_, *row);
      if (latest != nullptr) *latest = Tag(k, own);
    }
    return r;
  }

 private:
  executor::TableProvider& tables_;
  std::vector<std::optional<Member>> members_;
  std::vector<std::unique_ptr<executor::TableRowLocker>> lockers_;
  executor::RowLockStrength strength_;
  executor::RowLockPolicy policy_;
  Row fetched_;
};

}  // namespace

std::unique_ptr<executor::TableScan> OpenInheritanceScan(executor::TableProvider& tables, const TableInfo& table,
                                                         bool bulk) {
  return std::make_unique<InheritanceScan>(tables, table, bulk);
}

std::unique_ptr<executor::TableModifier> OpenInheritanceModifier(executor::TableProvider& tables,
                                                                 const TableInfo& table) {
  return std::make_unique<InheritanceModifier>(tables, table);
}

std::unique_ptr<executor::TableRowLocker> OpenInheritanceRowLocker(executor::TableProvider& tables,
                                                                   const TableInfo& table,
                                                                   executor::RowLockStrength strength,
                                                                   executor::RowLockPolicy policy) {
  return std::make_unique<InheritanceRowLocker>(tables, table, strength, policy);
}

}  // namespace hearth::catalog
