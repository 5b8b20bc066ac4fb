#include "sql/iceberg/log_tail.h"

#include <fmt/format.h>
#include <librdkafka/rdkafka.h>

#include <algorithm>
#include <deque>
#include <span>
#include <thread>

#include "broker/client/kafka_client_config.h"
#include "stream/source/change_decoder.h"
#include "stream/source/kafka_columns.h"
#include "stream/source/schema_registry_client.h"

namespace floe::sql::iceberg_sql {
namespace {

constexpr auto kIdleTimeout = std::chrono::seconds(60);
constexpr size_t kFetchBatch = 4096;

// One decode of consecutive records: the rows of those that decoded, with each row's offset.
struct Segment {
  int64_t first_offset = 0;
  int64_t end_offset = 0;           // One past the last record read (dead letters included).
  std::vector<int64_t> row_offsets;  // Ascending, one per row of batch.
  std::shared_ptr<const formats::ColumnBatch> batch;
  // Keyed sources: the keys deleted (rows of the key columns) and their records' offsets.
  std::vector<int64_t> delete_offsets;
  std::shared_ptr<const formats::ColumnBatch> deleted_keys;
  int64_t bytes = 0;
};

struct PartitionTail {
  std::mutex mutex;
  bool consuming = false;         // A fetch is started at cache_end.
  std::deque<Segment> segments;   // Contiguous: they cover [cache_begin, cache_end).
  int64_t cache_begin = 0;
  int64_t cache_end = 0;
  int64_t bytes = 0;
  std::unique_ptr<stream::RecordDecoder> decoder;
  std::unique_ptr<stream::ChangeDecoder> changes;  // Keyed sources.
};

// The rows of `batch` (a segment's rows or deleted keys, at `offsets`) whose offsets lie in
// [begin, end), as a piece; with_offsets keeps each row's offset.
void AppendPiece(const std::shared_ptr<const formats::ColumnBatch>& batch, const std::vector<int64_t>& offsets,
                 int64_t begin, int64_t end, bool with_offsets, std::vector<TailPiece>* out) {
  auto from = std::lower_bound(offsets.begin(), offsets.end(), begin) - offsets.begin();
  auto to = std::lower_bound(offsets.begin(), offsets.end(), end) - offsets.begin();
  if (to <= from) return;
  TailPiece piece{batch, from, to - from, {}};
  if (with_offsets) piece.offsets.assign(offsets.begin() + from, offsets.begin() + to);
  out->push_back(std::move(piece));
}

}  // namespace

std::optional<Result<LogSource>> LogSource::FromProperties(const std::map<std::string, std::string>& properties) {
  auto get = [&](const char* key) -> std::string {
    auto it = properties.find(key);
    return it == properties.end() ? std::string() : it->second;
  };
  LogSource source;
  source.topic = get("floe.source.topic");
  if (source.topic.empty()) return std::nullopt;
  source.brokers = get("floe.source.brokers");
  if (source.brokers.empty()) return InvalidArgument("table property floe.source.brokers is missing");
  std::string format = get("floe.source.format");
  if (!format.empty()) {
    FLOE_ASSIGN_OR_RETURN_CTX(source.format, stream::ParseSourceFormat(format), "table property floe.source.format");
  }
  if (get("floe.source.mode") == "upsert") {
    std::string keys = get("floe.source.key");
    for (size_t begin = 0; begin <= keys.size();) {
      size_t comma = std::min(keys.find(',', begin), keys.size());
      if (comma > begin) source.key_columns.push_back(keys.substr(begin, comma - begin));
      begin = comma + 1;
    }
    if (source.key_columns.empty()) return InvalidArgument("table property floe.source.key is missing: an upsert source needs its key");
    FLOE_ASSIGN_OR_RETURN_CTX(source.envelope, stream::ParseEnvelope(get("floe.source.envelope")),
                              "table property floe.source.envelope");
    if (source.format != stream::SourceFormat::kJson) {
      return NotImplemented("fresh reads of a keyed table read JSON sources only, not {}",
                            stream::SourceFormatName(source.format));
    }
  }
  source.registry = get("floe.source.registry");
  source.kafka_columns = get("floe.source.kafka-columns") == "true";
  if (stream::NeedsRegistry(source.format) && source.registry.empty()) {
    return InvalidArgument("table property floe.source.registry is missing: a {} source needs its Schema Registry",
                           stream::SourceFormatName(source.format));
  }
  std::string unit = get("floe.source.timestamp-unit");
  if (!unit.empty()) {
    FLOE_ASSIGN_OR_RETURN_CTX(source.timestamp_unit, formats::ParseEpochUnit(unit), "table property floe.source.timestamp-unit");
  }
  source.transform = get("floe.source.transform");
  source.event_schema_json = get("floe.source.event-schema");
  return source;
}

struct LogTail::Impl {
  LogSource source;
  std::vector<formats::Field> fields;
  std::shared_ptr<stream::SchemaRegistryClient> registry;  // Shared by the partitions' decoders.
  rd_kafka_t* consumer = nullptr;
  rd_kafka_topic_t* topic = nullptr;

