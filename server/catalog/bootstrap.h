// catalog/bootstrap.h
//
// Creating the system catalogs of a new cluster (`hearthd init`).
//
// Process safety: single process, no server running on the data directory.
// It creates (and destroys) its own small shared segment and points this
// process's storage/transam globals at it, so the calling process must not
// use shared memory afterwards (call it from `hearthd init`, or fork first).
#pragma once

#include <string>

namespace hearth::catalog {

// Creates the system catalogs (hearth_class 1259, hearth_attribute 1249,
// hearth_index, hearth_sequence, ... in template1's directory base/1/; the
// shared pg_authid 1260 holding `superuser` as oid 10, pg_auth_members 1261
// and hearth_database 1262 under global/), describing themselves
// (namespace pg_catalog), written by
// the bootstrap xid (always committed), and <datadir>/global/oid_control
// (user OIDs from 16384). Flushes every buffer and shuts transam down
// cleanly. Uses the directory's existing transam files (TransamStartup
// creates global/ and pg_xact/ when missing). Then copies template1 into
// template0 (base/4/) and the default database `dbname` (base/5/), and leaves
// this process's database (MyDatabaseId) at the default one. Throws
// std::runtime_error when the catalogs already exist or on I/O errors.
void BootstrapCatalog(const std::string& datadir, const std::string& superuser,
                      const std::string& dbname = "postgres");

}  // namespace hearth::catalog
