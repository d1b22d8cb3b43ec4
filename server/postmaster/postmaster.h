// postmaster/postmaster.h
//
// The postmaster: creates the shared segment, listens, forks one backend per
// connection and the auxiliary processes, reaps children, resets shared
// memory after a child crash, and runs the shutdown modes:
//   SIGTERM  fast: terminate sessions, stop auxiliaries, exit
//   SIGINT   smart: stop accepting, wait for sessions to end, then exit
//   SIGQUIT  immediate: SIGQUIT every child and exit at once (next start recovers)
//   SIGHUP   reload hearth.conf and pass SIGHUP on to the children
// The postmaster never touches shared state beyond creating and resetting it.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace hearth::postmaster {

struct PostmasterOptions {
  std::string datadir;
  // -c name=value overrides, applied after hearth.conf.
  std::vector<std::pair<std::string, std::string>> overrides;
};

// Runs the server until shutdown; returns the process exit code.
int PostmasterMain(const PostmasterOptions& opts);

}  // namespace hearth::postmaster
