// The Parquet schema as floe reads and writes it: the flat SchemaElement list of the footer,
// resolved into a tree of logical nodes (struct, list, map, primitive) that carry the batch
// type each produces and the definition/repetition levels that encode its nulls and lists.
//
// The writer builds a Schema from batch fields (Iceberg types with field ids) through the same
// resolution the reader applies to a file's footer, so both walk identical trees. Legacy list
// layouts (two-level lists, bare repeated fields) resolve to the same list nodes.
// Immutable after construction and move-only (leaves point into the tree); any thread may read.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/result.h"
#include "formats/column_batch.h"
#include "formats/parquet/metadata.h"

namespace floe::parquet {

struct SchemaNode {
  enum class Kind : uint8_t { kPrimitive, kStruct, kList, kMap };
  Kind kind = Kind::kPrimitive;
  std::string name;
  int32_t field_id = -1;
  bool nullable = true;
  formats::DataType type;     // The batch type this node produces (with children for nested).
  int16_t def_present = 0;    // Definition level at and above which this node's slot is non-null.
  int16_t def_nonempty = 0;   // Lists and maps: level at and above which the slot has an element.
  int16_t rep_level = 0;      // Lists and maps: the repetition level of their repeated node.
  int leaf = -1;              // Primitives: the leaf column's index.
  std::vector<SchemaNode> children;
};

// One column chunk's column: a primitive at the end of a path through the tree.
struct LeafColumn {
  std::vector<std::string> path;  // path_in_schema
  PhysicalType physical = PhysicalType::kInt32;
  int32_t type_length = 0;
  LogicalType logical;
  ConvertedType converted = ConvertedType::kNone;
  int32_t scale = 0, precision = 0;
  int16_t max_def = 0, max_rep = 0;
  const SchemaNode* node = nullptr;
  // The nodes from the top-level field down to this leaf, and at each step which child of the
  // node leads on (struct field position; 0 for a list's element; 0/1 for a map's key/value).
  std::vector<const SchemaNode*> chain;
  std::vector<int> child_index;
  int top_field = 0;
};

class Schema {
 public:
  Schema() = default;
  Schema(Schema&&) = default;
  Schema& operator=(Schema&&) = default;
  Schema(const Schema&) = delete;
  Schema& operator=(const Schema&) = delete;

  // From a file's footer. Corruption when the element list is not a well-formed tree.
  static Result<Schema> FromParquet(const std::vector<SchemaElement>& elements);
  // For writing `fields`; InvalidArgument for types Parquet cannot hold.
  static Result<Schema> FromFields(const std::vector<formats::Field>& fields);

  const std::vector<SchemaElement>& elements() const { return elements_; }
  const std::vector<SchemaNode>& fields() const { return fields_; }
  const std::vector<LeafColumn>& leaves() const { return leaves_; }
  // The batch fields (names, ids, nullability, types) of the top-level nodes.
  std::vector<formats::Field> BatchFields() const;
  // Index of the top-level field named `name`, or -1.
  int FindField(std::string_view name) const;

 private:
  std::vector<SchemaElement> elements_;
  std::vector<SchemaNode> fields_;
  std::vector<LeafColumn> leaves_;
};

}  // namespace floe::parquet
