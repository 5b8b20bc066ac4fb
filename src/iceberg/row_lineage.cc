#include "iceberg/row_lineage.h"

#include <vector>

namespace floe::iceberg {

Schema WithRowLineageFields(const Schema& schema) {
  std::vector<NestedField> fields = schema.fields();
  fields.push_back(NestedField{kRowIdFieldId, std::string(kRowIdColumn), false, Type::Primitive(TypeId::kLong)});
  fields.push_back(NestedField{kLastUpdatedSequenceNumberFieldId, std::string(kLastUpdatedSequenceNumberColumn), false,
                               Type::Primitive(TypeId::kLong)});
  return Schema(schema.schema_id(), std::move(fields), schema.identifier_field_ids());
}

formats::Field RowIdBatchField() {
  return formats::Field{std::string(kRowIdColumn), kRowIdFieldId, true, formats::Primitive(formats::TypeId::kInt64)};
}

formats::Field LastUpdatedSequenceNumberBatchField() {
  return formats::Field{std::string(kLastUpdatedSequenceNumberColumn), kLastUpdatedSequenceNumberFieldId, true,
                        formats::Primitive(formats::TypeId::kInt64)};
}

formats::ColumnVector InheritLineage(const formats::ColumnVector* stored, int64_t first_position, int64_t count,
                                     std::optional<int64_t> inherited_base, bool add_position) {
  formats::ColumnVector out(formats::Primitive(formats::TypeId::kInt64));
  out.values.Resize(static_cast<size_t>(count) * sizeof(int64_t));
  int64_t* values = out.MutableData<int64_t>();
  const int64_t* have = stored && stored->type().id == formats::TypeId::kInt64 ? stored->Data<int64_t>() : nullptr;
  bool any_null = false;
  for (int64_t i = 0; i < count; ++i) {
    if (have && stored->IsValid(i)) {
      values[i] = have[i];
    } else if (inherited_base) {
      values[i] = *inherited_base + (add_position ? first_position + i : 0);
    } else {
      values[i] = 0;
      if (!any_null) out.validity.assign(static_cast<size_t>(count), 1);
      any_null = true;
      out.validity[static_cast<size_t>(i)] = 0;
    }
  }
  out.length = count;
  return out;
}

}  // namespace floe::iceberg