  std::mutex partitions_mutex;
  std::map<int32_t, std::unique_ptr<PartitionTail>> partitions;  // Guarded by partitions_mutex (the map only).
  std::atomic<int64_t> last_used{0};
  // Decoded bytes over all partitions, readable without their locks (eviction must not wait
  // for a partition that is fetching).
  std::atomic<int64_t> total_bytes{0};

  ~Impl() {
    for (auto& [partition, tail] : partitions) {
      if (tail->consuming) rd_kafka_consume_stop(topic, partition);
    }
    if (topic != nullptr) rd_kafka_topic_destroy(topic);
    if (consumer != nullptr) rd_kafka_destroy(consumer);
  }

  void Touch() { last_used.store(std::chrono::steady_clock::now().time_since_epoch().count()); }

  PartitionTail& Partition(int32_t partition) {
    std::lock_guard lock(partitions_mutex);
    auto& slot = partitions[partition];
    if (!slot) slot = std::make_unique<PartitionTail>();
    return *slot;
  }

  void StopConsuming(int32_t partition, PartitionTail& tail) {
    if (tail.consuming) rd_kafka_consume_stop(topic, partition);
    tail.consuming = false;
  }

  // Drops the cache and starts over at `offset`.
  void Restart(int32_t partition, PartitionTail& tail, int64_t offset) {
    StopConsuming(partition, tail);
    tail.segments.clear();
    total_bytes.fetch_sub(tail.bytes);
    tail.bytes = 0;
    tail.cache_begin = tail.cache_end = offset;
  }

  bool keyed() const { return !source.key_columns.empty(); }

  // Keyed sources: sorts `records` (at `offsets`) into rows put and keys deleted, as the job
  // does, and appends them as one segment ending at `end`. Records that are neither are dead
  // letters, as in the job.
  Status AppendChanges(int32_t partition, PartitionTail& tail, std::span<const stream::KeyedRecord> records,
                       const std::vector<int64_t>& offsets, int64_t end) {
    if (!tail.changes) {
      std::vector<formats::Field> key_fields;
      for (const std::string& name : source.key_columns) {
        auto field = std::find_if(fields.begin(), fields.end(), [&](const formats::Field& f) { return f.name == name; });
        if (field == fields.end()) return InvalidArgument("{}: the table has no key column '{}'", Where(partition), name);
        key_fields.push_back(*field);
      }
      FLOE_ASSIGN_OR_RETURN(tail.changes,
                            stream::ChangeDecoder::Make(source.envelope, std::move(key_fields), source.timestamp_unit));
    }
    stream::SortedChanges changes = tail.changes->Sort(records);
    std::vector<stream::EncodedRecord> rows_json;
    std::vector<int64_t> row_offsets;
    for (size_t i = 0; i < records.size(); ++i) {
      if (!changes.rows_json[i]) continue;
      rows_json.push_back({*changes.rows_json[i], false});
      row_offsets.push_back(offsets[i]);
    }
    stream::DecodedRecords decoded = tail.decoder->Decode(rows_json);
    if (decoded.batches.size() > 1) return Internal("{}: a keyed source decoded into several batches", Where(partition));
    // Rows the decoder rejected are dead letters: drop their offsets (failures are ascending).
    if (!decoded.failures.empty()) {
      std::vector<int64_t> kept;
      size_t next_failure = 0;
      for (size_t i = 0; i < row_offsets.size(); ++i) {
        if (next_failure < decoded.failures.size() && decoded.failures[next_failure].index == i) {
          ++next_failure;
          continue;
        }
        kept.push_back(row_offsets[i]);
      }
      row_offsets = std::move(kept);
    }
    FLOE_ASSIGN_OR_RETURN(stream::DeletedKeys deleted, tail.changes->DecodeDeletedKeys(changes));
    Segment segment;
    segment.first_offset = tail.cache_end;
    segment.end_offset = end;
    formats::ColumnBatch rows = decoded.batches.empty() ? formats::MakeEmptyBatch(fields) : std::move(decoded.batches[0]);
    if (rows.num_rows != static_cast<int64_t>(row_offsets.size())) {
      return Internal("{}: decoded {} rows for {} records", Where(partition), rows.num_rows, row_offsets.size());
    }
    segment.row_offsets = std::move(row_offsets);
    for (size_t record : deleted.record_of_key) segment.delete_offsets.push_back(offsets[record]);
    segment.bytes = formats::BatchBytes(rows) + formats::BatchBytes(deleted.keys);
    segment.batch = std::make_shared<formats::ColumnBatch>(std::move(rows));
    segment.deleted_keys = std::make_shared<formats::ColumnBatch>(std::move(deleted.keys));
    tail.bytes += segment.bytes;
    total_bytes.fetch_add(segment.bytes);
    tail.segments.push_back(std::move(segment));
    return OkStatus();
  }

