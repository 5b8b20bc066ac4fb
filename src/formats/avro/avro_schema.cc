#include "formats/avro/avro_schema.h"

#include <fmt/format.h>

#include <map>
#include <set>
#include <utility>

namespace floe::avro {

using Json = nlohmann::json;

std::string_view AvroTypeName(AvroType type) {
  switch (type) {
    case AvroType::kNull: return "null";
    case AvroType::kBoolean: return "boolean";
    case AvroType::kInt: return "int";
    case AvroType::kLong: return "long";
    case AvroType::kFloat: return "float";
    case AvroType::kDouble: return "double";
    case AvroType::kBytes: return "bytes";
    case AvroType::kString: return "string";
    case AvroType::kRecord: return "record";
    case AvroType::kEnum: return "enum";
    case AvroType::kArray: return "array";
    case AvroType::kMap: return "map";
    case AvroType::kUnion: return "union";
    case AvroType::kFixed: return "fixed";
  }
  return "?";
}

int AvroNode::NullBranch() const {
  for (size_t i = 0; i < branches.size(); ++i) {
    if (branches[i]->type == AvroType::kNull) return static_cast<int>(i);
  }
  return -1;
}

const AvroNode* AvroNode::NonNullBranch() const {
  if (type != AvroType::kUnion || branches.size() != 2 || NullBranch() < 0) return nullptr;
  return branches[NullBranch() == 0 ? 1 : 0];
}

int AvroNode::FieldIndex(std::string_view field_name) const {
  for (size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].name == field_name) return static_cast<int>(i);
  }
  return -1;
}

int AvroNode::FieldIndexById(int32_t id) const {
  for (size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].field_id == id) return static_cast<int>(i);
  }
  return -1;
}

namespace {

constexpr int kMaxDepth = 64;

std::optional<AvroType> PrimitiveType(std::string_view name) {
  static const std::map<std::string_view, AvroType> kNames = {
      {"null", AvroType::kNull},   {"boolean", AvroType::kBoolean}, {"int", AvroType::kInt},
      {"long", AvroType::kLong},   {"float", AvroType::kFloat},     {"double", AvroType::kDouble},
      {"bytes", AvroType::kBytes}, {"string", AvroType::kString},
  };
  auto it = kNames.find(name);
  if (it == kNames.end()) return std::nullopt;
  return it->second;
}

std::optional<int32_t> IntProperty(const Json& object, const char* key) {
  auto it = object.find(key);
  if (it == object.end() || !it->is_number_integer()) return std::nullopt;
  int64_t v = it->get<int64_t>();
  if (v < INT32_MIN || v > INT32_MAX) return std::nullopt;
  return static_cast<int32_t>(v);
}

bool ValidName(std::string_view name) {
  if (name.empty()) return false;
  bool start = true;
  for (char c : name) {
    if (c == '.') {
      if (start) return false;
      start = true;
      continue;
    }
    bool alpha = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
    bool digit = c >= '0' && c <= '9';
    if (!(alpha || (digit && !start))) return false;
    start = false;
  }
  return !start;
}

}  // namespace

// Turns schema JSON into nodes owned by one AvroSchema, resolving named-type references.
class SchemaParser {
 public:
  Result<AvroSchema> Run(const Json& value, const std::vector<Json>& references = {}) {
    AvroSchema schema;
    schema_ = &schema;
    for (size_t i = 0; i < references.size(); ++i) {
      FLOE_RETURN_IF_ERROR_CTX(ParseNode(references[i], "", 0), fmt::format("avro schema reference {}", i + 1));
    }
    FLOE_ASSIGN_OR_RETURN(schema.root_, ParseNode(value, "", 0));
    return schema;
  }

 private:
  AvroNode* NewNode(AvroType type) {
    schema_->nodes_.push_back(std::make_unique<AvroNode>());
    schema_->nodes_.back()->type = type;
    return schema_->nodes_.back().get();
  }

  static std::string FullName(const std::string& name, const std::string& space) {
    if (name.find('.') != std::string::npos || space.empty()) return name;
    return space + "." + name;
  }

  Result<const AvroNode*> Reference(const std::string& name, const std::string& space) {
    auto it = named_.find(FullName(name, space));
    if (it == named_.end()) it = named_.find(name);
    if (it == named_.end()) return Corruption("avro schema: unknown type '{}'", name);
    return it->second;
  }

  Status Define(AvroNode* node, const Json& object, std::string& space) {
    auto name = object.find("name");
    if (name == object.end() || !name->is_string()) {
      return Corruption("avro schema: a {} needs a string 'name'", AvroTypeName(node->type));
    }
    std::string n = name->get<std::string>();
    auto ns = object.find("namespace");
    if (ns != object.end() && ns->is_string() && n.find('.') == std::string::npos) {
      space = ns->get<std::string>();
    }
    node->name = FullName(n, space);
    if (!ValidName(node->name)) return Corruption("avro schema: invalid name '{}'", node->name);
    if (auto dot = node->name.rfind('.'); dot != std::string::npos) space = node->name.substr(0, dot);
    if (!named_.emplace(node->name, node).second) {
      return Corruption("avro schema: type '{}' is defined twice", node->name);
    }
    if (auto doc = object.find("doc"); doc != object.end() && doc->is_string()) node->doc = doc->get<std::string>();
    return OkStatus();
  }

