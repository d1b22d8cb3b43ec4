// access/transam/xlog_segment.h
//
// WAL segment files: pre-allocation (new segments are created zero-filled and
// fsynced ahead of the insert position, so writers rarely create files) and
// recycling (segments wholly before the redo point are renamed to future
// segment names instead of being deleted and re-created). A recycled file
// keeps its old pages; their page addresses no longer match, so readers stop
// there (xlog_reader.h). All functions may be called from any process after
// XLogStartup; file operations are serialised by the wal area's segment lock.
#pragma once

#include <cstdint>

#include "access/transam/xlog_format.h"

namespace hearth::access {

// Ensures the segment holding the insert position and the configured number
// after it (XLogOptions::prealloc_segments) exist. Returns how many it created.
// Called by XLogStartup and XLogBackgroundFlush (walwriter).
int XLogPreallocateSegments();

// A standby's walreceiver, before writing into segment `segno`: creates it
// whole (zero-filled, synced) unless it exists.
void XLogEnsureSegmentFile(uint64_t segno);

struct RemovedSegments {
  int recycled = 0;  // renamed to future names
  int removed = 0;   // unlinked (enough future segments existed)
};

// Checkpointer, after a checkpoint whose redo point is `redo_lsn`: every
// segment file wholly before the segment holding redo_lsn (and before the
// flushed position) is recycled as a future segment while fewer than
// max_recycled_segments segments exist ahead of the insert position, else
// removed. Throws std::runtime_error on I/O errors.
RemovedSegments RemoveOldSegments(XLogRecPtr redo_lsn);

}  // namespace hearth::access
