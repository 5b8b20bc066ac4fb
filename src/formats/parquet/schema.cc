#include "formats/parquet/schema.h"

#include <functional>

namespace floe::parquet {
namespace {

using formats::DataType;
using formats::Field;
using formats::TypeId;
using K = LogicalType::Kind;

constexpr int kMaxSchemaDepth = 64;
constexpr int kMaxLevels = 250;

// The footer's flat list as a tree.
struct RawNode {
  const SchemaElement* element = nullptr;
  std::vector<RawNode> children;
  bool is_group() const { return !element->type.has_value() || element->num_children > 0; }
  Repetition repetition() const { return element->repetition.value_or(Repetition::kOptional); }
};

Status BuildRaw(const std::vector<SchemaElement>& elements, size_t* pos, int depth, RawNode* node) {
  if (depth > kMaxSchemaDepth) return Corruption("schema nested deeper than {} levels", kMaxSchemaDepth);
  if (*pos >= elements.size()) return Corruption("schema ends inside a group");
  node->element = &elements[(*pos)++];
  int32_t n = node->element->num_children;
  if (n < 0 || static_cast<size_t>(n) > elements.size() - *pos) {
    return Corruption("schema element '{}' claims {} children", node->element->name, n);
  }
  if (n == 0 && !node->element->type) {
    // An empty group; tolerated but it has no columns.
  }
  node->children.resize(static_cast<size_t>(n));
  for (auto& child : node->children) FLOE_RETURN_IF_ERROR(BuildRaw(elements, pos, depth + 1, &child));
  return OkStatus();
}

bool IsListAnnotated(const SchemaElement& e) {
  return e.logical_type.kind == K::kList || e.converted_type == ConvertedType::kList;
}
bool IsMapAnnotated(const SchemaElement& e) {
  return e.logical_type.kind == K::kMap || e.converted_type == ConvertedType::kMap ||
         e.converted_type == ConvertedType::kMapKeyValue;
}

int32_t DecimalBytes(int32_t precision) {
  // Smallest n with 2^(8n-1) > 10^precision.
  int32_t n = 1;
  while (n < 16 && static_cast<double>(n * 8 - 1) * 0.30102999566398 < precision) ++n;
  return n;
}

Result<DataType> PrimitiveBatchType(const SchemaElement& e) {
  const LogicalType& lt = e.logical_type;
  bool decimal = lt.kind == K::kDecimal || e.converted_type == ConvertedType::kDecimal;
  if (decimal) {
    int32_t precision = lt.kind == K::kDecimal ? lt.precision : e.precision;
    int32_t scale = lt.kind == K::kDecimal ? lt.scale : e.scale;
    if (precision <= 0 || precision > 38 || scale < 0 || scale > precision) {
      return Corruption("column '{}': bad decimal precision {} scale {}", e.name, precision, scale);
    }
    return formats::DecimalType(precision, scale);
  }
  switch (*e.type) {
    case PhysicalType::kBoolean: return formats::Primitive(TypeId::kBoolean);
    case PhysicalType::kInt32:
      if (lt.kind == K::kDate || e.converted_type == ConvertedType::kDate) return formats::Primitive(TypeId::kDate);
      if (lt.kind == K::kTime || e.converted_type == ConvertedType::kTimeMillis) return formats::Primitive(TypeId::kTime);
      if ((lt.kind == K::kInteger && !lt.is_signed && lt.bit_width == 32) || e.converted_type == ConvertedType::kUint32) {
        return formats::Primitive(TypeId::kInt64);
      }
      return formats::Primitive(TypeId::kInt32);
    case PhysicalType::kInt64:
      if (lt.kind == K::kTimestamp && lt.unit == TimeUnit::kNanos) {
        return formats::Primitive(lt.adjusted_to_utc ? TypeId::kTimestampTzNs : TypeId::kTimestampNs);
      }
      if (lt.kind == K::kTimestamp) {
        return formats::Primitive(lt.adjusted_to_utc ? TypeId::kTimestampTz : TypeId::kTimestamp);
      }
      if (e.converted_type == ConvertedType::kTimestampMicros || e.converted_type == ConvertedType::kTimestampMillis) {
        return formats::Primitive(TypeId::kTimestampTz);
      }
      if (lt.kind == K::kTime || e.converted_type == ConvertedType::kTimeMicros) return formats::Primitive(TypeId::kTime);
      return formats::Primitive(TypeId::kInt64);
    case PhysicalType::kInt96: return formats::Primitive(TypeId::kTimestamp);
    case PhysicalType::kFloat: return formats::Primitive(TypeId::kFloat);
    case PhysicalType::kDouble: return formats::Primitive(TypeId::kDouble);
    case PhysicalType::kByteArray:
      if (lt.kind == K::kString || lt.kind == K::kEnum || lt.kind == K::kJson || e.converted_type == ConvertedType::kUtf8 ||
          e.converted_type == ConvertedType::kEnum || e.converted_type == ConvertedType::kJson) {
        return formats::Primitive(TypeId::kString);
      }
      return formats::Primitive(TypeId::kBinary);
    case PhysicalType::kFixedLenByteArray:
      if (e.type_length <= 0) return Corruption("column '{}': fixed length {}", e.name, e.type_length);
      if (lt.kind == K::kUuid) {
        if (e.type_length != 16) return Corruption("column '{}': uuid of length {}", e.name, e.type_length);
        return formats::Primitive(TypeId::kUuid);
      }
      if (lt.kind == K::kFloat16) {
        if (e.type_length != 2) return Corruption("column '{}': float16 of length {}", e.name, e.type_length);
        return formats::Primitive(TypeId::kFloat);
      }
      return formats::FixedType(e.type_length);
  }
  return Corruption("column '{}': unknown physical type {}", e.name, static_cast<int>(*e.type));
}

class Resolver {
 public:
  explicit Resolver(std::vector<LeafColumn>* leaves) : leaves_(leaves) {}

