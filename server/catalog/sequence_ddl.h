// catalog/sequence_ddl.h
//
// Transactional DDL on sequences: CREATE / ALTER / DROP SEQUENCE, and the
// sequences of serial and identity columns (created with their table,
// dropped with it, restarted by TRUNCATE ... RESTART IDENTITY).
//
// A sequence is a relation: a hearth_class row (relkind 'S', columns
// last_value, log_cnt, is_called in hearth_attribute), a hearth_sequence
// row with its parameters and owner, and a one-page file (sequence.h).
// Its name shares the namespace of tables and indexes (42P07).
//
// Not transactional, as in PostgreSQL: the sequence's value. ALTER SEQUENCE
// RESTART and TRUNCATE ... RESTART IDENTITY also change the value in place
// at once (PostgreSQL makes those two transactional with a new file).
//
// Errors are PostgreSQL 15's (22023 bad parameters, 42601 conflicting
// options, 42P01, 42809, 2BP01). Process safety: per-backend; REQUIRES a
// transaction in progress.
#pragma once

#include <string>
#include <vector>

#include "access/transam/transam.h"
#include "catalog/catalog_rows.h"
#include "catalog/ddl.h"
#include "catalog/sequence_catalog.h"
#include "parser/ast.h"

namespace hearth::catalog {

// Error positions are given when the statement is the whole query text
// (stmt.location == 0), as for the other DDL.
DdlResult CreateSequence(const parser::CreateSequenceStmt& stmt);
DdlResult AlterSequence(const parser::AlterSequenceStmt& stmt);
// DROP SEQUENCE: 42809 for non-sequences; an owned sequence that a column
// default uses needs CASCADE (which drops that default; 2BP01 otherwise);
// an identity column's sequence cannot be dropped.
DdlResult DropSequences(const std::vector<parser::RangeVar>& names, bool if_exists, parser::DropBehavior behavior);

// serial, bigserial, smallserial, serial2, serial4 or serial8 (unqualified).
bool IsSerialTypeName(const parser::TypeName& tn);

// A sequence CREATE TABLE makes for a serial or identity column.
struct ColumnSequencePlan {
  int attnum = 0;  // 1-based
  std::string name;
  SequenceParams params;
};
// CREATE TABLE, after its columns are validated: for serial/bigserial/
// smallserial and GENERATED ... AS IDENTITY columns, chooses the sequence
// name (<table>_<column>_seq, made unique), sets the column's default to
// nextval('<name>'::regclass) and NOT NULL. 42601 for a DEFAULT beside
// them, 22023 for an identity column of a non-integer type.
std::vector<ColumnSequencePlan> PlanColumnSequences(const parser::CreateTableStmt& stmt, const std::string& relname,
                                                    Oid ns, std::vector<internal::AttributeFields>& attrs,
                                                    std::string_view query_text = {});
// Creates the planned sequences, owned by `table_oid`.
void CreateColumnSequences(const std::vector<ColumnSequencePlan>& plans, Oid table_oid, Oid ns);
// ALTER TABLE t ALTER COLUMN c ADD GENERATED ... AS IDENTITY [(options)]
// (how pg_dump restores identity columns): a sequence owned by the column
// (named by SEQUENCE NAME or chosen as CREATE TABLE does), the column's
// default nextval of it. 55000 when the column is nullable, already an
// identity column or has a default; 22023 for a non-integer column.
void AddIdentityToColumn(const RelationEntry& e, const std::string& column, const parser::Constraint& identity);
// DROP TABLE: drops the sequences the table owns (same transaction).
void DropOwnedSequences(Oid table_oid, access::TransactionId xid, access::CommandId cid);
// Replaces a hearth_sequence row (`row` as found) with `p` (ALTER TABLE:
// the owner column renumbered or gone).
void RewriteSequenceRow(const internal::CatalogTuple& row, const SequenceParams& p);
// TRUNCATE ... RESTART IDENTITY: owned sequences back to their start.
void RestartOwnedSequences(Oid table_oid);

}  // namespace hearth::catalog
