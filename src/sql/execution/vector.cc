#include "sql/execution/vector.h"

#include <cstring>

namespace floe::sql {

using formats::TypeId;

PhysicalType PhysicalTypeOf(const SqlType& type) {
  switch (type.kind()) {
    case TypeKind::kBoolean:
    case TypeKind::kUnknown: return PhysicalType::kBool;
    case TypeKind::kReal:
    case TypeKind::kDouble: return PhysicalType::kDouble;
    case TypeKind::kDecimal: return PhysicalType::kInt128;
    case TypeKind::kVarchar:
    case TypeKind::kVarbinary:
    case TypeKind::kUuid:
    case TypeKind::kRow:
    case TypeKind::kArray:
    case TypeKind::kMap: return PhysicalType::kString;
    default: return PhysicalType::kInt64;
  }
}

bool IsExecutable(const SqlType& type) {
  return type.kind() != TypeKind::kRow && type.kind() != TypeKind::kArray && type.kind() != TypeKind::kMap;
}

bool CanCarry(const SqlType& type) {
  switch (type.kind()) {
    case TypeKind::kRow:
      for (const RowField& f : type.fields()) {
        if (!CanCarry(f.type)) return false;
      }
      return true;
    case TypeKind::kArray:
      return CanCarry(type.element());
    case TypeKind::kMap:
      return CanCarry(type.element()) && CanCarry(type.value());
    default:
      return IsExecutable(type);
  }
}

formats::DataType ExecDataType(const SqlType& type) {
  if (type.kind() == TypeKind::kRow) {
    std::vector<formats::Field> fields;
    for (const RowField& f : type.fields()) fields.push_back(formats::Field{f.name, -1, true, ExecDataType(f.type)});
    return formats::StructType(std::move(fields));
  }
  if (type.kind() == TypeKind::kArray)
    return formats::ListType(formats::Field{"element", -1, true, ExecDataType(type.element())});
  if (type.kind() == TypeKind::kMap) {
    return formats::MapType(formats::Field{"key", -1, false, ExecDataType(type.element())},
                            formats::Field{"value", -1, true, ExecDataType(type.value())});
  }
  switch (PhysicalTypeOf(type)) {
    case PhysicalType::kBool: return formats::Primitive(TypeId::kBoolean);
    case PhysicalType::kInt64: return formats::Primitive(TypeId::kInt64);
    case PhysicalType::kDouble: return formats::Primitive(TypeId::kDouble);
    case PhysicalType::kInt128: return formats::DecimalType(type.precision(), type.scale());
    case PhysicalType::kString: return formats::Primitive(TypeId::kString);
  }
  return formats::Primitive(TypeId::kInt64);
}

int64_t DataChunk::Bytes() const {
  int64_t n = 0;
  for (const auto& c : columns) n += formats::VectorBytes(*c);
  return n;
}

MutableVectorPtr NewVector(const SqlType& type, int64_t reserve) {
  auto v = std::make_shared<ColumnVector>(ExecDataType(type));
  if (reserve > 0) {
    int32_t width = v->type().FixedWidth();
    if (width > 0) v->values.Reserve(static_cast<size_t>(reserve * width));
    if (v->type().HasOffsets()) v->offsets.reserve(static_cast<size_t>(reserve + 1));
  }
  return v;
}

void SetNull(ColumnVector& v, int64_t i) {
  if (v.validity.empty()) v.validity.assign(static_cast<size_t>(v.length), 1);
  v.validity[static_cast<size_t>(i)] = 0;
}

Value GetValue(const ColumnVector& v, const SqlType& type, int64_t row) {
  if (!v.IsValid(row)) return Value::Null(type);
  if (type.kind() == TypeKind::kRow) {
    std::vector<Value> fields;
    for (size_t f = 0; f < type.fields().size() && f < v.children.size(); ++f) fields.push_back(GetValue(v.children[f], type.fields()[f].type, row));
    return Value::Row(type, std::move(fields));
  }
  if (type.kind() == TypeKind::kArray || type.kind() == TypeKind::kMap) {
    // Elements (or keys and values) of the slot, read from the children by its offsets.
    std::vector<Value> entries;
    int32_t begin = v.offsets[static_cast<size_t>(row)], end = v.offsets[static_cast<size_t>(row) + 1];
    for (int32_t e = begin; e < end; ++e) {
      if (type.kind() == TypeKind::kArray) {
        entries.push_back(GetValue(v.children[0], type.element(), e));
      } else {
        entries.push_back(GetValue(v.children[0], type.element(), e));
        entries.push_back(GetValue(v.children[1], type.value(), e));
      }
    }
    return type.kind() == TypeKind::kArray ? Value::Array(type, std::move(entries))
                                           : Value::Map(type, std::move(entries));
  }
  switch (PhysicalTypeOf(type)) {
    case PhysicalType::kBool:
      if (type.IsUnknown()) return Value::Null(type);
      return Value::Boolean(v.Data<uint8_t>()[row] != 0);
    case PhysicalType::kInt64: return Value::Int(type, v.Data<int64_t>()[row]);
    case PhysicalType::kDouble: return Value::Double(type, v.Data<double>()[row]);
    case PhysicalType::kInt128: {
      Int128 x;
      std::memcpy(&x, v.values.data() + row * 16, 16);
      return Value::Decimal(type, x);
    }
    case PhysicalType::kString: return Value::String(type, std::string(v.StringAt(row)));
  }
  return Value::Null(type);
}

void AppendValue(ColumnVector& v, const Value& value) {
  if (v.type().id == TypeId::kStruct && !value.is_null()) {
    v.AppendStructSlot(true);
    for (size_t f = 0; f < v.children.size(); ++f) {
      if (value.type().kind() == TypeKind::kRow && f < value.as_fields().size()) {
        AppendValue(v.children[f], value.as_fields()[f]);
      } else {
        v.children[f].AppendNull();
      }
    }
    return;
  }
  if ((v.type().id == TypeId::kList || v.type().id == TypeId::kMap) && !value.is_null()) {
    const std::vector<Value>& entries = value.as_elements();
    if (v.type().id == TypeId::kList) {
      for (const Value& e : entries) AppendValue(v.children[0], e);
    } else {
      for (size_t i = 0; i + 1 < entries.size(); i += 2) {
        AppendValue(v.children[0], entries[i]);
        AppendValue(v.children[1], entries[i + 1]);
      }
    }
    v.AppendListEnd(true);
    return;
  }
  if (value.is_null()) {
    v.AppendNull();
    return;
  }
  switch (v.type().id) {
    case TypeId::kBoolean: v.Append<uint8_t>(value.as_bool() ? 1 : 0); break;
    case TypeId::kInt64: v.Append<int64_t>(value.as_int()); break;
    case TypeId::kDouble: v.Append<double>(value.as_double()); break;
    case TypeId::kDecimal: v.Append<Int128>(value.as_decimal()); break;
    case TypeId::kString: v.AppendString(value.as_string()); break;
    default: v.AppendNull(); break;
  }
}

VectorPtr ConstantVector(const Value& value, int64_t rows) {
  auto v = NewVector(value.type(), rows);
  if (v->type().IsNested()) {
    for (int64_t i = 0; i < rows; ++i) AppendValue(*v, value);
    return v;
  }
  if (value.is_null() || value.type().IsUnknown()) {
    int32_t width = v->type().FixedWidth();
    if (width > 0) {
      v->values.Resize(static_cast<size_t>(rows * width));
      if (rows > 0) std::memset(v->values.data(), 0, v->values.size());
    } else {
      v->offsets.assign(static_cast<size_t>(rows + 1), 0);
    }
    v->validity.assign(static_cast<size_t>(rows), 0);
    v->length = rows;
    return v;
  }
  switch (v->type().id) {
    case TypeId::kBoolean: {
      v->values.Resize(static_cast<size_t>(rows));
      if (rows > 0) std::memset(v->values.data(), value.as_bool() ? 1 : 0, static_cast<size_t>(rows));
      break;
    }
    case TypeId::kInt64: {
      v->values.Resize(static_cast<size_t>(rows * 8));
      int64_t x = value.as_int();
      auto* d = v->MutableData<int64_t>();
      for (int64_t i = 0; i < rows; ++i) d[i] = x;
      break;
    }
    case TypeId::kDouble: {
      v->values.Resize(static_cast<size_t>(rows * 8));
      double x = value.as_double();
      auto* d = v->MutableData<double>();
      for (int64_t i = 0; i < rows; ++i) d[i] = x;
      break;
    }
    case TypeId::kDecimal: {
      v->values.Resize(static_cast<size_t>(rows * 16));
      Int128 x = value.as_decimal();
      for (int64_t i = 0; i < rows; ++i) std::memcpy(v->values.data() + i * 16, &x, 16);
      break;
    }
    default: {
      const std::string& s = value.as_string();
      v->values.Reserve(s.size() * static_cast<size_t>(rows));
      v->offsets.reserve(static_cast<size_t>(rows + 1));
      for (int64_t i = 0; i < rows; ++i) {
        v->values.Append(s.data(), s.size());
        v->offsets.push_back(static_cast<int32_t>(v->values.size()));
      }
      break;
    }
  }
  v->length = rows;
  return v;
}

void AppendFrom(ColumnVector& to, const ColumnVector& from, int64_t row) {
  if (!from.IsValid(row)) {
    to.AppendNull();
    return;
  }
  if (to.type().id == TypeId::kStruct) {
    to.AppendStructSlot(true);
    for (size_t f = 0; f < to.children.size(); ++f) AppendFrom(to.children[f], from.children[f], row);
    return;
  }
  if (to.type().id == TypeId::kList || to.type().id == TypeId::kMap) {
    int32_t begin = from.offsets[static_cast<size_t>(row)], end = from.offsets[static_cast<size_t>(row) + 1];
    for (size_t c = 0; c < to.children.size(); ++c) {
      for (int32_t e = begin; e < end; ++e) AppendFrom(to.children[c], from.children[c], e);
    }
    to.AppendListEnd(true);
    return;
  }
  if (!to.validity.empty()) to.validity.push_back(1);
  if (to.type().HasOffsets()) {
    std::string_view s = from.StringAt(row);
    to.values.Append(s.data(), s.size());
    to.offsets.push_back(static_cast<int32_t>(to.values.size()));
  } else {
    auto w = static_cast<size_t>(to.type().FixedWidth());
    to.values.Append(from.values.data() + static_cast<size_t>(row) * w, w);
  }
  ++to.length;
}

VectorPtr Gather(const ColumnVector& v, const uint32_t* idx, int64_t count) {
  return std::make_shared<ColumnVector>(formats::GatherRows(v, idx, count));
}

DataChunk GatherChunk(const DataChunk& chunk, const std::vector<uint32_t>& indexes) {
  DataChunk out;
  out.rows = static_cast<int64_t>(indexes.size());
  for (const auto& c : chunk.columns) out.columns.push_back(Gather(*c, indexes.data(), out.rows));
  return out;
}

DataChunk SliceChunk(const DataChunk& chunk, int64_t offset, int64_t count) {
  if (offset == 0 && count == chunk.rows) return chunk;
  std::vector<uint32_t> idx(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) idx[static_cast<size_t>(i)] = static_cast<uint32_t>(offset + i);
  return GatherChunk(chunk, idx);
}

VectorPtr Concatenate(const std::vector<DataChunk>& chunks, size_t column, const SqlType& type) {
  auto out = NewVector(type);
  if (out->type().IsNested()) {
    for (const auto& c : chunks) {
      for (int64_t i = 0; i < c.rows; ++i) AppendFrom(*out, *c.columns[column], i);
    }
    return out;
  }
  int64_t total = 0;
  size_t bytes = 0;
  bool nulls = false;
  for (const auto& c : chunks) {
    total += c.rows;
    bytes += c.columns[column]->values.size();
    nulls |= !c.columns[column]->validity.empty();
  }
  out->values.Reserve(bytes);
  if (nulls) out->validity.reserve(static_cast<size_t>(total));
  bool strings = out->type().HasOffsets();
  if (strings) out->offsets.reserve(static_cast<size_t>(total + 1));
  for (const auto& c : chunks) {
    const ColumnVector& v = *c.columns[column];
    if (nulls) {
      if (v.validity.empty()) {
        out->validity.insert(out->validity.end(), static_cast<size_t>(c.rows), 1);
      } else {
        out->validity.insert(out->validity.end(), v.validity.begin(), v.validity.end());
      }
    }
    if (strings) {
      int32_t base = static_cast<int32_t>(out->values.size());
      for (int64_t i = 0; i < c.rows; ++i) out->offsets.push_back(base + v.offsets[static_cast<size_t>(i + 1)]);
    }
    out->values.Append(v.values.data(), v.values.size());
  }
  out->length = total;
  return out;
}

namespace {

std::string UuidText(const uint8_t* b) {
  static const char* kHex = "0123456789abcdef";
  std::string out;
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out.push_back('-');
    out.push_back(kHex[b[i] >> 4]);
    out.push_back(kHex[b[i] & 15]);
  }
  return out;
}

bool UuidBytes(std::string_view text, uint8_t* out) {
  int n = 0;
  for (char c : text) {
    if (c == '-') continue;
    int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (v < 0 || n >= 32) return false;
    if (n % 2 == 0) out[n / 2] = static_cast<uint8_t>(v << 4);
    else out[n / 2] = static_cast<uint8_t>(out[n / 2] | v);
    ++n;
  }
  return n == 32;
}

template <typename From, typename To>
VectorPtr Widen(ColumnVector&& column, const SqlType& type, To scale = 1) {
  auto out = NewVector(type, column.length);
  out->values.Resize(static_cast<size_t>(column.length) * sizeof(To));
  const From* s = column.Data<From>();
  To* d = out->template MutableData<To>();
  for (int64_t i = 0; i < column.length; ++i) d[i] = static_cast<To>(s[i]) * scale;
  out->validity = std::move(column.validity);
  out->length = column.length;
  return out;
}

}  // namespace

