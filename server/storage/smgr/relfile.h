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

// Where a relation's storage lives: the database directory and the
// relfilenode inside it. db 0 = the cluster's shared relations (pg_authid,
// pg_auth_members, pg_database) under <datadir>/global/; any other db is a
// database oid, its relations under <datadir>/base/<db>/. A relfilenode is
// unique inside its database only (CREATE DATABASE copies the template's
// files under the same numbers), so every key made of a locator carries both.
// The default database `hearthd init` makes (catalog::kDefaultDatabaseOid).
inline constexpr uint32_t kDefaultDatabaseId = 5;

struct RelFileLocator {
  RelFileNumber number;
  uint32_t db = 0;

  constexpr RelFileLocator() = default;
  constexpr RelFileLocator(uint32_t database, RelFileNumber n) : number(n), db(database) {}
  constexpr RelFileLocator(uint32_t database, uint32_t n) : number(n), db(database) {}
  // Both halves in one integer (hash keys, shared arrays).
  constexpr uint64_t Key() const { return (static_cast<uint64_t>(db) << 32) | number.value; }
  static constexpr RelFileLocator FromKey(uint64_t key) {
    return RelFileLocator(static_cast<uint32_t>(key >> 32), static_cast<uint32_t>(key));
  }
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

// "global/<number><suffix>" (db 0) or "base/<db>/<number><suffix>",
// relative to the data directory (segment 0).
inline std::string DatabaseDirectory(uint32_t db) { return db == 0 ? "global" : "base/" + std::to_string(db); }
inline std::string RelPath(RelFileLocator rel, ForkNumber fork) {
  return DatabaseDirectory(rel.db) + "/" + std::to_string(rel.number.value) + ForkSuffix(fork);
}

}  // namespace hearth::storage
