// catalog/catalog_shared.h
//
// The catalog's cluster-wide shared state: the OID / relfilenode counter and
// the catalog version counter used for relcache invalidation.
//
// Where it lives: the tail of storage's "xact area" (storage/lmgr/
// proc_array.h XactArea, which transam uses from its start; a static_assert
// checks both fit), so no extra region is needed in the segment layout. The
// segment is zero-filled, which is this state's valid "not started" value:
// the first process that asks for an OID loads <datadir>/global/oid_control
// (datadir = access::TransamDataDir()). So nothing has to be called at
// postmaster start, and a crash reset (fresh segment) reloads it.
//
// OIDs are never reused, across clean restarts and crashes: the control file
// is written (temp + fsync + rename) kOidPrefetch ahead of every OID handed
// out, like transam's xid_control. A restart may therefore skip up to
// kOidPrefetch numbers; that is harmless.
//
// Process safety: any process that inherited the segment, after
// TransamStartup. The counter is serialised by an LWLock in shared memory;
// the version counter is a lock-free atomic.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "catalog/catalog_defs.h"

namespace hearth::catalog {

inline constexpr Oid kOidPrefetch = 8192;
inline constexpr char kOidControlFile[] = "global/oid_control";

// Returns a new OID (also used as relfilenode), >= kFirstNormalObjectId and
// never returned before in this cluster. Throws std::runtime_error when the
// control file cannot be read or written, DbError 54000 when exhausted.
Oid GetNewObjectId();

// Writes <datadir>/global/oid_control saying "next OID is `next`" (temp +
// fsync + rename). Used by BootstrapCatalog; also exact at clean shutdown.
void WriteOidControlFile(const std::string& datadir, Oid next);
// Reads it; throws std::runtime_error when missing or corrupt.
Oid ReadOidControlFile(const std::string& datadir);

// Clean shutdown (postmaster, after all children exited; optional): records
// the exact next OID so a restart skips none. No-op if no OID was handed out.
void CatalogShutdown();

// ---- catalog version and invalidation messages (relcache) ----
// The version moves whenever a transaction that changed the catalog
// publishes its messages; reading it is one atomic load.
uint64_t CatalogVersion();
// Appends one message per relation oid to the shared ring (a message says
// "drop what you cached about this relation"), then bumps the version.
void SendRelationInvalidations(const std::vector<Oid>& relids);
// Messages appended since message number `*seen` (0 at start): their oids go
// to *out and *seen moves to the newest. Returns false when the ring already
// overwrote some of them: the caller must then drop its whole cache.
inline constexpr uint32_t kInvalidationRing = 4096;
bool ReadRelationInvalidations(uint64_t* seen, std::vector<Oid>* out);

}  // namespace hearth::catalog
