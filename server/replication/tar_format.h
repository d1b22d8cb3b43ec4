// replication/tar_format.h
//
// ustar member headers (POSIX 1003.1-2008), the way PostgreSQL's base
// backups write them: 512-byte header, data padded to 512, and two zero
// blocks at the end of the archive. Pure functions.
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace hearth::replication {

inline constexpr size_t kTarBlock = 512;

enum class TarType : char { kFile = '0', kDirectory = '5' };

// The header of one member. `name` relative to the archive root (a
// directory's with a trailing '/'); names over 100 bytes go into the prefix
// field (split at a '/'). Returns false when the name cannot be stored.
bool TarHeader(const std::string& name, TarType type, uint32_t mode, uint64_t size, int64_t mtime,
               std::array<char, kTarBlock>* out);

// Zero bytes after `size` bytes of data to reach a block boundary.
inline size_t TarPadding(uint64_t size) { return static_cast<size_t>((kTarBlock - size % kTarBlock) % kTarBlock); }

}  // namespace hearth::replication
