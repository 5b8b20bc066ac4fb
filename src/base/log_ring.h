// The last lines this process logged, kept in memory: `floe up` runs every role in one process
// sharing one stderr, and its console shows each box's own lines (by the logger's component).
// Every logger Logger() makes, and the root logger, write here as well as to stderr.
#pragma once

#include <spdlog/sinks/sink.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace floe {

struct LogLine {
  int64_t time_ms = 0;    // Since the Unix epoch.
  std::string level;      // info, warning, error, ... as spdlog names them.
  std::string component;  // The logger's name: broker, stream, catalog, ...
  std::string text;       // The message, cut at kLogRingMaxTextBytes.
};

// How many lines the ring keeps (the oldest go first) and how long one line's text may be:
// together they bound its memory to about 4 MiB however much is logged.
inline constexpr size_t kLogRingLines = 4096;
inline constexpr size_t kLogRingMaxTextBytes = 1024;

// "2026-12-07T09:30:40.707": a time (ms since the epoch) in UTC as floe's logs write it.
std::string LogTimeText(int64_t time_ms);

// The sink every logger shares; thread-safe, as spdlog's sinks must be.
std::shared_ptr<spdlog::sinks::sink> LogRingSink();

// The newest `max` lines (oldest first) whose component is one of `components`.
std::vector<LogLine> RecentLogLines(const std::vector<std::string>& components, size_t max);

}  // namespace floe
