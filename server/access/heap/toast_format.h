// access/heap/toast_format.h
//
// The on-page forms of a TOASTed varlena attribute (PostgreSQL's varatt
// formats in behaviour, not in bytes) and lz4 compression. Pure functions.
//
// Every varlena attribute starts with a uint32 word. Its top two bits say
// what follows; the low 30 bits are the attribute's length on the page
// (including the word itself):
//   00  plain:      the bytes of the value (every tuple written before TOAST)
//   01  compressed: uint32 raw size (low 30 bits; top 2 bits = method) + the
//                   compressed bytes (lz4 block format)
//   10  external:   a ToastPointer: the value lives in the table's toast
//                   relation as chunks (compressed or not), see heap_toast.h
//
// In memory (types::Value of a varlena type) a value read from a toasted
// attribute is always whole; its `i` field, otherwise unused by varlena
// values, carries a tag (below) saying where it came from, so an UPDATE
// that leaves the column alone can keep the toast pointer and
// pg_column_size can report the stored size.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "utils/adt/value.h"

namespace hearth::heap::toast {

inline constexpr uint32_t kVarlenaLengthMask = 0x3FFFFFFF;
inline constexpr uint32_t kVarlenaCompressed = 0x40000000;
inline constexpr uint32_t kVarlenaExternal = 0x80000000;
inline constexpr uint32_t kVarlenaFlagMask = 0xC0000000;

// Largest value a varlena may hold (PostgreSQL: 1 GB - 1 including the header).
inline constexpr size_t kMaxVarlenaPayload = 0x3FFFFFFF - 4;

// Compression methods (pg_attribute.attcompression letters: 'p', 'l').
enum class Compression : uint8_t { kNone = 0, kPglz = 1, kLz4 = 2 };

// An out-of-line value (the payload of an external attribute). Trivially
// copyable; stored unaligned (read with memcpy).
struct ToastPointer {
  uint32_t rawsize = 0;     // bytes of the value
  uint32_t extsize = 0;     // bytes stored in the chunks (compressed or not)
  uint32_t valueid = 0;     // chunk_id of its chunks
  uint32_t toastrelid = 0;  // pg_class oid of the toast relation (informational)
  uint32_t crc = 0;         // CRC-32C of the raw value (UPDATE's pointer reuse check)
  uint8_t method = 0;       // Compression of the stored bytes
  uint8_t pad[3] = {0, 0, 0};
};
static_assert(sizeof(ToastPointer) == 24);
inline constexpr size_t kExternalAttrSize = 4 + sizeof(ToastPointer);

// ---- Value tags (types::Value::i of a varlena value) -------------------------------------
// Pending: HeapDeformTuple met an external attribute; str holds the
// ToastPointer bytes. The heap's readers replace it with the value
// (DetoastRow) before it leaves the access layer.
inline constexpr uint64_t kTagPendingExternal = uint64_t{1} << 61;
// Read from a compressed attribute: low 32 bits = bytes it occupied.
inline constexpr uint64_t kTagCompressed = uint64_t{1} << 62;
// Read from an external attribute: bits 32..61 = stored size, low 32 = valueid.
inline constexpr uint64_t kTagExternal = uint64_t{1} << 63;

inline bool IsPendingExternal(const types::Value& v) { return !v.is_null && v.i == int64_t(kTagPendingExternal); }
inline uint64_t ExternalTag(const ToastPointer& p) {
  return kTagExternal | (uint64_t{p.extsize} << 32) | p.valueid;
}
// The value id a tagged value was read from (0 if none).
inline uint32_t TaggedValueId(const types::Value& v) {
  const auto t = static_cast<uint64_t>(v.i);
  return (t & kTagExternal) != 0 ? static_cast<uint32_t>(t) : 0;
}
// Bytes the value occupies in its tuple or toast relation as PostgreSQL's
// pg_column_size counts them, when it was read from a toasted attribute;
// 0 when it was not (then its in-memory size is right).
size_t StoredSizeFromTag(const types::Value& v);

// ---- compression ---------------------------------------------------------------------------
// Compresses `raw` with lz4 into *out; false (out unspecified) when that
// does not save at least a few bytes, or the value is too small to try.
bool Lz4Compress(std::string_view raw, std::string* out);
// Decompresses exactly `rawsize` bytes into *out; XX001 on corrupt data.
void Lz4Decompress(const char* src, size_t len, size_t rawsize, std::string* out);

// A compressed attribute's bytes (header word included) for `raw`, or
// false when compression does not pay.
bool FormCompressedAttr(std::string_view raw, std::string* attr);
// Decodes a compressed attribute (`attr` = the whole attribute) into *out.
void DecompressAttr(const char* attr, size_t len, std::string* out);

// The external attribute bytes for `p`.
std::string FormExternalAttr(const ToastPointer& p);
ToastPointer ReadPointer(std::string_view payload);  // payload = bytes after the header word

}  // namespace hearth::heap::toast
