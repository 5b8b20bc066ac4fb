// How a stream job's commits carry their Kafka offsets: the snapshot summary of each commit
// records, per topic, the next offset of every partition the batch read, merged into what the
// base snapshot recorded, and the commit is refused (Conflict, its files deleted) unless the
// base still has the offsets the batch was read against. So a batch lands at most once per
// table. Used from one thread per table.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "iceberg/table.h"
#include "stream/source/source_offsets.h"
#include "stream/topic_partitions.h"

namespace floe::stream {

// The summary key prefix of a table's own offsets ("floe.offsets.<topic>").
inline constexpr std::string_view kTableOffsetsPrefix = "floe.offsets.";
// The summary key prefix of a routed job's checkpoint in its dead-letter table
// ("floe.offsets.job:<topic>"; no topic name has a ':', so it names no topic's own offsets).
inline constexpr std::string_view kJobOffsetsPrefix = "floe.offsets.job:";

// The offsets under `key_prefix` of every topic `ids` knows, in the table's current snapshot's
// ancestry, numbered by `ids`.
Result<SourceOffsets> CurrentOffsets(const iceberg::TableMetadata& metadata, TopicPartitionIds& ids,
                                     std::string_view key_prefix = kTableOffsetsPrefix);

// Appends `files` (perhaps none) with `next` recorded under `key_prefix`, refused unless the
// base's offsets of next's partitions are `expected` (a partition missing from `expected` must
// be missing from the base). Deletes the files when the commit surely failed.
Status AppendWithOffsets(iceberg::Table& table, const std::vector<iceberg::DataFile>& files, TopicPartitionIds& ids,
                         const SourceOffsets& expected, const SourceOffsets& next,
                         std::string_view key_prefix = kTableOffsetsPrefix);

// The summary function of such a commit (for commits other than appends).
iceberg::Table::SummaryFunction OffsetsSummary(TopicPartitionIds& ids, const SourceOffsets& expected,
                                               const SourceOffsets& next,
                                               std::string_view key_prefix = kTableOffsetsPrefix);

// Deletes data files a commit wrote when it definitely did not land.
void DeleteFiles(iceberg::Table& table, const std::vector<iceberg::DataFile>& files);

}  // namespace floe::stream
