// access/transam/xlog_timeline.h
//
// Timelines, as PostgreSQL's: every promotion starts a new timeline (the
// highest known + 1) at the end of the WAL replayed, and records the
// history in pg_wal/0000000N.history ("parent tli <TAB> switch LSN <TAB>
// reason" per line, one line per earlier timeline). WAL segment files carry
// the timeline of the WAL they hold in their names, so the segment in which
// the switch happened exists twice: the old timeline's copy is renamed
// <name>.partial and the new timeline's starts as a copy of it up to the
// switch point, zeroes after it.
//
// The current history lives in the WAL area of shared memory, loaded at
// startup from the newest history file in pg_wal (none: timeline 1), so
// every process names segments alike.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "access/transam/xlog_format.h"

namespace hearth::access {

struct TimelineHistoryEntry {
  uint32_t tli = 1;
  XLogRecPtr begin = 0;  // where the timeline branched off its parent (0 for the first)
};

// Loads the history of the newest timeline found in `wal_dir` into shared
// memory (XLogStartup, before any segment is read).
void XLogLoadTimelines(const std::string& wal_dir);

// The timeline new WAL is written on (1 before shared memory is set up).
uint32_t XLogCurrentTimeline();
// The timeline whose file holds segment `segno`: the newest one that began
// before the segment's end.
uint32_t XLogTimelineOfSegment(uint64_t segno, uint64_t segment_size);
// The current history, oldest first.
std::vector<TimelineHistoryEntry> XLogTimelineHistory();

// At promotion, before anything is inserted: starts timeline current + 1 at
// `switch_point` (the end of the WAL replayed), writing its history file and
// the new timeline's copy of the switch segment, and removing the old
// timeline's segment files after it. Returns the new timeline.
uint32_t XLogStartNewTimeline(XLogRecPtr switch_point);

// Standby: its primary moved to timeline `tli` at `switch_point`, with
// history file contents `history`, which must continue this server's
// timeline. Records the switch as XLogStartNewTimeline does, so WAL from the
// switch point on goes into (and is read from) the new timeline's files.
void XLogFollowTimeline(uint32_t tli, XLogRecPtr switch_point, const std::string& history);

// Where timeline `tli` of the current history ended (the next one's
// begin); nullopt for the current timeline or one not in the history.
std::optional<XLogRecPtr> XLogTimelineEnd(uint32_t tli);

// "0000000N.history".
std::string TimelineHistoryFileName(uint32_t tli);
// The contents of timeline `tli`'s history file, nullopt when there is none.
std::optional<std::string> ReadTimelineHistoryFile(const std::string& wal_dir, uint32_t tli);

}  // namespace hearth::access
