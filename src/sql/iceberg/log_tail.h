// Fresh reads: the records of a stream-fed table's source topic past the offsets its snapshot
// recorded, read through the Kafka protocol (librdkafka, so any Kafka serves) and decoded by the
// stream job's record decoder for the source's format (JSON, or Confluent-framed Avro with the
// job's Schema Registry) into the same rows the job would commit. A keyed source's records
// (`floe.source.mode = upsert`) are sorted as the job sorts them
// (stream/source/change_decoder.h) into rows put and keys deleted, each with its offset, for the
// scan to apply by key.
//
// A LogTail is shared by every query of one source: per partition it keeps the decoded records
// from the oldest offset a query still needs to the newest it read, so a query decodes only
// what arrived since the last one; segments below a snapshot's offsets are dropped when a query
// shows they are committed. Records the decoder rejects are dead letters: they have offsets but
// no rows. Thread-safe: partitions are read in parallel, each under its own lock.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "formats/column_batch.h"
#include "formats/json/event_decoder.h"
#include "stream/source/change_event.h"
#include "stream/source/record_decoder.h"

namespace floe::sql::iceberg_sql {

// The source a stream job records in its table's properties (`floe.source.*`).
struct LogSource {
  std::string brokers;
  std::string topic;
  formats::EpochUnit timestamp_unit = formats::EpochUnit::kMillis;
  stream::SourceFormat format = stream::SourceFormat::kJson;  // floe.source.format
  std::string registry;  // floe.source.registry: the Schema Registry of avro and auto sources.
  bool kafka_columns = false;  // floe.source.kafka-columns: rows carry their record's metadata.
  std::string transform;          // floe.source.transform: the job's SQL; empty when none.
  std::string event_schema_json;  // floe.source.event-schema: what events decode into; empty: the table's schema.
  // floe.source.mode = upsert: the records are changes to the rows of these key columns
  // (floe.source.key), in this envelope (floe.source.envelope). Empty for an append source.
  std::vector<std::string> key_columns;
  stream::Envelope envelope = stream::Envelope::kNone;

  // nullopt when the properties name no source topic (the table is not fed by a stream job).
  static std::optional<Result<LogSource>> FromProperties(const std::map<std::string, std::string>& properties);
};

// Records [begin, end) of one partition.
struct TailRange {
  int32_t partition = 0;
  int64_t begin = 0;
  int64_t end = 0;
};

// Rows [first_row, first_row + rows) of a decoded batch, immutable once made.
struct TailPiece {
  std::shared_ptr<const formats::ColumnBatch> batch;
  int64_t first_row = 0;
  int64_t rows = 0;
  std::vector<int64_t> offsets;  // Keyed sources only: each row's record offset.
};

// What one range holds: its rows in offset order, and the decoded bytes they keep alive. For a
// keyed source, `pieces` are the rows put and `deleted_keys` the keys deleted (rows of the key
// columns), each piece with its records' offsets, so the two can be ordered by offset.
struct TailRead {
  std::vector<TailPiece> pieces;
  std::vector<TailPiece> deleted_keys;
  int64_t rows = 0;
  int64_t bytes = 0;
};

struct PartitionWatermarks {
  int64_t low = 0;   // The oldest offset the broker still holds.
  int64_t high = 0;  // The high watermark: every record below it is acknowledged.
};

class LogTail {
 public:
  // `event_fields`: the rows events decode into (the table's schema, or the job's event schema).
  static Result<std::shared_ptr<LogTail>> Open(LogSource source, std::vector<formats::Field> event_fields);
  ~LogTail();
  LogTail(const LogTail&) = delete;
  LogTail& operator=(const LogTail&) = delete;

  const LogSource& source() const;
  const std::vector<formats::Field>& event_fields() const;

  // Every partition of the topic with its watermarks, asked of the broker now.
  Result<std::map<int32_t, PartitionWatermarks>> Watermarks(std::chrono::milliseconds timeout);

  // The rows of `range`, fetching and decoding what is not cached yet. kResourceExhausted when
  // the range's decoded rows pass `max_bytes`; kUnavailable when the broker cannot be read or
  // has not delivered the records within `timeout`.
  Result<TailRead> Read(const TailRange& range, int64_t max_bytes, std::chrono::milliseconds timeout);

  // Decoded bytes held by the cache (no locks: eviction never waits for a fetching partition).
  int64_t cached_bytes() const;
  std::chrono::steady_clock::time_point last_used() const;

 private:
  LogTail();
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The LogTails of one catalog, by source and event schema. Tails idle for a minute are closed;
// past `max_bytes` in all, the least recently used tails are dropped. Thread-safe.
class LogTailCache {
 public:
  explicit LogTailCache(int64_t max_bytes = int64_t{1} << 30) : max_bytes_(max_bytes) {}

  // The tail for `source` decoding into `event_fields`; `key` names both uniquely.
  Result<std::shared_ptr<LogTail>> Get(const std::string& key, const LogSource& source,
                                       const std::vector<formats::Field>& event_fields);
  // Closes the tail of `key` (after it failed: the next query connects afresh).
  void Forget(const std::string& key);

 private:
  void Evict();  // Holds mutex_.

  int64_t max_bytes_;
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<LogTail>> tails_;  // Guarded by mutex_.
};

}  // namespace floe::sql::iceberg_sql