Result<formats::DataType> StorageDataType(const SqlType& type) {
  switch (type.kind()) {
    case TypeKind::kBoolean: return formats::Primitive(TypeId::kBoolean);
    case TypeKind::kTinyint:
    case TypeKind::kSmallint:
    case TypeKind::kInteger: return formats::Primitive(TypeId::kInt32);
    case TypeKind::kBigint: return formats::Primitive(TypeId::kInt64);
    case TypeKind::kReal: return formats::Primitive(TypeId::kFloat);
    case TypeKind::kDouble: return formats::Primitive(TypeId::kDouble);
    case TypeKind::kDecimal: return formats::DecimalType(type.precision(), type.scale());
    case TypeKind::kVarchar: return formats::Primitive(TypeId::kString);
    case TypeKind::kVarbinary: return formats::Primitive(TypeId::kBinary);
    case TypeKind::kDate: return formats::Primitive(TypeId::kDate);
    case TypeKind::kTime: return formats::Primitive(TypeId::kTime);
    case TypeKind::kTimestamp: return formats::Primitive(TypeId::kTimestamp);
    case TypeKind::kTimestampTz: return formats::Primitive(TypeId::kTimestampTz);
    case TypeKind::kUuid: return formats::Primitive(TypeId::kUuid);
    case TypeKind::kRow: {
      std::vector<formats::Field> fields;
      for (const RowField& f : type.fields()) {
        FLOE_ASSIGN_OR_RETURN(formats::DataType field, StorageDataType(f.type));
        fields.push_back(formats::Field{f.name, -1, true, std::move(field)});
      }
      return formats::StructType(std::move(fields));
    }
    case TypeKind::kArray: {
      FLOE_ASSIGN_OR_RETURN(formats::DataType element, StorageDataType(type.element()));
      return formats::ListType(formats::Field{"element", -1, true, std::move(element)});
    }
    case TypeKind::kMap: {
      FLOE_ASSIGN_OR_RETURN(formats::DataType key, StorageDataType(type.element()));
      FLOE_ASSIGN_OR_RETURN(formats::DataType value, StorageDataType(type.value()));
      return formats::MapType(formats::Field{"key", -1, false, std::move(key)},
                              formats::Field{"value", -1, true, std::move(value)});
    }
    default: return NotImplemented("columns of type {} cannot be stored yet", type.ToString());
  }
}

