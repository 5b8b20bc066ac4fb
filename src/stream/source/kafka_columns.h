// Kafka metadata columns (`floe stream --with-kafka-columns`): each row also records where its
// record came from, as Redpanda's Iceberg topics do (they nest the same facts in a `redpanda`
// struct; floe keeps them top-level, named as the Iceberg Kafka Connect sink and Tableflow users
// expect): `_kafka_topic` string, `_partition` int, `_offset` long, `_timestamp` timestamptz (the
// record's Kafka timestamp) and `_key` binary (the key's bytes as produced: Redpanda's `key` is
// binary too, since a key need not be text; null for a null key).
//
// The decoders fill the table's other columns; these are filled from the records themselves,
// in the stream job and in fresh reads alike. Stateless functions; any thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "formats/column_batch.h"
#include "iceberg/schema.h"

namespace floe::stream {

// Where one row's record came from.
struct KafkaRecordMeta {
  int32_t partition = 0;
  int64_t offset = 0;
  int64_t timestamp_millis = 0;
  std::string_view key;
  bool key_null = true;
  std::string_view topic;  // Empty: the topic WithKafkaColumns is given.
};

// Whether `name` is one of the metadata columns.
bool IsKafkaColumn(std::string_view name);

// The metadata columns (optional) that `schema` lacks, with ids after its highest: what a table
// gets added to it.
std::vector<iceberg::NestedField> MissingKafkaColumns(const iceberg::Schema& schema);

// `table_fields` without the metadata columns: what the decoders fill.
std::vector<formats::Field> DecodedFields(const std::vector<formats::Field>& table_fields);

// The rows of `decoded` (columns of DecodedFields(table_fields), in that order) with the
// metadata columns filled from `meta` (one per row) and `topic`, in `table_fields` order.
Result<formats::ColumnBatch> WithKafkaColumns(formats::ColumnBatch decoded, const std::vector<formats::Field>& table_fields,
                                              std::string_view topic, const std::vector<KafkaRecordMeta>& meta);

}  // namespace floe::stream
