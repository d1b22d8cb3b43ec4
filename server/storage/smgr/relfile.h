// storage/smgr/relfile.h
//
// Identity of relation storage: RelFileNumber (the file name number),
// RelFileLocator (what a relation's storage is addressed by) and ForkNumber.
// Plain value types; safe anywhere, including in shared memory.
#pragma once

#include <compare>
#include <cstdint>
#include <string>

namespace hearth::storage {

// The number that names a relation's files: base/<number>[_fork][.segno].
// 0 is never a valid relfilenode. Numbers are never reused while a server
// runs (backends may keep descriptors of unlinked files open).
struct RelFileNumber {
  uint32_t value = 0;

  constexpr RelFileNumber() = default;
  constexpr explicit RelFileNumber(uint32_t v) : value(v) {}
  constexpr bool valid() const { return value != 0; }
  constexpr auto operator<=>(const RelFileNumber&) const = default;
};
inline constexpr RelFileNumber kInvalidRelFileNumber{};

// Where a relation's storage lives. Today only the relfilenode (all relations
// sit in <datadir>/base/); a tablespace/database would be added here.
struct RelFileLocator {
  RelFileNumber number;

  constexpr RelFileLocator() = default;
  constexpr explicit RelFileLocator(RelFileNumber n) : number(n) {}
  constexpr explicit RelFileLocator(uint32_t n) : number(n) {}
  constexpr auto operator<=>(const RelFileLocator&) const = default;
};

// On-disk: the fork decides the file-name suffix: main "", fsm "_fsm", vm "_vm".
enum class ForkNumber : uint8_t { kMain = 0, kFsm = 1, kVisibilityMap = 2 };
inline constexpr int kNumForks = 3;

inline const char* ForkSuffix(ForkNumber f) {
  switch (f) {
    case ForkNumber::kMain: return "";
    case ForkNumber::kFsm: return "_fsm";
    case ForkNumber::kVisibilityMap: return "_vm";
  }
  return "";
}

// "base/<number><suffix>" relative to the data directory (segment 0).
inline std::string RelPath(RelFileLocator rel, ForkNumber fork) {
  return "base/" + std::to_string(rel.number.value) + ForkSuffix(fork);
}

}  // namespace hearth::storage