Result<VectorPtr> FromStorage(ColumnVector&& column, const SqlType& type) {
  if (type.kind() == TypeKind::kRow && column.type().id == TypeId::kStruct && CanCarry(type)) {
    // Fields by position: the scan has already shaped the struct to the table's current type.
    if (column.children.size() != type.fields().size()) {
      return Internal("a {} column arrived with {} fields", type.ToString(), column.children.size());
    }
    auto out = NewVector(type);
    out->length = column.length;
    out->validity = std::move(column.validity);
    for (size_t f = 0; f < column.children.size(); ++f) {
      FLOE_ASSIGN_OR_RETURN(VectorPtr child, FromStorage(std::move(column.children[f]), type.fields()[f].type));
      out->children[f] = *child;
    }
    return VectorPtr(out);
  }
  if ((type.kind() == TypeKind::kArray && column.type().id == TypeId::kList) ||
      (type.kind() == TypeKind::kMap && column.type().id == TypeId::kMap)) {
    if (!CanCarry(type)) return NotImplemented("the executor cannot read columns of type {} yet", type.ToString());
    // The offsets move as they are; the elements (keys and values) convert as columns do.
    auto out = NewVector(type);
    out->length = column.length;
    out->validity = std::move(column.validity);
    out->offsets = std::move(column.offsets);
    if (out->offsets.empty()) out->offsets.push_back(0);
    const SqlType* child_types[2] = {&type.element(), &type.value()};
    for (size_t c = 0; c < out->children.size(); ++c) {
      FLOE_ASSIGN_OR_RETURN(VectorPtr child, FromStorage(std::move(column.children[c]), *child_types[c]));
      out->children[c] = *child;
    }
    return VectorPtr(out);
  }
  if (!IsExecutable(type)) return NotImplemented("the executor cannot read columns of type {} yet", type.ToString());
  TypeId id = column.type().id;
  PhysicalType physical = PhysicalTypeOf(type);
  auto moved = [&]() -> VectorPtr {
    auto out = std::make_shared<ColumnVector>(std::move(column));
    return out;
  };
  switch (physical) {
    case PhysicalType::kBool:
      if (id == TypeId::kBoolean) return moved();
      break;
    case PhysicalType::kInt64:
      if (id == TypeId::kInt64 || id == TypeId::kTimestamp || id == TypeId::kTimestampTz || id == TypeId::kTime) {
        auto out = NewVector(type);
        out->values = std::move(column.values);
        out->validity = std::move(column.validity);
        out->length = column.length;
        return VectorPtr(out);
      }
      if (id == TypeId::kInt32 || id == TypeId::kDate) return Widen<int32_t, int64_t>(std::move(column), type);
      break;
    case PhysicalType::kDouble:
      if (id == TypeId::kDouble) return moved();
      if (id == TypeId::kFloat) return Widen<float, double>(std::move(column), type);
      break;
    case PhysicalType::kInt128:
      if (id == TypeId::kDecimal) {
        auto out = NewVector(type);
        out->values = std::move(column.values);
        out->validity = std::move(column.validity);
        out->length = column.length;
        if (column.type().scale != type.scale()) {
          // Rescale (a table whose decimal column was promoted).
          int diff = type.scale() - column.type().scale;
          for (int64_t i = 0; i < out->length; ++i) {
            Int128 x;
            std::memcpy(&x, out->values.data() + i * 16, 16);
            x = diff > 0 ? x * PowerOfTen(diff) : x / PowerOfTen(-diff);
            std::memcpy(out->values.data() + i * 16, &x, 16);
          }
        }
        return VectorPtr(out);
      }
      if (id == TypeId::kInt32) return Widen<int32_t, Int128>(std::move(column), type, PowerOfTen(type.scale()));
      if (id == TypeId::kInt64) return Widen<int64_t, Int128>(std::move(column), type, PowerOfTen(type.scale()));
      break;
    case PhysicalType::kString:
      if (id == TypeId::kString || id == TypeId::kBinary) {
        auto out = NewVector(type);
        out->values = std::move(column.values);
        out->offsets = std::move(column.offsets);
        out->validity = std::move(column.validity);
        out->length = column.length;
        out->dictionary = std::move(column.dictionary);
        out->dictionary_codes = std::move(column.dictionary_codes);
        if (out->offsets.empty()) out->offsets.push_back(0);
        return VectorPtr(out);
      }
      if (id == TypeId::kUuid || id == TypeId::kFixed) {
        auto out = NewVector(type, column.length);
        for (int64_t i = 0; i < column.length; ++i) {
          if (!column.IsValid(i)) {
            out->AppendNull();
          } else if (id == TypeId::kUuid) {
            out->AppendString(UuidText(column.values.data() + i * 16));
          } else {
            out->AppendString(column.FixedAt(i));
          }
        }
        return VectorPtr(out);
      }
      break;
  }
  return InvalidArgument("storage column of type {} cannot be read as {}", formats::TypeIdName(id), type.ToString());
}

