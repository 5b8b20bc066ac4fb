#include "base/logging.h"

#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_color_sinks.h>

#include <chrono>
#include <mutex>

#include "base/log_ring.h"

namespace floe {
namespace {

// One JSON object per line: {"ts":...,"level":...,"component":...,"msg":...}.
class JsonFormatter final : public spdlog::formatter {
 public:
  void format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) override {
    std::string line = "{\"ts\":\"";
    auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(msg.time.time_since_epoch()).count();
    line += LogTimeText(millis) + "Z";
    line += "\",\"level\":\"";
    auto level = spdlog::level::to_string_view(msg.level);
    line.append(level.data(), level.size());
    line += "\",\"component\":\"";
    AppendJsonEscaped(&line, std::string_view(msg.logger_name.data(), msg.logger_name.size()));
    line += "\",\"msg\":\"";
    AppendJsonEscaped(&line, std::string_view(msg.payload.data(), msg.payload.size()));
    line += "\"}\n";
    dest.append(line.data(), line.data() + line.size());
  }
  std::unique_ptr<spdlog::formatter> clone() const override { return std::make_unique<JsonFormatter>(); }
};

std::mutex logger_mutex;
LogOptions current_options;

void Configure(spdlog::logger& logger) {
  if (current_options.format == LogFormat::kJson) {
    logger.set_formatter(std::make_unique<JsonFormatter>());
  } else {
    logger.set_pattern("%Y-%m-%dT%H:%M:%S.%e %^%-5l%$ [%n] %v");
  }
  logger.set_level(spdlog::level::from_str(current_options.level));
}

}  // namespace

void AppendJsonEscaped(std::string* out, std::string_view text) {
  for (char c : text) {
    switch (c) {
      case '"': *out += "\\\""; break;
      case '\\': *out += "\\\\"; break;
      case '\n': *out += "\\n"; break;
      case '\r': *out += "\\r"; break;
      case '\t': *out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          *out += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
        } else {
          *out += c;
        }
    }
  }
}

Status InitLogging(const LogOptions& options) {
  static constexpr std::string_view kLevels[] = {"trace", "debug", "info", "warn", "error", "critical", "off"};
  bool known = false;
  for (auto level : kLevels) known = known || level == options.level;
  if (!known) return InvalidArgument("log level '{}' is not one of trace, debug, info, warn, error, critical, off", options.level);
  std::lock_guard lock(logger_mutex);
  current_options = options;
  // Logs go to stderr so that commands printing data (parquet cat, sql) keep stdout clean.
  // Idempotent: a second call (tests, `floe up` starting roles) reconfigures every logger.
  auto root = spdlog::get("floe");
  if (!root) {
    root = spdlog::stderr_color_mt("floe");
    root->sinks().push_back(LogRingSink());  // Before anyone else holds it.
  }
  spdlog::apply_all([](const std::shared_ptr<spdlog::logger>& logger) { Configure(*logger); });
  spdlog::set_default_logger(root);
  return OkStatus();
}

std::shared_ptr<spdlog::logger> Logger(std::string_view component) {
  std::lock_guard lock(logger_mutex);
  std::string name(component);
  if (auto existing = spdlog::get(name)) return existing;
  auto logger = spdlog::stderr_color_mt(name);
  // Sinks are added only here, before the logger is handed out: spdlog does not guard a
  // logger's sink list against a thread logging meanwhile.
  logger->sinks().push_back(LogRingSink());
  Configure(*logger);
  return logger;
}

}  // namespace floe
