// catalog/proc_catalog.cpp
//
// Principal entry points: MakeProcRow, ParseProcRow, FindFunctionsByName,
// FindFunctionByOid, InsertProc, ReplaceProc, DeleteProc.
#include "catalog/proc_catalog.h"

#include <charconv>
#include <sstream>

#include "access/heap/heapam.h"
#include "access/transam/xact.h"
#include "catalog/catalog_shared.h"
#include "catalog/ddl_internal.h"
#include "catalog/description_catalog.h"
#include "catalog/pending_delete.h"
#include "catalog/table_stats_counts.h"
#include "common/error/db_error.h"
#include "storage/smgr/smgr.h"

namespace hearth::catalog {

using types::Value;

namespace {

std::string JoinOids(const std::vector<Oid>& oids) {
  std::string out;
  for (size_t i = 0; i < oids.size(); ++i) out += (i ? " " : "") + std::to_string(oids[i]);
  return out;
}

std::vector<Oid> SplitOids(const std::string& text) {
  std::vector<Oid> out;
  std::istringstream in(text);
  uint64_t v = 0;
  while (in >> v) out.push_back(static_cast<Oid>(v));
  return out;
}

// The per-backend cache of hearth_proc: every row as of the catalog version
// it was read at. This backend's own uncommitted changes force a re-read
// (and so does the end of the transaction that made them).
struct ProcCache {
  bool valid = false;
  uint64_t catalog_version = 0;
  uint64_t generation = 0;
  uint64_t dirty_xact = 0;  // XactGeneration() of a transaction that changed hearth_proc; 0 = none
  std::vector<ProcInfo> procs;
};

ProcCache& Cache() {
  static ProcCache cache;
  return cache;
}

void NoteLocalChange() {
  ProcCache& c = Cache();
  c.valid = false;
  c.dirty_xact = XactGeneration();
}

const std::vector<ProcInfo>& CachedProcs() {
  ProcCache& c = Cache();
  if (c.dirty_xact != 0 && c.dirty_xact != XactGeneration()) {
    c.valid = false;
    c.dirty_xact = 0;
  }
  const uint64_t version = CatalogVersion();
  if (!c.valid || c.catalog_version != version) {
    c.procs.clear();
    // A data directory made before hearth_proc existed has no functions.
    const bool exists = storage::SmgrExists(ProcCatalogRel(), storage::ForkNumber::kMain);
    for (const internal::CatalogTuple& t : !exists ? std::vector<internal::CatalogTuple>{} :
         internal::ScanCatalogWhere(ProcCatalogRel(), ProcCatalogTupleDesc(), [](const heap::Row&) { return true; },
                                    false)) {
      c.procs.push_back(ParseProcRow(t.row));
    }
    c.valid = true;
    c.catalog_version = version;
    ++c.generation;
  }
  return c.procs;
}

std::optional<internal::CatalogTuple> FindProcTuple(Oid oid) {
  auto rows = internal::ScanCatalogWhere(
      ProcCatalogRel(), ProcCatalogTupleDesc(), [&](const heap::Row& r) { return internal::RowOid(r, kProOid) == oid; },
      true);
  if (rows.empty()) return std::nullopt;
  return std::move(rows[0]);
}

Value NullableText(const std::optional<std::string>& s) {
  return s ? Value::Text(*s) : Value::Null(types::kTextOid);
}

}  // namespace

const heap::TupleDesc& ProcCatalogTupleDesc() {
  using heap::ColumnDesc;
  // Order must match ProcCol.
  static const heap::TupleDesc desc({
      ColumnDesc::ForType(types::kOidOid),   // oid
      ColumnDesc::ForType(types::kNameOid),  // proname
      ColumnDesc::ForType(types::kOidOid),   // pronamespace
      ColumnDesc::ForType(types::kOidOid),   // proowner
      ColumnDesc::ForType(types::kOidOid),   // prolang
      ColumnDesc::ForType(types::kTextOid),  // prokind
      ColumnDesc::ForType(types::kBoolOid),  // prosecdef
      ColumnDesc::ForType(types::kBoolOid),  // proisstrict
      ColumnDesc::ForType(types::kBoolOid),  // proretset
      ColumnDesc::ForType(types::kTextOid),  // provolatile
      ColumnDesc::ForType(types::kOidOid),   // prorettype
      ColumnDesc::ForType(types::kTextOid),  // proargtypes
      ColumnDesc::ForType(types::kTextOid),  // proallargtypes
      ColumnDesc::ForType(types::kTextOid),  // proargmodes
      ColumnDesc::ForType(types::kTextOid),  // proargnames
      ColumnDesc::ForType(types::kTextOid),  // proargdefaults
      ColumnDesc::ForType(types::kTextOid),  // prosrc
      ColumnDesc::ForType(types::kTextOid),  // prosqlbody
      ColumnDesc::ForType(types::kTextOid),  // proacl
  });
  return desc;
}

std::string EncodeTextList(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += std::to_string(s.size()) + ":" + s;
  return out;
}

std::vector<std::string> DecodeTextList(const std::string& text) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t colon = text.find(':', pos);
    if (colon == std::string::npos) break;
    size_t len = 0;
    std::from_chars(text.data() + pos, text.data() + colon, len);
    out.push_back(text.substr(colon + 1, len));
    pos = colon + 1 + len;
  }
  return out;
}

