// catalog/trigger_catalog.cpp
//
// Principal entry points: TriggersOf, InsertTrigger, DeleteTrigger,
// DeleteTriggersOf, TriggerDefinition.
#include "catalog/trigger_catalog.h"

#include <algorithm>
#include <sstream>

#include "access/heap/heapam.h"
#include "access/transam/xact.h"
#include "catalog/catalog_shared.h"
#include "catalog/ddl_internal.h"
#include "catalog/namespace_catalog.h"
#include "catalog/pending_delete.h"
#include "catalog/proc_catalog.h"
#include "catalog/table_stats_counts.h"
#include "common/error/db_error.h"
#include "storage/smgr/smgr.h"

namespace hearth::catalog {

using types::Value;

namespace {

// Every hearth_trigger row as of one catalog version; this backend's own
// uncommitted changes force a re-read (and so does the end of their
// transaction), as hearth_proc's cache.
struct TriggerCache {
  bool valid = false;
  uint64_t catalog_version = 0;
  uint64_t dirty_xact = 0;
  std::vector<TriggerFields> rows;  // name order
};

TriggerCache& Cache() {
  static TriggerCache cache;
  return cache;
}

void NoteLocalChange() {
  TriggerCache& c = Cache();
  c.valid = false;
  c.dirty_xact = XactGeneration();
}

const std::vector<TriggerFields>& CachedTriggers() {
  TriggerCache& c = Cache();
  if (c.dirty_xact != 0 && c.dirty_xact != XactGeneration()) {
    c.valid = false;
    c.dirty_xact = 0;
  }
  const uint64_t version = CatalogVersion();
  if (!c.valid || c.catalog_version != version) {
    c.rows.clear();
    if (TriggerCatalogExists()) {
      for (const internal::CatalogTuple& t : internal::ScanCatalogWhere(
               TriggerCatalogRel(), TriggerCatalogTupleDesc(), [](const heap::Row&) { return true; }, false)) {
        c.rows.push_back(ParseTriggerRow(t.row));
      }
    }
    std::sort(c.rows.begin(), c.rows.end(), [](const TriggerFields& a, const TriggerFields& b) {
      return a.name != b.name ? a.name < b.name : a.oid < b.oid;
    });
    c.valid = true;
    c.catalog_version = version;
  }
  return c.rows;
}

std::optional<internal::CatalogTuple> FindTuple(Oid oid) {
  if (!TriggerCatalogExists()) return std::nullopt;
  auto rows = internal::ScanCatalogWhere(
      TriggerCatalogRel(), TriggerCatalogTupleDesc(), [&](const heap::Row& r) { return internal::RowOid(r, kTgOid) == oid; },
      true);
  if (rows.empty()) return std::nullopt;
  return std::move(rows[0]);
}

// The table and function rows both changed meaning: plans and caches of the
// table are rebuilt.
void MarkChanged(Oid relid) { MarkCatalogChanged(std::vector<Oid>{kHearthTriggerOid, relid}); }

std::string Quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += '\'';
    out += c;
  }
  return out + "'";
}

}  // namespace

const heap::TupleDesc& TriggerCatalogTupleDesc() {
  using heap::ColumnDesc;
  static const heap::TupleDesc desc({
      ColumnDesc::ForType(types::kOidOid),   // oid
      ColumnDesc::ForType(types::kOidOid),   // tgrelid
      ColumnDesc::ForType(types::kNameOid),  // tgname
      ColumnDesc::ForType(types::kOidOid),   // tgfoid
      ColumnDesc::ForType(types::kInt4Oid),  // tgtype
      ColumnDesc::ForType(types::kTextOid),  // tgenabled
      ColumnDesc::ForType(types::kTextOid),  // tgattr
      ColumnDesc::ForType(types::kTextOid),  // tgargs
      ColumnDesc::ForType(types::kTextOid),  // tgqual
  });
  return desc;
}

heap::Row MakeTriggerRow(const TriggerFields& f) {
  heap::Row r(kTgNatts);
  r[kTgOid] = Value::Int(types::kOidOid, f.oid);
  r[kTgRelid] = Value::Int(types::kOidOid, f.relid);
  r[kTgName] = Value::Bytes(types::kNameOid, f.name);
  r[kTgFoid] = Value::Int(types::kOidOid, f.func);
  r[kTgType] = Value::Int4(f.type);
  r[kTgEnabled] = Value::Text(std::string(1, f.enabled));
  std::string attr;
  for (int a : f.attnums) attr += (attr.empty() ? "" : " ") + std::to_string(a);
  r[kTgAttr] = Value::Text(attr);
  r[kTgArgs] = Value::Text(EncodeTextList(f.args));
  r[kTgQual] = f.when ? Value::Text(*f.when) : Value::Null(types::kTextOid);
  return r;
}

TriggerFields ParseTriggerRow(const heap::Row& r) {
  TriggerFields f;
  f.oid = internal::RowOid(r, kTgOid);
  f.relid = internal::RowOid(r, kTgRelid);
  f.name = r[kTgName].str;
  f.func = internal::RowOid(r, kTgFoid);
  f.type = static_cast<int>(r[kTgType].i);
  f.enabled = r[kTgEnabled].is_null || r[kTgEnabled].str.empty() ? 'O' : r[kTgEnabled].str[0];
  std::istringstream in(r[kTgAttr].is_null ? std::string() : r[kTgAttr].str);
  int a = 0;
  while (in >> a) f.attnums.push_back(a);
  if (!r[kTgArgs].is_null) f.args = DecodeTextList(r[kTgArgs].str);
  if (!r[kTgQual].is_null) f.when = r[kTgQual].str;
  return f;
}

