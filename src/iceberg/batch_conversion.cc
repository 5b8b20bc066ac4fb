#include "iceberg/batch_conversion.h"

#include <cstring>

#include "base/floor_div.h"

namespace floe::iceberg {
namespace {

using formats::ColumnVector;
using formats::DataType;
using BT = formats::TypeId;

Result<DataType> ToBatchType(const Type& t) {
  switch (t.id()) {
    case TypeId::kBoolean: return formats::Primitive(BT::kBoolean);
    case TypeId::kInt: return formats::Primitive(BT::kInt32);
    case TypeId::kLong: return formats::Primitive(BT::kInt64);
    case TypeId::kFloat: return formats::Primitive(BT::kFloat);
    case TypeId::kDouble: return formats::Primitive(BT::kDouble);
    case TypeId::kDecimal: return formats::DecimalType(t.precision(), t.scale());
    case TypeId::kDate: return formats::Primitive(BT::kDate);
    case TypeId::kTime: return formats::Primitive(BT::kTime);
    case TypeId::kTimestamp: return formats::Primitive(BT::kTimestamp);
    case TypeId::kTimestampTz: return formats::Primitive(BT::kTimestampTz);
    case TypeId::kTimestampNs: return formats::Primitive(BT::kTimestampNs);
    case TypeId::kTimestampTzNs: return formats::Primitive(BT::kTimestampTzNs);
    case TypeId::kString: return formats::Primitive(BT::kString);
    case TypeId::kUuid: return formats::Primitive(BT::kUuid);
    case TypeId::kFixed: return formats::FixedType(t.length());
    case TypeId::kBinary: return formats::Primitive(BT::kBinary);
    case TypeId::kStruct: {
      std::vector<formats::Field> fields;
      for (const NestedField& f : t.fields()) {
        FLOE_ASSIGN_OR_RETURN(formats::Field bf, ToBatchField(f));
        fields.push_back(std::move(bf));
      }
      return formats::StructType(std::move(fields));
    }
    case TypeId::kList: {
      FLOE_ASSIGN_OR_RETURN(formats::Field e, ToBatchField(t.element()));
      return formats::ListType(std::move(e));
    }
    case TypeId::kMap: {
      FLOE_ASSIGN_OR_RETURN(formats::Field k, ToBatchField(t.key()));
      FLOE_ASSIGN_OR_RETURN(formats::Field v, ToBatchField(t.value()));
      return formats::MapType(std::move(k), std::move(v));
    }
    default: return NotImplemented("columns of type {} cannot be written yet", t.ToString());
  }
}

void FillNullSlots(ColumnVector& v, int64_t n) {
  v.length = n;
  v.validity.assign(static_cast<size_t>(n), 0);
  int32_t width = v.type().FixedWidth();
  if (width > 0) {
    v.values.Resize(static_cast<size_t>(n) * static_cast<size_t>(width));
    std::memset(v.values.data(), 0, v.values.size());
  }
  if (v.type().HasOffsets()) v.offsets.assign(static_cast<size_t>(n) + 1, 0);
  if (v.type().id == BT::kStruct) {
    for (ColumnVector& c : v.children) FillNullSlots(c, n);
  }
}

template <typename From, typename To>
ColumnVector Widen(ColumnVector in, const DataType& type) {
  ColumnVector out(type);
  out.length = in.length;
  out.validity = std::move(in.validity);
  out.values.Resize(static_cast<size_t>(in.length) * sizeof(To));
  const From* src = in.Data<From>();
  To* dst = out.MutableData<To>();
  for (int64_t i = 0; i < in.length; ++i) dst[i] = static_cast<To>(src[i]);
  return out;
}

}  // namespace

Result<formats::Field> ToBatchField(const NestedField& f) {
  formats::Field out;
  out.name = f.name;
  out.id = f.id;
  out.nullable = !f.required;
  FLOE_ASSIGN_OR_RETURN(out.type, ToBatchType(*f.type));
  return out;
}

Result<std::vector<formats::Field>> ToBatchFields(const Schema& schema) {
  std::vector<formats::Field> out;
  for (const NestedField& f : schema.fields()) {
    FLOE_ASSIGN_OR_RETURN(formats::Field bf, ToBatchField(f));
    out.push_back(std::move(bf));
  }
  return out;
}

Literal LiteralAt(const ColumnVector& v, int64_t row, const Type& type) {
  if (!v.IsValid(row)) return Literal();
  switch (v.type().id) {
    case BT::kBoolean: return Literal::Boolean(v.Data<uint8_t>()[row] != 0);
    case BT::kInt32:
    case BT::kDate: {
      int32_t x = v.Data<int32_t>()[row];
      return type.id() == TypeId::kLong ? Literal::Long(x) : Literal::Int(x);
    }
    case BT::kInt64:
    case BT::kTime:
    case BT::kTimestamp:
    case BT::kTimestampTz:
    case BT::kTimestampNs:
    case BT::kTimestampTzNs: return Literal::Long(v.Data<int64_t>()[row]);
    case BT::kFloat: {
      float x = v.Data<float>()[row];
      return type.id() == TypeId::kDouble ? Literal::Double(x) : Literal::Float(x);
    }
    case BT::kDouble: return Literal::Double(v.Data<double>()[row]);
    case BT::kDecimal: {
      __int128 x;
      std::memcpy(&x, v.values.data() + row * 16, 16);
      return Literal::Decimal(x, v.type().scale);
    }
    case BT::kString: return Literal::String(std::string(v.StringAt(row)));
    case BT::kBinary: return Literal::Binary(std::string(v.StringAt(row)));
    case BT::kFixed:
    case BT::kUuid: return Literal::Binary(std::string(v.FixedAt(row)));
    default: return Literal();
  }
}

nlohmann::ordered_json JsonAt(const ColumnVector& v, int64_t row, const Type& type) {
  using OJ = nlohmann::ordered_json;
  if (!v.IsValid(row)) return nullptr;
  switch (type.id()) {
    case TypeId::kStruct: {
      OJ out = OJ::object();
      for (size_t i = 0; i < type.fields().size() && i < v.children.size(); ++i) {
        out[type.fields()[i].name] = JsonAt(v.children[i], row, *type.fields()[i].type);
      }
      return out;
    }
    case TypeId::kList: {
      OJ out = OJ::array();
      for (int32_t i = v.offsets[row]; i < v.offsets[row + 1]; ++i) {
        out.push_back(JsonAt(v.children[0], i, *type.element().type));
      }
      return out;
    }
    case TypeId::kMap: {
      bool string_keys = type.key().type->id() == TypeId::kString;
      OJ out = string_keys ? OJ::object() : OJ::array();
      for (int32_t i = v.offsets[row]; i < v.offsets[row + 1]; ++i) {
        OJ value = JsonAt(v.children[1], i, *type.value().type);
        if (string_keys) {
          out[std::string(v.children[0].StringAt(i))] = std::move(value);
        } else {
          out.push_back(OJ{{"key", JsonAt(v.children[0], i, *type.key().type)}, {"value", std::move(value)}});
        }
      }
      return out;
    }
    default: {
      nlohmann::json j = ToJsonValue(type, LiteralAt(v, row, type));
      if (type.id() == TypeId::kString) {
        try {
          (void)j.dump();
        } catch (const nlohmann::json::exception&) {
          return "\xEF\xBF\xBD";  // Not UTF-8: the replacement character.
        }
      }
      return OJ::parse(j.dump());
    }
  }
}

std::vector<int> MatchColumns(const std::vector<formats::Field>& batch_fields, const Schema& schema) {
  std::vector<int> out;
  for (const NestedField& f : schema.fields()) {
    int found = -1;
    for (size_t i = 0; i < batch_fields.size(); ++i) {
      if (batch_fields[i].id == f.id) found = static_cast<int>(i);
    }
    if (found < 0) {
      for (size_t i = 0; i < batch_fields.size(); ++i) {
        if (batch_fields[i].id < 0 && batch_fields[i].name == f.name) found = static_cast<int>(i);
      }
    }
    out.push_back(found);
  }
  return out;
}

ColumnVector NullColumn(const DataType& type, int64_t n) {
  ColumnVector v(type);
  FillNullSlots(v, n);
  return v;
}

Result<ColumnVector> ConvertVector(ColumnVector in, const DataType& type) {
  BT from = in.type().id;
  if (from == BT::kStruct && type.id == BT::kStruct) {
    // Fields by id (by name in files without ids): a struct may have gained, lost or
    // reordered fields since the file was written, and a field's type may have widened.
    ColumnVector out(type);
    out.length = in.length;
    out.validity = std::move(in.validity);
    for (size_t f = 0; f < type.children.size(); ++f) {
      const formats::Field& want = type.children[f];
      int found = -1;
      for (size_t k = 0; k < in.children.size(); ++k) {
        const formats::Field& have = in.type().children[k];
        if (have.id >= 0 && want.id >= 0 ? have.id == want.id : have.name == want.name) found = static_cast<int>(k);
      }
      if (found < 0) {
        out.children[f] = NullColumn(want.type, out.length);
        continue;
      }
      FLOE_ASSIGN_OR_RETURN(out.children[f], ConvertVector(std::move(in.children[static_cast<size_t>(found)]), want.type));
    }
    return out;
  }
  if ((from == BT::kList || from == BT::kMap) && from == type.id && in.children.size() == type.children.size()) {
    // The offsets stay; the elements (keys and values) convert as columns do, so a list of
    // structs is shaped by field id and a list of ints widened to longs like a top-level column.
    ColumnVector out(type);
    out.length = in.length;
    out.validity = std::move(in.validity);
    out.offsets = std::move(in.offsets);
    for (size_t c = 0; c < type.children.size(); ++c) {
      FLOE_ASSIGN_OR_RETURN(out.children[c], ConvertVector(std::move(in.children[c]), type.children[c].type));
    }
    return out;
  }
  if (from == type.id) {
    if (from != BT::kDecimal || (in.type().precision == type.precision && in.type().scale == type.scale)) return in;
    if (in.type().scale != type.scale) {
      return NotImplemented("cannot read decimal({},{}) as decimal({},{})", in.type().precision, in.type().scale,
                            type.precision, type.scale);
    }
    ColumnVector out(type);  // Widening keeps the unscaled values.
    out.length = in.length;
    out.validity = std::move(in.validity);
    out.values = std::move(in.values);
    return out;
  }
  if (from == BT::kInt32 && type.id == BT::kInt64) return Widen<int32_t, int64_t>(std::move(in), type);
  if ((from == BT::kTimestampNs && type.id == BT::kTimestamp) || (from == BT::kTimestampTzNs && type.id == BT::kTimestampTz)) {
    return NanosToMicros(in);
  }
  if (from == BT::kFloat && type.id == BT::kDouble) return Widen<float, double>(std::move(in), type);
  if (from == BT::kInt32 && type.id == BT::kDecimal) return Widen<int32_t, __int128>(std::move(in), type);
  if (from == BT::kInt64 && type.id == BT::kDecimal) return Widen<int64_t, __int128>(std::move(in), type);
  if ((from == BT::kFixed || from == BT::kUuid) && type.id == BT::kBinary) {
    ColumnVector out(type);
    out.length = in.length;
    out.validity = std::move(in.validity);
    auto width = static_cast<int32_t>(in.type().FixedWidth());
    out.offsets.resize(static_cast<size_t>(in.length) + 1);
    for (int64_t i = 0; i <= in.length; ++i) out.offsets[static_cast<size_t>(i)] = static_cast<int32_t>(i * width);
    out.values = std::move(in.values);
    return out;
  }
  if ((from == BT::kString && type.id == BT::kBinary) || (from == BT::kBinary && type.id == BT::kString)) {
    ColumnVector out(type);
    out.length = in.length;
    out.validity = std::move(in.validity);
    out.offsets = std::move(in.offsets);
    out.values = std::move(in.values);
    return out;
  }
  return NotImplemented("cannot read a {} column as {}", formats::TypeIdName(from), formats::TypeIdName(type.id));
}

ColumnVector NanosToMicros(const ColumnVector& nanos) {
  ColumnVector out(formats::Primitive(nanos.type().id == BT::kTimestampTzNs ? BT::kTimestampTz : BT::kTimestamp));
  out.length = nanos.length;
  out.validity = nanos.validity;
  out.values.Resize(static_cast<size_t>(nanos.length) * 8);
  const int64_t* in = nanos.Data<int64_t>();
  int64_t* micros = out.MutableData<int64_t>();
  for (int64_t i = 0; i < nanos.length; ++i) micros[i] = FloorDiv(in[i], 1000);
  return out;
}

Result<formats::ColumnVector> ConstantColumn(const Type& type, const Literal& value, int64_t rows) {
  FLOE_ASSIGN_OR_RETURN(DataType batch_type, ToBatchType(type));
  ColumnVector v(batch_type);
  for (int64_t i = 0; i < rows; ++i) {
    if (value.is_null() || batch_type.IsNested()) {
      v.AppendNull();
      continue;
    }
    switch (batch_type.id) {
      case BT::kBoolean: v.Append<uint8_t>(value.as_bool() ? 1 : 0); break;
      case BT::kInt32:
      case BT::kDate: v.Append<int32_t>(value.as_int()); break;
      case BT::kFloat: v.Append<float>(static_cast<float>(value.as_double())); break;
      case BT::kDouble: v.Append<double>(value.as_double()); break;
      case BT::kDecimal: v.Append<__int128>(value.unscaled()); break;
      case BT::kString:
      case BT::kBinary: v.AppendString(value.as_bytes()); break;
      case BT::kUuid:
      case BT::kFixed: {
        std::string bytes = value.as_bytes();
        bytes.resize(static_cast<size_t>(batch_type.FixedWidth()), '\0');
        v.MarkAndAppendFixed(bytes);
        break;
      }
      default: v.Append<int64_t>(value.as_long()); break;
    }
  }
  return v;
}

}  // namespace floe::iceberg
