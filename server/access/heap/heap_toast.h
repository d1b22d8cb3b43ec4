// access/heap/heap_toast.h
//
// TOAST (PostgreSQL's behaviour, Hearth's code): a row wider than
// kToastTupleThreshold has its widest varlena values compressed (lz4) and,
// when still too wide, moved out of line into the table's toast relation as
// chunks of kToastMaxChunkSize bytes (chunk_id oid, chunk_seq int4,
// chunk_data bytea) with a B-tree on (chunk_id, chunk_seq); the tuple keeps
// a ToastPointer (toast_format.h). Readers get whole values back: the heap's
// scan and fetch functions call DetoastRow after dropping the page lock.
//
// The toast relation and its index are files of their own whose numbers
// derive from the table's file (ToastRelOf / ToastIndexOf), so every new
// file of a table (CREATE, TRUNCATE, a rewrite) starts with an empty toast
// relation, made on first use (EnsureToastRelation), and the catalog
// unlinks them with the table's file. Their chunks are ordinary heap
// versions: inserted and deleted by the transaction that stores or drops
// the value (WAL-logged like any heap change), reclaimed by VACUUM of the
// table (HeapVacuumToast).
//
// Process safety: per-backend state is the set of toast relations known
// to exist and the value-id allocator hook; any number of processes use a
// toast relation at once (chunks of one value are written by one
// transaction and read only by those that see its tuple).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "access/heap/heap_tuple.h"
#include "access/heap/toast_format.h"
#include "access/nbtree/nbtree.h"
#include "access/transam/transam.h"
#include "storage/smgr/relfile.h"

namespace hearth::heap {

using storage::RelFileLocator;

// PostgreSQL's TOAST_TUPLE_THRESHOLD / TOAST_TUPLE_TARGET (8 kB pages: 4
// tuples a page) and TOAST_MAX_CHUNK_SIZE.
inline constexpr size_t kToastTupleThreshold = 2032;
inline constexpr size_t kToastMaxChunkSize = 1996;

// How a table's columns are toasted (HeapInsertOptions::toast). Letters as
// pg_attribute: attstorage 'p' plain, 'e' external, 'm' main, 'x'
// extended; attcompression '\0' default, 'l' lz4, 'p' pglz (stored as lz4).
struct ToastOptions {
  uint32_t toastrelid = 0;       // pg_class oid of the toast relation (kept in pointers)
  std::string_view storage;      // per column; empty: 'x' for every varlena column
  std::string_view compression;  // per column; empty: the default for all
  // default_toast_compression: false = no compression at all ('p' mapped to lz4 otherwise).
  bool compress = true;
};

// The files of a table's toast relation and of its index (numbers with the
// top bits set: user relfilenodes stay below 2^30).
RelFileLocator ToastRelOf(RelFileLocator heap);
RelFileLocator ToastIndexOf(RelFileLocator heap);
bool IsToastRelation(RelFileLocator rel);
// The index as the B-tree code wants it.
nbtree::IndexDesc ToastIndexDesc(RelFileLocator heap);
// Whether rows of `desc` may need TOAST (a varlena column).
bool HasToastableColumn(const TupleDesc& desc);
// The tuple descriptor of toast chunks.
const TupleDesc& ToastChunkDesc();

// Value ids come from the catalog's OID counter: the catalog installs it
// at process start. Without one, TOAST throws XX000.
void SetToastValueIdAllocator(uint32_t (*alloc)());

// Makes the toast relation and its index when the table has none yet
// (WAL-logged; kept even if this transaction aborts, as an empty relation).
void EnsureToastRelation(RelFileLocator heap);

// Forms `row` as HeapFormTuple does, toasting it first when it is wider
// than kToastTupleThreshold: out-of-line values get chunks inserted by
// (xid, cid). `reusable`: the out-of-line values of the version an UPDATE
// replaces; a value read from one of them (tag) and unchanged (size and
// CRC) keeps that pointer instead of being stored again. The value ids
// stored anew are appended to *stored (so a failed update can drop them).
// Throws 54000 when the row stays too big.
void HeapFormToasted(RelFileLocator heap, const TupleDesc& desc, const Row& row, const ToastOptions& opts,
                     access::TransactionId xid, access::CommandId cid, std::span<const toast::ToastPointer> reusable,
                     std::vector<char>* out, std::vector<toast::ToastPointer>* stored);

// Replaces each pending out-of-line value of `row` (HeapDeformTuple's
// tag) by the whole value. REQUIRES: no buffer content lock held.
void DetoastRow(RelFileLocator heap, Row* row);

// The out-of-line pointers of a tuple (kHeapHasExternal), appended to *out.
void CollectExternalPointers(const TupleDesc& desc, const access::HeapTupleHeaderData* tup, size_t len,
                             std::vector<toast::ToastPointer>* out);

// Deletes the chunks of these values as (xid, cid): they die with the
// version that pointed at them. REQUIRES: no buffer content lock held.
void DeleteToastValues(RelFileLocator heap, std::span<const toast::ToastPointer> values, access::TransactionId xid,
                       access::CommandId cid);

// VACUUM of the table's toast relation (when it exists): dead chunks and
// their index entries removed. Returns the toast relation's page count.
uint32_t HeapVacuumToast(RelFileLocator heap, access::TransactionId oldest_xmin);

}  // namespace hearth::heap
