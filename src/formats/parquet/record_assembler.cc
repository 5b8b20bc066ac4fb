#include "formats/parquet/record_assembler.h"

#include <cstring>
#include <map>

namespace floe::parquet {
namespace {

using formats::ColumnVector;
using formats::TypeId;

// The vectors along one leaf's chain, level by level.
struct ChainVectors {
  std::vector<std::vector<uint8_t>> validity;
  std::vector<std::vector<int32_t>> offsets;  // Lists and maps.
  std::vector<int64_t> lengths;
};

bool IsRepeatedKind(const SchemaNode* n) {
  return n->kind == SchemaNode::Kind::kList || n->kind == SchemaNode::Kind::kMap;
}

Status ReplayLevels(const LeafColumn& leaf, const DecodedChunk& chunk, ChainVectors* out) {
  const size_t k = leaf.chain.size();
  out->validity.assign(k, {});
  out->offsets.assign(k, {});
  out->lengths.assign(k, 0);
  std::vector<int> level_of_rep(static_cast<size_t>(leaf.max_rep) + 1, -1);
  for (size_t l = 0; l < k; ++l) {
    if (IsRepeatedKind(leaf.chain[l])) {
      out->offsets[l].push_back(0);
      level_of_rep[static_cast<size_t>(leaf.chain[l]->rep_level)] = static_cast<int>(l);
    }
  }
  const bool has_def = leaf.max_def > 0, has_rep = leaf.max_rep > 0;
  for (int64_t e = 0; e < chunk.num_levels; ++e) {
    int16_t d = has_def ? chunk.def[static_cast<size_t>(e)] : 0;
    int16_t r = has_rep ? chunk.rep[static_cast<size_t>(e)] : 0;
    size_t start = 0;
    if (r > 0) {
      int list_level = level_of_rep[static_cast<size_t>(r)];
      if (list_level < 0) return Corruption("repetition level {} matches no list", r);
      auto& offs = out->offsets[static_cast<size_t>(list_level)];
      if (offs.size() < 2 || offs.back() == offs[offs.size() - 2]) {
        return Corruption("repetition level {} at value {} continues no list element", r, e);
      }
      ++offs.back();
      start = static_cast<size_t>(list_level) + 1;
    }
    for (size_t l = start; l < k; ++l) {
      const SchemaNode* node = leaf.chain[l];
      bool present = d >= node->def_present;
      out->validity[l].push_back(present ? 1 : 0);
      ++out->lengths[l];
      if (IsRepeatedKind(node)) out->offsets[l].push_back(out->offsets[l].back());
      if (!present) {
        // Struct descendants keep one null slot each; lists below a null have no elements.
        size_t m = l;
        while (m + 1 < k && leaf.chain[m]->kind == SchemaNode::Kind::kStruct) {
          ++m;
          out->validity[m].push_back(0);
          ++out->lengths[m];
          if (IsRepeatedKind(leaf.chain[m])) out->offsets[m].push_back(out->offsets[m].back());
        }
        break;
      }
      if (IsRepeatedKind(node)) {
        if (d < node->def_nonempty) break;  // An empty list or map.
        ++out->offsets[l].back();
      }
    }
  }
  return OkStatus();
}

// Spreads `chunk`'s dense values into `slots` slots, as `validity` says (1 = takes the next
// value; empty: every slot does).
Status FillLeaf(const SchemaNode& node, DecodedChunk& chunk, int64_t slots, std::vector<uint8_t> validity, ColumnVector* out) {
  *out = ColumnVector(node.type);
  int64_t present = slots;
  if (!validity.empty()) {
    present = 0;
    for (uint8_t v : validity) present += v;
  }
  if (present != chunk.num_values) return Corruption("{} values for {} present slots", chunk.num_values, present);
  out->length = slots;
  const bool all_valid = present == slots;
  if (node.type.HasOffsets()) {
    // Strings and binary: repeat the previous end for null slots.
    out->values = std::move(chunk.values);
    if (chunk.dictionary != nullptr && static_cast<int64_t>(chunk.codes.size()) == chunk.num_values) {
      out->dictionary = std::move(chunk.dictionary);
      if (all_valid) {
        out->dictionary_codes = std::move(chunk.codes);
      } else {
        out->dictionary_codes.assign(static_cast<size_t>(slots), 0);
        for (int64_t i = 0, j = 0; i < slots; ++i) {
          if (validity[static_cast<size_t>(i)]) out->dictionary_codes[static_cast<size_t>(i)] = chunk.codes[static_cast<size_t>(j++)];
        }
      }
    }
    if (all_valid) {
      out->offsets = std::move(chunk.offsets);
    } else {
      out->offsets.resize(static_cast<size_t>(slots) + 1);
      out->offsets[0] = 0;
      int64_t j = 0;
      for (int64_t i = 0; i < slots; ++i) {
        if (validity[static_cast<size_t>(i)]) ++j;
        out->offsets[static_cast<size_t>(i) + 1] = chunk.offsets[static_cast<size_t>(j)];
      }
    }
  } else {
    size_t w = static_cast<size_t>(node.type.FixedWidth());
    out->values = std::move(chunk.values);
    if (!all_valid) {
      out->values.Resize(static_cast<size_t>(slots) * w);
      uint8_t* base = out->values.data();
      int64_t j = present - 1;
      // Back to front, so every value moves to a slot at or after its dense position.
      for (int64_t i = slots - 1; i >= 0; --i) {
        if (validity[static_cast<size_t>(i)]) {
          if (j != i) std::memmove(base + static_cast<size_t>(i) * w, base + static_cast<size_t>(j) * w, w);
          --j;
        } else {
          std::memset(base + static_cast<size_t>(i) * w, 0, w);
        }
      }
    }
  }
  if (!all_valid) out->validity = std::move(validity);
  return OkStatus();
}

class Builder {
 public:
  Builder(const Schema& schema, std::vector<DecodedChunk>& chunks, std::map<int, ChainVectors>& chains)
      : schema_(schema), chunks_(chunks), chains_(chains) {}

