// Process-wide logging on spdlog: text for people, JSON lines for log shippers.
//
// Call InitLogging once from main before starting threads; afterwards spdlog's functions
// (spdlog::info, ...) and named loggers from Logger() are safe from any thread.
// Secrets (passwords, tokens) are never passed to a log call: see docs/operations.md.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include <spdlog/spdlog.h>

#include "base/result.h"

namespace floe {

enum class LogFormat { kText, kJson };

struct LogOptions {
  std::string level = "info";  // trace, debug, info, warn, error, critical, off
  LogFormat format = LogFormat::kText;
};

Status InitLogging(const LogOptions& options);

// A logger whose lines carry `component` (broker, stream, catalog, ...), created on first use.
std::shared_ptr<spdlog::logger> Logger(std::string_view component);

// Escapes a string for inclusion inside a JSON string literal (used by the JSON log format).
void AppendJsonEscaped(std::string* out, std::string_view text);

}  // namespace floe
