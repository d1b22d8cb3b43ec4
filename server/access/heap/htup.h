// access/heap/htup.h
//
// The on-page heap tuple header: MVCC fields (xmin, xmax, command id), the
// link to the next version (ctid), flag bits and the null bitmap. Data follow
// at t_hoff. Pure layout: the MVCC meaning of the fields is implemented in
// access/transam/visibility.*; the heap access method fills them.
//
// Byte layout (little-endian host order, tuple start 8-byte aligned):
//   0  uint32 t_xmin         inserting transaction
//   4  uint32 t_xmax         deleting/updating/locking transaction, 0 if none
//   8  uint32 t_cid          cmin, cmax or a combo id (HEAP_COMBOCID)
//  12  uint32 t_ctid_block   block of this tuple or of its newer version
//  16  uint16 t_ctid_offset  line pointer (1-based) of the same
//  18  uint16 t_infomask2    low 11 bits: number of attributes
//  20  uint16 t_infomask     flag bits below
//  22  uint8  t_hoff         offset of the data from the tuple start
//  23  uint8  t_bits[]       null bitmap when HEAP_HASNULL: bit i set = attr i
//                            NOT null; (natts + 7) / 8 bytes
//  t_hoff = MaxAlign(23 + bitmap bytes), so 24 for a tuple without nulls.
//
// Concurrency: fields other than hint bits change only under the buffer's
// exclusive content lock. Hint bits (XMIN_/XMAX_COMMITTED/INVALID) may be
// set under a shared content lock with an atomic OR on t_infomask.
#pragma once

#include <cstddef>
#include <cstdint>

namespace hearth::access {

// t_infomask bits.
inline constexpr uint16_t kHeapHasNull = 0x0001;      // null bitmap present
inline constexpr uint16_t kHeapHasVarWidth = 0x0002;  // has variable-width attributes
inline constexpr uint16_t kHeapHasExternal = 0x0004;  // has out-of-line (TOAST) attributes
inline constexpr uint16_t kHeapComboCid = 0x0020;     // t_cid is a combo id (see combocid.h)
inline constexpr uint16_t kHeapXmaxKeyShrLock = 0x0010;  // lock-only xmax: FOR KEY SHARE (with EXCL: FOR SHARE)
inline constexpr uint16_t kHeapXmaxExclLock = 0x0040;    // lock-only xmax: FOR NO KEY UPDATE (with KEYSHR: FOR SHARE)
inline constexpr uint16_t kHeapXmaxLockOnly = 0x0080;  // xmax only row-locks, no delete (no strength bit: FOR UPDATE)
inline constexpr uint16_t kHeapXminCommitted = 0x0100;  // hint: xmin committed
inline constexpr uint16_t kHeapXminInvalid = 0x0200;    // hint: xmin aborted (tuple never existed)
inline constexpr uint16_t kHeapXmaxCommitted = 0x0400;  // hint: xmax committed
inline constexpr uint16_t kHeapXmaxInvalid = 0x0800;    // hint: xmax aborted or absent
// xmax replaced this version by an UPDATE: t_ctid points to the newer
// version (otherwise a committed xmax means DELETE). Set together with xmax.
inline constexpr uint16_t kHeapUpdated = 0x2000;
// t_xmax is a multixact id (access/transam/multixact.h), always lock-only.
inline constexpr uint16_t kHeapXmaxIsMulti = 0x1000;
// t_xmax is a non-key updater and t_cid a multixact id naming the FOR KEY
// SHARE holders it let stay (they hold again if it aborts) and its cmax.
inline constexpr uint16_t kHeapXmaxHasLockers = 0x0008;
inline constexpr uint16_t kHeapXmaxLockBits =
    kHeapXmaxKeyShrLock | kHeapXmaxExclLock | kHeapXmaxLockOnly | kHeapXmaxIsMulti | kHeapXmaxHasLockers;
inline constexpr uint16_t kHeapXminFrozen = kHeapXminCommitted | kHeapXminInvalid;  // both = frozen
inline constexpr uint16_t kHeapHintBits = kHeapXminCommitted | kHeapXminInvalid | kHeapXmaxCommitted | kHeapXmaxInvalid;

// t_infomask2: number of attributes in the low 11 bits, plus HOT flags.
inline constexpr uint16_t kHeapNattsMask = 0x07FF;
// Heap-only tuples (HOT): an update that changed no indexed column and put
// the new version on the same page marks the old one kHeapHotUpdated and
// the new one kHeapOnlyTuple; no index entry points at a heap-only tuple,
// index entries reach it through the chain from its root (the first
// version, or the redirect line pointer that replaced it after pruning).
inline constexpr uint16_t kHeapHotUpdated = 0x4000;
inline constexpr uint16_t kHeapOnlyTuple = 0x8000;
inline constexpr int kMaxHeapAttributes = 1600;

inline constexpr size_t kMaxAlign = 8;
inline constexpr size_t MaxAlign(size_t n) { return (n + kMaxAlign - 1) & ~(kMaxAlign - 1); }

// A tuple id: block number and 1-based line pointer offset.
struct ItemPointer {
  uint32_t block = 0;
  uint16_t offset = 0;
  bool operator==(const ItemPointer&) const = default;
};

struct HeapTupleHeaderData {
  uint32_t t_xmin;
  uint32_t t_xmax;
  uint32_t t_cid;
  uint32_t t_ctid_block;
  uint16_t t_ctid_offset;
  uint16_t t_infomask2;
  uint16_t t_infomask;
  uint8_t t_hoff;
  uint8_t t_bits[1];  // really (natts + 7) / 8 bytes when kHeapHasNull

