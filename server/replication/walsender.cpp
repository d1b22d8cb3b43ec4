// replication/walsender.cpp
//
// Principal entry point: WalSenderMain. The command loop and the small
// commands (IDENTIFY_SYSTEM, SHOW, TIMELINE_HISTORY, the slot commands);
// BASE_BACKUP is basebackup.*, START_REPLICATION is wal_stream.*.
#include "replication/walsender.h"

#include <unistd.h>

#include "access/transam/xlog.h"
#include "access/transam/xlog_backup_label.h"
#include "access/transam/xlog_checkpoint.h"
#include "access/transam/xlog_control.h"
#include "access/transam/xlog_keep.h"
#include "common/error/db_error.h"
#include "common/log/log.h"
#include "common/protocol/wire.h"
#include "replication/basebackup.h"
#include "replication/repl_command.h"
#include "replication/repl_result.h"
#include "replication/wal_stream.h"
#include "storage/ipc/interrupts.h"
#include "storage/lmgr/proc_array.h"
#include "tcop/dest.h"
#include "tcop/query_protocol.h"
#include "access/transam/xlog_timeline.h"

namespace hearth::replication {

namespace {

void IdentifySystem(tcop::Session& session, bool database_mode) {
  const auto cf = access::ReadControlFile(session.datadir);
  SendRowDescription(session.sock, {{"systemid"}, {"timeline", kInt4Oid, 4}, {"xlogpos"}, {"dbname"}});
  SendDataRow(session.sock, {std::to_string(cf ? cf->system_identifier : 0), std::to_string(access::XLogCurrentTimeline()),
                             access::FormatLsn(access::XLogFlushedUpTo()),
                             database_mode ? std::optional<std::string>(session.database) : std::nullopt});
  SendCommandComplete(session.sock, "IDENTIFY_SYSTEM");
}

void Show(tcop::Session& session, const std::string& name) {
  const std::string value = session.settings.Show(name);  // 42704 for an unknown name
  SendRowDescription(session.sock, {{name}});
  SendDataRow(session.sock, {value});
  SendCommandComplete(session.sock, "SHOW");
}

// The history file of timeline `tli` (58P01 when there is none, as for
// timeline 1): the file name and its contents.
void TimelineHistory(tcop::Session& session, uint32_t tli) {
  const std::string name = access::TimelineHistoryFileName(tli);
  const std::optional<std::string> text = access::ReadTimelineHistoryFile(session.datadir + "/pg_wal", tli);
  if (!text) {
    throw DbError(sqlstate::kUndefinedFile,
                  "could not open file \"pg_wal/" + name + "\": No such file or directory");
  }
  SendRowDescription(session.sock, {{"filename"}, {"content"}});
  SendDataRow(session.sock, {name, *text});
  SendCommandComplete(session.sock, "TIMELINE_HISTORY");
}

void CreateSlot(tcop::Session& session, const ReplCommand& c) {
  if (c.logical) throw DbError(sqlstate::kFeatureNotSupported, "logical replication slots are not supported");
  bool reserve = false;
  for (const ReplOption& o : c.options) {
    if (o.first != "reserve_wal") throw DbError(sqlstate::kSyntaxError, "unrecognized option \"" + o.first + "\"");
    reserve = OptionBool(o);
  }
  // The last checkpoint's redo point: no checkpoint can remove WAL after it
  // before seeing this slot.
  const access::XLogRecPtr lsn = reserve ? access::GetRedoRecPtr() : 0;
  access::CreateReplicationSlot(c.name, c.temporary, lsn, session.backend_pid);
  SendRowDescription(session.sock, {{"slot_name"}, {"consistent_point"}, {"snapshot_name"}, {"output_plugin"}});
  SendDataRow(session.sock, {c.name, "0/0", std::nullopt, std::nullopt});
  SendCommandComplete(session.sock, "CREATE_REPLICATION_SLOT");
}

void ReadSlot(tcop::Session& session, const std::string& name) {
  SendRowDescription(session.sock, {{"slot_type"}, {"restart_lsn"}, {"restart_tli", kInt8Oid, 8}});
  const auto slot = access::ReadReplicationSlot(name);
  if (!slot) {
    SendDataRow(session.sock, {std::nullopt, std::nullopt, std::nullopt});
  } else if (slot->restart_lsn == 0) {
    SendDataRow(session.sock, {"physical", std::nullopt, std::nullopt});
  } else {
    SendDataRow(session.sock,
                {"physical", access::FormatLsn(slot->restart_lsn), std::to_string(access::XLogCurrentTimeline())});
  }
  SendCommandComplete(session.sock, "READ_REPLICATION_SLOT");
}

// One replication command. Simple results end with ReadyForQuery sent by
// the caller; SQL in database mode goes through the normal query path,
// which sends its own.
bool ExecCommand(tcop::Session& session, bool database_mode, const std::string& text) {
  if (session.settings.GetBool("log_replication_commands")) {
    spdlog::info("received replication command: {}", text);
  }
  ReplCommand c = ParseReplCommand(text);
  switch (c.kind) {
    case ReplCommandKind::kSql:
      if (database_mode) return false;
      if (text.find_first_not_of(" \t\r\n;") == std::string::npos) {
        tcop::PutSimple(session.sock.out(), 'I');  // EmptyQueryResponse
        return true;
      }
      throw DbError(sqlstate::kFeatureNotSupported,
                    "cannot execute SQL commands in WAL sender for physical replication");
    case ReplCommandKind::kIdentifySystem: IdentifySystem(session, database_mode); break;
    case ReplCommandKind::kShow: Show(session, c.name); break;
    case ReplCommandKind::kTimelineHistory: TimelineHistory(session, c.timeline); break;
    case ReplCommandKind::kCreateSlot: CreateSlot(session, c); break;
    case ReplCommandKind::kDropSlot:
      access::DropReplicationSlot(c.name, session.backend_pid);
      SendCommandComplete(session.sock, "DROP_REPLICATION_SLOT");
      break;
    case ReplCommandKind::kReadSlot: ReadSlot(session, c.name); break;
    case ReplCommandKind::kBaseBackup: SendBaseBackup(session, c.options); break;
    case ReplCommandKind::kStartReplication: StreamWal(session, c); break;
  }
  return true;
}

bool IsExtendedProtocol(char type) {
  using namespace protocol::fe;
  return type == kParse || type == kBind || type == kDescribe || type == kExecute || type == kClose;
}

}  // namespace

void WalSenderMain(tcop::Session& session, bool database_mode) {
  std::string body;
  bool skipping_to_sync = false;  // after an extended-protocol message, as PostgreSQL
  const size_t max_message = static_cast<size_t>(session.settings.GetInt("max_message_size"));
  for (;;) {
    if (!session.sock.HasBufferedInput() && !session.sock.Flush()) return;
    if (auto* proc = storage::MyProc()) proc->state.store(storage::ProcState::kIdle);
    char type = 0;
    const tcop::ReadStatus st = session.sock.ReadMessage(&type, &body, max_message, CheckForTermination);
    if (st == tcop::ReadStatus::kEof) return;
    if (st != tcop::ReadStatus::kOk) {
      throw DbError(sqlstate::kProtocolViolation, "invalid message format", Severity::kFatal);
    }
    if (auto* proc = storage::MyProc()) proc->state.store(storage::ProcState::kActive);
    if (type == protocol::fe::kTerminate) return;
    if (type == protocol::fe::kSync) {
      skipping_to_sync = false;
      tcop::PutReadyForQuery(session.sock.out(), 'I');
      continue;
    }
    if (IsExtendedProtocol(type)) {
      if (!skipping_to_sync) {
        tcop::PutError(session.sock.out(), DbError(sqlstate::kProtocolViolation,
                                                   "extended query protocol not supported in a replication "
                                                   "connection"));
      }
      skipping_to_sync = true;
      continue;
    }
    if (type != protocol::fe::kQuery) continue;  // stray CopyData/CopyDone/Flush
    const std::string text(body.c_str());
    bool handled = true;
    try {
      handled = ExecCommand(session, database_mode, text);
    } catch (const DbError& e) {
      if (e.severity() >= Severity::kFatal) throw;
      tcop::PutError(session.sock.out(), e);
    }
    if (!handled) {
      tcop::QueryProtocol(session).SimpleQuery(body);
      continue;
    }
    tcop::PutReadyForQuery(session.sock.out(), 'I');
  }
}

}  // namespace hearth::replication
