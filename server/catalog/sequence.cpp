// catalog/sequence.cpp
//
// Principal entry points: SequenceNextval, SequenceCurrval, SequenceSetval,
// SequenceLastval, OpenSequenceArg, InitSequencePage, ResetSequenceState,
// SerialSequenceName.
#include "catalog/sequence.h"

#include <cctype>
#include <unordered_map>

#include "access/transam/xlog.h"
#include "access/transam/xlog_checkpoint.h"
#include "catalog/privileges.h"
#include "catalog/sequence_wal.h"
#include "common/error/db_error.h"

namespace hearth::catalog {

namespace {

// What this session knows of one sequence: currval and the values it
// reserved (CACHE > 1) but has not handed out yet.
struct SessionSeq {
  int64_t last = 0;     // currval
  int64_t cached = 0;   // the last value reserved; == last when none left
  bool valid = false;   // nextval/setval(…, true) ran in this session
};

struct SessionState {
  std::unordered_map<Oid, SessionSeq> seqs;
  Oid last_used = 0;  // lastval's sequence
};
SessionState& Session() {
  static SessionState s;
  return s;
}

std::string Quoted(const RelationEntry& seq) { return "\"" + seq.info.name + "\""; }

const SequenceParams& Params(const RelationEntry& seq) {
  if (!seq.sequence) throw DbError("XX000", "cache lookup failed for sequence " + std::to_string(seq.oid));
  return *seq.sequence;
}

SequencePageData* CheckedData(const RelationEntry& seq, storage::Page page) {
  SequencePageData* d = SequenceData(page);
  if (d == nullptr) throw DbError("XX000", "bad magic number in sequence " + Quoted(seq));
  return d;
}

// Advances `v` by one step; false when that leaves [min, max].
bool Step(const SequenceParams& p, int64_t v, int64_t* out) {
  if (__builtin_add_overflow(v, p.increment, out)) return false;
  return p.increment > 0 ? *out <= p.max : *out >= p.min;
}

[[noreturn]] void ThrowLimit(const RelationEntry& seq, const SequenceParams& p) {
  const bool up = p.increment > 0;
  throw DbError("2200H", std::string("nextval: reached ") + (up ? "maximum" : "minimum") + " value of sequence " +
                             Quoted(seq) + " (" + std::to_string(up ? p.max : p.min) + ")");
}

// One visit to the page: reserves up to `cache` values, WAL-logging
// kSequenceLogAhead more when needed. Returns the first value and stores
// the last reserved one in *last_reserved. Throws 2200H before changing
// anything when no value is left.
int64_t ReserveValues(const RelationEntry& seq, const SequenceParams& p, int64_t* last_reserved,
                      access::XLogRecPtr* page_lsn) {
  access::XLogEnsureSpaceForChange();  // a full disk: 53100 before the page is touched
  storage::PinnedBuffer buf = storage::ReadBuffer(seq.rel, storage::ForkNumber::kMain, 0);
  buf.Lock(storage::LWLockMode::kExclusive);
  SequencePageData* d = CheckedData(seq, buf.page());
  int64_t last = d->last_value, next = last, result = last;
  int64_t fetch = p.cache, log = d->log_cnt, reserved = 0;
  if (!d->is_called) {  // the first value is last_value itself
    ++reserved;
    --fetch;
  }
  // Log ahead when the logged values run out, and at the first change after
  // a checkpoint's redo point (that checkpoint may write the page out).
  bool logit = false;
  if (log < fetch || !d->is_called ||
      (access::XLogIsStarted() && access::XLogPageNeedsFullImage(buf.page().lsn()))) {
    fetch = log = fetch + kSequenceLogAhead;
    logit = true;
  }
  while (fetch > 0) {
    int64_t n;
    if (!Step(p, next, &n)) {
      if (reserved > 0) break;  // only the log-ahead part hit the limit
      if (!p.cycle) ThrowLimit(seq, p);
      n = p.increment > 0 ? p.min : p.max;
    }
    next = n;
    --fetch;
    if (reserved < p.cache) {
      --log;
      ++reserved;
      last = next;
      if (reserved == 1) result = next;
    }
  }
  log -= fetch;  // values the limit cut off cannot be logged ahead
  if (logit) {
    SequencePageData ahead = *d;
    ahead.last_value = next;
    ahead.is_called = 1;
    ahead.log_cnt = 0;
    buf.MarkDirty();
    LogSequencePage(buf, ahead);
  }
  d->last_value = last;
  d->is_called = 1;
  d->log_cnt = log;
  buf.MarkDirty();
  *page_lsn = buf.page().lsn();
  *last_reserved = last;
  return result;
}

}  // namespace

std::string QuoteIdentifier(const std::string& name) {
  bool plain = !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0]));
  for (char c : name) {
    plain &= std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_';
  }
  if (plain) return name;
  std::string q = "\"";
  for (char c : name) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::pair<std::string, std::string> SplitQualifiedName(const std::string& text) {
  std::vector<std::string> parts;
  std::string cur;
  bool quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        cur += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        cur += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == '.') {
      parts.push_back(std::move(cur));
      cur.clear();
    } else {
      cur += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  parts.push_back(std::move(cur));
  if (parts.size() == 1) return {"", parts[0]};
  return {parts[parts.size() - 2], parts.back()};
}