  // Resolves `raw` as a value of its parent (not a repeated field) at the parent's levels.
  Status Resolve(const RawNode& raw, int16_t def, int16_t rep, std::vector<std::string> path, SchemaNode* out) {
    const SchemaElement& e = *raw.element;
    path.push_back(e.name);
    if (raw.repetition() == Repetition::kRepeated) {
      // A bare repeated field: a required list whose elements are the field itself.
      out->kind = SchemaNode::Kind::kList;
      out->name = e.name;
      out->field_id = e.field_id.value_or(-1);
      out->nullable = false;
      out->def_present = def;
      FLOE_RETURN_IF_ERROR(CheckLevels(def + 1, rep + 1, e.name));
      out->def_nonempty = static_cast<int16_t>(def + 1);
      out->rep_level = static_cast<int16_t>(rep + 1);
      out->children.resize(1);
      FLOE_RETURN_IF_ERROR(ResolveAsElement(raw, out->def_nonempty, out->rep_level, path, &out->children[0]));
      out->type = formats::ListType(ToField(out->children[0]));
      return OkStatus();
    }
    out->name = e.name;
    out->field_id = e.field_id.value_or(-1);
    out->nullable = raw.repetition() == Repetition::kOptional;
    int16_t d = static_cast<int16_t>(def + (out->nullable ? 1 : 0));
    FLOE_RETURN_IF_ERROR(CheckLevels(d, rep, e.name));
    out->def_present = d;
    if (!raw.is_group()) return ResolvePrimitive(raw, d, rep, std::move(path), out);
    if (IsListAnnotated(e) && raw.children.size() == 1 && raw.children[0].repetition() == Repetition::kRepeated) {
      return ResolveList(raw, d, rep, std::move(path), out);
    }
    if (IsMapAnnotated(e) && raw.children.size() == 1 && raw.children[0].repetition() == Repetition::kRepeated &&
        raw.children[0].is_group() && raw.children[0].children.size() == 2) {
      return ResolveMap(raw, d, rep, std::move(path), out);
    }
    return ResolveStruct(raw, d, rep, std::move(path), out);
  }

 private:
  static Status CheckLevels(int def, int rep, const std::string& name) {
    if (def > kMaxLevels || rep > kMaxLevels) return Corruption("column '{}' nests too deeply", name);
    return OkStatus();
  }

  static Field ToField(const SchemaNode& n) {
    Field f;
    f.name = n.name;
    f.id = n.field_id;
    f.nullable = n.nullable;
    f.type = n.type;
    return f;
  }

