#include "iceberg/json_fields.h"

#include <limits>

namespace floe::iceberg::json {
namespace {

std::string_view KindName(const Json& v) {
  switch (v.type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::object: return "an object";
    case Json::value_t::array: return "an array";
    case Json::value_t::string: return "a string";
    case Json::value_t::boolean: return "a boolean";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned: return "an integer";
    case Json::value_t::number_float: return "a number with a fraction";
    default: return "an unsupported value";
  }
}

std::unexpected<Error> WrongType(std::string_view key, std::string_view where, std::string_view wanted,
                                 const Json& got) {
  return InvalidArgument("{}: '{}' must be {}, not {}", where, key, wanted, KindName(got));
}

Result<int64_t> AsLong(const Json& v, std::string_view key, std::string_view where) {
  if (v.is_number_integer()) return v.get<int64_t>();
  if (v.is_number_unsigned()) {
    uint64_t u = v.get<uint64_t>();
    if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      return InvalidArgument("{}: '{}' is out of range for a long", where, key);
    }
    return static_cast<int64_t>(u);
  }
  return WrongType(key, where, "an integer", v);
}

Result<int32_t> AsInt(const Json& v, std::string_view key, std::string_view where) {
  FLOE_ASSIGN_OR_RETURN(int64_t l, AsLong(v, key, where));
  if (l < std::numeric_limits<int32_t>::min() || l > std::numeric_limits<int32_t>::max()) {
    return InvalidArgument("{}: '{}' is out of range for an int", where, key);
  }
  return static_cast<int32_t>(l);
}

}  // namespace

Result<Json> Parse(std::string_view text, std::string_view what) {
  try {
    return Json::parse(text.begin(), text.end());
  } catch (const Json::parse_error& e) {
    return InvalidArgument("{}: invalid JSON at byte {}: {}", what, e.byte, e.what());
  } catch (const Json::exception& e) {  // Numbers past 64 bits, bad UTF-8 in strings.
    return InvalidArgument("{}: invalid JSON: {}", what, e.what());
  }
}

Status ExpectObject(const Json& value, std::string_view where) {
  if (!value.is_object()) return InvalidArgument("{}: expected a JSON object, not {}", where, KindName(value));
  return OkStatus();
}

const Json* OptionalMember(const Json& object, std::string_view key) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(key);
  if (it == object.end()) return nullptr;
  return &*it;
}

Result<const Json*> Member(const Json& object, std::string_view key, std::string_view where) {
  const Json* v = OptionalMember(object, key);
  if (!v) return InvalidArgument("{}: missing required '{}'", where, key);
  return v;
}

Result<int64_t> RequiredLong(const Json& object, std::string_view key, std::string_view where) {
  FLOE_ASSIGN_OR_RETURN(const Json* v, Member(object, key, where));
  return AsLong(*v, key, where);
}

Result<int32_t> RequiredInt(const Json& object, std::string_view key, std::string_view where) {
  FLOE_ASSIGN_OR_RETURN(const Json* v, Member(object, key, where));
  return AsInt(*v, key, where);
}

Result<std::string> RequiredString(const Json& object, std::string_view key, std::string_view where) {
  FLOE_ASSIGN_OR_RETURN(const Json* v, Member(object, key, where));
  if (!v->is_string()) return WrongType(key, where, "a string", *v);
  return v->get<std::string>();
}

Result<bool> RequiredBool(const Json& object, std::string_view key, std::string_view where) {
  FLOE_ASSIGN_OR_RETURN(const Json* v, Member(object, key, where));
  if (!v->is_boolean()) return WrongType(key, where, "a boolean", *v);
  return v->get<bool>();
}

Result<std::optional<int64_t>> OptionalLong(const Json& object, std::string_view key, std::string_view where) {
  const Json* v = OptionalMember(object, key);
  if (!v || v->is_null()) return std::optional<int64_t>();
  FLOE_ASSIGN_OR_RETURN(int64_t l, AsLong(*v, key, where));
  return std::optional<int64_t>(l);
}

Result<std::optional<int32_t>> OptionalInt(const Json& object, std::string_view key, std::string_view where) {
  const Json* v = OptionalMember(object, key);
  if (!v || v->is_null()) return std::optional<int32_t>();
  FLOE_ASSIGN_OR_RETURN(int32_t i, AsInt(*v, key, where));
  return std::optional<int32_t>(i);
}

Result<std::optional<std::string>> OptionalString(const Json& object, std::string_view key,
                                                  std::string_view where) {
  const Json* v = OptionalMember(object, key);
  if (!v || v->is_null()) return std::optional<std::string>();
  if (!v->is_string()) return WrongType(key, where, "a string", *v);
  return std::optional<std::string>(v->get<std::string>());
}

Result<std::optional<bool>> OptionalBool(const Json& object, std::string_view key, std::string_view where) {
  const Json* v = OptionalMember(object, key);
  if (!v || v->is_null()) return std::optional<bool>();
  if (!v->is_boolean()) return WrongType(key, where, "a boolean", *v);
  return std::optional<bool>(v->get<bool>());
}

Result<std::vector<int32_t>> OptionalIntList(const Json& object, std::string_view key, std::string_view where) {
  std::vector<int32_t> out;
  const Json* v = OptionalMember(object, key);
  if (!v || v->is_null()) return out;
  if (!v->is_array()) return WrongType(key, where, "a list of integers", *v);
  for (const Json& item : *v) {
    FLOE_ASSIGN_OR_RETURN(int32_t i, AsInt(item, key, where));
    out.push_back(i);
  }
  return out;
}

Result<std::map<std::string, std::string>> OptionalStringMap(const Json& object, std::string_view key,
                                                             std::string_view where) {
  std::map<std::string, std::string> out;
  const Json* v = OptionalMember(object, key);
  if (!v || v->is_null()) return out;
  if (!v->is_object()) return WrongType(key, where, "an object of strings", *v);
  for (auto it = v->begin(); it != v->end(); ++it) {
    if (it->is_string()) {
      out[it.key()] = it->get<std::string>();
    } else if (it->is_number() || it->is_boolean()) {
      out[it.key()] = it->dump();  // Some writers emit numbers in summaries; keep their text.
    } else {
      return InvalidArgument("{}: '{}.{}' must be a string, not {}", where, key, it.key(), KindName(*it));
    }
  }
  return out;
}

}  // namespace floe::iceberg::json
