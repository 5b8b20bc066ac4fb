// The log lines behind each box of the console's pipeline map (generator, broker, stream,
// table, query, storage): in one process, the lines the roles' loggers wrote (base/log_ring.h);
// with --processes, the tails of the role children's log files under <data>/logs.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace floe::up {

struct BoxLogSources {
  std::vector<std::string> components;  // Loggers of the roles behind the box, in this process.
  std::vector<std::string> files;       // Their children's log files (names under <data>/logs).
};

// NotFound for a box the map does not have. The storage box has no role and no lines.
Result<BoxLogSources> LogSourcesFor(std::string_view box);

// The most lines a caller may ask for; a file's tail is read from its last kBoxLogTailBytes.
inline constexpr size_t kBoxLogMaxLines = 1000;
inline constexpr size_t kBoxLogTailBytes = 256 * 1024;

// {"box": ..., "source": "memory" | "files", "lines": ["2026-12-07T09:30:40.707 info [broker] ...", ...]}:
// the newest `max` lines, oldest first. `logs_dir` is read only when `processes` and the box
// has files; lines from several files are merged by their leading timestamps.
nlohmann::json BoxLogLines(std::string_view box, const BoxLogSources& sources, bool processes,
                           const std::string& logs_dir, size_t max);

}  // namespace floe::up
