#include "up/stream_settings.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "generator/order_event.h"
#include "iceberg/partition_spec.h"
#include "iceberg/schema_json.h"

namespace floe::up {
namespace {

Status CheckBounds(std::string_view key, int64_t value, int64_t min, int64_t max) {
  if (value < min || value > max) {
    return InvalidArgument("{} must be between {} and {}, not {}", key, min, max, value);
  }
  return OkStatus();
}

Result<int64_t> IntegerField(const nlohmann::json& value, std::string_view key) {
  // 1e3 and 1000.0 are accepted as whole numbers; 1.5 and "1000" are not.
  if (value.is_number_integer()) return value.get<int64_t>();
  if (value.is_number_float()) {
    double number = value.get<double>();
    if (number == static_cast<double>(static_cast<int64_t>(number)) && number >= -9e15 && number <= 9e15) {
      return static_cast<int64_t>(number);
    }
  }
  return InvalidArgument("{} must be a whole number", key);
}

// Each field parses over the table's schema (shop.orders' when none is given) and together they
// make a valid spec.
Status CheckPartition(const std::vector<std::string>& partition, std::string_view schema_json) {
  if (partition.size() > kMaxPartitionFields) {
    return InvalidArgument("partition has at most {} fields, not {}", kMaxPartitionFields, partition.size());
  }
  FLOE_ASSIGN_OR_RETURN(
      iceberg::Schema schema,
      iceberg::SchemaFromJson(schema_json.empty() ? generator::OrdersSchemaJson(/*line_items=*/true) : schema_json));
  std::vector<iceberg::PartitionField> fields;
  int32_t next_id = 1000;
  for (const std::string& text : partition) {
    FLOE_ASSIGN_OR_RETURN_CTX(iceberg::PartitionField field, iceberg::ParsePartitionField(text, schema, next_id++),
                              fmt::format("partition '{}'", text.substr(0, 64)));
    fields.push_back(std::move(field));
  }
  FLOE_RETURN_IF_ERROR_CTX(iceberg::PartitionSpec(0, fields).Validate(schema), "partition");
  return OkStatus();
}

}  // namespace

Status ValidateStreamSettings(const StreamSettings& s, std::string_view schema_json) {
  FLOE_RETURN_IF_ERROR(CheckBounds("trigger_ms", s.trigger_millis, kMinTriggerMillis, kMaxTriggerMillis));
  FLOE_RETURN_IF_ERROR(CheckBounds("target_file_size_mb", s.target_file_size_mb, kMinFileSizeMb, kMaxFileSizeMb));
  FLOE_RETURN_IF_ERROR(CheckBounds("compaction_target_mb", s.compaction_target_mb, kMinFileSizeMb, kMaxFileSizeMb));
  FLOE_RETURN_IF_ERROR(CheckBounds("maintenance_interval_ms", s.maintenance_interval_millis,
                                   kMinMaintenanceIntervalMillis, kMaxMaintenanceIntervalMillis));
  FLOE_RETURN_IF_ERROR(CheckBounds("workers", s.workers, 1, kMaxStreamWorkers));
  FLOE_RETURN_IF_ERROR(CheckPartition(s.partition, schema_json));
  return OkStatus();
}

Result<StreamSettings> ApplyStreamSettingsPatch(const StreamSettings& current, const nlohmann::json& patch,
                                                std::string_view schema_json) {
  if (!patch.is_object()) return InvalidArgument("expected a JSON object of stream settings");
  if (patch.empty()) return InvalidArgument("expected at least one stream setting");
  StreamSettings next = current;
  for (const auto& [key, value] : patch.items()) {
    if (key == "partition") {
      if (!value.is_array()) {
        return InvalidArgument("partition must be an array of partition fields, e.g. [\"day(ts)\"]");
      }
      if (value.size() > kMaxPartitionFields) {
        return InvalidArgument("partition has at most {} fields, not {}", kMaxPartitionFields, value.size());
      }
      std::vector<std::string> fields;
      for (const auto& field : value) {
        if (!field.is_string() || field.get_ref<const std::string&>().size() > 64) {
          return InvalidArgument("each partition field is a string of at most 64 characters, e.g. \"hour(ts)\"");
        }
        fields.push_back(field.get<std::string>());
      }
      next.partition = std::move(fields);
      continue;
    }
    if (key == "compaction") {
      if (!value.is_boolean()) return InvalidArgument("compaction must be true or false");
      next.compaction = value.get<bool>();
      continue;
    }
    int64_t* target = key == "trigger_ms"                ? &next.trigger_millis
                      : key == "target_file_size_mb"     ? &next.target_file_size_mb
                      : key == "compaction_target_mb"    ? &next.compaction_target_mb
                      : key == "maintenance_interval_ms" ? &next.maintenance_interval_millis
                      : key == "workers"                 ? &next.workers
                                                         : nullptr;
    if (target == nullptr) {
      return InvalidArgument(
          "unknown stream setting '{}' (expected trigger_ms, target_file_size_mb, compaction, compaction_target_mb, "
          "maintenance_interval_ms, workers, partition)",
          key);
    }
    FLOE_ASSIGN_OR_RETURN(*target, IntegerField(value, key));
  }
  FLOE_RETURN_IF_ERROR(ValidateStreamSettings(next, schema_json));
  return next;
}

nlohmann::json StreamSettingsJson(const StreamSettings& s) {
  return {{"trigger_ms", s.trigger_millis},
          {"target_file_size_mb", s.target_file_size_mb},
          {"compaction", s.compaction},
          {"compaction_target_mb", s.compaction_target_mb},
          {"maintenance_interval_ms", s.maintenance_interval_millis},
          {"workers", s.workers},
          {"partition", s.partition}};
}

void ApplyStreamSettings(const StreamSettings& s, stream::StreamConfig* config) {
  config->trigger.interval_millis = s.trigger_millis;
  config->target_file_size_bytes = s.target_file_size_mb << 20;
  config->compaction_target_file_size_bytes = s.compaction_target_mb << 20;
  config->maintenance.compact = s.compaction;
  config->maintenance.interval_ms = s.maintenance_interval_millis;
  config->partition = s.partition;
  config->evolve_partition_spec = true;
}

std::vector<std::pair<std::string, std::string>> StreamSettingsArguments(const StreamSettings& s) {
  return {{"--trigger", fmt::format("{}ms", s.trigger_millis)},
          {"--target-file-size-mb", std::to_string(s.target_file_size_mb)},
          {"--compaction", s.compaction ? "on" : "off"},
          {"--compaction-target-mb", std::to_string(s.compaction_target_mb)},
          {"--maintenance-interval", fmt::format("{}ms", s.maintenance_interval_millis)}};
}

std::string PartitionText(const StreamSettings& s) {
  return s.partition.empty() ? "nothing" : fmt::format("{}", fmt::join(s.partition, ", "));
}

}  // namespace floe::up
