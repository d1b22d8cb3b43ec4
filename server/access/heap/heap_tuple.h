// access/heap/heap_tuple.h
//
// Heap tuple forming and deforming: a row of types::Value plus column
// descriptors ⇄ the on-page tuple bytes (header from htup.h, null bitmap,
// attributes aligned by type). Byte layout of the data area in README.md.
//
// Process/thread safety: pure functions over caller-owned memory. A tuple on a
// shared page must be read under the buffer's content lock (or, for a tuple
// found visible under the lock, with the buffer still pinned: tuple data never
// move while a pin is held by someone other than vacuum's cleanup lock owner).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "access/heap/htup.h"
#include "utils/adt/type_oid.h"
#include "utils/adt/value.h"

namespace hearth::heap {

using access::HeapTupleHeaderData;
using access::ItemPointer;

// A row: one Value per column, in column order. Deforming into the same Row
// again reuses its storage (no allocation for fixed-width columns; varlena
// strings reuse their capacity).
using Row = std::vector<types::Value>;

// How a column's value is laid out on the page (derived from type + typlen).
enum class AttrKind : uint8_t {
  kBool,        // 1 byte (0/1)                      Value.b
  kInt2,        // int16                             Value.i
  kInt4,        // int32 (int4, date, oid, regclass)  Value.i
  kInt8,        // int64 (int8, timestamp[tz])        Value.i
  kFloat4,      // IEEE float                        Value.f
  kFloat8,      // IEEE double                       Value.f
  kFixedBytes,  // typlen bytes, zero padded (name)   Value.str (trailing NULs stripped)
  kVarlena,     // uint32 total length (incl. the 4 header bytes) + bytes   Value.str
};

struct ColumnDesc {
  types::Oid type = types::kInvalidOid;
  int32_t typmod = types::kNoTypmod;
  int16_t typlen = -1;  // > 0: fixed width in bytes; -1: varlena
  uint8_t align = 1;    // 1, 2, 4 or 8: the attribute starts at a multiple of it
  AttrKind kind = AttrKind::kVarlena;

  // The descriptor Hearth uses for a built-in type: int2 → 2/2, int4, date,
  // oid, regclass, float4 → 4/4, int8, timestamp[tz], float8 → 8/8, bool →
  // 1/1, name → 64/1, everything else (text, varchar, bpchar, numeric as its
  // canonical text, unknown) → varlena aligned 4.
  static ColumnDesc ForType(types::Oid type, int32_t typmod = types::kNoTypmod);
};

// The column descriptors of a relation (or of a tuple to form).
class TupleDesc {
 public:
  TupleDesc() = default;
  explicit TupleDesc(std::vector<ColumnDesc> cols) : cols_(std::move(cols)) {}
  // Convenience: ColumnDesc::ForType for each OID (typmod -1).
  static TupleDesc FromTypes(std::initializer_list<types::Oid> types);

  int natts() const { return static_cast<int>(cols_.size()); }
  const ColumnDesc& col(int i) const { return cols_[static_cast<size_t>(i)]; }
  const std::vector<ColumnDesc>& cols() const { return cols_; }

 private:
  std::vector<ColumnDesc> cols_;
};

// Largest tuple a heap page holds: kBlockSize - MaxAlign(page header + one
// line pointer) = 8160 (as PostgreSQL's MaxHeapTupleSize). Wider rows are
// TOASTed first (heap_toast.h).
inline constexpr size_t kMaxHeapTupleSize = 8160;

// Bytes the formed tuple occupies (header, bitmap, aligned data).
// REQUIRES: row.size() == desc.natts().
size_t HeapComputeTupleSize(const TupleDesc& desc, const Row& row);
// The same with some attributes in toasted form: `enc` is empty or has one
// string per column, the attribute's on-page bytes (toast_format.h, header
// word included) or empty for "form from the Value".
size_t HeapComputeTupleSize(const TupleDesc& desc, const Row& row, std::span<const std::string> enc);

// Forms the tuple into *out (resized; its capacity is reused across calls).
// Header: natts, t_hoff, kHeapHasNull / kHeapHasVarWidth, null bitmap; the
// MVCC fields (xmin, xmax, cid, ctid) are zero — the heap stamps them.
// Throws DbError 54000 "row is too big: size N, maximum size 8160" when the
// tuple exceeds kMaxHeapTupleSize, std::invalid_argument when the row does
// not have desc.natts() values.
void HeapFormTuple(const TupleDesc& desc, const Row& row, std::vector<char>* out);
// The same with toasted attributes as for HeapComputeTupleSize; sets
// kHeapHasExternal when one of them is an out-of-line pointer.
void HeapFormTuple(const TupleDesc& desc, const Row& row, std::span<const std::string> enc, std::vector<char>* out);

// Fills *out (resized to desc.natts()) from the tuple's attributes. Columns
// beyond the tuple's own natts (added later) read as NULL. Each Value gets
// the column's type OID. REQUIRES: `tup` points at `len` readable bytes of a
// tuple formed with a compatible descriptor (same leading columns).
// Compressed attributes are decompressed (tagged, toast_format.h); an
// out-of-line one is left pending (its pointer in Value::str, tag
// kTagPendingExternal) and the result is true: the caller must call
// DetoastRow (heap_toast.h) once no buffer lock is held.
bool HeapDeformTuple(const TupleDesc& desc, const HeapTupleHeaderData* tup, size_t len, Row* out);

// Calls fn(att, bytes) for each non-null attribute of the tuple, in column
// order (`bytes`: its on-page form, a varlena's header word included).
// Throws DbError XX001 on a malformed tuple.
void HeapForEachAttr(const TupleDesc& desc, const HeapTupleHeaderData* tup, size_t len,
                     const std::function<void(int, std::span<const char>)>& fn);

// Whether attributes `attrs` (0-based) are byte-for-byte equal (or both
// null) in tuples `a` and `b` of `desc`: an update that keeps them may be
// HOT. Throws DbError XX001 on a malformed tuple.
bool HeapAttrsEqual(const TupleDesc& desc, const HeapTupleHeaderData* a, size_t alen,
                    const HeapTupleHeaderData* b, size_t blen, std::span<const int> attrs);

}  // namespace hearth::heap
