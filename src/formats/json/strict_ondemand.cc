#include "formats/json/strict_ondemand.h"

#include <utility>

namespace floe::formats::json {

simdjson::error_code SkipValue(od::value value, int depth, std::optional<TypeId>* suggested) {
  od::json_type type;
  SIMDJSON_TRY(value.type().get(type));
  switch (type) {
    case od::json_type::object: {
      if (depth >= kMaxDepth) return simdjson::DEPTH_ERROR;
      od::object object;
      SIMDJSON_TRY(value.get_object().get(object));
      for (auto member : object) {
        od::field field;
        SIMDJSON_TRY(std::move(member).get(field));
        std::string_view key;
        SIMDJSON_TRY(KeyText(field).get(key));
        SIMDJSON_TRY(SkipValue(field.value(), depth + 1, nullptr));
      }
      return simdjson::SUCCESS;
    }
    case od::json_type::array: {
      if (depth >= kMaxDepth) return simdjson::DEPTH_ERROR;
      od::array array;
      SIMDJSON_TRY(value.get_array().get(array));
      for (auto item : array) {
        od::value element;
        SIMDJSON_TRY(std::move(item).get(element));
        SIMDJSON_TRY(SkipValue(element, depth + 1, nullptr));
      }
      return simdjson::SUCCESS;
    }
    case od::json_type::string: {
      std::string_view text;
      SIMDJSON_TRY(StringText(value).get(text));
      if (suggested) *suggested = TypeId::kString;
      return simdjson::SUCCESS;
    }
    case od::json_type::number: {
      Number number;
      SIMDJSON_TRY(ReadNumber(value, &number));
      if (suggested) *suggested = number.type == od::number_type::floating_point_number ? TypeId::kDouble : TypeId::kInt64;
      return simdjson::SUCCESS;
    }
    case od::json_type::boolean: {
      bool b;
      SIMDJSON_TRY(value.get_bool().get(b));
      if (suggested) *suggested = TypeId::kBoolean;
      return simdjson::SUCCESS;
    }
    case od::json_type::null: {
      bool is_null;
      SIMDJSON_TRY(value.is_null().get(is_null));
      return is_null ? simdjson::SUCCESS : simdjson::N_ATOM_ERROR;
    }
  }
  return simdjson::TAPE_ERROR;
}

}  // namespace floe::formats::json
