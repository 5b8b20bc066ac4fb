#include "stream/source/source_offsets.h"

#include <fmt/format.h>

#include <charconv>
#include <nlohmann/json.hpp>

namespace floe::stream {

std::string OffsetsSummaryKey(std::string_view topic) { return fmt::format("floe.offsets.{}", topic); }

std::string OffsetsToJson(const SourceOffsets& offsets) {
  std::string out = "{";
  for (const auto& [partition, offset] : offsets) {
    if (out.size() > 1) out += ',';
    out += fmt::format("\"{}\":{}", partition, offset);
  }
  out += '}';
  return out;
}

Result<SourceOffsets> OffsetsFromJson(std::string_view json) {
  constexpr size_t kMaxLength = 1 << 20;  // ~50k partitions: far beyond any real topic.
  if (json.size() > kMaxLength) return Corruption("offsets JSON of {} bytes exceeds {} bytes", json.size(), kMaxLength);
  auto parsed = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) return Corruption("offsets are not valid JSON: {:.80}", json);
  if (!parsed.is_object()) return Corruption("offsets must be a JSON object of partition to offset: {:.80}", json);
  SourceOffsets offsets;
  for (const auto& [key, value] : parsed.items()) {
    int32_t partition = -1;
    auto [end, error] = std::from_chars(key.data(), key.data() + key.size(), partition);
    if (error != std::errc() || end != key.data() + key.size() || partition < 0) {
      return Corruption("offsets: '{}' is not a partition number", key);
    }
    if (!value.is_number_integer() || value.get<int64_t>() < 0) {
      return Corruption("offsets: partition {} has offset {}, not a non-negative integer", partition, value.dump());
    }
    offsets[partition] = value.get<int64_t>();
  }
  return offsets;
}

SourceOffsets MergeOffsets(const SourceOffsets& base, const SourceOffsets& update) {
  SourceOffsets merged = base;
  for (const auto& [partition, offset] : update) merged[partition] = offset;
  return merged;
}

namespace {

Result<SourceOffsets> OffsetsUnderKey(const iceberg::TableMetadata& metadata, const iceberg::Snapshot* snapshot,
                                      const std::string& key) {
  for (size_t steps = 0; snapshot != nullptr && steps <= metadata.snapshots.size(); ++steps) {
    if (auto it = snapshot->summary.find(key); it != snapshot->summary.end()) {
      FLOE_ASSIGN_OR_RETURN_CTX(SourceOffsets offsets, OffsetsFromJson(it->second),
                                fmt::format("snapshot {} summary {}", snapshot->snapshot_id, key));
      return offsets;
    }
    if (!snapshot->parent_snapshot_id) break;
    snapshot = metadata.SnapshotById(*snapshot->parent_snapshot_id);
  }
  return SourceOffsets{};
}

}  // namespace

Result<SourceOffsets> OffsetsInAncestryOf(const iceberg::TableMetadata& metadata, const iceberg::Snapshot* snapshot,
                                          std::string_view topic) {
  return OffsetsUnderKey(metadata, snapshot, OffsetsSummaryKey(topic));
}

Result<TopicOffsets> TopicOffsetsInAncestryOf(const iceberg::TableMetadata& metadata, const iceberg::Snapshot* snapshot,
                                              const std::vector<std::string>& topics, std::string_view key_prefix) {
  TopicOffsets out;
  for (const std::string& topic : topics) {
    FLOE_ASSIGN_OR_RETURN(SourceOffsets offsets,
                          OffsetsUnderKey(metadata, snapshot, fmt::format("{}{}", key_prefix, topic)));
    if (!offsets.empty()) out[topic] = std::move(offsets);
  }
  return out;
}

}  // namespace floe::stream