  Status ResolveStruct(const RawNode& raw, int16_t d, int16_t rep, std::vector<std::string> path, SchemaNode* out) {
    out->kind = SchemaNode::Kind::kStruct;
    out->children.resize(raw.children.size());
    std::vector<Field> fields;
    for (size_t i = 0; i < raw.children.size(); ++i) {
      FLOE_RETURN_IF_ERROR(Resolve(raw.children[i], d, rep, path, &out->children[i]));
      fields.push_back(ToField(out->children[i]));
    }
    out->type = formats::StructType(std::move(fields));
    return OkStatus();
  }

  // A repeated node that is itself the element of a list (two-level lists, bare repeated
  // fields): a required element at the repeated node's levels.
  Status ResolveAsElement(const RawNode& raw, int16_t d, int16_t rep, std::vector<std::string> path, SchemaNode* out) {
    const SchemaElement& e = *raw.element;
    out->name = e.name;
    out->field_id = e.field_id.value_or(-1);
    out->nullable = false;
    out->def_present = d;
    if (!raw.is_group()) return ResolvePrimitive(raw, d, rep, std::move(path), out);
    return ResolveStruct(raw, d, rep, std::move(path), out);
  }

  Status ResolveList(const RawNode& raw, int16_t d, int16_t rep, std::vector<std::string> path, SchemaNode* out) {
    const RawNode& repeated = raw.children[0];
    out->kind = SchemaNode::Kind::kList;
    out->def_nonempty = static_cast<int16_t>(d + 1);
    out->rep_level = static_cast<int16_t>(rep + 1);
    FLOE_RETURN_IF_ERROR(CheckLevels(d + 1, rep + 1, raw.element->name));
    out->children.resize(1);
    path.push_back(repeated.element->name);
    const std::string& rname = repeated.element->name;
    bool two_level = !repeated.is_group() || repeated.children.size() != 1 || rname == "array" ||
                     rname == raw.element->name + "_tuple";
    if (two_level) {
      FLOE_RETURN_IF_ERROR(ResolveAsElement(repeated, out->def_nonempty, out->rep_level, path, &out->children[0]));
    } else {
      FLOE_RETURN_IF_ERROR(Resolve(repeated.children[0], out->def_nonempty, out->rep_level, path, &out->children[0]));
    }
    out->type = formats::ListType(ToField(out->children[0]));
    return OkStatus();
  }

  Status ResolveMap(const RawNode& raw, int16_t d, int16_t rep, std::vector<std::string> path, SchemaNode* out) {
    const RawNode& kv = raw.children[0];
    out->kind = SchemaNode::Kind::kMap;
    out->def_nonempty = static_cast<int16_t>(d + 1);
    out->rep_level = static_cast<int16_t>(rep + 1);
    FLOE_RETURN_IF_ERROR(CheckLevels(d + 1, rep + 1, raw.element->name));
    path.push_back(kv.element->name);
    out->children.resize(2);
    for (int i = 0; i < 2; ++i) {
      FLOE_RETURN_IF_ERROR(Resolve(kv.children[static_cast<size_t>(i)], out->def_nonempty, out->rep_level, path,
                                   &out->children[static_cast<size_t>(i)]));
    }
    out->type = formats::MapType(ToField(out->children[0]), ToField(out->children[1]));
    return OkStatus();
  }

  Status ResolvePrimitive(const RawNode& raw, int16_t d, int16_t rep, std::vector<std::string> path, SchemaNode* out) {
    const SchemaElement& e = *raw.element;
    out->kind = SchemaNode::Kind::kPrimitive;
    FLOE_ASSIGN_OR_RETURN(out->type, PrimitiveBatchType(e));
    if (*e.type == PhysicalType::kFixedLenByteArray && e.type_length > (1 << 20)) {
      return Corruption("column '{}': fixed length {} too large", e.name, e.type_length);
    }
    if (e.logical_type.kind == K::kDecimal || e.converted_type == ConvertedType::kDecimal) {
      bool ok = *e.type == PhysicalType::kInt32 || *e.type == PhysicalType::kInt64 ||
                *e.type == PhysicalType::kByteArray || (*e.type == PhysicalType::kFixedLenByteArray && e.type_length <= 16);
      if (!ok) return Corruption("column '{}': decimal stored as {}", e.name, PhysicalTypeName(*e.type));
    }
    out->leaf = static_cast<int>(leaves_->size());
    LeafColumn leaf;
    leaf.path = std::move(path);
    leaf.physical = *e.type;
    leaf.type_length = e.type_length;
    leaf.logical = e.logical_type;
    leaf.converted = e.converted_type;
    leaf.scale = e.scale;
    leaf.precision = e.precision;
    leaf.max_def = d;
    leaf.max_rep = rep;
    leaves_->push_back(std::move(leaf));
    return OkStatus();
  }

