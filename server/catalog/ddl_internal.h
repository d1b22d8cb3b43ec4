// catalog/ddl_internal.h
//
// INTERNAL to server/catalog: helpers ddl.cpp uses, shared with the other
// DDL files (sequence_ddl.cpp). Same contracts as in ddl.cpp.
#pragma once

#include <string>
#include <string_view>

#include "access/heap/heap_tuple.h"
#include "access/transam/transam.h"
#include "catalog/relcache.h"
#include "parser/ast.h"

namespace hearth::catalog::internal {

// Identifiers over 63 bytes are cut (at a character boundary).
std::string DdlTruncateName(const std::string& s);
// The namespace of a relation being created: 3F000 unknown schema, 42501 pg_catalog.
// temp: CREATE TEMP (this session's temporary namespace).
Oid DdlNamespaceForCreate(const parser::RangeVar& rv, const std::string& relname, bool temp = false);
// ExclusiveLock on the name (ns, relname): same-name creators serialise.
void LockRelationName(Oid ns, const std::string& relname);
// A new relation file: WAL-logged, unlinked if the transaction aborts.
storage::RelFileLocator DdlCreateRelationFile(Oid relfilenode);
// Deletes one catalog row as the current transaction (XX000 if concurrently updated).
void DdlDeleteCatalogTuple(storage::RelFileLocator rel, heap::ItemPointer tid, access::TransactionId xid,
                           access::CommandId cid);
// 1-based character position of byte offset `location` in `query` (0: none).
int DdlPosition(std::string_view query, int location);
// The type (and typmod) of column `column` declared as `tn`: 42704 with
// the position of the type name in `query_text`, 42P16 pseudo-types.
void DdlResolveColumnType(const parser::TypeName& tn, const std::string& column, std::string_view query_text,
                          Oid* type, int32_t* typmod);
// 42501 for relations of pg_catalog.
void DdlRejectSystemCatalog(const RelationEntry& e);

}  // namespace hearth::catalog::internal