  Result<const AvroNode*> ParseNode(const Json& value, std::string space, int depth) {
    if (depth > kMaxDepth) return Corruption("avro schema: nested deeper than {}", kMaxDepth);
    if (value.is_string()) {
      std::string name = value.get<std::string>();
      if (auto p = PrimitiveType(name)) return NewNode(*p);
      return Reference(name, space);
    }
    if (value.is_array()) {
      AvroNode* node = NewNode(AvroType::kUnion);
      std::set<std::string> seen;
      for (const Json& branch : value) {
        FLOE_ASSIGN_OR_RETURN(const AvroNode* b, ParseNode(branch, space, depth + 1));
        if (b->type == AvroType::kUnion) return Corruption("avro schema: a union may not contain a union");
        std::string key = b->name.empty() ? std::string(AvroTypeName(b->type)) : b->name;
        if (!seen.insert(key).second) return Corruption("avro schema: union has two branches of type '{}'", key);
        node->branches.push_back(b);
      }
      if (node->branches.empty()) return Corruption("avro schema: empty union");
      return node;
    }
    if (!value.is_object()) return Corruption("avro schema: a schema must be a string, list or object");
    auto type_it = value.find("type");
    if (type_it == value.end()) return Corruption("avro schema: object without 'type'");
    if (!type_it->is_string()) {
      // {"type": {...}} or {"type": [...]}: a wrapped schema.
      return ParseNode(*type_it, space, depth + 1);
    }
    std::string type = type_it->get<std::string>();
    AvroNode* node = nullptr;
    if (auto p = PrimitiveType(type)) {
      node = NewNode(*p);
    } else if (type == "record" || type == "error") {
      node = NewNode(AvroType::kRecord);
      FLOE_RETURN_IF_ERROR(Define(node, value, space));
      auto fields = value.find("fields");
      if (fields == value.end() || !fields->is_array()) {
        return Corruption("avro schema: record '{}' needs a 'fields' list", node->name);
      }
      std::set<std::string> names;
      for (const Json& f : *fields) {
        if (!f.is_object()) return Corruption("avro schema: record '{}' has a field that is not an object", node->name);
        AvroField field;
        auto fname = f.find("name");
        if (fname == f.end() || !fname->is_string()) {
          return Corruption("avro schema: record '{}' has a field without a name", node->name);
        }
        field.name = fname->get<std::string>();
        if (!names.insert(field.name).second) {
          return Corruption("avro schema: record '{}' has two fields named '{}'", node->name, field.name);
        }
        auto ftype = f.find("type");
        if (ftype == f.end()) return Corruption("avro schema: field '{}' has no type", field.name);
        FLOE_ASSIGN_OR_RETURN(field.type, ParseNode(*ftype, space, depth + 1));
        if (auto d = f.find("default"); d != f.end()) field.default_value = *d;
        field.field_id = IntProperty(f, "field-id");
        if (auto doc = f.find("doc"); doc != f.end() && doc->is_string()) field.doc = doc->get<std::string>();
        for (auto it = f.begin(); it != f.end(); ++it) {
          if (it.key() != "name" && it.key() != "type" && it.key() != "default" && it.key() != "field-id" &&
              it.key() != "doc") {
            field.extra[it.key()] = *it;
          }
        }
        node->fields.push_back(std::move(field));
      }
    } else if (type == "enum") {
      node = NewNode(AvroType::kEnum);
      FLOE_RETURN_IF_ERROR(Define(node, value, space));
      auto symbols = value.find("symbols");
      if (symbols == value.end() || !symbols->is_array()) {
        return Corruption("avro schema: enum '{}' needs 'symbols'", node->name);
      }
      for (const Json& s : *symbols) {
        if (!s.is_string()) return Corruption("avro schema: enum '{}' has a non-string symbol", node->name);
        node->symbols.push_back(s.get<std::string>());
      }
    } else if (type == "fixed") {
      node = NewNode(AvroType::kFixed);
      FLOE_RETURN_IF_ERROR(Define(node, value, space));
      auto size = IntProperty(value, "size");
      if (!size || *size < 0) return Corruption("avro schema: fixed '{}' needs a non-negative 'size'", node->name);
      node->size = *size;
    } else if (type == "array") {
      node = NewNode(AvroType::kArray);
      auto items = value.find("items");
      if (items == value.end()) return Corruption("avro schema: array without 'items'");
      FLOE_ASSIGN_OR_RETURN(node->items, ParseNode(*items, space, depth + 1));
      node->element_id = IntProperty(value, "element-id");
    } else if (type == "map") {
      node = NewNode(AvroType::kMap);
      auto values = value.find("values");
      if (values == value.end()) return Corruption("avro schema: map without 'values'");
      FLOE_ASSIGN_OR_RETURN(node->items, ParseNode(*values, space, depth + 1));
      node->key_id = IntProperty(value, "key-id");
      node->value_id = IntProperty(value, "value-id");
    } else {
      // A reference to a named type, written as {"type": "name"}.
      return Reference(type, space);
    }
    if (auto lt = value.find("logicalType"); lt != value.end() && lt->is_string()) {
      node->logical_type = lt->get<std::string>();
    }
    static const std::set<std::string> kStructural = {"type",  "name",   "namespace",   "fields",     "symbols",
                                                      "size",  "items",  "values",      "logicalType", "doc",
                                                      "aliases", "element-id", "key-id", "value-id", "default"};
    for (auto it = value.begin(); it != value.end(); ++it) {
      if (!kStructural.contains(it.key())) node->extra[it.key()] = *it;
    }
    return node;
  }

