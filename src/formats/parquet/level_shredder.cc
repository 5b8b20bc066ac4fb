#include "formats/parquet/level_shredder.h"

namespace floe::parquet {
namespace {

using formats::ColumnVector;

struct Walker {
  const LeafColumn& leaf;
  ShreddedLevels* out;
  bool has_def, has_rep;

  void Emit(int16_t def, int16_t rep) {
    if (has_def) out->def.push_back(def);
    if (has_rep) out->rep.push_back(rep);
    ++out->num_levels;
  }

  void Walk(size_t level, const ColumnVector& vec, int64_t slot, int16_t def, int16_t rep) {
    const SchemaNode* node = leaf.chain[level];
    if (node->nullable && !vec.IsValid(slot)) {
      Emit(def, rep);
      return;
    }
    int16_t d = node->def_present;
    switch (node->kind) {
      case SchemaNode::Kind::kPrimitive:
        Emit(d, rep);
        out->positions.push_back(slot);
        return;
      case SchemaNode::Kind::kStruct:
        Walk(level + 1, vec.children[static_cast<size_t>(leaf.child_index[level])], slot, d, rep);
        return;
      case SchemaNode::Kind::kList:
      case SchemaNode::Kind::kMap: {
        int32_t b = vec.offsets[static_cast<size_t>(slot)], e = vec.offsets[static_cast<size_t>(slot) + 1];
        if (b == e) {
          Emit(d, rep);
          return;
        }
        const ColumnVector& child = vec.children[static_cast<size_t>(leaf.child_index[level])];
        for (int32_t j = b; j < e; ++j) Walk(level + 1, child, j, node->def_nonempty, j == b ? rep : node->rep_level);
        return;
      }
    }
  }
};

}  // namespace

void ShredLeaf(const LeafColumn& leaf, const ColumnVector& column, int64_t begin, int64_t end, ShreddedLevels* out) {
  out->Clear();
  out->num_rows = end - begin;
  if (leaf.chain.size() == 1) {
    out->leaf = &column;
    out->num_levels = end - begin;
    if (leaf.max_def == 0 || column.validity.empty()) {
      out->dense = true;
      out->dense_begin = begin;
      if (leaf.max_def > 0) out->def.assign(static_cast<size_t>(end - begin), static_cast<int16_t>(1));
      return;
    }
    out->def.resize(static_cast<size_t>(end - begin));
    out->positions.reserve(static_cast<size_t>(end - begin));
    const uint8_t* valid = column.validity.data();
    for (int64_t i = begin; i < end; ++i) {
      out->def[static_cast<size_t>(i - begin)] = valid[i] != 0;
      if (valid[i]) out->positions.push_back(i);
    }
    return;
  }
  // The leaf vector: follow child_index down the chain.
  const ColumnVector* v = &column;
  for (size_t level = 0; level + 1 < leaf.chain.size(); ++level) v = &v->children[static_cast<size_t>(leaf.child_index[level])];
  out->leaf = v;
  Walker w{leaf, out, leaf.max_def > 0, leaf.max_rep > 0};
  for (int64_t row = begin; row < end; ++row) w.Walk(0, column, row, 0, 0);
}

namespace {

// Nulls of a required field only matter where its struct parent is present.
int64_t UncoveredNulls(const ColumnVector& column, const std::vector<uint8_t>* parent_validity) {
  if (column.validity.empty()) return 0;
  int64_t n = 0;
  for (size_t i = 0; i < column.validity.size(); ++i) {
    bool parent_present = parent_validity == nullptr || parent_validity->empty() || (*parent_validity)[i] != 0;
    n += parent_present && column.validity[i] == 0;
  }
  return n;
}

Status Validate(const SchemaNode& node, const ColumnVector& column, const std::vector<uint8_t>* parent_validity);

}  // namespace

Status ValidateColumn(const SchemaNode& node, const ColumnVector& column) { return Validate(node, column, nullptr); }

namespace {

Status Validate(const SchemaNode& node, const ColumnVector& column, const std::vector<uint8_t>* parent_validity) {
  const auto& t = column.type();
  if (t.id != node.type.id) {
    return InvalidArgument("column '{}': vector of type {} for a {} field", node.name, formats::TypeIdName(t.id),
                           formats::TypeIdName(node.type.id));
  }
  if (!column.validity.empty() && static_cast<int64_t>(column.validity.size()) != column.length) {
    return InvalidArgument("column '{}': {} validity bytes for {} slots", node.name, column.validity.size(), column.length);
  }
  if (!node.nullable && UncoveredNulls(column, parent_validity) > 0) return InvalidArgument("column '{}' is required but has nulls", node.name);
  int32_t width = t.FixedWidth();
  if (width > 0 && column.values.size() < static_cast<size_t>(column.length) * static_cast<size_t>(width)) {
    return InvalidArgument("column '{}': values buffer too small", node.name);
  }
  if (t.id == formats::TypeId::kFixed && t.width != node.type.width) {
    return InvalidArgument("column '{}': fixed width {} for a fixed[{}] field", node.name, t.width, node.type.width);
  }
  if (t.HasOffsets()) {
    if (static_cast<int64_t>(column.offsets.size()) != column.length + 1) {
      return InvalidArgument("column '{}': {} offsets for {} slots", node.name, column.offsets.size(), column.length);
    }
    for (size_t i = 0; i + 1 < column.offsets.size(); ++i) {
      if (column.offsets[i] > column.offsets[i + 1] || column.offsets[i] < 0) {
        return InvalidArgument("column '{}': offsets decrease at slot {}", node.name, i);
      }
    }
    int64_t end = column.offsets.back();
    if (t.id == formats::TypeId::kString || t.id == formats::TypeId::kBinary) {
      if (static_cast<size_t>(end) > column.values.size()) return InvalidArgument("column '{}': offsets past the bytes", node.name);
    }
  }
  if (node.children.size() != column.children.size()) {
    return InvalidArgument("column '{}': {} children for {} fields", node.name, column.children.size(), node.children.size());
  }
  for (size_t i = 0; i < node.children.size(); ++i) {
    const ColumnVector& child = column.children[i];
    if (node.kind == SchemaNode::Kind::kStruct && child.length != column.length) {
      return InvalidArgument("column '{}': field '{}' has {} slots, the struct {}", node.name, node.children[i].name,
                             child.length, column.length);
    }
    if ((node.kind == SchemaNode::Kind::kList || node.kind == SchemaNode::Kind::kMap) && column.offsets.back() > child.length) {
      return InvalidArgument("column '{}': offsets past its {} elements", node.name, child.length);
    }
    FLOE_RETURN_IF_ERROR(Validate(node.children[i], child, node.kind == SchemaNode::Kind::kStruct ? &column.validity : nullptr));
  }
  return OkStatus();
}

}  // namespace

}  // namespace floe::parquet
