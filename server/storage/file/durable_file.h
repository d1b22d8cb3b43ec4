// storage/file/durable_file.h
//
// Small control files that must never be seen half-written: the new content
// goes to "<path>.tmp", is fsynced, renamed over <path>, and the directory is
// fsynced, so after a crash the file holds either the old or the new content.
// Any process; no shared state.
#pragma once

#include <string>
#include <string_view>

namespace hearth::storage {

// Replaces `path` with `content` atomically and durably.
// Throws std::runtime_error naming the file and the OS error on failure.
void WriteFileDurably(const std::string& path, std::string_view content);

}  // namespace hearth::storage
