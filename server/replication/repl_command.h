// replication/repl_command.h
//
// The replication grammar a walsender accepts (PostgreSQL 15's repl_gram):
// IDENTIFY_SYSTEM, SHOW, TIMELINE_HISTORY, CREATE/DROP/READ_REPLICATION_SLOT,
// BASE_BACKUP and START_REPLICATION, with both the old bare option words and
// PostgreSQL 15's parenthesised option lists. Pure parsing: no state.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hearth::replication {

enum class ReplCommandKind {
  kSql,  // not a replication command: the text is SQL
  kIdentifySystem,
  kShow,
  kTimelineHistory,
  kCreateSlot,
  kDropSlot,
  kReadSlot,
  kBaseBackup,
  kStartReplication,
};

// One option: name lower-cased, value as written (nullopt: bare word).
using ReplOption = std::pair<std::string, std::optional<std::string>>;

struct ReplCommand {
  ReplCommandKind kind = ReplCommandKind::kSql;
  std::string name;        // SHOW's variable; the slot's name
  bool temporary = false;  // CREATE_REPLICATION_SLOT ... TEMPORARY
  bool logical = false;    // ... LOGICAL (refused: physical only)
  bool wait = false;       // DROP_REPLICATION_SLOT ... WAIT
  uint32_t timeline = 0;   // TIMELINE_HISTORY n; START_REPLICATION ... TIMELINE n (0: not given)
  uint64_t lsn = 0;        // START_REPLICATION's start point
  std::vector<ReplOption> options;  // BASE_BACKUP and CREATE_REPLICATION_SLOT options
};

// Parses one command. Throws DbError 42601 "syntax error" for a malformed
// replication command; text whose first word is not a replication command
// comes back as kSql.
ReplCommand ParseReplCommand(const std::string& text);

// An option's value as a boolean (bare word: true), PostgreSQL's
// defGetBoolean; 22023 when it is none.
bool OptionBool(const ReplOption& opt);

}  // namespace hearth::replication