std::vector<std::string> ProcInfo::InputNames() const {
  std::vector<std::string> out;
  for (size_t i = 0; i < argnames.size() || (argnames.empty() && i < argtypes.size()); ++i) {
    const char mode = i < argmodes.size() ? argmodes[i] : 'i';
    if (mode == 'o' || mode == 't') continue;
    out.push_back(i < argnames.size() ? argnames[i] : std::string());
  }
  out.resize(argtypes.size());
  return out;
}

std::vector<std::pair<std::string, Oid>> ProcInfo::OutputColumns() const {
  std::vector<std::pair<std::string, Oid>> out;
  for (size_t i = 0; i < argmodes.size() && i < allargtypes.size(); ++i) {
    const char mode = argmodes[i];
    if (mode == 'o' || mode == 'b' || mode == 't') {
      out.emplace_back(i < argnames.size() ? argnames[i] : std::string(), allargtypes[i]);
    }
  }
  return out;
}

heap::Row MakeProcRow(const ProcInfo& p) {
  heap::Row r(kProNatts);
  r[kProOid] = Value::Int(types::kOidOid, p.oid);
  r[kProName] = Value::Bytes(types::kNameOid, p.name);
  r[kProNamespace] = Value::Int(types::kOidOid, p.ns);
  r[kProOwner] = Value::Int(types::kOidOid, p.owner);
  r[kProLang] = Value::Int(types::kOidOid, p.lang);
  r[kProKind] = Value::Text(std::string(1, p.kind));
  r[kProSecdef] = Value::Bool(p.secdef);
  r[kProIsStrict] = Value::Bool(p.strict);
  r[kProRetset] = Value::Bool(p.retset);
  r[kProVolatile] = Value::Text(std::string(1, p.volatility));
  r[kProRettype] = Value::Int(types::kOidOid, p.rettype);
  r[kProArgtypes] = Value::Text(JoinOids(p.argtypes));
  r[kProAllargtypes] = Value::Text(JoinOids(p.allargtypes));
  r[kProArgmodes] = Value::Text(p.argmodes);
  r[kProArgnames] = Value::Text(EncodeTextList(p.argnames));
  r[kProArgdefaults] = Value::Text(EncodeTextList(p.argdefaults));
  r[kProSrc] = Value::Text(p.src);
  r[kProSqlbody] = NullableText(p.sqlbody);
  r[kProAcl] = NullableText(p.acl);
  return r;
}

