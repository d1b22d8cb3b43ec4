// catalog/partition_route.h
//
// Tuple routing of declarative partitioning: rows written to a partitioned
// table go to the leaf partition whose bound holds their key (descending
// through sub-partitioned levels; a DEFAULT partition takes the rest), and
// rows written straight into a partition must fit its bound. The
// HeapTableProvider wraps its modifiers and bulk inserters with these.
//
// Process safety: per-backend, single-threaded, one statement.
#pragma once

#include <map>
#include <memory>

#include "catalog/relcache.h"
#include "executor/table_access.h"

namespace hearth::catalog {

class PartitionRouter {
 public:
  // A leaf partition and how a root row maps to its layout.
  struct Leaf {
    Oid oid = 0;
    executor::TableInfo info;
    std::vector<size_t> map;  // leaf column j ← root column map[j]
    bool identity = true;
  };

  explicit PartitionRouter(RelationRef root) : root_(std::move(root)) {}
  // The leaf for `row` (the root's layout); fills *leaf_row with the row in
  // the leaf's layout. 23514 `no partition of relation "p" found for row`.
  const Leaf& Route(const executor::Row& row, executor::Row* leaf_row);

 private:
  const std::vector<size_t>& MapFor(const RelationEntry& rel);
  // A level's partitions (looked up once per statement).
  const std::vector<RelationRef>& PartitionsOf(const RelationEntry& node);

  RelationRef root_;
  std::map<Oid, std::vector<RelationRef>> partitions_;
  std::map<Oid, std::vector<size_t>> maps_;  // root layout → a level's layout
  std::map<Oid, Leaf> leaves_;
  executor::Row level_row_, keyvals_;
};

// Wrappers the provider puts around a partitioned table's modifier / bulk
// inserter (routing; `open_leaf` opens a leaf's own), and around a
// partition's (the bound check: 23514 `new row for relation "c" violates
// partition constraint`).
std::unique_ptr<executor::TableModifier> OpenRoutingModifier(executor::TableProvider& tables, RelationRef root);
std::unique_ptr<executor::TableBulkInserter> OpenRoutingBulkInserter(executor::TableProvider& tables, RelationRef root);
std::unique_ptr<executor::TableModifier> WrapPartitionCheck(RelationRef part,
                                                            std::unique_ptr<executor::TableModifier> inner);
std::unique_ptr<executor::TableBulkInserter> WrapPartitionCheck(RelationRef part,
                                                                std::unique_ptr<executor::TableBulkInserter> inner);

}  // namespace hearth::catalog
