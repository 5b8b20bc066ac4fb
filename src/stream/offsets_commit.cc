#include "stream/offsets_commit.h"

#include <fmt/format.h>

#include <optional>

namespace floe::stream {

Result<SourceOffsets> CurrentOffsets(const iceberg::TableMetadata& metadata, TopicPartitionIds& ids,
                                     std::string_view key_prefix) {
  FLOE_ASSIGN_OR_RETURN(TopicOffsets by_topic,
                        TopicOffsetsInAncestryOf(metadata, metadata.CurrentSnapshot(), ids.Topics(), key_prefix));
  return ids.Join(by_topic);
}

iceberg::Table::SummaryFunction OffsetsSummary(TopicPartitionIds& ids, const SourceOffsets& expected,
                                               const SourceOffsets& next, std::string_view key_prefix) {
  return [prefix = std::string(key_prefix), expected = ids.Split(expected),
          next = ids.Split(next)](const iceberg::TableMetadata& base) -> Result<std::map<std::string, std::string>> {
    std::map<std::string, std::string> summary;
    for (const auto& [topic, reached] : next) {
      const std::string key = prefix + topic;
      FLOE_ASSIGN_OR_RETURN(TopicOffsets found,
                            TopicOffsetsInAncestryOf(base, base.CurrentSnapshot(), {topic}, prefix));
      const SourceOffsets current = found[topic];
      auto wanted_topic = expected.find(topic);
      for (const auto& [partition, end] : reached) {
        auto have = current.find(partition);
        std::optional<int64_t> want;
        if (wanted_topic != expected.end()) {
          if (auto it = wanted_topic->second.find(partition); it != wanted_topic->second.end()) want = it->second;
        }
        const bool same = (have == current.end()) == !want.has_value() && (!want || have->second == *want);
        if (!same) {
          return Conflict("the table's offset of {}[{}] is {}, not {} as when this batch was read", topic, partition,
                          have == current.end() ? std::string("unset") : std::to_string(have->second),
                          want ? std::to_string(*want) : std::string("unset"));
        }
      }
      summary[key] = OffsetsToJson(MergeOffsets(current, reached));
    }
    return summary;
  };
}

void DeleteFiles(iceberg::Table& table, const std::vector<iceberg::DataFile>& files) {
  for (const auto& file : files) {
    if (auto key = table.ops().KeyForLocation(file.file_path)) (void)table.ops().store().Delete(*key);
  }
}

Status AppendWithOffsets(iceberg::Table& table, const std::vector<iceberg::DataFile>& files, TopicPartitionIds& ids,
                         const SourceOffsets& expected, const SourceOffsets& next, std::string_view key_prefix) {
  table.set_summary_function(OffsetsSummary(ids, expected, next, key_prefix));
  Status status = table.FastAppend(files);
  if (!status && status.error().kind() == ErrorKind::kConflict) DeleteFiles(table, files);
  return status;
}

}  // namespace floe::stream
