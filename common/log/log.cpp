// common/log/log.cpp
//
// Principal entry points: InitLogging, SetLogRole, SetLogLevel, FlushLog.
#include "common/log/log.h"

#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_sinks.h>

namespace hearth::log {

namespace {

// PostgreSQL ranks LOG (server status lines) above ERROR for the server log,
// so every level from info to log still shows our info-level status lines;
// spdlog's debug carries PostgreSQL's debug1..5.
spdlog::level::level_enum LevelFromPg(const std::string& level) {
  if (level.rfind("debug", 0) == 0) return spdlog::level::debug;
  if (level == "fatal" || level == "panic") return spdlog::level::critical;
  return spdlog::level::info;
}

std::vector<spdlog::sink_ptr> g_sinks;

}  // namespace

void InitLogging(const std::string& role, const std::string& file, const std::string& level) {
  g_sinks.clear();
  if (file.empty()) {
    g_sinks.push_back(std::make_shared<spdlog::sinks::stderr_sink_mt>());
  } else {
    g_sinks.push_back(std::make_shared<spdlog::sinks::basic_file_sink_mt>(file, false));
  }
  SetLogRole(role);
  SetLogLevel(level);
}

void SetLogRole(const std::string& role) {
  if (g_sinks.empty()) g_sinks.push_back(std::make_shared<spdlog::sinks::stderr_sink_mt>());
  auto level = spdlog::default_logger() ? spdlog::default_logger()->level() : spdlog::level::info;
  auto logger = std::make_shared<spdlog::logger>(role, g_sinks.begin(), g_sinks.end());
  logger->set_pattern("%Y-%m-%d %H:%M:%S.%e UTC [%P] %n %l: %v", spdlog::pattern_time_type::utc);
  logger->set_level(level);
  logger->flush_on(spdlog::level::info);
  spdlog::set_default_logger(logger);
}

void SetLogLevel(const std::string& level) { spdlog::set_level(LevelFromPg(level)); }

void FlushLog() {
  if (spdlog::default_logger()) spdlog::default_logger()->flush();
}

}  // namespace hearth::log