  std::string Where(int32_t partition) const { return fmt::format("log tail of topic '{}' partition {}", source.topic, partition); }

  // Fetches records from tail.cache_end until `end` and appends them as one decoded segment.
  Status Fill(int32_t partition, PartitionTail& tail, int64_t end, int64_t max_bytes, std::chrono::milliseconds timeout) {
    if (!tail.consuming) {
      if (rd_kafka_consume_start(topic, partition, tail.cache_end) != 0) {
        return Unavailable("{}: cannot start reading at offset {}: {}", Where(partition), tail.cache_end,
                           rd_kafka_err2str(rd_kafka_last_error()));
      }
      tail.consuming = true;
    }
    if (!tail.decoder) {
      FLOE_ASSIGN_OR_RETURN(tail.decoder, stream::MakeRecordDecoder({.format = source.format,
                                                                      .fields = source.kafka_columns
                                                                                    ? stream::DecodedFields(fields)
                                                                                    : fields,
                                                                      .timestamp_unit = source.timestamp_unit,
                                                                      .registry = registry}));
    }
    // The records' values back to back (their messages are released as they are read).
    std::string values;
    struct ValueAt {
      size_t begin;
      size_t size;
      bool null;
      int64_t timestamp_millis;
      size_t key_begin;
      size_t key_size;
      bool key_null;
    };
    std::vector<ValueAt> value_at;
    std::vector<int64_t> line_offsets;
    int64_t first = tail.cache_end;
    int64_t next = tail.cache_end;
    auto deadline = std::chrono::steady_clock::now() + timeout;
    std::vector<rd_kafka_message_t*> messages(kFetchBatch);
    Status status = OkStatus();
    while (next < end && status.has_value()) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) {
        status = Unavailable("{}: offsets [{}, {}) were not delivered within {} ms", Where(partition), next, end,
                                  timeout.count());
        break;
      }
      ssize_t n = rd_kafka_consume_batch(topic, partition, static_cast<int>(std::min<int64_t>(left.count(), 100)),
                                         messages.data(), messages.size());
      if (n < 0) {
        status = Unavailable("{}: {}", Where(partition), rd_kafka_err2str(rd_kafka_last_error()));
        break;
      }
      for (ssize_t i = 0; i < n; ++i) {
        rd_kafka_message_t* m = messages[static_cast<size_t>(i)];
        if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
          // Nothing more now; keep waiting for the records below `end`. Markers and aborted
          // records never arrive as messages, but the end reported lies past them: without it a
          // range ending in a marker would never complete.
          if (status.has_value()) next = std::max(next, m->offset);
        } else if (m->err != RD_KAFKA_RESP_ERR_NO_ERROR) {
          if (status.has_value()) status = Unavailable("{} at offset {}: {}", Where(partition), next, rd_kafka_message_errstr(m));
        } else if (m->offset >= next && status.has_value()) {
          ValueAt at{.begin = values.size(), .size = m->len, .null = m->payload == nullptr,
                     .timestamp_millis = rd_kafka_message_timestamp(m, nullptr), .key_begin = 0, .key_size = 0,
                     .key_null = m->key == nullptr};
          if (m->payload != nullptr) values.append(static_cast<const char*>(m->payload), m->len);
          if ((source.kafka_columns || keyed()) && m->key != nullptr) {
            at.key_begin = values.size();
            at.key_size = m->key_len;
            values.append(static_cast<const char*>(m->key), m->key_len);
          }
          value_at.push_back(at);
          line_offsets.push_back(m->offset);
          next = m->offset + 1;
        }
        rd_kafka_message_destroy(m);
      }
      if (static_cast<int64_t>(values.size()) + tail.bytes > max_bytes) {
        status = ResourceExhausted("{}: more than live_tail_max_bytes ({} bytes) of records past the snapshot",
                                   Where(partition), max_bytes);
      }
    }
    if (!status.has_value()) {
      StopConsuming(partition, tail);  // The fetch position is past cache_end now.
      return status;
    }
    if (next == first) return OkStatus();  // Markers alone still make an (empty) segment.
    if (keyed()) {
      std::vector<stream::KeyedRecord> keyed_records;
      for (const ValueAt& v : value_at) {
        keyed_records.push_back({std::string_view(values).substr(v.key_begin, v.key_size), v.key_null,
                                 std::string_view(values).substr(v.begin, v.size), v.null});
      }
      if (Status appended = AppendChanges(partition, tail, keyed_records, line_offsets, next); !appended) {
        Restart(partition, tail, first);  // The fetch position is past what the cache holds.
        return appended;
      }
      tail.cache_end = next;
      return OkStatus();
    }
    std::vector<stream::EncodedRecord> records;
    records.reserve(value_at.size());
    for (const ValueAt& v : value_at) records.push_back({std::string_view(values).substr(v.begin, v.size), v.null});
    stream::DecodedRecords decoded = tail.decoder->Decode(records);
    // Records the decoder rejected are dead letters: the rows are the other records, in order.
    std::vector<bool> rejected(line_offsets.size(), false);
    for (const stream::RecordFailure& f : decoded.failures) {
      if (f.index < rejected.size()) rejected[f.index] = true;
    }
    std::vector<int64_t> row_offsets;
    std::vector<size_t> row_records;  // Each row's index among the records read.
    for (size_t i = 0; i < line_offsets.size(); ++i) {
      if (!rejected[i]) {
        row_offsets.push_back(line_offsets[i]);
        row_records.push_back(i);
      }
    }
    if (decoded.batches.empty()) {
      decoded.batches.push_back(formats::MakeEmptyBatch(source.kafka_columns ? stream::DecodedFields(fields) : fields));
    }
    int64_t decoded_rows = 0;
    for (const formats::ColumnBatch& b : decoded.batches) decoded_rows += b.num_rows;
    if (decoded_rows != static_cast<int64_t>(row_offsets.size())) {
      Restart(partition, tail, first);
      return Internal("{}: decoded {} rows from {} records with {} rejected", Where(partition), decoded_rows,
                      line_offsets.size(), line_offsets.size() - row_offsets.size());
    }
    // One segment per batch (`auto` gives one per run of one format), together covering
    // [first, next): each ends after its last row, the last one at `next`.
    size_t row = 0;
    int64_t segment_first = first;
    for (size_t k = 0; k < decoded.batches.size(); ++k) {
      Segment segment;
      const size_t n = static_cast<size_t>(decoded.batches[k].num_rows);
      segment.first_offset = segment_first;
      segment.row_offsets.assign(row_offsets.begin() + static_cast<std::ptrdiff_t>(row),
                                 row_offsets.begin() + static_cast<std::ptrdiff_t>(row + n));
      if (source.kafka_columns) {
        std::vector<stream::KafkaRecordMeta> meta;
        for (size_t r = row; r < row + n; ++r) {
          const ValueAt& v = value_at[row_records[r]];
          meta.push_back({.partition = partition, .offset = row_offsets[r], .timestamp_millis = v.timestamp_millis,
                          .key = std::string_view(values).substr(v.key_begin, v.key_size), .key_null = v.key_null});
        }
        FLOE_ASSIGN_OR_RETURN(decoded.batches[k],
                              stream::WithKafkaColumns(std::move(decoded.batches[k]), fields, source.topic, meta));
      }
      row += n;
      const bool last = k + 1 == decoded.batches.size();
      if (last) {
        segment.end_offset = next;
      } else {
        segment.end_offset = segment.row_offsets.empty() ? segment_first : segment.row_offsets.back() + 1;
      }
      segment_first = segment.end_offset;
      auto batch = std::make_shared<formats::ColumnBatch>(std::move(decoded.batches[k]));
      segment.bytes = formats::BatchBytes(*batch);
      segment.batch = std::move(batch);
      tail.bytes += segment.bytes;
      total_bytes.fetch_add(segment.bytes);
      tail.segments.push_back(std::move(segment));
    }
    tail.cache_end = next;
    return OkStatus();
  }
};

