// tcop/copy_endpoint.cpp
//
// Principal entry points: CheckCopyEndpointPrivilege, CopyEndpoint.
#include "tcop/copy_endpoint.h"

#include "catalog/predefined_roles.h"
#include "catalog/privileges.h"
#include "catalog/role_ddl.h"
#include "commands/copy_file_session.h"
#include "common/error/db_error.h"
#include "common/error/sqlstate.h"
#include "storage/ipc/interrupts.h"
#include "storage/lmgr/backend_progress.h"
#include "storage/smgr/smgr.h"
#include "tcop/session.h"

namespace hearth::tcop {

namespace {

[[noreturn]] void DenyServerSide(const char* role, const char* what) {
  throw DbError(sqlstate::kInsufficientPrivilege,
                std::string("must be superuser or have privileges of the ") + role + " role to " + what)
      .WithHint("Anyone can COPY to stdout or from stdin. psql's \\copy command also works for anyone.");
}

bool ActingRoleHasPrivsOf(catalog::Oid role) {
  return catalog::CurrentUserIsSuperuser() || catalog::HasPrivsOfRole(catalog::GetCurrentUserId(), role);
}

bool IsClientSide(const parser::CopyStmt& stmt) { return !stmt.is_program && stmt.filename.empty(); }

// The file COPY opens: relative names of COPY FROM are under the data
// directory; COPY TO accepts only absolute ones.
std::string ResolvePath(const parser::CopyStmt& stmt) {
  if (!stmt.filename.empty() && stmt.filename.front() == '/') return stmt.filename;
  if (!stmt.is_from) throw DbError(sqlstate::kInvalidName, "relative path not allowed for COPY to file");
  return storage::SmgrDataDir() + "/" + stmt.filename;
}

}  // namespace

void CheckCopyEndpointPrivilege(const parser::CopyStmt& stmt) {
  if (IsClientSide(stmt)) return;
  if (stmt.is_program) {
    if (!ActingRoleHasPrivsOf(catalog::kPgExecuteServerProgramOid)) {
      DenyServerSide("pg_execute_server_program", "COPY to or from an external program");
    }
  } else if (stmt.is_from) {
    if (!ActingRoleHasPrivsOf(catalog::kPgReadServerFilesOid)) {
      DenyServerSide("pg_read_server_files", "COPY from a file");
    }
  } else if (!ActingRoleHasPrivsOf(catalog::kPgWriteServerFilesOid)) {
    DenyServerSide("pg_write_server_files", "COPY to a file");
  }
}

CopyEndpoint::CopyEndpoint(Session& s, const parser::CopyStmt& stmt) {
  using Direction = commands::CopyServerStream::Direction;
  const Direction dir = stmt.is_from ? Direction::kRead : Direction::kWrite;
  if (IsClientSide(stmt)) {
    channel_.emplace(s.sock, static_cast<size_t>(s.settings.GetInt("max_message_size")));
  } else if (stmt.is_program) {
    stream_.emplace(commands::CopyServerStream::OpenProgram(stmt.filename, dir));
  } else {
    stream_.emplace(commands::CopyServerStream::OpenFile(ResolvePath(stmt), dir, stmt.filename));
  }
}

std::unique_ptr<commands::CopyRowInput> CopyEndpoint::Input(commands::CopyFromParser& parser,
                                                            const commands::CopyRowConverter& converter) {
  if (stream_) return std::make_unique<commands::CopyFileInSession>(*stream_, parser, converter, CheckForInterrupts);
  return std::make_unique<commands::CopyInSession>(*channel_, parser, converter, CheckForInterrupts);
}

std::unique_ptr<commands::CopyRowOutput> CopyEndpoint::Output(commands::CopyToFormatter& formatter,
                                                              std::vector<std::string> column_names) {
  if (stream_) {
    return std::make_unique<commands::CopyFileOutSession>(*stream_, formatter, std::move(column_names),
                                                          CheckForInterrupts);
  }
  return std::make_unique<commands::CopyOutSession>(*channel_, formatter, std::move(column_names));
}

int64_t CopyEndpoint::progress_type() const {
  namespace cp = storage::copy_progress;
  if (!stream_) return cp::kTypePipe;
  return stream_->is_program() ? cp::kTypeProgram : cp::kTypeFile;
}

}  // namespace hearth::tcop
