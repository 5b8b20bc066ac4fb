#include "formats/avro/schema_resolution.h"

namespace floe::avro {
namespace {

using Json = nlohmann::json;
using Kind = AvroValue::Kind;

Result<AvroValue> FromJson(const AvroNode& node, const Json& j) {
  switch (node.type) {
    case AvroType::kNull: return AvroValue::Null();
    case AvroType::kBoolean:
      if (!j.is_boolean()) break;
      return AvroValue::Boolean(j.get<bool>());
    case AvroType::kInt:
      if (!j.is_number_integer()) break;
      return AvroValue::Int(j.get<int32_t>());
    case AvroType::kLong:
      if (!j.is_number_integer()) break;
      return AvroValue::Long(j.get<int64_t>());
    case AvroType::kFloat:
      if (!j.is_number()) break;
      return AvroValue::Float(j.get<float>());
    case AvroType::kDouble:
      if (!j.is_number()) break;
      return AvroValue::Double(j.get<double>());
    case AvroType::kString:
      if (!j.is_string()) break;
      return AvroValue::String(j.get<std::string>());
    case AvroType::kBytes:
    case AvroType::kFixed: {
      if (!j.is_string()) break;
      // Bytes defaults are strings of code points 0-255.
      std::string bytes;
      std::string text = j.get<std::string>();
      for (size_t i = 0; i < text.size(); ++i) {
        unsigned char c = static_cast<unsigned char>(text[i]);
        if (c < 0x80) {
          bytes.push_back(static_cast<char>(c));
        } else if ((c & 0xE0) == 0xC0 && i + 1 < text.size()) {
          bytes.push_back(static_cast<char>(((c & 0x1F) << 6) | (static_cast<unsigned char>(text[++i]) & 0x3F)));
        } else {
          return InvalidArgument("avro default: bytes default has a code point above 255");
        }
      }
      return node.type == AvroType::kBytes ? AvroValue::Bytes(bytes) : AvroValue::Fixed(bytes);
    }
    case AvroType::kEnum: {
      if (!j.is_string()) break;
      for (size_t i = 0; i < node.symbols.size(); ++i) {
        if (node.symbols[i] == j.get<std::string>()) return AvroValue::Enum(static_cast<int32_t>(i), node.symbols[i]);
      }
      break;
    }
    case AvroType::kUnion:
      // A union's default is for its first branch.
      return FromJson(*node.branches[0], j);
    case AvroType::kArray: {
      if (!j.is_array()) break;
      std::vector<AvroValue> items;
      for (const Json& item : j) {
        FLOE_ASSIGN_OR_RETURN(AvroValue v, FromJson(*node.items, item));
        items.push_back(std::move(v));
      }
      return AvroValue::Array(std::move(items));
    }
    case AvroType::kMap: {
      if (!j.is_object()) break;
      std::vector<std::string> keys;
      std::vector<AvroValue> values;
      for (auto it = j.begin(); it != j.end(); ++it) {
        keys.push_back(it.key());
        FLOE_ASSIGN_OR_RETURN(AvroValue v, FromJson(*node.items, *it));
        values.push_back(std::move(v));
      }
      return AvroValue::Map(std::move(keys), std::move(values));
    }
    case AvroType::kRecord: {
      if (!j.is_object()) break;
      std::vector<AvroValue> fields;
      for (const AvroField& f : node.fields) {
        auto it = j.find(f.name);
        if (it != j.end()) {
          FLOE_ASSIGN_OR_RETURN(AvroValue v, FromJson(*f.type, *it));
          fields.push_back(std::move(v));
        } else {
          FLOE_ASSIGN_OR_RETURN(AvroValue v, DefaultValue(f));
          fields.push_back(std::move(v));
        }
      }
      return AvroValue::Record(std::move(fields));
    }
  }
  return InvalidArgument("avro default {} does not fit type {}", j.dump(), AvroTypeName(node.type));
}

const AvroField* MatchField(const AvroNode& writer, const AvroField& reader_field, int* index) {
  int i = -1;
  if (reader_field.field_id) i = writer.FieldIndexById(*reader_field.field_id);
  if (i < 0) {
    i = writer.FieldIndex(reader_field.name);
    // A name match whose ids disagree is a different column (renamed and re-added).
    if (i >= 0 && reader_field.field_id && writer.fields[i].field_id &&
        *writer.fields[i].field_id != *reader_field.field_id) {
      i = -1;
    }
  }
  *index = i;
  return i < 0 ? nullptr : &writer.fields[i];
}

}  // namespace

Result<AvroValue> DefaultValue(const AvroField& field) {
  if (field.default_value) return FromJson(*field.type, *field.default_value);
  if (field.type->type == AvroType::kUnion && field.type->NullBranch() >= 0) return AvroValue::Null();
  if (field.type->type == AvroType::kNull) return AvroValue::Null();
  return InvalidArgument("field '{}' is missing from the written data and has no default", field.name);
}

Result<AvroValue> ResolveDatum(const AvroNode& writer, const AvroNode& reader, const AvroValue& value) {
  // Unions: the value already is the writer branch's value; pick the reader branch for it.
  if (reader.type == AvroType::kUnion) {
    if (value.is_null()) {
      if (reader.NullBranch() >= 0) return AvroValue::Null();
      return InvalidArgument("a null cannot be read as a non-null union");
    }
    const AvroNode* w = &writer;
    if (writer.type == AvroType::kUnion) {
      w = writer.NonNullBranch();
      if (!w) w = writer.branches.back();
    }
    for (const AvroNode* branch : reader.branches) {
      if (branch->type == AvroType::kNull) continue;
      auto r = ResolveDatum(*w, *branch, value);
      if (r) return r;
    }
    return InvalidArgument("no branch of the reader's union accepts the written {}", AvroTypeName(w->type));
  }
  if (writer.type == AvroType::kUnion) {
    if (value.is_null()) return InvalidArgument("a written null cannot be read as {}", AvroTypeName(reader.type));
    const AvroNode* w = writer.NonNullBranch();
    if (!w) w = writer.branches.back();
    return ResolveDatum(*w, reader, value);
  }
  switch (reader.type) {
    case AvroType::kRecord: {
      if (value.kind != Kind::kRecord) break;
      std::vector<AvroValue> fields;
      fields.reserve(reader.fields.size());
      for (const AvroField& rf : reader.fields) {
        int index = -1;
        const AvroField* wf = MatchField(writer, rf, &index);
        if (!wf || index >= static_cast<int>(value.items.size())) {
          FLOE_ASSIGN_OR_RETURN(AvroValue d, DefaultValue(rf));
          fields.push_back(std::move(d));
          continue;
        }
        auto v = ResolveDatum(*wf->type, *rf.type, value.items[index]);
        if (!v) return std::unexpected(std::move(v).error().WithContext(fmt::format("field '{}'", rf.name)));
        fields.push_back(std::move(*v));
      }
      return AvroValue::Record(std::move(fields));
    }
    case AvroType::kArray: {
      if (value.kind != Kind::kArray || writer.type != AvroType::kArray) break;
      std::vector<AvroValue> items;
      for (const AvroValue& item : value.items) {
        FLOE_ASSIGN_OR_RETURN(AvroValue v, ResolveDatum(*writer.items, *reader.items, item));
        items.push_back(std::move(v));
      }
      return AvroValue::Array(std::move(items));
    }
    case AvroType::kMap: {
      if (value.kind != Kind::kMap || writer.type != AvroType::kMap) break;
      std::vector<AvroValue> items;
      for (const AvroValue& item : value.items) {
        FLOE_ASSIGN_OR_RETURN(AvroValue v, ResolveDatum(*writer.items, *reader.items, item));
        items.push_back(std::move(v));
      }
      return AvroValue::Map(value.keys, std::move(items));
    }
    case AvroType::kLong:
      if (value.kind == Kind::kInt || value.kind == Kind::kLong) return AvroValue::Long(value.i);
      break;
    case AvroType::kInt:
      if (value.kind == Kind::kInt) return value;
      break;
    case AvroType::kFloat:
      if (value.kind == Kind::kInt || value.kind == Kind::kLong) return AvroValue::Float(static_cast<float>(value.i));
      if (value.kind == Kind::kFloat) return value;
      break;
    case AvroType::kDouble:
      if (value.kind == Kind::kInt || value.kind == Kind::kLong) return AvroValue::Double(static_cast<double>(value.i));
      if (value.kind == Kind::kFloat || value.kind == Kind::kDouble) return AvroValue::Double(value.d);
      break;
    case AvroType::kString:
      if (value.kind == Kind::kString || value.kind == Kind::kBytes) return AvroValue::String(value.s);
      break;
    case AvroType::kBytes:
      if (value.kind == Kind::kString || value.kind == Kind::kBytes) return AvroValue::Bytes(value.s);
      break;
    case AvroType::kFixed:
      if (value.kind == Kind::kFixed && value.s.size() == static_cast<size_t>(reader.size)) return value;
      break;
    case AvroType::kEnum:
      if (value.kind == Kind::kEnum) {
        for (size_t i = 0; i < reader.symbols.size(); ++i) {
          if (reader.symbols[i] == value.s) return AvroValue::Enum(static_cast<int32_t>(i), value.s);
        }
        return InvalidArgument("enum symbol '{}' is unknown to the reader's enum '{}'", value.s, reader.name);
      }
      break;
    case AvroType::kBoolean:
      if (value.kind == Kind::kBoolean) return value;
      break;
    case AvroType::kNull:
      if (value.is_null()) return value;
      break;
    case AvroType::kUnion:
      break;
  }
  return InvalidArgument("written {} cannot be read as {}", AvroTypeName(writer.type), AvroTypeName(reader.type));
}

}  // namespace floe::avro