  std::vector<LeafColumn>* leaves_;
};

void LinkLeaves(const SchemaNode& node, int top, std::vector<const SchemaNode*>* chain, std::vector<int>* index,
                std::vector<LeafColumn>* leaves) {
  chain->push_back(&node);
  if (node.kind == SchemaNode::Kind::kPrimitive) {
    LeafColumn& leaf = (*leaves)[static_cast<size_t>(node.leaf)];
    leaf.node = &node;
    leaf.chain = *chain;
    leaf.child_index = *index;
    leaf.top_field = top;
  } else {
    for (size_t i = 0; i < node.children.size(); ++i) {
      index->push_back(static_cast<int>(i));
      LinkLeaves(node.children[i], top, chain, index, leaves);
      index->pop_back();
    }
  }
  chain->pop_back();
}

// Writer side: batch fields to footer elements.
Status AppendElements(const Field& f, Repetition repetition, std::vector<SchemaElement>* out) {
  SchemaElement e;
  e.name = f.name;
  e.repetition = repetition;
  if (f.id >= 0) e.field_id = f.id;
  const DataType& t = f.type;
  auto child_rep = [](const Field& c) { return c.nullable ? Repetition::kOptional : Repetition::kRequired; };
  switch (t.id) {
    case TypeId::kStruct: {
      if (t.children.empty()) return InvalidArgument("field '{}': a struct needs at least one field", f.name);
      e.num_children = static_cast<int32_t>(t.children.size());
      out->push_back(e);
      for (const Field& c : t.children) FLOE_RETURN_IF_ERROR(AppendElements(c, child_rep(c), out));
      return OkStatus();
    }
    case TypeId::kList: {
      if (t.children.size() != 1) return InvalidArgument("field '{}': a list needs one element field", f.name);
      e.num_children = 1;
      e.converted_type = ConvertedType::kList;
      e.logical_type.kind = K::kList;
      out->push_back(e);
      SchemaElement list;
      list.name = "list";
      list.repetition = Repetition::kRepeated;
      list.num_children = 1;
      out->push_back(list);
      Field element = t.children[0];
      element.name = "element";
      return AppendElements(element, child_rep(element), out);
    }
    case TypeId::kMap: {
      if (t.children.size() != 2) return InvalidArgument("field '{}': a map needs a key and a value field", f.name);
      e.num_children = 1;
      e.converted_type = ConvertedType::kMap;
      e.logical_type.kind = K::kMap;
      out->push_back(e);
      SchemaElement kv;
      kv.name = "key_value";
      kv.repetition = Repetition::kRepeated;
      kv.num_children = 2;
      out->push_back(kv);
      Field key = t.children[0];
      key.name = "key";
      FLOE_RETURN_IF_ERROR(AppendElements(key, Repetition::kRequired, out));
      Field value = t.children[1];
      value.name = "value";
      return AppendElements(value, child_rep(value), out);
    }
    case TypeId::kBoolean: e.type = PhysicalType::kBoolean; break;
    case TypeId::kInt32: e.type = PhysicalType::kInt32; break;
    case TypeId::kInt64: e.type = PhysicalType::kInt64; break;
    case TypeId::kFloat: e.type = PhysicalType::kFloat; break;
    case TypeId::kDouble: e.type = PhysicalType::kDouble; break;
    case TypeId::kDecimal: {
      if (t.precision <= 0 || t.precision > 38 || t.scale < 0 || t.scale > t.precision) {
        return InvalidArgument("field '{}': decimal({}, {})", f.name, t.precision, t.scale);
      }
      if (t.precision <= 9) {
        e.type = PhysicalType::kInt32;
      } else if (t.precision <= 18) {
        e.type = PhysicalType::kInt64;
      } else {
        e.type = PhysicalType::kFixedLenByteArray;
        e.type_length = DecimalBytes(t.precision);
      }
      e.converted_type = ConvertedType::kDecimal;
      e.scale = t.scale;
      e.precision = t.precision;
      e.logical_type.kind = K::kDecimal;
      e.logical_type.scale = t.scale;
      e.logical_type.precision = t.precision;
      break;
    }
    case TypeId::kDate:
      e.type = PhysicalType::kInt32;
      e.converted_type = ConvertedType::kDate;
      e.logical_type.kind = K::kDate;
      break;
    case TypeId::kTime:
      e.type = PhysicalType::kInt64;
      e.converted_type = ConvertedType::kTimeMicros;
      e.logical_type.kind = K::kTime;
      e.logical_type.unit = TimeUnit::kMicros;
      e.logical_type.adjusted_to_utc = false;
      break;
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
      e.type = PhysicalType::kInt64;
      e.logical_type.kind = K::kTimestamp;
      e.logical_type.unit = TimeUnit::kMicros;
      e.logical_type.adjusted_to_utc = t.id == TypeId::kTimestampTz;
      // The converted type implies UTC adjustment, so only adjusted timestamps carry it.
      if (t.id == TypeId::kTimestampTz) e.converted_type = ConvertedType::kTimestampMicros;
      break;
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      // Nanoseconds have no converted type: readers that predate logical types see an int64.
      e.type = PhysicalType::kInt64;
      e.logical_type.kind = K::kTimestamp;
      e.logical_type.unit = TimeUnit::kNanos;
      e.logical_type.adjusted_to_utc = t.id == TypeId::kTimestampTzNs;
      break;
    case TypeId::kString:
      e.type = PhysicalType::kByteArray;
      e.converted_type = ConvertedType::kUtf8;
      e.logical_type.kind = K::kString;
      break;
    case TypeId::kBinary: e.type = PhysicalType::kByteArray; break;
    case TypeId::kFixed:
      if (t.width <= 0) return InvalidArgument("field '{}': fixed width {}", f.name, t.width);
      e.type = PhysicalType::kFixedLenByteArray;
      e.type_length = t.width;
      break;
    case TypeId::kUuid:
      e.type = PhysicalType::kFixedLenByteArray;
      e.type_length = 16;
      e.logical_type.kind = K::kUuid;
      break;
  }
  out->push_back(std::move(e));
  return OkStatus();
}

}  // namespace

Result<Schema> Schema::FromParquet(const std::vector<SchemaElement>& elements) {
  Schema schema;
  schema.elements_ = elements;
  if (schema.elements_.empty()) return Corruption("empty schema");
  RawNode root;
  size_t pos = 0;
  FLOE_RETURN_IF_ERROR(BuildRaw(schema.elements_, &pos, 0, &root));
  if (pos != schema.elements_.size()) return Corruption("schema has {} elements after its root's tree", schema.elements_.size() - pos);
  Resolver resolver(&schema.leaves_);
  schema.fields_.resize(root.children.size());
  for (size_t i = 0; i < root.children.size(); ++i) {
    FLOE_RETURN_IF_ERROR(resolver.Resolve(root.children[i], 0, 0, {}, &schema.fields_[i]));
  }
  std::vector<const SchemaNode*> chain;
  std::vector<int> index;
  for (size_t i = 0; i < schema.fields_.size(); ++i) {
    LinkLeaves(schema.fields_[i], static_cast<int>(i), &chain, &index, &schema.leaves_);
  }
  // The resolved tree points into elements_ only through copies, so elements_ may move freely.
  return schema;
}

Result<Schema> Schema::FromFields(const std::vector<Field>& fields) {
  std::vector<SchemaElement> elements;
  SchemaElement root;
  root.name = "schema";
  root.num_children = static_cast<int32_t>(fields.size());
  elements.push_back(root);
  for (const Field& f : fields) {
    FLOE_RETURN_IF_ERROR(AppendElements(f, f.nullable ? Repetition::kOptional : Repetition::kRequired, &elements));
  }
  return FromParquet(elements);
}

std::vector<Field> Schema::BatchFields() const {
  std::vector<Field> out;
  for (const SchemaNode& n : fields_) {
    Field f;
    f.name = n.name;
    f.id = n.field_id;
    f.nullable = n.nullable;
    f.type = n.type;
    out.push_back(std::move(f));
  }
  return out;
}

int Schema::FindField(std::string_view name) const {
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (fields_[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace floe::parquet
