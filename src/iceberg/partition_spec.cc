#include "iceberg/partition_spec.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include <nlohmann/json.hpp>

#include "iceberg/json_fields.h"

namespace floe::iceberg {

using json::Json;

bool PartitionSpec::is_unpartitioned() const {
  return std::all_of(fields_.begin(), fields_.end(),
                     [](const PartitionField& f) { return f.transform.kind() == Transform::Kind::kVoid; });
}

int32_t PartitionSpec::LastFieldId() const {
  int32_t last = kFirstPartitionFieldId - 1;
  for (const auto& f : fields_) last = std::max(last, f.field_id);
  return last;
}

Result<TypePtr> PartitionSpec::PartitionType(const Schema& schema) const {
  std::vector<NestedField> fields;
  for (const PartitionField& pf : fields_) {
    const NestedField* source = schema.FindField(pf.source_id);
    NestedField f;
    f.id = pf.field_id;
    f.name = pf.name;
    f.required = false;
    if (!source) {
      // A dropped source column: its values read as null; keep the tuple's shape.
      f.type = pf.transform.kind() == Transform::Kind::kVoid ? Type::Primitive(TypeId::kInt)
                                                             : Type::Primitive(TypeId::kUnknown);
    } else {
      f.type = pf.transform.ResultType(source->type);
    }
    fields.push_back(std::move(f));
  }
  return Type::Struct(std::move(fields));
}

Status PartitionSpec::Validate(const Schema& schema) const {
  std::vector<std::string_view> names;
  for (const PartitionField& pf : fields_) {
    const NestedField* source = schema.FindField(pf.source_id);
    if (!source) return InvalidArgument("partition field '{}': source column {} does not exist", pf.name, pf.source_id);
    if (!source->type->is_primitive()) {
      return InvalidArgument("partition field '{}': source column '{}' is not primitive", pf.name, source->name);
    }
    if (!pf.transform.CanTransform(*source->type)) {
      return InvalidArgument("partition field '{}': {} cannot transform a {} column", pf.name,
                             pf.transform.ToString(), source->type->ToString());
    }
    if (std::find(names.begin(), names.end(), pf.name) != names.end()) {
      return InvalidArgument("partition field name '{}' is used twice", pf.name);
    }
    names.push_back(pf.name);
  }
  return OkStatus();
}

bool PartitionSpec::CompatibleWith(const PartitionSpec& other) const {
  if (fields_.size() != other.fields_.size()) return false;
  for (size_t i = 0; i < fields_.size(); ++i) {
    const auto& a = fields_[i];
    const auto& b = other.fields_[i];
    if (a.source_id != b.source_id || !(a.transform == b.transform) || a.name != b.name) return false;
  }
  return true;
}

Result<PartitionSpec> PartitionSpecFromJsonValue(const nlohmann::json& value, int32_t* v1_next_field_id) {
  const Json* fields = &value;
  int32_t spec_id = 0;
  if (value.is_object()) {
    FLOE_ASSIGN_OR_RETURN(spec_id, json::RequiredInt(value, "spec-id", "partition spec"));
    FLOE_ASSIGN_OR_RETURN(fields, json::Member(value, "fields", "partition spec"));
  }
  std::string where = fmt::format("partition spec {}", spec_id);
  if (!fields->is_array()) return InvalidArgument("{}: 'fields' must be a list", where);
  std::vector<PartitionField> out;
  int32_t next_id = v1_next_field_id ? *v1_next_field_id : kFirstPartitionFieldId;
  for (const Json& f : *fields) {
    FLOE_RETURN_IF_ERROR(json::ExpectObject(f, where));
    PartitionField pf;
    FLOE_ASSIGN_OR_RETURN(pf.name, json::RequiredString(f, "name", where));
    std::string here = fmt::format("{} field '{}'", where, pf.name);
    FLOE_ASSIGN_OR_RETURN(auto source_id, json::OptionalInt(f, "source-id", here));
    if (!source_id) {
      FLOE_ASSIGN_OR_RETURN(auto ids, json::OptionalIntList(f, "source-ids", here));
      if (ids.size() != 1) return NotImplemented("{}: multi-argument transforms are not supported", here);
      source_id = ids[0];
    }
    pf.source_id = *source_id;
    FLOE_ASSIGN_OR_RETURN(auto field_id, json::OptionalInt(f, "field-id", here));
    pf.field_id = field_id ? *field_id : next_id;
    next_id = std::max(next_id, pf.field_id) + 1;
    FLOE_ASSIGN_OR_RETURN(std::string transform, json::RequiredString(f, "transform", here));
    FLOE_ASSIGN_OR_RETURN(pf.transform, Transform::Parse(transform));
    out.push_back(std::move(pf));
  }
  if (v1_next_field_id) *v1_next_field_id = next_id;
  return PartitionSpec(spec_id, std::move(out));
}

nlohmann::json PartitionFieldsToJsonValue(const PartitionSpec& spec) {
  Json fields = Json::array();
  for (const PartitionField& f : spec.fields()) {
    fields.push_back({{"name", f.name},
                      {"transform", f.transform.ToString()},
                      {"source-id", f.source_id},
                      {"field-id", f.field_id}});
  }
  return fields;
}

nlohmann::json PartitionSpecToJsonValue(const PartitionSpec& spec) {
  return {{"spec-id", spec.spec_id()}, {"fields", PartitionFieldsToJsonValue(spec)}};
}

Result<PartitionField> ParsePartitionField(std::string_view text, const Schema& schema, int32_t field_id) {
  auto trim = [](std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
  };
  std::string_view s = trim(text);
  std::string_view fn = "identity";
  std::string_view column = s;
  std::optional<int32_t> arg;
  if (size_t open = s.find('('); open != std::string_view::npos) {
    if (!s.ends_with(")")) return InvalidArgument("partition field '{}': missing ')'", text);
    fn = trim(s.substr(0, open));
    std::string_view inner = s.substr(open + 1, s.size() - open - 2);
    if (size_t comma = inner.find(','); comma != std::string_view::npos) {
      std::string_view first = trim(inner.substr(0, comma));
      int32_t n = 0;
      auto [p, ec] = std::from_chars(first.data(), first.data() + first.size(), n);
      if (ec != std::errc() || p != first.data() + first.size()) {
        return InvalidArgument("partition field '{}': '{}' is not a number", text, first);
      }
      arg = n;
      column = trim(inner.substr(comma + 1));
    } else {
      column = trim(inner);
    }
  }
  const NestedField* source = schema.FindFieldByName(column);
  if (!source) return InvalidArgument("partition field '{}': no column '{}'", text, column);
  PartitionField pf;
  pf.source_id = source->id;
  pf.field_id = field_id;
  std::string fname(fn);
  std::transform(fname.begin(), fname.end(), fname.begin(), [](unsigned char c) { return std::tolower(c); });
  std::string col(column);
  std::replace(col.begin(), col.end(), '.', '_');
  if (fname == "identity") {
    pf.transform = Transform::Identity();
    pf.name = col;
  } else if (fname == "bucket" && arg) {
    pf.transform = Transform::Bucket(*arg);
    pf.name = col + "_bucket";
  } else if (fname == "truncate" && arg) {
    pf.transform = Transform::Truncate(*arg);
    pf.name = col + "_trunc";
  } else if ((fname == "year" || fname == "years") && !arg) {
    pf.transform = Transform::Year();
    pf.name = col + "_year";
  } else if ((fname == "month" || fname == "months") && !arg) {
    pf.transform = Transform::Month();
    pf.name = col + "_month";
  } else if ((fname == "day" || fname == "days") && !arg) {
    pf.transform = Transform::Day();
    pf.name = col + "_day";
  } else if ((fname == "hour" || fname == "hours") && !arg) {
    pf.transform = Transform::Hour();
    pf.name = col + "_hour";
  } else if (fname == "void" && !arg) {
    pf.transform = Transform::Void();
    pf.name = col + "_null";
  } else {
    return InvalidArgument("partition field '{}': unknown transform '{}' (identity, bucket(N, c), truncate(W, c), "
                           "year, month, day, hour, void)", text, fn);
  }
  if ((pf.transform.kind() == Transform::Kind::kBucket || pf.transform.kind() == Transform::Kind::kTruncate) &&
      pf.transform.param() <= 0) {
    return InvalidArgument("partition field '{}': the parameter must be positive", text);
  }
  if (!pf.transform.CanTransform(*source->type)) {
    return InvalidArgument("partition field '{}': {} cannot transform a {} column", text, pf.transform.ToString(),
                           source->type->ToString());
  }
  return pf;
}

}  // namespace floe::iceberg
