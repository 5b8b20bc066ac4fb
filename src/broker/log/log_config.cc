#include "broker/log/log_config.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <set>

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

// compression.type's values, as Kafka names them, by codec number (attributes bits 0-2).
constexpr std::array<std::string_view, 5> kCodecNames = {"uncompressed", "gzip", "snappy", "lz4", "zstd"};

}  // namespace

Status LogConfig::Apply(const std::map<std::string, std::string>& overrides) {
  for (const auto& [name, value] : overrides) {
    if (name == "compression.type") {
      if (value == "producer") {
        compression_codec = kProducerCompression;
        continue;
      }
      auto codec = std::find(kCodecNames.begin(), kCodecNames.end(), value);
      if (codec == kCodecNames.end()) {
        return InvalidArgument(
            "config compression.type: '{}' is not one of producer, uncompressed, gzip, snappy, lz4, zstd", value);
      }
      compression_codec = static_cast<int>(codec - kCodecNames.begin());
      continue;
    }
    if (name == "cleanup.policy") {
      bool saw_compact = false, saw_delete = false;
      std::string_view rest = value;
      while (true) {
        size_t comma = rest.find(',');
        std::string_view item = rest.substr(0, comma);
        while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
        while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
        if (item == "compact") {
          saw_compact = true;
        } else if (item == "delete") {
          saw_delete = true;
        } else {
          return InvalidArgument("config cleanup.policy: '{}' is not delete, compact or compact,delete", value);
        }
        if (comma == std::string_view::npos) break;
        rest.remove_prefix(comma + 1);
      }
      compact = saw_compact;
      delete_old_segments = saw_delete;
      continue;
    }
    if (name == "min.cleanable.dirty.ratio") {
      double ratio = 0;
      auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), ratio);
      if (ec != std::errc() || ptr != value.data() + value.size() || !(ratio >= 0 && ratio <= 1)) {
        return InvalidArgument("config min.cleanable.dirty.ratio: '{}' is not a number in [0, 1]", value);
      }
      min_cleanable_dirty_ratio = ratio;
      continue;
    }
    static const std::set<std::string> kIntegerConfigs = {
        "retention.ms",      "retention.bytes",     "segment.bytes",         "segment.ms",
        "max.message.bytes", "delete.retention.ms", "min.compaction.lag.ms", "index.interval.bytes"};
    // An unknown name is refused as such, whatever its value looks like.
    if (!kIntegerConfigs.contains(name)) return InvalidArgument("config {}: not supported by floe's broker", name);
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
    } else if (name == "delete.retention.ms") {
      if (v < 0) return InvalidArgument("config delete.retention.ms: {} is negative", v);
      delete_retention_ms = v;
    } else if (name == "min.compaction.lag.ms") {
      if (v < 0) return InvalidArgument("config min.compaction.lag.ms: {} is negative", v);
      min_compaction_lag_ms = v;
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
      {"cleanup.policy", compact && delete_old_segments ? "compact,delete"
                         : compact                      ? "compact"
                                                        : "delete"},
      {"delete.retention.ms", std::to_string(delete_retention_ms)},
      {"min.cleanable.dirty.ratio", fmt::format("{}", min_cleanable_dirty_ratio)},
      {"min.compaction.lag.ms", std::to_string(min_compaction_lag_ms)},
      {"compression.type", compression_codec == kProducerCompression
                               ? std::string("producer")
                               : std::string(kCodecNames[static_cast<size_t>(compression_codec)])},
  };
}

}  // namespace floe::broker
