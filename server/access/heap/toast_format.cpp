// access/heap/toast_format.cpp
//
// Principal entry points: FormCompressedAttr, DecompressAttr,
// FormExternalAttr, ReadPointer, StoredSizeFromTag.
#include "access/heap/toast_format.h"

#include <lz4.h>

#include <cstring>

#include "common/error/db_error.h"
#include "common/error/sqlstate.h"

namespace hearth::heap::toast {

namespace {

// PostgreSQL does not try to compress values below 32 bytes.
constexpr size_t kMinCompressSize = 32;

uint32_t GetU32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
void PutU32(char* p, uint32_t v) { std::memcpy(p, &v, 4); }

}  // namespace

size_t StoredSizeFromTag(const types::Value& v) {
  const auto t = static_cast<uint64_t>(v.i);
  if (v.is_null || t == 0) return 0;
  if ((t & kTagExternal) != 0) return static_cast<size_t>((t >> 32) & kVarlenaLengthMask);
  if ((t & kTagCompressed) != 0) return static_cast<size_t>(t & 0xFFFFFFFFu);
  return 0;
}

bool Lz4Compress(std::string_view raw, std::string* out) {
  if (raw.size() < kMinCompressSize || raw.size() > static_cast<size_t>(LZ4_MAX_INPUT_SIZE)) return false;
  const int bound = LZ4_compressBound(static_cast<int>(raw.size()));
  out->resize(static_cast<size_t>(bound));
  const int n = LZ4_compress_default(raw.data(), out->data(), static_cast<int>(raw.size()), bound);
  // Keep it only when it saves something worth a decompression.
  if (n <= 0 || static_cast<size_t>(n) + 8 >= raw.size()) return false;
  out->resize(static_cast<size_t>(n));
  return true;
}

void Lz4Decompress(const char* src, size_t len, size_t rawsize, std::string* out) {
  out->resize(rawsize);
  const int n = LZ4_decompress_safe(src, out->data(), static_cast<int>(len), static_cast<int>(rawsize));
  if (n < 0 || static_cast<size_t>(n) != rawsize) {
    throw DbError(sqlstate::kDataCorrupted, "compressed lz4 data is corrupt");
  }
}

bool FormCompressedAttr(std::string_view raw, std::string* attr) {
  std::string packed;
  if (!Lz4Compress(raw, &packed)) return false;
  const size_t total = 8 + packed.size();
  attr->resize(total);
  PutU32(attr->data(), static_cast<uint32_t>(total) | kVarlenaCompressed);
  PutU32(attr->data() + 4, static_cast<uint32_t>(raw.size()) |
                               (static_cast<uint32_t>(Compression::kLz4) << 30));
  std::memcpy(attr->data() + 8, packed.data(), packed.size());
  return true;
}

void DecompressAttr(const char* attr, size_t len, std::string* out) {
  if (len < 8) throw DbError(sqlstate::kDataCorrupted, "compressed attribute too short");
  const uint32_t word = GetU32(attr + 4);
  if ((word >> 30) != static_cast<uint32_t>(Compression::kLz4)) {
    throw DbError(sqlstate::kDataCorrupted, "invalid compression method id " + std::to_string(word >> 30));
  }
  Lz4Decompress(attr + 8, len - 8, word & kVarlenaLengthMask, out);
}

std::string FormExternalAttr(const ToastPointer& p) {
  std::string attr(kExternalAttrSize, '\0');
  PutU32(attr.data(), static_cast<uint32_t>(kExternalAttrSize) | kVarlenaExternal);
  std::memcpy(attr.data() + 4, &p, sizeof p);
  return attr;
}

ToastPointer ReadPointer(std::string_view payload) {
  ToastPointer p;
  if (payload.size() != sizeof p) throw DbError(sqlstate::kDataCorrupted, "invalid toast pointer");
  std::memcpy(&p, payload.data(), sizeof p);
  return p;
}

}  // namespace hearth::heap::toast
