// access/heap/toast_chunks.h
//
// INTERNAL to access/heap: the chunks of out-of-line values in a toast
// relation (chunk_id oid, chunk_seq int4, chunk_data bytea; B-tree on
// (chunk_id, chunk_seq)). heap_toast.h decides what goes there.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "access/heap/toast_format.h"
#include "access/nbtree/nbtree.h"
#include "access/transam/transam.h"
#include "storage/smgr/relfile.h"

namespace hearth::heap {

// Inserts `data` as chunks 0..n-1 of value `valueid` (as xid, cid), a page
// of chunks per WAL record, and their index entries.
void StoreToastChunks(storage::RelFileLocator trel, const nbtree::IndexDesc& tidx, uint32_t valueid,
                      std::string_view data, access::TransactionId xid, access::CommandId cid);

// Reads the value `p` points at into *out (decompressed). XX001 when a
// chunk is missing or has the wrong size (PostgreSQL's messages).
void FetchToastValue(storage::RelFileLocator trel, const nbtree::IndexDesc& tidx, const toast::ToastPointer& p,
                     std::string* out);

// Deletes every chunk of `valueid` as (xid, cid).
void DeleteToastChunks(storage::RelFileLocator trel, const nbtree::IndexDesc& tidx, uint32_t valueid,
                       access::TransactionId xid, access::CommandId cid);

}  // namespace hearth::heap
