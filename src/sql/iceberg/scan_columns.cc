#include "sql/iceberg/scan_columns.h"

#include <cstring>

#include "iceberg/batch_conversion.h"

namespace floe::sql::iceberg_sql {

using formats::ColumnVector;
using formats::DataType;
using BT = formats::TypeId;

namespace {

void FillNulls(ColumnVector& v, int64_t n) {
  v.length = n;
  v.validity.assign(static_cast<size_t>(n), 0);
  int32_t width = v.type().FixedWidth();
  if (width > 0) {
    v.values.Resize(static_cast<size_t>(n) * static_cast<size_t>(width));
    std::memset(v.values.data(), 0, v.values.size());
  }
  if (v.type().HasOffsets()) v.offsets.assign(static_cast<size_t>(n) + 1, 0);
  if (v.type().id == BT::kStruct) {
    for (ColumnVector& c : v.children) FillNulls(c, n);
  }
}

template <typename T>
void FillValue(ColumnVector& v, T value, int64_t n) {
  v.length = n;
  v.values.Resize(static_cast<size_t>(n) * sizeof(T));
  T* out = v.MutableData<T>();
  for (int64_t i = 0; i < n; ++i) out[i] = value;
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

ColumnVector ConstantVector(const DataType& type, const iceberg::Literal& value, int64_t n) {
  ColumnVector v(type);
  if (value.is_null() || type.IsNested()) {
    FillNulls(v, n);
    return v;
  }
  switch (type.id) {
    case BT::kBoolean: FillValue<uint8_t>(v, value.as_bool() ? 1 : 0, n); break;
    case BT::kInt32:
    case BT::kDate: FillValue<int32_t>(v, static_cast<int32_t>(value.as_long()), n); break;
    case BT::kInt64:
    case BT::kTime:
    case BT::kTimestamp:
    case BT::kTimestampTz:
    case BT::kTimestampNs:
    case BT::kTimestampTzNs: FillValue<int64_t>(v, value.as_long(), n); break;
    case BT::kFloat: FillValue<float>(v, static_cast<float>(value.as_double()), n); break;
    case BT::kDouble: FillValue<double>(v, value.as_double(), n); break;
    case BT::kDecimal: FillValue<__int128>(v, value.unscaled(), n); break;
    case BT::kString:
    case BT::kBinary: {
      const std::string& s = value.as_bytes();
      v.length = n;
      v.offsets.resize(static_cast<size_t>(n) + 1);
      for (int64_t i = 0; i <= n; ++i) v.offsets[static_cast<size_t>(i)] = static_cast<int32_t>(i * static_cast<int64_t>(s.size()));
      for (int64_t i = 0; i < n; ++i) v.values.Append(s.data(), s.size());
      break;
    }
    case BT::kUuid:
    case BT::kFixed: {
      std::string s = value.as_bytes();
      s.resize(static_cast<size_t>(type.FixedWidth()), '\0');
      v.length = n;
      for (int64_t i = 0; i < n; ++i) v.values.Append(s.data(), s.size());
      break;
    }
    default: FillNulls(v, n); break;
  }
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
        FillNulls(out.children[f], out.length);
        continue;
      }
      FLOE_ASSIGN_OR_RETURN(out.children[f], ConvertVector(std::move(in.children[static_cast<size_t>(found)]), want.type));
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
    return iceberg::NanosToMicros(in);  // SQL timestamps hold microseconds.
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

}  // namespace floe::sql::iceberg_sql