void InitSequencePage(storage::RelFileLocator rel, int64_t start) {
  storage::PinnedBuffer buf = storage::ExtendRelation(rel, storage::ForkNumber::kMain);
  SequencePageData d;
  d.last_value = start;
  FormatSequencePage(buf.page(), d);
  buf.MarkDirty();
  LogSequencePage(buf, d);
}

SequenceState ReadSequenceState(const RelationEntry& seq) {
  storage::ReadPageGuard g = storage::ReadPageShared(seq.rel, storage::ForkNumber::kMain, 0);
  const SequencePageData* d = CheckedData(seq, g.page());
  return SequenceState{d->last_value, d->log_cnt, d->is_called != 0};
}

void ResetSequenceState(const RelationEntry& seq, int64_t value, bool is_called) {
  access::XLogRecPtr lsn = 0;
  access::XLogEnsureSpaceForChange();
  {
    storage::PinnedBuffer buf = storage::ReadBuffer(seq.rel, storage::ForkNumber::kMain, 0);
    buf.Lock(storage::LWLockMode::kExclusive);
    SequencePageData* d = CheckedData(seq, buf.page());
    d->last_value = value;
    d->is_called = is_called ? 1 : 0;
    d->log_cnt = 0;
    buf.MarkDirty();
    lsn = LogSequencePage(buf, *d);
  }
  if (lsn != 0) access::XLogFlush(lsn);
  SessionSeq& s = Session().seqs[seq.oid];
  s.cached = s.last;  // reserved values are gone
}

RelationRef OpenSequenceArg(const types::Value& arg) {
  RelationRef e;
  std::string shown;
  if (arg.type == types::kRegclassOid || arg.type == types::kOidOid) {
    e = OpenRelationByOid(static_cast<Oid>(arg.i), storage::LockMode::kAccessShare);
    if (e == nullptr) throw DbError("42P01", "could not open relation with OID " + std::to_string(arg.i));
  } else {
    auto [schema, name] = SplitQualifiedName(arg.str);
    e = OpenRelation(schema, name, storage::LockMode::kAccessShare);
    if (e == nullptr) throw DbError("42P01", "relation \"" + arg.str + "\" does not exist");
  }
  if (e->relkind != 'S') throw DbError("42809", "\"" + e->info.name + "\" is not a sequence");
  return e;
}

