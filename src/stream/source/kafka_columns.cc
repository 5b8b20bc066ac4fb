#include "stream/source/kafka_columns.h"

#include <array>

namespace floe::stream {
namespace {

struct KafkaColumn {
  std::string_view name;
  iceberg::TypeId type;
};

constexpr std::array<KafkaColumn, 5> kKafkaColumns = {{
    {"_kafka_topic", iceberg::TypeId::kString},
    {"_partition", iceberg::TypeId::kInt},
    {"_offset", iceberg::TypeId::kLong},
    {"_timestamp", iceberg::TypeId::kTimestampTz},
    {"_key", iceberg::TypeId::kBinary},
}};

}  // namespace

bool IsKafkaColumn(std::string_view name) {
  for (const KafkaColumn& c : kKafkaColumns) {
    if (c.name == name) return true;
  }
  return false;
}

std::vector<iceberg::NestedField> MissingKafkaColumns(const iceberg::Schema& schema) {
  std::vector<iceberg::NestedField> missing;
  int32_t next_id = schema.HighestFieldId() + 1;
  for (const KafkaColumn& c : kKafkaColumns) {
    if (schema.FindFieldByName(c.name) != nullptr) continue;
    missing.push_back({.id = next_id++, .name = std::string(c.name), .required = false,
                       .type = iceberg::Type::Primitive(c.type), .doc = "Kafka record metadata (--with-kafka-columns)"});
  }
  return missing;
}

std::vector<formats::Field> DecodedFields(const std::vector<formats::Field>& table_fields) {
  std::vector<formats::Field> out;
  for (const formats::Field& f : table_fields) {
    if (!IsKafkaColumn(f.name)) out.push_back(f);
  }
  return out;
}

Result<formats::ColumnBatch> WithKafkaColumns(formats::ColumnBatch decoded, const std::vector<formats::Field>& table_fields,
                                              std::string_view topic, const std::vector<KafkaRecordMeta>& meta) {
  if (static_cast<int64_t>(meta.size()) != decoded.num_rows) {
    return Internal("{} rows but {} records' metadata", decoded.num_rows, meta.size());
  }
  formats::ColumnBatch out;
  out.fields = table_fields;
  out.num_rows = decoded.num_rows;
  size_t next_decoded = 0;
  for (const formats::Field& field : table_fields) {
    if (!IsKafkaColumn(field.name)) {
      if (next_decoded >= decoded.columns.size()) return Internal("the decoded rows lack column {}", field.name);
      out.columns.push_back(std::move(decoded.columns[next_decoded++]));
      continue;
    }
    formats::ColumnVector column(field.type);
    const formats::TypeId id = field.type.id;
    for (const KafkaRecordMeta& m : meta) {
      if (field.name == "_kafka_topic") {
        column.AppendString(m.topic.empty() ? topic : m.topic);
      } else if (field.name == "_partition") {
        if (id != formats::TypeId::kInt32) return InvalidArgument("column _partition must be int");
        column.Append<int32_t>(m.partition);
      } else if (field.name == "_offset") {
        if (id != formats::TypeId::kInt64) return InvalidArgument("column _offset must be long");
        column.Append<int64_t>(m.offset);
      } else if (field.name == "_timestamp") {
        if (id != formats::TypeId::kTimestampTz && id != formats::TypeId::kTimestamp) {
          return InvalidArgument("column _timestamp must be timestamptz");
        }
        if (m.timestamp_millis < 0) {
          column.AppendNull();  // Kafka's -1: the record has no timestamp.
        } else {
          column.Append<int64_t>(m.timestamp_millis * 1000);
        }
      } else if (m.key_null) {
        column.AppendNull();
      } else {
        column.AppendString(m.key);  // _key: binary or string, bytes alike.
      }
    }
    out.columns.push_back(std::move(column));
  }
  return out;
}

}  // namespace floe::stream