  AvroSchema* schema_ = nullptr;
  std::map<std::string, const AvroNode*> named_;
};

Result<AvroSchema> AvroSchema::FromJson(const Json& value) { return SchemaParser().Run(value); }

namespace {

Result<Json> ParseSchemaJson(std::string_view json_text) {
  try {
    return Json::parse(json_text.begin(), json_text.end());
  } catch (const Json::parse_error& e) {
    return Corruption("avro schema: invalid JSON at byte {}: {}", e.byte, e.what());
  } catch (const Json::exception& e) {  // Numbers past 64 bits, bad UTF-8 in strings.
    return Corruption("avro schema: invalid JSON: {}", e.what());
  }
}

}  // namespace

Result<AvroSchema> AvroSchema::Parse(std::string_view json_text) {
  FLOE_ASSIGN_OR_RETURN(Json value, ParseSchemaJson(json_text));
  return FromJson(value);
}

Result<AvroSchema> AvroSchema::ParseWithReferences(std::string_view json_text,
                                                   const std::vector<std::string>& references) {
  std::vector<Json> parsed;
  parsed.reserve(references.size());
  for (size_t i = 0; i < references.size(); ++i) {
    FLOE_ASSIGN_OR_RETURN_CTX(Json value, ParseSchemaJson(references[i]),
                              fmt::format("avro schema reference {}", i + 1));
    parsed.push_back(std::move(value));
  }
  FLOE_ASSIGN_OR_RETURN(Json value, ParseSchemaJson(json_text));
  return SchemaParser().Run(value, parsed);
}

namespace {

Json NodeToJson(const AvroNode& node, std::set<const AvroNode*>& written) {
  bool named = node.type == AvroType::kRecord || node.type == AvroType::kEnum || node.type == AvroType::kFixed;
  if (named && written.contains(&node)) return node.name;
  if (node.type == AvroType::kUnion) {
    Json out = Json::array();
    for (const AvroNode* b : node.branches) out.push_back(NodeToJson(*b, written));
    return out;
  }
  Json out = Json::object();
  out["type"] = AvroTypeName(node.type);
  if (named) {
    written.insert(&node);
    // Written as a short name plus namespace, the form most writers (and Iceberg's) use.
    if (auto dot = node.name.rfind('.'); dot != std::string::npos) {
      out["name"] = node.name.substr(dot + 1);
      out["namespace"] = node.name.substr(0, dot);
    } else {
      out["name"] = node.name;
    }
    if (!node.doc.empty()) out["doc"] = node.doc;
  }
  switch (node.type) {
    case AvroType::kRecord: {
      Json fields = Json::array();
      for (const AvroField& f : node.fields) {
        Json jf = Json::object();
        jf["name"] = f.name;
        jf["type"] = NodeToJson(*f.type, written);
        if (!f.doc.empty()) jf["doc"] = f.doc;
        if (f.default_value) jf["default"] = *f.default_value;
        if (f.field_id) jf["field-id"] = *f.field_id;
        for (auto it = f.extra.begin(); it != f.extra.end(); ++it) jf[it.key()] = *it;
        fields.push_back(std::move(jf));
      }
      out["fields"] = std::move(fields);
      break;
    }
    case AvroType::kEnum:
      out["symbols"] = node.symbols;
      break;
    case AvroType::kFixed:
      out["size"] = node.size;
      break;
    case AvroType::kArray:
      out["items"] = NodeToJson(*node.items, written);
      if (node.element_id) out["element-id"] = *node.element_id;
      break;
    case AvroType::kMap:
      out["values"] = NodeToJson(*node.items, written);
      if (node.key_id) out["key-id"] = *node.key_id;
      if (node.value_id) out["value-id"] = *node.value_id;
      break;
    default:
      break;
  }
  if (!node.logical_type.empty()) out["logicalType"] = node.logical_type;
  for (auto it = node.extra.begin(); it != node.extra.end(); ++it) out[it.key()] = *it;
  // A bare primitive is written as its name, the canonical short form.
  if (out.size() == 1) return out["type"];
  return out;
}

}  // namespace

Json AvroSchema::ToJsonValue() const {
  std::set<const AvroNode*> written;
  return NodeToJson(*root_, written);
}

}  // namespace floe::avro
