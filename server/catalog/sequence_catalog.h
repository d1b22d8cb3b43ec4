// catalog/sequence_catalog.h
//
// hearth_sequence (oid 2224, PostgreSQL's pg_sequence plus ownership): one
// row per sequence with its parameters (type, start, increment, bounds,
// cache, cycle) and its owner column (OWNED BY, serial and identity
// columns). Transactional like every catalog row; the sequence's changing
// value lives in the sequence's own one-page relation (sequence.h).
//
// Process safety: per-backend; REQUIRES a transaction in progress.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "catalog/catalog_defs.h"
#include "catalog/catalog_rows.h"

namespace hearth::catalog {

inline constexpr Oid kHearthSequenceOid = 2224;  // pg_sequence's oid
inline constexpr char kHearthSequenceName[] = "hearth_sequence";
inline storage::RelFileLocator SequenceCatalogRel() { return CatalogRel(kHearthSequenceOid); }

// Column numbers (0-based positions) of hearth_sequence.
enum SequenceCol : int {
  kSeqRelid = 0,   // oid: the sequence (hearth_class row, relkind 'S')
  kSeqTypid,       // oid: int2, int4 or int8 (AS type)
  kSeqStart,       // int8
  kSeqIncrement,   // int8
  kSeqMax,         // int8
  kSeqMin,         // int8
  kSeqCache,       // int8
  kSeqCycle,       // bool
  kSeqOwnerRel,    // oid: owning table (0: none)
  kSeqOwnerCol,    // int2: owning column, 1-based (0: none)
  kSeqIdentity,    // text: 'a' ALWAYS / 'd' BY DEFAULT identity, "" otherwise
  kSeqNatts
};

const heap::TupleDesc& SequenceCatalogTupleDesc();

// A sequence's parameters (one hearth_sequence row).
struct SequenceParams {
  Oid relid = 0;
  Oid type = types::kInt8Oid;
  int64_t start = 1;
  int64_t increment = 1;
  int64_t max = std::numeric_limits<int64_t>::max();
  int64_t min = 1;
  int64_t cache = 1;
  bool cycle = false;
  Oid owner_rel = 0;
  int owner_col = 0;
  char identity = 0;
};

heap::Row MakeSequenceRow(const SequenceParams& p);
SequenceParams ParseSequenceRow(const heap::Row& r);

// The row of sequence `relid`.
std::optional<internal::CatalogTuple> FindSequenceRow(Oid relid);
// Rows of the sequences owned by table `relid`.
std::vector<internal::CatalogTuple> FindSequencesOwnedBy(Oid relid);

}  // namespace hearth::catalog