bool TriggerCatalogExists() {
  // A data directory made before hearth_trigger has no file and never gains one.
  static const bool exists = storage::SmgrExists(TriggerCatalogRel(), storage::ForkNumber::kMain);
  return exists;
}

std::vector<TriggerFields> TriggersOf(Oid relid) {
  std::vector<TriggerFields> out;
  for (const TriggerFields& f : CachedTriggers()) {
    if (f.relid == relid) out.push_back(f);
  }
  return out;
}

std::vector<TriggerFields> AllTriggers() { return CachedTriggers(); }

std::optional<TriggerFields> FindTriggerByOid(Oid oid) {
  for (const TriggerFields& f : CachedTriggers()) {
    if (f.oid == oid) return f;
  }
  return std::nullopt;
}

Oid InsertTrigger(TriggerFields f) {
  if (!TriggerCatalogExists()) throw DbError("0A000", "this data directory has no trigger catalog");
  if (f.oid == 0) f.oid = GetNewObjectId();
  MarkChanged(f.relid);
  heap::HeapInsert(TriggerCatalogRel(), TriggerCatalogTupleDesc(), MakeTriggerRow(f), access::GetCurrentTransactionId(),
                   access::GetCurrentCommandId(true));
  PendingCounts(kHearthTriggerOid).CountInsert();
  access::CommandCounterIncrement();
  NoteLocalChange();
  return f.oid;
}

void ReplaceTrigger(const TriggerFields& f) {
  auto row = FindTuple(f.oid);
  if (!row) throw DbError("XX000", "cache lookup failed for trigger " + std::to_string(f.oid));
  MarkChanged(f.relid);
  heap::TmFailureData fd;
  heap::ItemPointer new_tid;
  access::TmResult r = heap::HeapUpdate(TriggerCatalogRel(), row->tid, TriggerCatalogTupleDesc(), MakeTriggerRow(f),
                                        access::GetCurrentTransactionId(), access::GetCurrentCommandId(true), nullptr,
                                        /*wait=*/true, &fd, &new_tid);
  if (r != access::TmResult::kOk) throw DbError("XX000", "tuple concurrently updated");
  PendingCounts(kHearthTriggerOid).CountUpdate(/*hot=*/false);
  access::CommandCounterIncrement();
  NoteLocalChange();
}

void DeleteTrigger(Oid oid) {
  auto row = FindTuple(oid);
  if (!row) throw DbError("XX000", "cache lookup failed for trigger " + std::to_string(oid));
  MarkChanged(internal::RowOid(row->row, kTgRelid));
  internal::DdlDeleteCatalogTuple(TriggerCatalogRel(), row->tid, access::GetCurrentTransactionId(),
                                  access::GetCurrentCommandId(true));
  PendingCounts(kHearthTriggerOid).CountDelete();
  access::CommandCounterIncrement();
  NoteLocalChange();
}

void DeleteTriggersOf(Oid relid) {
  if (!TriggerCatalogExists()) return;
  for (const TriggerFields& f : TriggersOf(relid)) DeleteTrigger(f.oid);
}

std::optional<std::string> TriggerDefinition(Oid oid, bool pretty) {
  std::optional<TriggerFields> f = FindTriggerByOid(oid);
  if (!f) return std::nullopt;
  std::string table = std::to_string(f->relid);
  std::vector<std::string> columns;
  if (auto cls = internal::FindClassByOid(f->relid)) {
    const std::string name = cls->row[kClassRelname].str;
    const std::string schema = NamespaceName(internal::RowOid(cls->row, kClassRelnamespace));
    table = pretty && schema == "public" ? name : schema + "." + name;
    for (const internal::CatalogTuple& a : internal::FindAttributes(f->relid)) columns.push_back(a.row[kAttAttname].str);
  }
  std::string out = "CREATE TRIGGER " + f->name + " ";
  out += (f->type & kTriggerTypeBefore) ? "BEFORE" : (f->type & kTriggerTypeInstead) ? "INSTEAD OF" : "AFTER";
  bool first = true;
  auto event = [&](int bit, const char* name) {
    if (!(f->type & bit)) return;
    out += first ? " " : " OR ";
    out += name;
    first = false;
    if (bit == kTriggerTypeUpdate && !f->attnums.empty()) {
      out += " OF ";
      for (size_t i = 0; i < f->attnums.size(); ++i) {
        const size_t at = static_cast<size_t>(f->attnums[i] - 1);
        out += (i ? ", " : "") + (at < columns.size() ? columns[at] : std::to_string(f->attnums[i]));
      }
    }
  };
  event(kTriggerTypeInsert, "INSERT");
  event(kTriggerTypeDelete, "DELETE");
  event(kTriggerTypeUpdate, "UPDATE");
  event(kTriggerTypeTruncate, "TRUNCATE");
  out += " ON " + table + ((f->type & kTriggerTypeRow) ? " FOR EACH ROW" : " FOR EACH STATEMENT");
  if (f->when) out += pretty ? " WHEN (" + *f->when + ")" : " WHEN ((" + *f->when + "))";
  std::optional<ProcInfo> fn = FindFunctionByOid(f->func);
  out += " EXECUTE FUNCTION " + (fn ? fn->name : std::to_string(f->func)) + "(";
  for (size_t i = 0; i < f->args.size(); ++i) out += (i ? ", " : "") + Quote(f->args[i]);
  return out + ")";
}

}  // namespace hearth::catalog
