// Unnest: each input row once per element of its arrays and maps, zipped (as many rows as the
// longest; a shorter one's columns are NULL past its end), with the input row's columns
// alongside. An array of rows gives one column per field, a map its key and value. A row whose
// arrays are all empty or NULL gives no rows (CROSS JOIN UNNEST), or one row of NULL elements
// (LEFT JOIN UNNEST ... ON true).
#include "sql/execution/physical_operator.h"

namespace floe::sql {
namespace {

// Where output row r comes from: input row `parent`, element `position` (0-based) of each array;
// `padded` for the one row a LEFT unnest keeps for an input row with nothing to unnest.
struct Expansion {
  std::vector<uint32_t> parent;
  std::vector<int32_t> position;
  std::vector<uint8_t> padded;
};

class UnnestOperator final : public StreamOperator {
 public:
  UnnestOperator(std::vector<ExprNodePtr> arrays, std::vector<SqlType> column_types, bool ordinality, bool keep_empty)
      : arrays_(std::move(arrays)),
        column_types_(std::move(column_types)),
        ordinality_(ordinality),
        keep_empty_(keep_empty) {}

  Status Process(DataChunk&& chunk, QueryContext& context, const ChunkCallback& next) const override {
    std::vector<VectorPtr> arrays;
    for (const auto& a : arrays_) {
      FLOE_ASSIGN_OR_RETURN(VectorPtr v, a->Evaluate(chunk, context));
      arrays.push_back(std::move(v));
    }
    Expansion expansion;
    for (int64_t i = 0; i < chunk.rows; ++i) {
      int32_t longest = 0;
      for (const VectorPtr& a : arrays) longest = std::max(longest, Length(*a, i));
      for (int32_t j = 0; j < longest; ++j) {
        expansion.parent.push_back(static_cast<uint32_t>(i));
        expansion.position.push_back(j);
        expansion.padded.push_back(0);
      }
      if (longest == 0 && keep_empty_) {
        expansion.parent.push_back(static_cast<uint32_t>(i));
        expansion.position.push_back(0);
        expansion.padded.push_back(1);
      }
    }
    auto total = static_cast<int64_t>(expansion.parent.size());
    for (int64_t begin = 0; begin < total; begin += kChunkRows) {
      int64_t end = std::min(total, begin + kChunkRows);
      FLOE_RETURN_IF_ERROR(next(Build(chunk, arrays, expansion, begin, end)));
    }
    return OkStatus();
  }

 private:
  static int32_t Length(const ColumnVector& array, int64_t row) {
    if (!array.IsValid(row)) return 0;
    return array.offsets[static_cast<size_t>(row) + 1] - array.offsets[static_cast<size_t>(row)];
  }

  // Output rows [begin, end) of the expansion.
  DataChunk Build(const DataChunk& chunk, const std::vector<VectorPtr>& arrays, const Expansion& expansion,
                  int64_t begin, int64_t end) const {
    std::vector<uint32_t> parents(expansion.parent.begin() + begin, expansion.parent.begin() + end);
    DataChunk out = GatherChunk(chunk, parents);
    size_t column = 0;
    // Appends, for each output row, element `position` of child `child` of `array` (NULL past
    // its end), or, for an array of rows, that element's field `field` (NULL for a NULL row).
    auto element_column = [&](const ColumnVector& array, const ColumnVector& child, int field) {
      auto v = NewVector(column_types_[column++], out.rows);
      for (int64_t r = begin; r < end; ++r) {
        auto at = static_cast<size_t>(r);
        int64_t parent = expansion.parent[at];
        int32_t position = expansion.position[at];
        if (expansion.padded[at] != 0 || position >= Length(array, parent)) {
          v->AppendNull();
          continue;
        }
        int64_t index = array.offsets[static_cast<size_t>(parent)] + position;
        if (field < 0) {
          AppendFrom(*v, child, index);
        } else if (!child.IsValid(index)) {
          v->AppendNull();
        } else {
          AppendFrom(*v, child.children[static_cast<size_t>(field)], index);
        }
      }
      out.columns.push_back(std::move(v));
    };
    for (const VectorPtr& array : arrays) {
      const ColumnVector& elements = array->children[0];
      if (array->type().id == formats::TypeId::kMap) {
        element_column(*array, elements, -1);
        element_column(*array, array->children[1], -1);
      } else if (elements.type().id == formats::TypeId::kStruct) {
        for (size_t f = 0; f < elements.children.size(); ++f) element_column(*array, elements, static_cast<int>(f));
      } else {
        element_column(*array, elements, -1);
      }
    }
    if (ordinality_) {
      auto v = NewVector(SqlType::Bigint(), out.rows);
      for (int64_t r = begin; r < end; ++r) {
        auto at = static_cast<size_t>(r);
        if (expansion.padded[at] != 0) {
          v->AppendNull();
        } else {
          v->Append<int64_t>(expansion.position[at] + 1);
        }
      }
      out.columns.push_back(std::move(v));
    }
    return out;
  }

  std::vector<ExprNodePtr> arrays_;
  std::vector<SqlType> column_types_;  // Of the element columns, in output order.
  bool ordinality_;
  bool keep_empty_;
};

}  // namespace

Result<std::unique_ptr<StreamOperator>> MakeUnnest(const LogicalUnnest& unnest, const ColumnLayout& layout) {
  std::vector<ExprNodePtr> arrays;
  for (const auto& e : unnest.expressions) {
    if (!CanCarry(e->type))
      return NotImplemented("UNNEST of {} is not supported by the executor yet", e->type.ToString());
    FLOE_ASSIGN_OR_RETURN(auto node, CompileExpression(*e, layout));
    arrays.push_back(std::move(node));
  }
  std::vector<SqlType> column_types;
  size_t first = unnest.children[0]->output.size();
  size_t last = unnest.output.size() - (unnest.ordinality ? 1 : 0);
  for (size_t i = first; i < last; ++i) column_types.push_back(unnest.output[i].type);
  return std::unique_ptr<StreamOperator>(std::make_unique<UnnestOperator>(
      std::move(arrays), std::move(column_types), unnest.ordinality, unnest.join_type == LogicalJoinType::kLeft));
}

}  // namespace floe::sql