ProcInfo ParseProcRow(const heap::Row& r) {
  ProcInfo p;
  p.oid = internal::RowOid(r, kProOid);
  p.name = r[kProName].str;
  p.ns = internal::RowOid(r, kProNamespace);
  p.owner = internal::RowOid(r, kProOwner);
  p.lang = internal::RowOid(r, kProLang);
  p.kind = r[kProKind].str.empty() ? 'f' : r[kProKind].str[0];
  p.secdef = r[kProSecdef].b;
  p.strict = r[kProIsStrict].b;
  p.retset = r[kProRetset].b;
  p.volatility = r[kProVolatile].str.empty() ? 'v' : r[kProVolatile].str[0];
  p.rettype = internal::RowOid(r, kProRettype);
  p.argtypes = SplitOids(r[kProArgtypes].str);
  p.allargtypes = SplitOids(r[kProAllargtypes].str);
  p.argmodes = r[kProArgmodes].str;
  p.argnames = DecodeTextList(r[kProArgnames].str);
  p.argdefaults = DecodeTextList(r[kProArgdefaults].str);
  p.src = r[kProSrc].str;
  if (!r[kProSqlbody].is_null) p.sqlbody = r[kProSqlbody].str;
  if (!r[kProAcl].is_null) p.acl = r[kProAcl].str;
  return p;
}

std::vector<ProcInfo> FindFunctionsByName(const std::string& name) {
  std::vector<ProcInfo> out;
  for (const ProcInfo& p : CachedProcs()) {
    if (p.name == name) out.push_back(p);
  }
  return out;
}

std::optional<ProcInfo> FindFunctionByOid(Oid oid) {
  for (const ProcInfo& p : CachedProcs()) {
    if (p.oid == oid) return p;
  }
  return std::nullopt;
}

uint64_t FunctionCacheGeneration() {
  CachedProcs();
  return Cache().generation;
}

void LockFunctionName(const std::string& name) { internal::LockRelationName(kPublicNamespace, "\x01proc:" + name); }

Oid InsertProc(ProcInfo p) {
  if (p.oid == 0) p.oid = GetNewObjectId();
  MarkCatalogChanged(kHearthProcOid);
  heap::HeapInsert(ProcCatalogRel(), ProcCatalogTupleDesc(), MakeProcRow(p), access::GetCurrentTransactionId(),
                   access::GetCurrentCommandId(true));
  PendingCounts(kHearthProcOid).CountInsert();
  access::CommandCounterIncrement();
  NoteLocalChange();
  return p.oid;
}

void ReplaceProc(const ProcInfo& p) {
  auto row = FindProcTuple(p.oid);
  if (!row) throw DbError("XX000", "cache lookup failed for function " + std::to_string(p.oid));
  MarkCatalogChanged(kHearthProcOid);
  heap::TmFailureData fd;
  heap::ItemPointer new_tid;
  access::TmResult r = heap::HeapUpdate(ProcCatalogRel(), row->tid, ProcCatalogTupleDesc(), MakeProcRow(p),
                                        access::GetCurrentTransactionId(), access::GetCurrentCommandId(true), nullptr,
                                        /*wait=*/true, &fd, &new_tid);
  if (r != access::TmResult::kOk) throw DbError("XX000", "tuple concurrently updated");
  PendingCounts(kHearthProcOid).CountUpdate(/*hot=*/false);
  access::CommandCounterIncrement();
  NoteLocalChange();
}

void DeleteProc(Oid oid) {
  auto row = FindProcTuple(oid);
  if (!row) throw DbError("XX000", "cache lookup failed for function " + std::to_string(oid));
  MarkCatalogChanged(kHearthProcOid);
  internal::DdlDeleteCatalogTuple(ProcCatalogRel(), row->tid, access::GetCurrentTransactionId(),
                                  access::GetCurrentCommandId(true));
  access::CommandCounterIncrement();
  NoteLocalChange();
  DeleteDescriptions(oid, kPgProcClassOid);
}

}  // namespace hearth::catalog