  int natts() const { return t_infomask2 & kHeapNattsMask; }
  void set_natts(int n) { t_infomask2 = static_cast<uint16_t>((t_infomask2 & ~kHeapNattsMask) | (n & kHeapNattsMask)); }
  ItemPointer ctid() const { return ItemPointer{t_ctid_block, t_ctid_offset}; }
  void set_ctid(ItemPointer p) {
    t_ctid_block = p.block;
    t_ctid_offset = p.offset;
  }
  bool has_nulls() const { return (t_infomask & kHeapHasNull) != 0; }
  uint8_t* null_bitmap() { return reinterpret_cast<uint8_t*>(this) + offsetof(HeapTupleHeaderData, t_bits); }
  const uint8_t* null_bitmap() const { return reinterpret_cast<const uint8_t*>(this) + offsetof(HeapTupleHeaderData, t_bits); }
  // True when attribute `i` (0-based) is null.
  bool attr_is_null(int i) const { return has_nulls() && (null_bitmap()[i >> 3] & (1u << (i & 7))) == 0; }
  uint8_t* data() { return reinterpret_cast<uint8_t*>(this) + t_hoff; }
  const uint8_t* data() const { return reinterpret_cast<const uint8_t*>(this) + t_hoff; }
  bool xmin_frozen() const { return (t_infomask & kHeapXminFrozen) == kHeapXminFrozen; }
  bool hot_updated() const { return (t_infomask2 & kHeapHotUpdated) != 0; }
  bool heap_only() const { return (t_infomask2 & kHeapOnlyTuple) != 0; }
};

inline constexpr size_t kHeapTupleHeaderFixedSize = 23;  // up to t_bits
static_assert(offsetof(HeapTupleHeaderData, t_xmin) == 0);
static_assert(offsetof(HeapTupleHeaderData, t_xmax) == 4);
static_assert(offsetof(HeapTupleHeaderData, t_cid) == 8);
static_assert(offsetof(HeapTupleHeaderData, t_ctid_block) == 12);
static_assert(offsetof(HeapTupleHeaderData, t_ctid_offset) == 16);
static_assert(offsetof(HeapTupleHeaderData, t_infomask2) == 18);
static_assert(offsetof(HeapTupleHeaderData, t_infomask) == 20);
static_assert(offsetof(HeapTupleHeaderData, t_hoff) == 22);
static_assert(offsetof(HeapTupleHeaderData, t_bits) == kHeapTupleHeaderFixedSize);

// t_hoff for a tuple of `natts` attributes, with or without a null bitmap.
inline constexpr size_t HeapTupleHeaderSize(int natts, bool has_nulls) {
  return MaxAlign(kHeapTupleHeaderFixedSize + (has_nulls ? (static_cast<size_t>(natts) + 7) / 8 : 0));
}

}  // namespace hearth::access