LogTail::LogTail() : impl_(std::make_unique<Impl>()) {}
LogTail::~LogTail() = default;

Result<std::shared_ptr<LogTail>> LogTail::Open(LogSource source, std::vector<formats::Field> event_fields) {
  std::shared_ptr<LogTail> tail(new LogTail());
  Impl& impl = *tail->impl_;
  impl.source = std::move(source);
  impl.fields = std::move(event_fields);
  if (!impl.source.registry.empty()) {
    impl.registry = std::make_shared<stream::SchemaRegistryClient>(
        stream::SchemaRegistryClientOptions{.url = impl.source.registry});
  }
  // Reads at explicit offsets, outside any group; short fetch waits keep the tail fresh.
  const broker::KafkaSettings defaults = {
      {"client.id", "floe-fresh-reads"},
      {"enable.auto.commit", "false"},
      {"enable.auto.offset.store", "false"},
      {"fetch.wait.max.ms", "20"},
      {"fetch.error.backoff.ms", "50"},
      {"queued.max.messages.kbytes", "16384"},
      {"socket.connection.setup.timeout.ms", "3000"},
      {"log_level", "3"},
      // Queries see what the table will: committed transactions only (KIP-98), up to the last
      // stable offset, which the watermark query answers under this isolation level.
      {"isolation.level", "read_committed"},
      // The end of a partition is reported with its offset: past a trailing transaction marker.
      {"enable.partition.eof", "true"},
  };
  FLOE_ASSIGN_OR_RETURN(rd_kafka_conf_t * conf,
                        broker::MakeKafkaConf(defaults, {{"bootstrap.servers", impl.source.brokers}},
                                              "the fresh-reads consumer"));
  char errstr[512];
  impl.consumer = rd_kafka_new(RD_KAFKA_CONSUMER, conf, errstr, sizeof(errstr));
  if (impl.consumer == nullptr) {
    rd_kafka_conf_destroy(conf);
    return Unavailable("log tail consumer for {}: {}", impl.source.brokers, errstr);
  }
  impl.topic = rd_kafka_topic_new(impl.consumer, impl.source.topic.c_str(), nullptr);
  if (impl.topic == nullptr) {
    return InvalidArgument("log tail of topic '{}': {}", impl.source.topic, rd_kafka_err2str(rd_kafka_last_error()));
  }
  impl.Touch();
  return tail;
}

