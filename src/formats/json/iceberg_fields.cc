#include "formats/json/iceberg_fields.h"

#include "iceberg/batch_conversion.h"

namespace floe::formats {

// One mapping of Iceberg types to batch types serves the decoder and the writers alike.
Result<Field> BatchFieldFromNested(const iceberg::NestedField& field) { return iceberg::ToBatchField(field); }

Result<std::vector<Field>> BatchFieldsFromSchema(const iceberg::Schema& schema) { return iceberg::ToBatchFields(schema); }

}  // namespace floe::formats