  static int FirstLeaf(const SchemaNode& node) {
    const SchemaNode* n = &node;
    while (n->kind != SchemaNode::Kind::kPrimitive) n = &n->children[0];
    return n->leaf;
  }

  Result<ColumnVector> Build(const SchemaNode& node, size_t level) {
    if (node.kind == SchemaNode::Kind::kPrimitive) {
      ChainVectors& cv = chains_[node.leaf];
      ColumnVector out;
      const auto slots = static_cast<int64_t>(cv.validity[level].size());
      FLOE_RETURN_IF_ERROR(FillLeaf(node, chunks_[static_cast<size_t>(node.leaf)], slots, std::move(cv.validity[level]), &out));
      return out;
    }
    ChainVectors& cv = chains_[FirstLeaf(node)];
    ColumnVector out(node.type);
    out.length = cv.lengths[level];
    bool all_valid = true;
    for (uint8_t v : cv.validity[level]) all_valid &= v != 0;
    if (!all_valid) out.validity = cv.validity[level];
    if (node.kind != SchemaNode::Kind::kStruct) out.offsets = cv.offsets[level];
    for (size_t i = 0; i < node.children.size(); ++i) {
      FLOE_ASSIGN_OR_RETURN(out.children[i], Build(node.children[i], level + 1));
      int64_t expect = node.kind == SchemaNode::Kind::kStruct ? out.length : out.offsets.back();
      if (out.children[i].length != expect) {
        return Corruption("column '{}': child '{}' has {} slots, {} expected", node.name, node.children[i].name,
                          out.children[i].length, expect);
      }
    }
    return out;
  }

 private:
  const Schema& schema_;
  std::vector<DecodedChunk>& chunks_;
  std::map<int, ChainVectors>& chains_;
};

void CollectLeaves(const SchemaNode& node, std::vector<int>* out) {
  if (node.kind == SchemaNode::Kind::kPrimitive) {
    out->push_back(node.leaf);
    return;
  }
  for (const auto& c : node.children) CollectLeaves(c, out);
}

}  // namespace

Result<ColumnVector> AssembleField(const Schema& schema, int field, std::vector<DecodedChunk>& chunks, int64_t expected_rows) {
  const SchemaNode& node = schema.fields()[static_cast<size_t>(field)];
  if (node.kind == SchemaNode::Kind::kPrimitive) {
    const LeafColumn& leaf = schema.leaves()[static_cast<size_t>(node.leaf)];
    DecodedChunk& chunk = chunks[static_cast<size_t>(node.leaf)];
    if (chunk.num_levels != expected_rows) return Corruption("column '{}': {} values for {} rows", node.name, chunk.num_levels, expected_rows);
    ColumnVector out;
    if (leaf.max_def == 0 || chunk.all_present) {
      FLOE_RETURN_IF_ERROR(FillLeaf(node, chunk, chunk.num_levels, {}, &out));
      return out;
    }
    if (static_cast<int64_t>(chunk.def.size()) != chunk.num_levels) return Corruption("column '{}': {} levels for {} values", node.name, chunk.def.size(), chunk.num_levels);
    std::vector<uint8_t> validity(chunk.def.size());
    for (size_t i = 0; i < chunk.def.size(); ++i) validity[i] = chunk.def[i] == leaf.max_def;
    FLOE_RETURN_IF_ERROR(FillLeaf(node, chunk, chunk.num_levels, std::move(validity), &out));
    return out;
  }
  std::vector<int> leaves;
  CollectLeaves(node, &leaves);
  std::map<int, ChainVectors> chains;
  for (int l : leaves) {
    const LeafColumn& leaf = schema.leaves()[static_cast<size_t>(l)];
    DecodedChunk& chunk = chunks[static_cast<size_t>(l)];
    if (chunk.all_present) {  // Replaying needs every level.
      chunk.def.assign(static_cast<size_t>(chunk.num_levels), leaf.max_def);
      chunk.all_present = false;
    }
    FLOE_RETURN_IF_ERROR_CTX(ReplayLevels(leaf, chunks[static_cast<size_t>(l)], &chains[l]),
                             fmt::format("column '{}'", fmt::join(leaf.path, ".")));
    if (chains[l].lengths[0] != expected_rows) {
      return Corruption("column '{}': {} rows, the row group has {}", fmt::join(leaf.path, "."), chains[l].lengths[0], expected_rows);
    }
  }
  // Leaves under the same ancestor must agree on its shape; the builder takes the first
  // leaf's vectors, so check the others against it.
  for (int l : leaves) {
    const LeafColumn& leaf = schema.leaves()[static_cast<size_t>(l)];
    for (size_t level = 0; level + 1 < leaf.chain.size(); ++level) {
      int first = Builder::FirstLeaf(*leaf.chain[level]);
      if (first == l) continue;
      if (chains[first].lengths[level] != chains[l].lengths[level] || chains[first].offsets[level] != chains[l].offsets[level]) {
        return Corruption("columns '{}' and '{}' disagree on the shape of '{}'",
                          fmt::join(schema.leaves()[static_cast<size_t>(first)].path, "."), fmt::join(leaf.path, "."),
                          leaf.chain[level]->name);
      }
    }
  }
  Builder builder(schema, chunks, chains);
  return builder.Build(node, 0);
}

}  // namespace floe::parquet
