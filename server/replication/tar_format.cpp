// replication/tar_format.cpp
//
// Principal entry point: TarHeader.
#include "replication/tar_format.h"

#include <cstdio>
#include <cstring>

namespace hearth::replication {

namespace {

// An octal number of `width` - 1 digits and a NUL; sizes too big for it
// use the base-256 form (GNU/POSIX extension PostgreSQL also writes).
void PutNumber(char* field, size_t width, uint64_t v) {
  if (v < (1ull << (3 * (width - 1)))) {
    for (size_t i = width - 1; i > 0; i--) {
      field[i - 1] = static_cast<char>('0' + (v & 7));
      v >>= 3;
    }
    field[width - 1] = '\0';
    return;
  }
  field[0] = static_cast<char>(0x80);
  for (size_t i = width - 1; i > 0; i--) {
    field[i] = static_cast<char>(v & 0xFF);
    v >>= 8;
  }
}

}  // namespace

bool TarHeader(const std::string& name, TarType type, uint32_t mode, uint64_t size, int64_t mtime,
               std::array<char, kTarBlock>* out) {
  char* h = out->data();
  std::memset(h, 0, kTarBlock);
  if (name.size() <= 100) {
    std::memcpy(h, name.data(), name.size());
  } else {
    const size_t slash = name.rfind('/', name.size() - 2);
    if (slash == std::string::npos || slash > 155 || name.size() - slash - 1 > 100) return false;
    std::memcpy(h + 345, name.data(), slash);
    std::memcpy(h, name.data() + slash + 1, name.size() - slash - 1);
  }
  PutNumber(h + 100, 8, mode & 07777);
  PutNumber(h + 108, 8, 0);  // uid
  PutNumber(h + 116, 8, 0);  // gid
  PutNumber(h + 124, 12, type == TarType::kDirectory ? 0 : size);
  PutNumber(h + 136, 12, static_cast<uint64_t>(mtime < 0 ? 0 : mtime));
  h[156] = static_cast<char>(type);
  std::memcpy(h + 257, "ustar", 6);  // magic with its NUL
  std::memcpy(h + 263, "00", 2);     // version
  std::memcpy(h + 265, "postgres", 8);
  std::memcpy(h + 297, "postgres", 8);
  // Checksum: sum of the header bytes with the checksum field as spaces.
  std::memset(h + 148, ' ', 8);
  unsigned sum = 0;
  for (size_t i = 0; i < kTarBlock; i++) sum += static_cast<unsigned char>(h[i]);
  std::snprintf(h + 148, 8, "%06o", sum);
  h[155] = ' ';
  return true;
}

}  // namespace hearth::replication
