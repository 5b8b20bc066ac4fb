// SortOrder: how data files of a table are declared to be sorted (format/spec.md, "Sorting"),
// with its JSON form. Order id 0 is the unsorted order. Immutable value; any thread.
#pragma once

#include <cstdint>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "iceberg/transform.h"

namespace floe::iceberg {

struct SortField {
  Transform transform;
  int32_t source_id = 0;
  bool descending = false;
  bool nulls_first = true;

  bool operator==(const SortField&) const = default;
};

struct SortOrder {
  int32_t order_id = 0;
  std::vector<SortField> fields;

  bool is_unsorted() const { return fields.empty(); }
  bool operator==(const SortOrder&) const = default;
};

Result<SortOrder> SortOrderFromJsonValue(const nlohmann::json& value);
nlohmann::json SortOrderToJsonValue(const SortOrder& order);

}  // namespace floe::iceberg
