// tcop/copy_endpoint.h
//
// Where a COPY's bytes go: the client connection (FROM STDIN / TO STDOUT,
// the sub-protocol) or, server-side, a file or a program's pipe. Decides
// who may use the server-side forms, as PostgreSQL 15: superusers and roles
// with the privileges of pg_read_server_files (FROM 'file'),
// pg_write_server_files (TO 'file') or pg_execute_server_program (PROGRAM);
// everyone else gets 42501 with PostgreSQL's message and hint. A relative
// file name is read from the data directory (as PostgreSQL, whose backends
// run there); COPY TO refuses one (42602).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "commands/copy_protocol.h"
#include "commands/copy_server_stream.h"
#include "parser/ast.h"
#include "tcop/copy_channel.h"

namespace hearth::tcop {

class Session;

// Throws 42501 unless the acting role may use `stmt`'s file or program
// (nothing to check for STDIN/STDOUT). PostgreSQL checks this before
// anything else, the table's privileges included.
void CheckCopyEndpointPrivilege(const parser::CopyStmt& stmt);

class CopyEndpoint {
 public:
  // Opens the file or starts the program (after the caller checked the
  // table; PostgreSQL opens the file last).
  CopyEndpoint(Session& s, const parser::CopyStmt& stmt);

  // The row input or output over this endpoint. The endpoint must outlive
  // what these return. REQUIRES: Input for COPY FROM, Output for COPY TO.
  std::unique_ptr<commands::CopyRowInput> Input(commands::CopyFromParser& parser,
                                                const commands::CopyRowConverter& converter);
  std::unique_ptr<commands::CopyRowOutput> Output(commands::CopyToFormatter& formatter,
                                                  std::vector<std::string> column_names);

  // pg_stat_progress_copy's type (FILE, PROGRAM or PIPE) and bytes_total
  // (a file's size for COPY FROM, else 0).
  int64_t progress_type() const;
  int64_t bytes_total() const { return stream_ ? stream_->file_size() : 0; }

 private:
  std::optional<SocketCopyChannel> channel_;
  std::optional<commands::CopyServerStream> stream_;
};

}  // namespace hearth::tcop
