// tcop/query_protocol.h
//
// The query sub-protocols of a running session: simple Query ('Q') and the
// extended protocol (Parse, Bind, Describe, Execute, Sync, Close, Flush).
// Errors inside them become ErrorResponse; the transaction block is marked
// failed (or the implicit transaction rolled back); in extended mode every
// message up to the next Sync is then discarded.
#pragma once

#include <string>

#include "tcop/session.h"

namespace hearth::tcop {

class QueryProtocol {
 public:
  explicit QueryProtocol(Session& s) : s_(s) {}

  void SimpleQuery(std::string_view body);
  // One extended-protocol message; `type` is its type byte.
  void Extended(char type, std::string_view body);
  bool skipping_until_sync() const { return skip_until_sync_; }

 private:
  void Parse(std::string_view body);
  void Bind(std::string_view body);
  void Describe(std::string_view body);
  void Execute(std::string_view body);
  void Close(std::string_view body);
  void Sync();

  // Runs one statement of a simple query, rows straight to the socket.
  void RunSimpleStatement(const parser::Statement& stmt);
  // Handles an error: sends it, fixes the transaction state.
  void ReportError(const DbError& e);
  void CheckNotFailed(const Plan& plan) const;
  void AfterStatement(const parser::Statement* stmt);

  Session& s_;
  bool skip_until_sync_ = false;
  // True while statements run outside BEGIN: simple Query's multi-statement
  // string and extended-protocol messages up to Sync form one implicit
  // transaction.
  bool in_implicit_txn_ = false;
};

}  // namespace hearth::tcop
