// SourceOffsets: the next Kafka offset to read per partition of one topic, as the stream job
// records it in each Iceberg snapshot's summary under `floe.offsets.<topic>` (a JSON object
// {"0": 1200, "1": 1187}). It is the job's only checkpoint: on start and after a rebalance the
// job seeks to the offsets of the table's current snapshot, so a batch is never committed twice.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "iceberg/table_metadata.h"

namespace floe::stream {

using SourceOffsets = std::map<int32_t, int64_t>;  // partition -> next offset to read.
using TopicOffsets = std::map<std::string, SourceOffsets>;  // topic -> its partitions' offsets.

// "floe.offsets.orders"
std::string OffsetsSummaryKey(std::string_view topic);

std::string OffsetsToJson(const SourceOffsets& offsets);
// Strict: an object of partition numbers (as strings, >= 0) to offsets (integers >= 0).
Result<SourceOffsets> OffsetsFromJson(std::string_view json);

// The offsets of `topic` recorded by `snapshot` or, when it has none (a commit by another
// writer; compaction's replace carries its parent's over), by its nearest ancestor that has them; empty when none has or
// `snapshot` is null. The walk is bounded by the snapshot count, so a corrupt cycle of parents
// cannot loop.
Result<SourceOffsets> OffsetsInAncestryOf(const iceberg::TableMetadata& metadata, const iceberg::Snapshot* snapshot,
                                          std::string_view topic);

// The offsets of each of `topics` (OffsetsInAncestryOf); topics without any are left out.
// `key_prefix` names the summary keys: "floe.offsets." (a table's own) or another prefix.
Result<TopicOffsets> TopicOffsetsInAncestryOf(const iceberg::TableMetadata& metadata, const iceberg::Snapshot* snapshot,
                                              const std::vector<std::string>& topics,
                                              std::string_view key_prefix = "floe.offsets.");

// `base` with every partition of `update` replaced by its value in `update`.
SourceOffsets MergeOffsets(const SourceOffsets& base, const SourceOffsets& update);

}  // namespace floe::stream