const LogSource& LogTail::source() const { return impl_->source; }
const std::vector<formats::Field>& LogTail::event_fields() const { return impl_->fields; }

Result<std::map<int32_t, PartitionWatermarks>> LogTail::Watermarks(std::chrono::milliseconds timeout) {
  impl_->Touch();
  const rd_kafka_metadata_t* metadata = nullptr;
  rd_kafka_resp_err_t err = rd_kafka_metadata(impl_->consumer, 0, impl_->topic, &metadata, static_cast<int>(timeout.count()));
  if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return Unavailable("topic '{}' at {}: metadata: {}", impl_->source.topic, impl_->source.brokers, rd_kafka_err2str(err));
  }
  std::vector<int32_t> partitions;
  rd_kafka_resp_err_t topic_error = RD_KAFKA_RESP_ERR_NO_ERROR;
  for (int t = 0; t < metadata->topic_cnt; ++t) {
    const rd_kafka_metadata_topic_t& topic = metadata->topics[t];
    if (impl_->source.topic != topic.topic) continue;
    topic_error = topic.err;
    for (int p = 0; p < topic.partition_cnt; ++p) partitions.push_back(topic.partitions[p].id);
  }
  rd_kafka_metadata_destroy(metadata);
  if (topic_error != RD_KAFKA_RESP_ERR_NO_ERROR) {
    return Unavailable("topic '{}' at {}: {}", impl_->source.topic, impl_->source.brokers, rd_kafka_err2str(topic_error));
  }
  std::map<int32_t, PartitionWatermarks> out;
  for (int32_t partition : partitions) {
    PartitionWatermarks w;
    err = rd_kafka_query_watermark_offsets(impl_->consumer, impl_->source.topic.c_str(), partition, &w.low, &w.high,
                                           static_cast<int>(timeout.count()));
    if (err != RD_KAFKA_RESP_ERR_NO_ERROR) {
      return Unavailable("{}: watermarks: {}", impl_->Where(partition), rd_kafka_err2str(err));
    }
    out[partition] = w;
  }
  return out;
}

