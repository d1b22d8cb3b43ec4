// access/heap/heapscan.h
//
// Sequential heap scan, page at a time (PostgreSQL's page-mode scan): for
// each block it pins the page, takes the shared content lock once, collects
// the offsets of the tuples visible to the snapshot (setting hint bits and
// MarkDirtyHint when the check learned an outcome), releases the lock and
// then returns the collected tuples one by one from the still-pinned page.
// Only one page is pinned at a time. The scan stops at the relation size
// seen when it started (rows added later are not the statement's business).
// Relations larger than 1/4 of shared_buffers are read through a BULKREAD
// ring so one big scan does not flush the cache.
//
// Process safety: a scan object belongs to one process; any number of scans
// and writers may run at once. Reading tuple data from a pinned, unlocked
// page is safe because data never move while anybody else holds a pin
// (vacuum compacts only under the cleanup lock) and a visible tuple's data
// bytes never change.
#pragma once

#include <memory>
#include <vector>

#include "access/heap/heap_tuple.h"
#include "access/transam/snapshot.h"
#include "storage/buffer/bufmgr.h"

namespace hearth::heap {

struct HeapScanOptions {
  bool allow_bulkread = true;  // use the BULKREAD ring for big relations
  // Next's tid names the root of the row's HOT chain (the line pointer an
  // index entry must point at: CREATE INDEX), not the version itself.
  bool root_tids = false;
};

class HeapScan {
 public:
  // Copies the snapshot (the caller's may be replaced meanwhile). my_xid:
  // the scanning transaction's xid, or invalid when it has none.
  // `desc` must outlive the scan.
  HeapScan(storage::RelFileLocator rel, const TupleDesc& desc, const access::Snapshot& snap,
           access::TransactionId my_xid, const HeapScanOptions& opts = {});
  HeapScan(const HeapScan&) = delete;
  HeapScan& operator=(const HeapScan&) = delete;

  // The next visible row into *row (reused: no allocation for fixed-width
  // columns); its TID into *tid when non-null. False at the end.
  bool Next(Row* row, ItemPointer* tid = nullptr);

  // Starts over (same snapshot; re-reads the relation size).
  void Rescan();
  // Drops the pin now (also done by the destructor and at the end).
  void End();

  storage::BlockNumber nblocks() const { return nblocks_; }
  bool uses_bulkread() const { return strategy_ != nullptr; }

 private:
  bool LoadPage(storage::BlockNumber block);

  storage::RelFileLocator rel_;
  const TupleDesc& desc_;
  access::Snapshot snap_;
  access::TransactionId my_xid_;
  HeapScanOptions opts_;
  std::unique_ptr<storage::BufferAccessStrategy> strategy_;
  storage::BlockNumber nblocks_ = 0;
  storage::BlockNumber next_block_ = 0;
  storage::PinnedBuffer buf_;                 // the current page, pinned and unlocked
  std::vector<storage::OffsetNumber> visible_;  // visible offsets on it
  std::vector<storage::OffsetNumber> roots_;    // with root_tids: root of each offset (0 = itself)
  size_t pos_ = 0;
};

}  // namespace hearth::heap
