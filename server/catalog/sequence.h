// catalog/sequence.h
//
// Sequence values: each sequence is a one-page relation (relkind 'S') whose
// special space holds {last_value, log_cnt, is_called}; its parameters are
// the hearth_sequence row (relcache RelationEntry::sequence).
//
// nextval is non-transactional: the page changes in place under the
// buffer's exclusive content lock (the per-sequence lightweight lock; no
// heavyweight lock per call beyond the relation's AccessShareLock, taken
// once per transaction). Crash safety as PostgreSQL: when the values
// already WAL-logged run out (log_cnt), or the page was not logged since
// the last checkpoint's redo point, nextval logs a page image claiming 32
// values ahead (kSequenceLogAhead), so most calls write no WAL. Before
// returning a value, nextval makes WAL durable up to the page's LSN (a no-op
// when already flushed), so no value handed out can be handed out again
// after a crash; the values logged ahead but never returned are skipped.
// CACHE n: a session reserves n values per page visit and hands them out
// itself (currval/lastval as PostgreSQL).
//
// Per-session state (currval per sequence, lastval, cached ranges) is
// process-global to the backend. Process safety: per-backend; REQUIRES a
// transaction in progress (relation lookups).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "catalog/relcache.h"
#include "utils/adt/value.h"

namespace hearth::catalog {

inline constexpr int64_t kSequenceLogAhead = 32;  // PostgreSQL's SEQ_LOG_VALS

// The changing part of a sequence (its page's special space).
struct SequenceState {
  int64_t last_value = 0;
  int64_t log_cnt = 0;
  bool is_called = false;
};

// Formats block 0 of a new sequence relation (file already created) with
// last_value = start, is_called = false, and WAL-logs it.
void InitSequencePage(storage::RelFileLocator rel, int64_t start);
// Current page contents (shared buffer lock). Throws XX000 on a page that
// is not a sequence page.
SequenceState ReadSequenceState(const RelationEntry& seq);
// setval / ALTER SEQUENCE RESTART / TRUNCATE RESTART IDENTITY: sets the
// page to (value, is_called, log_cnt 0) and makes it durable at once.
// Forgets this session's cached values of the sequence.
void ResetSequenceState(const RelationEntry& seq, int64_t value, bool is_called);

// Resolves the argument of nextval/currval/setval: a regclass (an OID) or a
// text naming the sequence ("s", "public.s", "\"S\""). Throws 42P01
// relation "x" does not exist, 42809 "x" is not a sequence.
RelationRef OpenSequenceArg(const types::Value& arg);

// The SQL functions. Errors as PostgreSQL 15: 2200H reached maximum/minimum
// value, 55000 currval/lastval not yet defined, 22003 setval out of bounds.
int64_t SequenceNextval(const types::Value& arg);
int64_t SequenceCurrval(const types::Value& arg);
int64_t SequenceSetval(const types::Value& arg, int64_t value, bool is_called);
int64_t SequenceLastval();

// pg_get_serial_sequence(table, column): "public.t_id_seq", or nullopt when
// the column owns no sequence. Throws 42P01 / 42703 as PostgreSQL.
std::optional<std::string> SerialSequenceName(const std::string& table, const std::string& column);

// DISCARD SEQUENCES / DROP SEQUENCE: forgets this session's state of `oid`
// (0: of every sequence).
void ForgetSessionSequence(Oid oid);

// `name` as an SQL identifier: as is when it is lowercase letters, digits
// and underscores (not starting with a digit), else in double quotes.
std::string QuoteIdentifier(const std::string& name);

// Splits a possibly qualified, possibly quoted name as PostgreSQL's
// textual relation names ("Sch"."T" keeps case, unquoted parts fold to
// lowercase). Returns {schema, name}.
std::pair<std::string, std::string> SplitQualifiedName(const std::string& text);

}  // namespace hearth::catalog