int64_t SequenceNextval(const types::Value& arg) {
  RelationRef seq = OpenSequenceArg(arg);
  CheckSequenceAccess(*seq, kAclUsage | kAclUpdate);
  const SequenceParams& p = Params(*seq);
  SessionState& st = Session();
  SessionSeq& s = st.seqs[seq->oid];
  int64_t n;
  if (s.valid && s.last != s.cached && Step(p, s.last, &n)) {  // a value this session reserved
    s.last = n;
    st.last_used = seq->oid;
    return n;
  }
  access::XLogRecPtr lsn = 0;
  int64_t reserved_to = 0;
  const int64_t v = ReserveValues(*seq, p, &reserved_to, &lsn);
  // The value may be covered only by another session's record: durable first.
  if (lsn != 0) access::XLogFlush(lsn);
  s.last = v;
  s.cached = reserved_to;
  s.valid = true;
  st.last_used = seq->oid;
  return v;
}

int64_t SequenceCurrval(const types::Value& arg) {
  RelationRef seq = OpenSequenceArg(arg);
  CheckSequenceAccess(*seq, kAclUsage | kAclSelect);
  auto it = Session().seqs.find(seq->oid);
  if (it == Session().seqs.end() || !it->second.valid) {
    throw DbError("55000", "currval of sequence " + Quoted(*seq) + " is not yet defined in this session");
  }
  return it->second.last;
}

int64_t SequenceSetval(const types::Value& arg, int64_t value, bool is_called) {
  RelationRef seq = OpenSequenceArg(arg);
  CheckSequenceAccess(*seq, kAclUpdate);
  const SequenceParams& p = Params(*seq);
  if (value < p.min || value > p.max) {
    throw DbError("22003", "setval: value " + std::to_string(value) + " is out of bounds for sequence " + Quoted(*seq) +
                               " (" + std::to_string(p.min) + ".." + std::to_string(p.max) + ")");
  }
  ResetSequenceState(*seq, value, is_called);
  if (is_called) {
    SessionSeq& s = Session().seqs[seq->oid];
    s.last = s.cached = value;
    s.valid = true;
  }
  return value;
}

int64_t SequenceLastval() {
  SessionState& st = Session();
  auto it = st.seqs.find(st.last_used);
  if (st.last_used == 0 || it == st.seqs.end() || !it->second.valid) {
    throw DbError("55000", "lastval is not yet defined in this session");
  }
  RelationRef seq = LookupRelationByOid(st.last_used);
  if (seq == nullptr) throw DbError("55000", "lastval is not yet defined in this session");
  CheckSequenceAccess(*seq, kAclUsage | kAclSelect);
  return it->second.last;
}

void ForgetSessionSequence(Oid oid) {
  SessionState& st = Session();
  if (oid == 0) {
    st.seqs.clear();
    st.last_used = 0;
    return;
  }
  st.seqs.erase(oid);
}

std::optional<std::string> SerialSequenceName(const std::string& table, const std::string& column) {
  auto [schema, name] = SplitQualifiedName(table);
  RelationRef t = OpenRelation(schema, name, storage::LockMode::kAccessShare);
  if (t == nullptr) throw DbError("42P01", "relation \"" + table + "\" does not exist");
  // The column name is taken literally (PostgreSQL keeps its case).
  const std::string& col = column;
  int attnum = 0;
  for (size_t i = 0; i < t->info.columns.size(); ++i) {
    if (t->info.columns[i].name == col) attnum = static_cast<int>(i) + 1;
  }
  if (attnum == 0) {
    throw DbError("42703", "column \"" + col + "\" of relation \"" + t->info.name + "\" does not exist");
  }
  for (const internal::CatalogTuple& row : FindSequencesOwnedBy(t->oid)) {
    SequenceParams p = ParseSequenceRow(row.row);
    if (p.owner_col != attnum) continue;
    RelationRef seq = LookupRelationByOid(p.relid);
    if (seq == nullptr) continue;
    return seq->info.schema + "." + QuoteIdentifier(seq->info.name);
  }
  return std::nullopt;
}

}  // namespace hearth::catalog
