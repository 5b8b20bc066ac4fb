#include "catalog/table_creation.h"

#include <utility>

#include "iceberg/table_metadata.h"

namespace floe::catalog {

using Json = nlohmann::json;

Result<TableCreation> TableCreation::FromRequest(const Json& request) {
  if (!request.is_object()) return InvalidArgument("a create-table request must be an object");
  TableCreation creation;
  auto schema = request.find("schema");
  if (schema == request.end() || !schema->is_object()) {
    return InvalidArgument("a create-table request needs a 'schema' object");
  }
  creation.schema = *schema;
  if (auto it = request.find("location"); it != request.end() && !it->is_null()) {
    if (!it->is_string()) return InvalidArgument("'location' must be a string");
    creation.location = it->get<std::string>();
  }
  if (auto it = request.find("partition-spec"); it != request.end() && !it->is_null()) {
    if (!it->is_object()) return InvalidArgument("'partition-spec' must be an object");
    creation.partition_spec = *it;
  }
  if (auto it = request.find("write-order"); it != request.end() && !it->is_null()) {
    if (!it->is_object()) return InvalidArgument("'write-order' must be an object");
    creation.write_order = *it;
  }
  if (auto it = request.find("properties"); it != request.end() && !it->is_null()) {
    if (!it->is_object()) return InvalidArgument("'properties' must be an object of strings");
    for (const auto& [key, value] : it->items()) {
      if (!value.is_string()) return InvalidArgument("property '{}' must be a string", key);
    }
    creation.properties = *it;
  }
  return creation;
}

Result<std::vector<iceberg::TableUpdatePtr>> TableCreation::Updates() const {
  if (location.empty()) return InvalidArgument("a new table needs a location");
  std::map<std::string, std::string> table_properties;
  int64_t format_version = iceberg::kDefaultFormatVersion;
  for (const auto& [key, value] : properties.items()) {
    if (!value.is_string()) return InvalidArgument("property '{}' must be a string", key);
    if (key == "format-version") {
      // A table property only at creation; Iceberg does not keep it in the table's properties.
      try {
        format_version = std::stoll(value.get<std::string>());
      } catch (const std::exception&) {
        return InvalidArgument("property format-version '{}' is not a number", value.get<std::string>());
      }
      continue;
    }
    table_properties[key] = value.get<std::string>();
  }
  Json first_schema = schema;
  first_schema["schema-id"] = 0;
  Json spec = partition_spec.is_null() ? Json{{"spec-id", 0}, {"fields", Json::array()}} : partition_spec;
  Json order = write_order.is_null() ? Json{{"order-id", 0}, {"fields", Json::array()}} : write_order;
  std::vector<iceberg::TableUpdatePtr> updates = {
      std::make_shared<const iceberg::UpgradeFormatVersion>(format_version),
      std::make_shared<const iceberg::AddSchema>(std::move(first_schema), std::nullopt),
      std::make_shared<const iceberg::SetCurrentSchema>(-1),
      std::make_shared<const iceberg::AddPartitionSpec>(std::move(spec)),
      std::make_shared<const iceberg::SetDefaultPartitionSpec>(-1),
      std::make_shared<const iceberg::AddSortOrder>(std::move(order)),
      std::make_shared<const iceberg::SetDefaultSortOrder>(-1),
      std::make_shared<const iceberg::SetLocation>(location),
  };
  if (!table_properties.empty()) {
    updates.push_back(std::make_shared<const iceberg::SetProperties>(std::move(table_properties)));
  }
  return updates;
}

Result<Json> NewTableMetadata(const TableCreation& creation, int64_t now_millis) {
  FLOE_ASSIGN_OR_RETURN(std::vector<iceberg::TableUpdatePtr> updates, creation.Updates());
  iceberg::TableMetadataBuilder builder(now_millis);
  FLOE_RETURN_IF_ERROR(iceberg::ApplyUpdates(updates, builder));
  return builder.Build();
}

}  // namespace floe::catalog