Result<TailRead> LogTail::Read(const TailRange& range, int64_t max_bytes, std::chrono::milliseconds timeout) {
  impl_->Touch();
  TailRead read;
  if (range.begin >= range.end) return read;
  PartitionTail& tail = impl_->Partition(range.partition);
  std::lock_guard lock(tail.mutex);
  // Segments wholly below the range are committed to the table now: no query needs them again.
  while (!tail.segments.empty() && tail.segments.front().end_offset <= range.begin) {
    tail.bytes -= tail.segments.front().bytes;
    impl_->total_bytes.fetch_sub(tail.segments.front().bytes);
    tail.segments.pop_front();
  }
  if (!tail.segments.empty()) tail.cache_begin = tail.segments.front().first_offset;
  if (tail.segments.empty() && tail.cache_end <= range.begin) tail.cache_begin = tail.cache_end;
  if (range.begin < tail.cache_begin || range.begin > tail.cache_end) {
    impl_->Restart(range.partition, tail, range.begin);
  }
  if (tail.cache_end < range.end) FLOE_RETURN_IF_ERROR(impl_->Fill(range.partition, tail, range.end, max_bytes, timeout));
  const bool keyed = impl_->keyed();
  for (const Segment& s : tail.segments) {
    if (s.end_offset <= range.begin || s.first_offset >= range.end) continue;
    const size_t rows_before = read.pieces.size();
    const size_t keys_before = read.deleted_keys.size();
    AppendPiece(s.batch, s.row_offsets, range.begin, range.end, keyed, &read.pieces);
    if (s.deleted_keys) AppendPiece(s.deleted_keys, s.delete_offsets, range.begin, range.end, true, &read.deleted_keys);
    if (read.pieces.size() > rows_before) read.rows += read.pieces.back().rows;
    if (read.pieces.size() > rows_before || read.deleted_keys.size() > keys_before) read.bytes += s.bytes;
  }
  if (read.bytes > max_bytes) {
    return ResourceExhausted("{}: more than live_tail_max_bytes ({} bytes) of decoded records past the snapshot",
                             impl_->Where(range.partition), max_bytes);
  }
  return read;
}

int64_t LogTail::cached_bytes() const { return impl_->total_bytes.load(); }

std::chrono::steady_clock::time_point LogTail::last_used() const {
  return std::chrono::steady_clock::time_point(std::chrono::steady_clock::duration(impl_->last_used.load()));
}

void LogTailCache::Forget(const std::string& key) {
  std::lock_guard lock(mutex_);
  tails_.erase(key);
}

Result<std::shared_ptr<LogTail>> LogTailCache::Get(const std::string& key, const LogSource& source,
                                                   const std::vector<formats::Field>& event_fields) {
  std::lock_guard lock(mutex_);
  Evict();
  auto it = tails_.find(key);
  if (it != tails_.end()) return it->second;
  FLOE_ASSIGN_OR_RETURN(auto tail, LogTail::Open(source, event_fields));
  tails_[key] = tail;
  return tail;
}

void LogTailCache::Evict() {
  auto now = std::chrono::steady_clock::now();
  int64_t total = 0;
  for (auto it = tails_.begin(); it != tails_.end();) {
    // A tail a running query holds stays alive through its shared_ptr; it is only forgotten here.
    if (now - it->second->last_used() > kIdleTimeout) {
      it = tails_.erase(it);
    } else {
      total += it->second->cached_bytes();
      ++it;
    }
  }
  while (total > max_bytes_ && !tails_.empty()) {
    auto oldest = std::min_element(tails_.begin(), tails_.end(), [](const auto& a, const auto& b) {
      return a.second->last_used() < b.second->last_used();
    });
    // Its memory goes when the last query reading it lets go.
    total -= oldest->second->cached_bytes();
    tails_.erase(oldest);
  }
}

}  // namespace floe::sql::iceberg_sql
