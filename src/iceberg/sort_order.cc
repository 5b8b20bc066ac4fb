#include "iceberg/sort_order.h"

#include <nlohmann/json.hpp>

#include "iceberg/json_fields.h"

namespace floe::iceberg {

using json::Json;

Result<SortOrder> SortOrderFromJsonValue(const nlohmann::json& value) {
  FLOE_RETURN_IF_ERROR(json::ExpectObject(value, "sort order"));
  SortOrder order;
  FLOE_ASSIGN_OR_RETURN(order.order_id, json::RequiredInt(value, "order-id", "sort order"));
  std::string where = fmt::format("sort order {}", order.order_id);
  FLOE_ASSIGN_OR_RETURN(const Json* fields, json::Member(value, "fields", where));
  if (!fields->is_array()) return InvalidArgument("{}: 'fields' must be a list", where);
  for (const Json& f : *fields) {
    FLOE_RETURN_IF_ERROR(json::ExpectObject(f, where));
    SortField sf;
    FLOE_ASSIGN_OR_RETURN(std::string transform, json::RequiredString(f, "transform", where));
    FLOE_ASSIGN_OR_RETURN(sf.transform, Transform::Parse(transform));
    FLOE_ASSIGN_OR_RETURN(auto source_id, json::OptionalInt(f, "source-id", where));
    if (!source_id) {
      FLOE_ASSIGN_OR_RETURN(auto ids, json::OptionalIntList(f, "source-ids", where));
      if (ids.empty()) return InvalidArgument("{}: a sort field needs 'source-id'", where);
      source_id = ids[0];
    }
    sf.source_id = *source_id;
    FLOE_ASSIGN_OR_RETURN(std::string direction, json::RequiredString(f, "direction", where));
    if (direction != "asc" && direction != "desc") {
      return InvalidArgument("{}: direction must be asc or desc, not '{}'", where, direction);
    }
    sf.descending = direction == "desc";
    FLOE_ASSIGN_OR_RETURN(std::string nulls, json::RequiredString(f, "null-order", where));
    if (nulls != "nulls-first" && nulls != "nulls-last") {
      return InvalidArgument("{}: null-order must be nulls-first or nulls-last, not '{}'", where, nulls);
    }
    sf.nulls_first = nulls == "nulls-first";
    order.fields.push_back(std::move(sf));
  }
  return order;
}

nlohmann::json SortOrderToJsonValue(const SortOrder& order) {
  Json fields = Json::array();
  for (const SortField& f : order.fields) {
    fields.push_back({{"transform", f.transform.ToString()},
                      {"source-id", f.source_id},
                      {"direction", f.descending ? "desc" : "asc"},
                      {"null-order", f.nulls_first ? "nulls-first" : "nulls-last"}});
  }
  return {{"order-id", order.order_id}, {"fields", std::move(fields)}};
}

}  // namespace floe::iceberg
