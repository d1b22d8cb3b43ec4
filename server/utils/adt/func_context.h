// server/utils/adt/func_context.h
//
// What a built-in function may see of the session: callbacks the backend
// installs (database, user, settings, pid, transaction clock). Functions
// such as now(), current_user and current_setting() read them; everything
// else ignores them. One FuncCallContext belongs to one backend and is used
// by one thread at a time.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hearth::types {

// On-disk size of a relation for pg_relation_size and friends, in bytes.
struct RelationSizes {
  uint32_t filenode = 0;           // relfilenode (0: the relation has no storage)
  int64_t fork_bytes[4] = {0, 0, 0, 0};  // main, fsm, vm, init (0 unless asked for)
  int64_t indexes_bytes = 0;       // all forks of all its indexes (when asked for)
  int64_t toast_bytes = 0;         // its toast relation and toast index, all forks (with kAllForksMask)
};
// Fork masks for SessionCallbacks::relation_sizes: bit i = fork i.
inline constexpr uint32_t kMainForkMask = 1u;
inline constexpr uint32_t kAllForksMask = 0xFu;

// Which WAL position pg_current_wal_*lsn() reports.
enum class WalPosition : uint8_t { kInsert, kWrite, kFlush };
}  // namespace hearth::types

#include "utils/adt/value.h"

