#include "broker/log/log_config.h"

#include <charconv>

namespace floe::broker {

Result<FsyncPolicy> ParseFsyncPolicy(std::string_view text) {
  if (text == "batch") return FsyncPolicy::kBatch;
  if (text == "interval") return FsyncPolicy::kInterval;
  if (text == "never") return FsyncPolicy::kNever;
  return InvalidArgument("fsync policy '{}': expected batch, interval or never", text);
}

std::string_view FsyncPolicyName(FsyncPolicy policy) {
  switch (policy) {
    case FsyncPolicy::kBatch: return "batch";
    case FsyncPolicy::kInterval: return "interval";
    case FsyncPolicy::kNever: return "never";
  }
  return "?";
}

namespace {

Result<int64_t> ParseInt(const std::string& name, const std::string& value) {
  int64_t out = 0;
  auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), out);
  if (ec != std::errc() || ptr != value.data() + value.size()) {
    return InvalidArgument("config {}: '{}' is not an integer", name, value);
  }
  return out;
}

}  // namespace

Status LogConfig::Apply(const std::map<std::string, std::string>& overrides) {
  for (const auto& [name, value] : overrides) {
    if (name == "cleanup.policy") {
      if (value != "delete" && value != "compact") {
        return InvalidArgument("config cleanup.policy: '{}' is not delete or compact", value);
      }
      compact = value == "compact";
      continue;
    }
    FLOE_ASSIGN_OR_RETURN(int64_t v, ParseInt(name, value));
    if (name == "retention.ms") {
      retention_ms = v;
    } else if (name == "retention.bytes") {
      retention_bytes = v;
    } else if (name == "segment.bytes") {
      if (v < 1024) return InvalidArgument("config segment.bytes: {} is below 1024", v);
      segment_bytes = v;
    } else if (name == "segment.ms") {
      if (v < 1) return InvalidArgument("config segment.ms: {} must be positive", v);
      segment_ms = v;
    } else if (name == "max.message.bytes") {
      if (v < 64 || v > (1 << 30)) return InvalidArgument("config max.message.bytes: {} out of range", v);
      max_message_bytes = static_cast<int32_t>(v);
    } else if (name == "index.interval.bytes") {
      if (v < 1 || v > (1 << 30)) return InvalidArgument("config index.interval.bytes: {} out of range", v);
      index_interval_bytes = static_cast<int32_t>(v);
    } else {
      return InvalidArgument("config {}: not supported by floe's broker", name);
    }
  }
  return OkStatus();
}

std::map<std::string, std::string> LogConfig::ToMap() const {
  return {
      {"retention.ms", std::to_string(retention_ms)},
      {"retention.bytes", std::to_string(retention_bytes)},
      {"segment.bytes", std::to_string(segment_bytes)},
      {"segment.ms", std::to_string(segment_ms)},
      {"max.message.bytes", std::to_string(max_message_bytes)},
      {"index.interval.bytes", std::to_string(index_interval_bytes)},
      {"cleanup.policy", compact ? "compact" : "delete"},
  };
}

}  // namespace floe::broker
