// catalog/partition_bound.h
//
// Declarative partitioning's key and bounds: parsed from hearth_class
// (relpartkey "<r|l|h> attnum ...", relpartbound as pg_get_expr prints it),
// printed back in PostgreSQL's forms, and the comparisons behind tuple
// routing, the overlap checks of CREATE TABLE ... PARTITION OF / ATTACH
// PARTITION, and plan-time pruning. Pure functions over values.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "executor/table_access.h"

namespace hearth::catalog {

struct PartitionKey {
  char strategy = 'r';            // 'r' RANGE, 'l' LIST, 'h' HASH
  std::vector<int> columns;       // 0-based positions in the partitioned table
  std::vector<types::Oid> types;  // the key columns' types and typmods
  std::vector<int32_t> typmods;
  std::vector<std::string> names;
};

// One datum of a range bound: MINVALUE, a value, or MAXVALUE.
struct RangeDatum {
  int kind = 0;  // -1 MINVALUE, 0 value, +1 MAXVALUE
  types::Value value;
};

struct PartitionBound {
  char strategy = 'r';                // 'r', 'l', 'h', or 'd' (DEFAULT)
  std::vector<types::Value> list;     // LIST values (NULL allowed)
  std::vector<RangeDatum> lower, upper;
  int64_t modulus = 0, remainder = 0;
  std::string text;                   // "FOR VALUES ..." / "DEFAULT"
};

// relpartkey text ↔ key (the table gives the columns' names and types).
std::string PartitionKeyText(const PartitionKey& key);
std::shared_ptr<const PartitionKey> ParsePartitionKey(const std::string& text, const executor::TableInfo& table);
// pg_get_partkeydef: "RANGE (a, b)".
std::string PartitionKeyDefinition(const PartitionKey& key);

// A bound printed as pg_get_expr prints relpartbound, and read back.
std::string FormatPartitionBound(const PartitionBound& bound);
std::shared_ptr<const PartitionBound> ParsePartitionBound(const std::string& text, const PartitionKey& key);
// A value as a partition bound shows it ('x''y', 10, '-5', true, NULL).
std::string BoundLiteral(const types::Value& v);

// The key values of `row` (in the partitioned table's layout).
void ExtractKey(const PartitionKey& key, const executor::Row& row, executor::Row* out);
// Whether key values fall in a non-default bound.
bool KeyInBound(const PartitionKey& key, const PartitionBound& bound, const executor::Row& keyvals);
// Compares two range bound datum lists (MINVALUE < values < MAXVALUE).
int CompareRangeBounds(const std::vector<RangeDatum>& a, const std::vector<RangeDatum>& b);
// "(a, b) = (1, x)": the DETAIL of routing failures.
std::string KeyDetail(const PartitionKey& key, const executor::Row& keyvals);

// One existing partition for the overlap checks.
struct PartitionMember {
  std::string name;
  std::shared_ptr<const PartitionBound> bound;
};
// 42P17 when `bound` (for a new partition `name`) is empty or overlaps a
// member, or is a second DEFAULT. `*position` receives the offset into the
// bound's value lists (0-based, -1 none) PostgreSQL points at: the
// overlapping LIST value's index, or 0 for a range.
void CheckPartitionOverlap(const PartitionKey& key, const PartitionBound& bound, const std::string& name,
                           const std::vector<PartitionMember>& members, int* value_index);

// PostgreSQL's order of partitions (Append order): by lower bound (RANGE)
// or smallest value (LIST; a partition of NULL only after the others),
// DEFAULT last.
bool PartitionBoundLess(const PartitionBound& a, const PartitionBound& b);

// Partition pruning: whether some row satisfying every condition (on
// columns of the partitioned table) can be in `bound`.
bool BoundMayMatch(const PartitionKey& key, const PartitionBound& bound,
                   const std::vector<executor::ColumnCondition>& conds);

}  // namespace hearth::catalog