namespace hearth::types {

// Sequence functions, installed by the backend (catalog/sequence.h). The
// sequence argument is a regclass (an OID) or a text name. Unset: 0A000.
struct SequenceCallbacks {
  std::function<int64_t(const Value& seq)> nextval;
  std::function<int64_t(const Value& seq)> currval;
  std::function<int64_t(const Value& seq, int64_t value, bool is_called)> setval;
  std::function<int64_t()> lastval;
  // pg_get_serial_sequence(table, column): "schema.seq" or nullopt.
  std::function<std::optional<std::string>(const std::string& table, const std::string& column)> serial_sequence;
};

// Catalog information functions (pg_get_userbyid, pg_get_indexdef,
// pg_get_constraintdef), installed by the backend (catalog/object_definitions.h).
// Unset: pg_get_userbyid prints PostgreSQL's "unknown (OID=n)", the others
// return NULL.
struct CatalogCallbacks {
  std::function<std::string(uint32_t role)> role_name;
  // CREATE INDEX statement of index `index`, or with column > 0 that key
  // column's definition; nullopt when there is no such index.
  std::function<std::optional<std::string>(uint32_t index, int column)> index_def;
  // "PRIMARY KEY (a, b)" of constraint `constraint`, or nullopt.
  std::function<std::optional<std::string>(uint32_t constraint, bool pretty)> constraint_def;
  // User function `fn`: what = kFunctionDef (CREATE OR REPLACE FUNCTION ...),
  // kFunctionArguments, kFunctionIdentityArguments or kFunctionResult; nullopt
  // when there is no such function.
  std::function<std::optional<std::string>(uint32_t fn, int what)> function_def;
  // pg_get_viewdef: the definition of view `view` (pretty: fewer
  // parentheses), nullopt when it is not a view.
  std::function<std::optional<std::string>(uint32_t view, bool pretty)> view_def;
  // pg_get_partkeydef: "RANGE (a, b)" of partitioned table `rel`, or nullopt.
  std::function<std::optional<std::string>(uint32_t rel)> partkey_def;
  // obj_description & co.: the comment on object `objoid` of catalog
  // `catalog` ("pg_class", ...; "" = any catalog) with `objsubid`, or nullopt.
  std::function<std::optional<std::string>(uint32_t objoid, const std::string& catalog, int32_t objsubid)>
      description;
  // For the current user: has_table_privilege(oid, text) (attnum 0),
  // has_column_privilege(oid, int2, text) (attnum > 0),
  // has_any_column_privilege(oid, text) (attnum -1); nullopt when there is
  // no such relation (→ NULL).
  std::function<std::optional<bool>(uint32_t relid, int32_t attnum, const std::string& privileges)>
      relation_privilege;
  // pg_has_role(role, 'USAGE' | 'MEMBER') for the current user.
  std::function<bool(uint32_t role, const std::string& privilege)> has_role;
  // pg_is_other_temp_schema(namespace).
  std::function<bool(uint32_t ns)> is_other_temp_schema;
};

// CatalogCallbacks::function_def's `what`.
inline constexpr int kFunctionDef = 0;
inline constexpr int kFunctionArguments = 1;
inline constexpr int kFunctionIdentityArguments = 2;
inline constexpr int kFunctionResult = 3;

// Each callback is optional; unset ones fall back to the documented default.
struct SessionCallbacks {
  std::function<std::string()> database_name;       // default "postgres"
  std::function<std::string()> current_user;        // default "postgres"
  std::function<std::string()> session_user;        // default: current_user
  std::function<std::string()> current_schema;      // default "public"
  // Value of a setting, nullopt if there is no such setting (→ 42704).
  std::function<std::optional<std::string>(std::string_view)> get_setting;
  // set_config(name, value, is_local): SET [LOCAL] name = value; returns
  // the value now in effect as SHOW prints it. Throws as SET. Unset: 0A000.
  std::function<std::string(std::string_view name, std::string_view value, bool is_local)> set_setting;
  std::function<int32_t()> backend_pid;             // default getpid()
  // µs since 2000-01-01 UTC; default: the wall clock at call time.
  std::function<int64_t()> transaction_timestamp;
  std::function<int64_t()> statement_timestamp;
  // Sleeps `usec` microseconds and throws if the statement is cancelled
  // meanwhile (pg_sleep); default: an uninterruptible sleep.
  std::function<void(int64_t usec)> sleep;
  // hearth_index_check(name): verifies the B-tree index `name` ("idx" or
  // "schema.idx"); returns "" when sound, else the first violated invariant;
  // nullopt when there is no such index (→ 42704). Unset: 0A000.
  std::function<std::optional<std::string>(std::string_view)> index_check;
  // pg_relation_size & co: sizes of the forks in `fork_mask` of relation
  // `relid` (a table or an index); index sizes only when `with_indexes`.
  // nullopt when there is no such relation (the functions return NULL, as
  // PostgreSQL's do). Unset: 0A000.
  std::function<std::optional<RelationSizes>(uint32_t relid, uint32_t fork_mask, bool with_indexes)>
      relation_sizes;
  // pg_current_wal_lsn() & co. Unset: 0A000.
  std::function<uint64_t(WalPosition)> wal_position;
  // pg_cancel_backend(pid) (terminate false) / pg_terminate_backend(pid,
  // timeout_ms) (true): signals the server process after PostgreSQL's
  // permission checks (42501); false, with a WARNING, when pid is no
  // backend or (timeout_ms > 0) it did not exit in time. Unset: 0A000.
  std::function<bool(int32_t pid, bool terminate, int64_t timeout_ms)> signal_backend;
  SequenceCallbacks sequences;
  CatalogCallbacks catalog;
  // User-defined SQL functions (CREATE FUNCTION): run function `oid` on
  // `args` (coerced to its argument types) and return its value, or (set)
  // its rows' values. Throws as the body does. Unset: 0A000.
  std::function<Value(uint32_t oid, const Value* args, int nargs)> call_sql_function;
  std::function<std::vector<Value>(uint32_t oid, const Value* args, int nargs)> call_sql_set_function;
  // has_table_privilege([role,] table, privileges): role nullopt = the
  // current user. Throws 42704 / 42P01 / 22023. Unset: 0A000.
  std::function<bool(const std::optional<std::string>& role, const std::string& table,
                     const std::string& privileges)>
      has_table_privilege;
  // has_sequence_privilege([role,] sequence, privileges) (kind "sequence")
  // and has_column_privilege([role,] table, column, privileges) (kind
  // "column"): `args` without the role. Unset: 0A000.
  std::function<bool(const std::string& kind, const std::optional<std::string>& role,
                     const std::vector<std::string>& args)>
      has_privilege;
};

struct FuncCallContext {
  const SessionCallbacks* session = nullptr;
  // State of random(); 0 means "seed from the clock on first use".
  uint64_t random_state = 0;
};

}  // namespace hearth::types
