#include "sql/iceberg/scan_columns.h"

#include <cstring>

#include "iceberg/batch_conversion.h"

namespace floe::sql::iceberg_sql {

using formats::ColumnVector;
using formats::DataType;
using BT = formats::TypeId;

namespace {

template <typename T>
void FillValue(ColumnVector& v, T value, int64_t n) {
  v.length = n;
  v.values.Resize(static_cast<size_t>(n) * sizeof(T));
  T* out = v.MutableData<T>();
  for (int64_t i = 0; i < n; ++i) out[i] = value;
}

}  // namespace

ColumnVector ConstantVector(const DataType& type, const iceberg::Literal& value, int64_t n) {
  ColumnVector v(type);
  if (value.is_null() || type.IsNested()) return iceberg::NullColumn(type, n);
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
    default: return iceberg::NullColumn(type, n);
  }
  return v;
}

}  // namespace floe::sql::iceberg_sql
