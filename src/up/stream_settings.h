// StreamSettings: the stream job's knobs that `floe up` flags set and the playground rewires
// live (docs/console.md, "Rewire"): trigger interval, target file size, compaction on/off, what
// compaction writes and how often maintenance runs. Parsing a playground request checks every
// value against bounds a playground can afford, so a typo cannot make a job commit every
// millisecond or write terabyte files. Plain values and stateless functions; any thread.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "stream/stream_runner.h"

namespace floe::up {

struct StreamSettings {
  int64_t trigger_millis = 10'000;
  int64_t target_file_size_mb = 128;
  bool compaction = true;
  int64_t compaction_target_mb = 128;
  int64_t maintenance_interval_millis = 5 * 60'000;
  // The table's partition spec ("hour(ts)", "region", ...; empty: unpartitioned). A change is
  // Iceberg partition evolution: files already written keep their spec.
  std::vector<std::string> partition = {"hour(ts)"};
  // Workers in the job's consumer group, each on its own thread: they split the topic's
  // partitions between them (a change is a rebalance). In one process only: with --processes
  // the job is one child.
  int64_t workers = 1;
};

// The bounds each setting is checked against, inclusive.
inline constexpr int64_t kMinTriggerMillis = 100;
inline constexpr int64_t kMaxTriggerMillis = 10 * 60'000;
inline constexpr int64_t kMinFileSizeMb = 1;
inline constexpr int64_t kMaxFileSizeMb = 1024;
inline constexpr int64_t kMinMaintenanceIntervalMillis = 1'000;
inline constexpr int64_t kMaxMaintenanceIntervalMillis = 3'600'000;
inline constexpr size_t kMaxPartitionFields = 4;
inline constexpr int64_t kMaxStreamWorkers = 4;

// InvalidArgument naming the first setting out of its bounds. The partition fields are checked
// over `schema_json`, the job's table's Iceberg schema (empty: shop.orders').
Status ValidateStreamSettings(const StreamSettings& settings, std::string_view schema_json = {});

// `current` with the keys `patch` gives replaced: {"trigger_ms", "target_file_size_mb",
// "compaction" (boolean), "compaction_target_mb", "maintenance_interval_ms", "workers" (1 to 4), "partition" (an
// array of up to 4 partition fields over shop.orders' columns, e.g. ["day(ts)", "region"])}. An unknown key, a
// value of the wrong type or out of bounds is refused with InvalidArgument and nothing changes.
Result<StreamSettings> ApplyStreamSettingsPatch(const StreamSettings& current, const nlohmann::json& patch,
                                                std::string_view schema_json = {});

// The same keys, for GET /api/pipeline.
nlohmann::json StreamSettingsJson(const StreamSettings& settings);

// Sets the job's trigger, file sizes and maintenance from `settings`.
void ApplyStreamSettings(const StreamSettings& settings, stream::StreamConfig* config);

// The `floe stream` flags that say the same, as (flag, value) pairs, for a child process; the
// partition is not among them: it is one `--partition` per field (ProcessRole::SetRepeated).
std::vector<std::pair<std::string, std::string>> StreamSettingsArguments(const StreamSettings& settings);

// "hour(ts), region", or "nothing" for an unpartitioned table.
std::string PartitionText(const StreamSettings& settings);

}  // namespace floe::up
