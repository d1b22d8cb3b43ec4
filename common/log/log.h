// common/log/log.h
//
// Process-wide logging through spdlog, with the process role and pid in every
// line, like PostgreSQL's log_line_prefix ("postmaster", "backend", "walwriter").
// Call InitLogging once in the postmaster; a forked child calls SetLogRole so
// its lines say what it is. Not for hot paths: log at statement granularity.
#pragma once

#include <spdlog/spdlog.h>

#include <string>

namespace hearth::log {

// Sends log lines to stderr (file empty) or appends them to `file`.
// `level` is a PostgreSQL log_min_messages name (debug5..debug1, info,
// notice, warning, error, log, fatal, panic).
void InitLogging(const std::string& role, const std::string& file, const std::string& level);

// Renames the default logger for the current process (after fork).
void SetLogRole(const std::string& role);

// Changes the level at run time (SIGHUP reload).
void SetLogLevel(const std::string& level);

// Flushes buffered lines; call before _exit in a child.
void FlushLog();

}  // namespace hearth::log
