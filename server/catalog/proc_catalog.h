// catalog/proc_catalog.h
//
// hearth_proc (oid 12600): one row per user-defined function or procedure
// (PostgreSQL's pg_proc for LANGUAGE sql routines). Transactional like every
// catalog row, so a function exists exactly when the transaction that
// created it committed, and survives restarts and crashes through the WAL.
// List-valued columns (argument types, modes, names, defaults) are text:
// oids space-separated, modes one character each, names and default
// expressions length-prefixed ("3:abc").
//
// Functions are looked up by name through a per-backend cache of all rows,
// rebuilt when the catalog version moves or this backend's transaction
// changed hearth_proc (FunctionCacheGeneration()).
//
// Process safety: per-backend; REQUIRES a transaction in progress.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog_defs.h"
#include "catalog/catalog_rows.h"

namespace hearth::catalog {

// Block: SQL functions (12600-12649). hearth_proc is a real catalog; pg_proc
// (1255) and pg_language (2612) are views over it.
inline constexpr Oid kHearthProcOid = 12600;
inline constexpr char kHearthProcName[] = "hearth_proc";
inline storage::RelFileLocator ProcCatalogRel() { return CatalogRel(kHearthProcOid); }

// pg_language oids (PostgreSQL's).
inline constexpr Oid kInternalLanguageOid = 12;
inline constexpr Oid kCLanguageOid = 13;
inline constexpr Oid kSqlLanguageOid = 14;
// Block: PL/pgSQL and triggers (9300-9399). PostgreSQL gives plpgsql no
// fixed oid (CREATE EXTENSION assigns one); Hearth's is built in.
inline constexpr Oid kPlpgsqlLanguageOid = 9300;
// The plpgsql extension initdb installs: PostgreSQL 15's oid and comment
// (pg_extension and pg_description show it; pg_dump skips it as built in).
inline constexpr Oid kPlpgsqlExtensionOid = 13559;
inline constexpr char kPlpgsqlExtensionComment[] = "PL/pgSQL procedural language";

// CatalogCallbacks::function_def's `what` beyond types::kFunction*
// (builtins_catalog.cpp asks with the same numbers, as with triggers'
// 100/101): pg_get_function_arg_default(f, n) is kFunctionArgDefault + n;
// has_function_privilege(f, 'EXECUTE') is kFunctionExecutePrivilege ("t"/"f").
inline constexpr int kFunctionArgDefault = 1000;
inline constexpr int kFunctionExecutePrivilege = 2000;
// The pseudo-type of RETURNS trigger (PostgreSQL's oid).
inline constexpr Oid kTriggerTypeOid = 2279;

enum ProcCol : int {
  kProOid = 0,        // oid
  kProName,           // name
  kProNamespace,      // oid
  kProOwner,          // oid
  kProLang,           // oid (14 = sql)
  kProKind,           // text: 'f' function, 'p' procedure
  kProSecdef,         // bool
  kProIsStrict,       // bool
  kProRetset,         // bool
  kProVolatile,       // text: 'i', 's', 'v'
  kProRettype,        // oid (2278 void; 2249 record for RETURNS TABLE of several columns)
  kProArgtypes,       // text: input argument type oids, space-separated
  kProAllargtypes,    // text: all parameter types incl. OUT/TABLE ("" when all are IN)
  kProArgmodes,       // text: one mode letter per parameter ("" when all are IN)
  kProArgnames,       // text: length-prefixed names of all parameters ("" unnamed)
  kProArgdefaults,    // text: length-prefixed default expressions of the last input arguments
  kProSrc,            // text: the body as given (AS '...'), or the SQL-standard body's statements
  kProSqlbody,        // text: NULL, or the SQL-standard body clause as written
  kProAcl,            // text: aclitem[] text; NULL = default (EXECUTE to PUBLIC)
  kProNatts
};

const heap::TupleDesc& ProcCatalogTupleDesc();

// A function's catalog row, decoded.
struct ProcInfo {
  Oid oid = 0;
  std::string name;
  Oid ns = kPublicNamespace;
  Oid owner = kBootstrapSuperuserOid;
  Oid lang = kSqlLanguageOid;
  char kind = 'f';
  bool secdef = false;
  bool strict = false;
  bool retset = false;
  char volatility = 'v';
  Oid rettype = types::kVoidOid;
  std::vector<Oid> argtypes;          // input arguments (IN, INOUT, VARIADIC)
  std::vector<Oid> allargtypes;       // every parameter ("" = argtypes)
  std::string argmodes;               // per parameter ("" = all 'i')
  std::vector<std::string> argnames;  // per parameter (empty vector = none)
  std::vector<std::string> argdefaults;  // defaults of the last argdefaults.size() inputs
  std::string src;
  std::optional<std::string> sqlbody;
  std::optional<std::string> acl;

  // Names of the input arguments (per argtypes; "" when unnamed).
  std::vector<std::string> InputNames() const;
  // (name, type) of the result columns of RETURNS TABLE / OUT parameters.
  std::vector<std::pair<std::string, Oid>> OutputColumns() const;
};

heap::Row MakeProcRow(const ProcInfo& p);
ProcInfo ParseProcRow(const heap::Row& r);

// Every function named `name` in the public namespace (per-backend cache).
std::vector<ProcInfo> FindFunctionsByName(const std::string& name);
// The function with oid `oid`, or nullopt (per-backend cache).
std::optional<ProcInfo> FindFunctionByOid(Oid oid);
// Moves whenever the cache was rebuilt: plans of function bodies cached
// elsewhere are valid while it stays.
uint64_t FunctionCacheGeneration();

// DDL (REQUIRES a transaction; callers checked permissions and validity).
// Inserts `p` (p.oid assigned when 0) / replaces the row of p.oid / deletes
// the row of `oid`. Each serialises on the function's name and makes the
// change visible to the rest of the transaction.
Oid InsertProc(ProcInfo p);
void ReplaceProc(const ProcInfo& p);
void DeleteProc(Oid oid);
// Takes the per-name lock CREATE/DROP FUNCTION hold.
void LockFunctionName(const std::string& name);

// Length-prefixed list encoding of kProArgnames / kProArgdefaults.
std::string EncodeTextList(const std::vector<std::string>& items);
std::vector<std::string> DecodeTextList(const std::string& text);

}  // namespace hearth::catalog
