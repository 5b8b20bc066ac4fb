#include "formats/json/iceberg_fields.h"

namespace floe::formats {

Result<Field> BatchFieldFromNested(const iceberg::NestedField& nf) {
  using I = iceberg::TypeId;
  Field f;
  f.name = nf.name;
  f.id = nf.id;
  f.nullable = !nf.required;
  const iceberg::Type& t = *nf.type;
  switch (t.id()) {
    case I::kBoolean: f.type = Primitive(TypeId::kBoolean); break;
    case I::kInt: f.type = Primitive(TypeId::kInt32); break;
    case I::kLong: f.type = Primitive(TypeId::kInt64); break;
    case I::kFloat: f.type = Primitive(TypeId::kFloat); break;
    case I::kDouble: f.type = Primitive(TypeId::kDouble); break;
    case I::kDecimal: f.type = DecimalType(t.precision(), t.scale()); break;
    case I::kDate: f.type = Primitive(TypeId::kDate); break;
    case I::kTime: f.type = Primitive(TypeId::kTime); break;
    case I::kTimestamp: f.type = Primitive(TypeId::kTimestamp); break;
    case I::kTimestampTz: f.type = Primitive(TypeId::kTimestampTz); break;
    case I::kString: f.type = Primitive(TypeId::kString); break;
    case I::kUuid: f.type = Primitive(TypeId::kUuid); break;
    case I::kFixed: f.type = FixedType(t.length()); break;
    case I::kBinary: f.type = Primitive(TypeId::kBinary); break;
    case I::kStruct: {
      std::vector<Field> children;
      for (const auto& c : t.fields()) {
        FLOE_ASSIGN_OR_RETURN(Field cf, BatchFieldFromNested(c));
        children.push_back(std::move(cf));
      }
      f.type = StructType(std::move(children));
      break;
    }
    case I::kList: {
      FLOE_ASSIGN_OR_RETURN(Field e, BatchFieldFromNested(t.element()));
      f.type = ListType(std::move(e));
      break;
    }
    case I::kMap: {
      FLOE_ASSIGN_OR_RETURN(Field k, BatchFieldFromNested(t.key()));
      FLOE_ASSIGN_OR_RETURN(Field v, BatchFieldFromNested(t.value()));
      f.type = MapType(std::move(k), std::move(v));
      break;
    }
    default:
      return NotImplemented("field '{}': type {} is not supported in column batches yet", nf.name, t.ToString());
  }
  return f;
}

Result<std::vector<Field>> BatchFieldsFromSchema(const iceberg::Schema& schema) {
  std::vector<Field> out;
  for (const auto& nf : schema.fields()) {
    FLOE_ASSIGN_OR_RETURN(Field f, BatchFieldFromNested(nf));
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace floe::formats
