// catalog/trigger_catalog.h
//
// hearth_trigger (oid 2620, PostgreSQL's pg_trigger oid): one row per
// trigger — its table, name, function, PostgreSQL's tgtype bits (ROW,
// BEFORE, INSTEAD and the events), enabled state ('O' or 'D'), the UPDATE
// OF columns (1-based attnums), the arguments and the WHEN condition (SQL
// text over NEW./OLD. references, NULL without one).
//
// Triggers are looked up per table through a per-backend cache of all rows
// (rebuilt when the catalog version moves or this backend's transaction
// changed hearth_trigger), like hearth_proc.
//
// Process safety: per-backend; REQUIRES a transaction in progress.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog_defs.h"
#include "catalog/catalog_rows.h"

namespace hearth::catalog {

inline constexpr Oid kHearthTriggerOid = 2620;  // pg_trigger's oid
inline constexpr char kHearthTriggerName[] = "hearth_trigger";
inline storage::RelFileLocator TriggerCatalogRel() { return CatalogRel(kHearthTriggerOid); }

// PostgreSQL's tgtype bits.
inline constexpr int kTriggerTypeRow = 1 << 0;
inline constexpr int kTriggerTypeBefore = 1 << 1;
inline constexpr int kTriggerTypeInsert = 1 << 2;
inline constexpr int kTriggerTypeDelete = 1 << 3;
inline constexpr int kTriggerTypeUpdate = 1 << 4;
inline constexpr int kTriggerTypeTruncate = 1 << 5;
inline constexpr int kTriggerTypeInstead = 1 << 6;

// CatalogCallbacks::function_def's `what` for pg_get_triggerdef (plain and
// pretty); utils/adt/builtins_catalog.cpp uses the same numbers.
inline constexpr int kTriggerDefinition = 100;
inline constexpr int kTriggerDefinitionPretty = 101;

enum TriggerCol : int {
  kTgOid = 0,   // oid
  kTgRelid,     // oid
  kTgName,      // name
  kTgFoid,      // oid
  kTgType,      // int4: tgtype bits
  kTgEnabled,   // text: 'O' enabled, 'D' disabled
  kTgAttr,      // text: UPDATE OF attnums, space-separated
  kTgArgs,      // text: length-prefixed arguments (EncodeTextList)
  kTgQual,      // text: WHEN condition as written, NULL without one
  kTgNatts
};

const heap::TupleDesc& TriggerCatalogTupleDesc();

struct TriggerFields {
  Oid oid = 0;
  Oid relid = 0;
  std::string name;
  Oid func = 0;
  int type = 0;
  char enabled = 'O';
  std::vector<int> attnums;  // 1-based
  std::vector<std::string> args;
  std::optional<std::string> when;
};

heap::Row MakeTriggerRow(const TriggerFields& f);
TriggerFields ParseTriggerRow(const heap::Row& r);

// True when this data directory has hearth_trigger.
bool TriggerCatalogExists();
// The triggers of `relid` in name order (PostgreSQL's firing order).
std::vector<TriggerFields> TriggersOf(Oid relid);
// Every trigger (pg_trigger).
std::vector<TriggerFields> AllTriggers();
std::optional<TriggerFields> FindTriggerByOid(Oid oid);

// DDL (callers checked ownership and validity).
Oid InsertTrigger(TriggerFields f);
void ReplaceTrigger(const TriggerFields& f);  // the row of f.oid
void DeleteTrigger(Oid oid);
// DROP TABLE: the table's triggers go with it.
void DeleteTriggersOf(Oid relid);

// "CREATE TRIGGER name BEFORE INSERT ON public.t FOR EACH ROW EXECUTE FUNCTION f()".
std::optional<std::string> TriggerDefinition(Oid oid, bool pretty);

}  // namespace hearth::catalog