Result<ColumnVector> ToStorage(const ColumnVector& column, const SqlType& type) {
  FLOE_ASSIGN_OR_RETURN(formats::DataType storage, StorageDataType(type));
  ColumnVector out(storage);
  int64_t n = column.length;
  out.validity = column.validity;
  out.length = n;
  switch (storage.id) {
    case TypeId::kStruct:
      for (size_t f = 0; f < out.children.size(); ++f) {
        FLOE_ASSIGN_OR_RETURN(out.children[f], ToStorage(column.children[f], type.fields()[f].type));
      }
      break;
    case TypeId::kList:
    case TypeId::kMap: {
      out.offsets = column.offsets;
      const SqlType* child_types[2] = {&type.element(), &type.value()};
      for (size_t c = 0; c < out.children.size(); ++c) {
        FLOE_ASSIGN_OR_RETURN(out.children[c], ToStorage(column.children[c], *child_types[c]));
      }
      break;
    }
    case TypeId::kInt32:
    case TypeId::kDate: {
      out.values.Resize(static_cast<size_t>(n) * 4);
      const auto* s = column.Data<int64_t>();
      auto* d = out.MutableData<int32_t>();
      for (int64_t i = 0; i < n; ++i) d[i] = static_cast<int32_t>(s[i]);
      break;
    }
    case TypeId::kFloat: {
      out.values.Resize(static_cast<size_t>(n) * 4);
      const auto* s = column.Data<double>();
      auto* d = out.MutableData<float>();
      for (int64_t i = 0; i < n; ++i) d[i] = static_cast<float>(s[i]);
      break;
    }
    case TypeId::kUuid: {
      out.values.Resize(static_cast<size_t>(n) * 16);
      for (int64_t i = 0; i < n; ++i) {
        if (!column.IsValid(i) || !UuidBytes(column.StringAt(i), out.values.data() + i * 16)) {
          std::memset(out.values.data() + i * 16, 0, 16);
        }
      }
      break;
    }
    case TypeId::kString:
    case TypeId::kBinary:
      out.values = column.values;
      out.offsets = column.offsets;
      break;
    default:
      out.values = column.values;
      break;
  }
  return out;
}

}  // namespace floe::sql
